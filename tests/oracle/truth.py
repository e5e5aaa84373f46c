"""The ground truth ``harness/record.py`` writes (what pypto's real pass did), read as the
outcomes the differential tests compare passlint with.

Per file: kernels the pass gives leading parameters (in order, by their ``pl.dynamic``
names, and those it still adds after ``pl.compile``'s pipeline), call/submit sites with the extents they get, rejections with the VS code passlint
reports for each kind, and every kernel and program that was built and left unchanged
(where passlint must say nothing). Places are 1-based lines, relative paths.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

# The VS code passlint reports for each kind of rejection (harness/record.py: KINDS).
CODE_OF_KIND = {
    "compound-only": "VS002",
    "conflicting-extents": "VS003",
    "omitted-argument": "VS004",
    "late-scalar": "VS005",
    "unknown-shape-variable": "VS008",
    "missing-layout": "VS009",
    "positional-view": "VS010",
}
# Those Python raises itself while it defines the program (harness/record.py: RAISED_BY_PYTHON).
RAISED_BY_PYTHON = frozenset({"missing-layout"})


@dataclass(frozen=True)
class KernelChange:
    file: str
    line: int  # the ``def`` line
    name: str
    added: tuple[str, ...]  # the leading parameters, by their pl.dynamic names, in order
    # what the pass adds to it after pl.compile's pipeline (None: not recorded, or the
    # pipeline failed or the pass rejected the program there)
    compiled: tuple[str, ...] | None = None


@dataclass(frozen=True)
class OutlinedChange:
    """A kernel the default pipeline outlines from a ``with pl.at(...)`` scope."""

    file: str
    line: int  # the ``with`` line, where pypto places the outlined function
    name: str
    added: tuple[str, ...]
    program: str
    extents: tuple[str, ...]  # what the orchestration's call feeds it (pypto's printer)


@dataclass(frozen=True)
class SiteChange:
    file: str
    line: int
    column: int  # 1-based, as pypto's spans count
    callee: str
    form: str  # call | submit
    extents: tuple[str, ...]  # printed by pypto's printer


@dataclass(frozen=True)
class Rejection:
    file: str
    line: int  # where pypto's message points
    kind: str
    stage: str  # pass | parser | pass after outlining | python
    message: str
    program: str | None
    program_line: int | None

    @property
    def code(self) -> str | None:
        return CODE_OF_KIND.get(self.kind)


@dataclass
class FileTruth:
    changes: dict[tuple[int, str], KernelChange] = field(default_factory=dict)
    outlined: list[OutlinedChange] = field(default_factory=list)
    sites: list[SiteChange] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    built_kernels: dict[int, str] = field(default_factory=dict)  # def line -> name
    programs: dict[int, str] = field(default_factory=dict)  # class line -> outcome(s)
    other_parser_errors: list[tuple[int, str]] = field(default_factory=list)  # (def line, name)
    python_errors: list[tuple[int | None, str]] = field(default_factory=list)  # Python raised

    @property
    def quiet_kernels(self) -> dict[int, str]:
        """Kernels built and neither changed nor rejected by the pass."""
        changed = {line for line, _ in self.changes}
        return {line: name for line, name in self.built_kernels.items() if line not in changed}


@dataclass
class Truth:
    root: str
    files: dict[str, FileTruth]
    summary: dict[str, Any]
    document: dict[str, Any]

    def file(self, rel: str) -> FileTruth:
        return self.files.get(rel) or FileTruth()

    def affected(self, files: list[str]) -> list[str]:
        """``files`` and the files holding a program that calls a kernel of theirs."""
        found = set(files)
        for rel, section in self.document["files"].items():
            for program in section["programs"]:
                if {k["file"] for k in program["kernels"]} & set(files):
                    found.add(rel)
        return sorted(found)

    def builders(self, files: list[str]) -> list[str]:
        """``files`` and the files whose running built their programs: what to run again
        to see those programs built."""
        found = set(files)
        for rel in files:
            for program in self.document["files"].get(rel, {}).get("programs", []):
                found.update(program.get("built_by", []))
        return sorted(found)


def load(path: str | Path) -> Truth:
    with open(path, encoding="utf-8") as source:
        return from_document(json.load(source))


def from_document(document: dict[str, Any]) -> Truth:
    files: dict[str, FileTruth] = {}

    def of(rel: str) -> FileTruth:
        return files.setdefault(rel, FileTruth())

    for rel, section in document["files"].items():
        for program in section["programs"]:
            outcomes = sorted({v["outcome"] for v in program["variants"]})
            if program["line"] is not None:
                of(rel).programs[program["line"]] = "/".join(outcomes)
            for kernel in program["kernels"]:
                if kernel["type"] in ("InCore", "AIC", "AIV", "Spmd"):
                    of(kernel["file"]).built_kernels[kernel["line"]] = kernel["name"]
            for variant in program["variants"]:
                _variant(variant, of, rel, program["name"], program["line"])
        for function in section["functions"]:
            of(rel).built_kernels[function["line"]] = function["name"]
            for variant in function["variants"]:
                _variant(variant, of, rel, None, None)
        for error in section.get("python_errors", []):
            of(rel).python_errors.append((error["line"], error["message"]))
            if error.get("kind") in RAISED_BY_PYTHON and error["line"] is not None:
                rejection = Rejection(
                    rel, error["line"], error["kind"], "python", error["message"], None, None
                )
                if rejection not in of(rel).rejections:
                    of(rel).rejections.append(rejection)
        for error in section["parser_errors"]:
            if error["kind"] not in CODE_OF_KIND:
                of(rel).other_parser_errors.append((error["function_line"], error["function"]))
                continue
            rejection = Rejection(
                rel,
                error["line"] or error["function_line"],
                error["kind"],
                "parser",
                error["message"],
                None,
                None,
            )
            if rejection not in of(rel).rejections:
                of(rel).rejections.append(rejection)
    return Truth(document["root"], files, document["summary"], document)


def _variant(
    variant: dict[str, Any], of: Any, rel: str, program: str | None, program_line: int | None
) -> None:
    pipeline = variant.get("pipeline")
    if variant["outcome"] == "changed":
        compiled = _compiled(pipeline)
        for kernel in variant["kernels"]:
            change = KernelChange(
                kernel["file"],
                kernel["line"],
                kernel["name"],
                tuple(kernel["added"]),
                None if compiled is None else compiled.get(kernel["name"], ()),
            )
            known = of(kernel["file"]).changes.setdefault((change.line, change.name), change)
            if known.compiled != change.compiled:
                # a build whose pipeline was not recorded says nothing; two that differ
                # under pl.compile leave it unknown
                compiled = None
                if known.compiled is None or change.compiled is None:
                    compiled = known.compiled if change.compiled is None else change.compiled
                of(kernel["file"]).changes[(change.line, change.name)] = replace(
                    known, compiled=compiled
                )
        for call in variant["calls"]:
            site = SiteChange(
                call["file"],
                call["line"],
                call["column"],
                call["callee"],
                call["form"],
                tuple(call["extents"]),
            )
            if site not in of(call["file"]).sites:
                of(call["file"]).sites.append(site)
    elif variant["outcome"] == "rejected":
        _reject(of, rel, variant["error"], "pass", program, program_line)
    if not pipeline or pipeline["outcome"] == "pipeline-failed":
        return
    outlined = {f["name"]: f for f in pipeline["outlined"]}
    if pipeline["outcome"] == "changed":
        for kernel in pipeline["kernels"]:
            if kernel["name"] in outlined:
                place = outlined[kernel["name"]]
                calls = [c for c in pipeline["calls"] if c["callee"] == kernel["name"]]
                outlined_change = OutlinedChange(
                    place["file"],
                    place["line"],
                    kernel["name"],
                    tuple(kernel["added"]),
                    program or "",
                    tuple(calls[0]["extents"]) if calls else (),
                )
                if outlined_change not in of(place["file"]).outlined:
                    of(place["file"]).outlined.append(outlined_change)
    elif pipeline["outcome"] == "rejected" and variant["outcome"] != "rejected":
        _reject(of, rel, pipeline["error"], "pass after outlining", program, program_line)


def _compiled(pipeline: dict[str, Any] | None) -> dict[str, tuple[str, ...]] | None:
    """The leading parameters the pass adds to each kernel after the pipeline (kernels not
    named gain none); None when that is not known."""
    if not pipeline or pipeline["outcome"] not in ("changed", "unchanged"):
        return None
    return {k["name"]: tuple(k["added"]) for k in pipeline.get("kernels", [])}


def _reject(
    of: Any,
    rel: str,
    error: dict[str, Any],
    stage: str,
    program: str | None,
    program_line: int | None,
) -> None:
    file = error.get("file") or rel
    rejection = Rejection(
        file if not file.startswith("/") else rel,
        error.get("line") or program_line or 0,
        error.get("kind", "other"),
        stage,
        error["message"],
        program,
        program_line,
    )
    if rejection not in of(rel).rejections:
        of(rel).rejections.append(rejection)

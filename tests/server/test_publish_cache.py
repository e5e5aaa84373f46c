"""Diagnostics reuse the converted parts of the findings of a document's last run
(``jobs.ConvertedFindings``): whatever the edits, what a run publishes (or a pull returns)
is what a from-scratch conversion through lsprotocol's types gives for the same findings.

The reference below builds ``types.Diagnostic`` objects the straightforward way and lets
pygls' converter write them; the server writes JSON data (pulled) and JSON text (published)
directly, so equality here also says they are the JSON lsprotocol's types would give.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter

from passlint import pipeline
from passlint.analysis.findings import Finding, Fix, Location, Position, Range, Severity, TextEdit
from passlint.analysis.source import SourceText
from passlint.catalog import RULES
from passlint.config import Settings
from passlint.memo import Memo
from passlint.server.convert import ClientFeatures, SnapshotFiles
from passlint.server.jobs import ConvertedFindings, Job, run_job, snapshot_workspace

from .conftest import Session

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from generate import PL_KERNEL

SETTINGS = Settings(extend_select=("PL100",))
CONVERTER = default_converter()  # type: ignore[no-untyped-call]
FEATURES = [
    ClientFeatures(),
    ClientFeatures(tags=frozenset()),
    ClientFeatures(related_information=False, code_description=False, data=False),
]
TAGS = {
    "unnecessary": types.DiagnosticTag.Unnecessary,
    "deprecated": types.DiagnosticTag.Deprecated,
}


# -- the reference conversion ------------------------------------------------------------------


def ref_range(source: SourceText | None, rng: Range) -> types.Range:
    def position(p: Position) -> types.Position:
        p = source.to_utf16(p) if source is not None else p
        return types.Position(line=p.line, character=p.column)

    return types.Range(start=position(rng.start), end=position(rng.end))


def reference(
    finding: Finding, files: SnapshotFiles, features: ClientFeatures, version: int
) -> types.Diagnostic:
    related = None
    if features.related_information and finding.related:
        related = [
            types.DiagnosticRelatedInformation(
                location=types.Location(
                    uri=files.uri(r.path), range=ref_range(files.source(r.path), r.range)
                ),
                message=r.message,
            )
            for r in finding.related
        ]
    data = None
    if finding.fix is not None and features.data:
        paths = list(dict.fromkeys(edit.path for edit in finding.fix.edits))
        data = {
            "version": version,
            "fix": {
                "title": finding.fix.title,
                "files": [
                    {
                        "uri": files.uri(path),
                        "version": files.version(path),
                        "edits": [
                            {
                                "range": CONVERTER.unstructure(
                                    ref_range(files.source(path), edit.range)
                                ),
                                "newText": edit.new_text,
                            }
                            for edit in finding.fix.edits
                            if edit.path == path
                        ],
                    }
                    for path in paths
                ],
            },
        }
    tags = [TAGS[t] for t in finding.tags if t in TAGS and TAGS[t].value in features.tags]
    rule = RULES.get(finding.code)
    return types.Diagnostic(
        range=ref_range(files.source(finding.path), finding.range),
        severity=types.DiagnosticSeverity(int(finding.severity)),
        code=finding.code,
        code_description=(
            types.CodeDescription(href=rule.url)
            if rule is not None and rule.url is not None and features.code_description
            else None
        ),
        source="passlint",
        message=finding.message,
        related_information=related,
        tags=tags or None,
        data=data,
    )


def reference_json(
    findings: Sequence[Finding], files: SnapshotFiles, features: ClientFeatures, version: int
) -> list[Any]:
    return [CONVERTER.unstructure(reference(f, files, features, version)) for f in findings]


# -- documents and edits -----------------------------------------------------------------------


def kernels_module(count: int) -> str:
    """Standalone kernels, called from ``program.py``: their fixes edit that file too."""
    lines = ["import pypto.language as pl", "", 'R = pl.dynamic("R")', 'V = pl.dynamic("V")', ""]
    for i in range(count):
        lines += [
            "",
            "@pl.function(type=pl.FunctionType.InCore)",
            f"def s{i}(",
            "    x: pl.Tensor[[R, 64], pl.FP16,",
            "                 pl.TensorView(valid_shape=[R, V], layout=pl.TensorLayout.ND)],",
            "    out: pl.Out[pl.Tensor[[R, 64], pl.FP16]],",
            ") -> pl.Tensor[[R, 64], pl.FP16]:",
            "    t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)",
            "    return pl.store(t, [0, 0], out)",
        ]
    return "\n".join(lines) + "\n"


def program_module(kernels: int, standalone: int) -> str:
    """A program with kernels (a VS001 each, fixed at the call sites in ``main``) that also
    calls the standalone kernels of ``kernels.py``."""
    names = ", ".join(f"s{i}" for i in range(standalone))
    lines = [
        "import pypto.language as pl",
        "",
        f"from kernels import R, {names}" if standalone else "",
        'Q = pl.dynamic("Q")',
        'VALID = pl.dynamic("VALID")',
        "# passlint: ignore[TL001]",
        "",
        "",
        "@pl.program",
        "class Big:",
    ]
    lines += [line.format(i=i) for i in range(kernels) for line in PL_KERNEL]
    lines += [
        "    @pl.function(type=pl.FunctionType.Orchestration)",
        "    def main(self, src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX],",
        "             h: pl.Tensor[[16, 64], pl.FP16], m: pl.Scalar[pl.INDEX],",
        "             out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],",
        "             o2: pl.Out[pl.Tensor[[16, 64], pl.FP16]]):",
        "        a = pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])",
        "        b = pl.slice(h, [16, 64], [0, 0], valid_shape=[16, m])",
    ]
    lines += [f"        out = self.k{i}(a, out)" for i in range(kernels)]
    lines += [f"        o2 = s{i}(b, o2)" for i in range(standalone)]
    lines += ["        return out", ""]
    return "\n".join(lines)


ASTRAL = "\U0001f642"  # two UTF-16 code units
COMMENTS = [
    "# note",
    f"    # {ASTRAL} x",
    "",
    "# passlint: ignore[VS001]",
    "# passlint: ignore[E9]",
]


def random_edit(rng: random.Random, lines: list[str]) -> tuple[int, int, int, int, str]:
    """Edit ``lines`` in place, keeping it valid Python; returns the change as a range of
    the old text (line, column, line, column in characters) and its new text."""
    kind = rng.choice(["insert", "insert", "delete", "space", "astral", "toggle"])
    index = rng.randrange(3, len(lines))
    if kind == "delete":
        removable = [
            i
            for i, line in enumerate(lines[:-1])
            if i > 2 and (not line.strip() or line.lstrip().startswith("#"))
        ]
        if removable:
            index = rng.choice(removable)
            del lines[index]
            return index, 0, index + 1, 0, ""
        kind = "insert"
    if kind == "insert":
        new = rng.choice(COMMENTS)
        lines.insert(index, new)
        return index, 0, index, 0, new + "\n"
    if kind == "toggle":
        hits = [
            i for i, line in enumerate(lines) if "valid_shape=[" in line and "TensorView" in line
        ]
        index = rng.choice(hits)
        old = lines[index]
        swap = {", VALID]": ", 16]", ", 16]": ", VALID]", ", V]": ", 15]", ", 15]": ", V]"}
        new = next(old.replace(k, v) for k, v in swap.items() if k in old)
        lines[index] = new
        return index, 0, index, len(old), new
    old = lines[index]
    tail = f"  # {ASTRAL}" if kind == "astral" and "#" not in old and old.strip() else " "
    lines[index] = old + tail
    return index, len(old), index, len(old), tail


# -- in process: run_job and its cache ---------------------------------------------------------


@pytest.mark.parametrize("seed", range(4))
def test_random_edits_convert_as_from_scratch(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    program, kernels = tmp_path / "program.py", tmp_path / "kernels.py"
    program_lines = program_module(12, 3).split("\n")
    kernel_lines = kernels_module(3).split("\n")
    program.write_text("\n".join(program_lines))
    kernels.write_text("\n".join(kernel_lines))
    paths = {str(program): program_lines, str(kernels): kernel_lines}
    uris = {path: Path(path).as_uri() for path in paths}
    versions = dict.fromkeys(paths, 1)
    shared = 0
    last: dict[str, tuple[Any, ...]] = {}
    memo = Memo()  # the session's: the pass hands back the same Finding objects from it
    converted = ConvertedFindings()  # the session's diagnostics of the last runs
    for step in range(40):
        path = rng.choice(list(paths))
        if step:
            random_edit(rng, paths[path])
            versions[path] += 1
        texts = {p: "\n".join(lines) for p, lines in paths.items()}
        features = FEATURES[0] if rng.random() < 0.7 else rng.choice(FEATURES)
        job = Job(
            uris[path],
            path,
            versions[path],
            texts[path],
            SETTINGS,
            (str(tmp_path),),
            texts,
            uris,
            versions,
            features,
        )
        result = run_job(job, memo, converted)
        assert not result.failed
        files = SnapshotFiles(texts, uris, versions)
        got = json.loads(result.diagnostics_text)
        assert got == json.loads(json.dumps(result.diagnostics))
        assert got == reference_json(result.findings, files, features, versions[path])
        before = last.get(path, ())
        shared += sum(
            1 for a, b in zip(before, result.diagnostics, strict=False) if a["range"] is b["range"]
        )
        last[path] = result.diagnostics
    assert {f.code for f in result.findings} >= {"VS001"}
    assert shared > 0  # the cache was used


def test_a_trailing_space_reuses_the_untouched_diagnostics(tmp_path: Path) -> None:
    memo = Memo()  # the session's: the pass hands back the same Finding objects from it
    converted = ConvertedFindings()  # the session's diagnostics of the last runs
    text = program_module(20, 0)
    path = str(tmp_path / "program.py")
    uri = Path(path).as_uri()

    def run(version: int, text: str) -> Any:
        texts = {path: text}
        job = Job(
            uri,
            path,
            version,
            text,
            SETTINGS,
            (str(tmp_path),),
            texts,
            {path: uri},
            {path: version},
            ClientFeatures(),
        )
        return run_job(job, memo, converted)

    first = run(1, text)
    lines = text.split("\n")
    lines[20] += " "
    second = run(2, "\n".join(lines))
    assert len(first.diagnostics) == len(second.diagnostics) == 21  # 20 VS001, 1 PL100
    reused = [
        a["range"] is b["range"] for a, b in zip(first.diagnostics, second.diagnostics, strict=True)
    ]
    assert sum(reused) == 19  # not the edited kernel's, nor PL100 (made anew by each run)
    for diagnostic in second.diagnostics:
        assert diagnostic["data"]["version"] == 2
        assert [f["version"] for f in diagnostic["data"]["fix"]["files"]] == [2]


def test_same_findings_in_changed_texts() -> None:
    """The very same Finding objects, while the texts they point into gain or lose
    characters outside the BMP (UTF-16 columns move), URIs and versions change."""
    a, b = "/w/a.py", "/w/b.py"
    edits = (
        TextEdit(a, Range(Position(1, 6), Position(1, 8)), "x"),
        TextEdit(b, Range(Position(2, 4), Position(2, 4)), "y, "),
        TextEdit(a, Range(Position(0, 0), Position(0, 0)), "# z\n"),
    )
    findings = [
        Finding(
            "VS001",
            Severity.WARNING,
            a,
            Range(Position(1, 4), Position(1, 9)),
            "m",
            related=(Location(b, Range(Position(2, 1), Position(2, 6)), "there"),),
            fix=Fix("fix it", edits),
        ),
        Finding(
            "PL100",
            Severity.HINT,
            a,
            Range(Position(0, 2), Position(0, 7)),
            "n",
            tags=("unnecessary",),
        ),
        Finding("E002", Severity.ERROR, b, Range(Position(0, 0), Position(2, 3)), "o"),
    ]
    plain = {a: "0123456789\n0123456789\nabc\n", b: "abcdefgh\nabcdefgh\nabcdefgh\n"}
    astral_a = {a: f"0123456789\n01{ASTRAL}3456789\nabc\n", b: plain[b]}
    astral_b = {a: plain[a], b: f"abcdefgh\nabcdefgh\na{ASTRAL}cdefgh\n"}
    astral_elsewhere = {a: f"0123456789\n0123456789\na{ASTRAL}c\n", b: plain[b]}
    uris = {a: "file:///w/a.py", b: "file:///w/b.py"}
    moved = {a: uris[a], b: "file:///elsewhere/b.py"}
    cache = ConvertedFindings(documents=1)
    steps = [
        (plain, uris, {a: 1}, FEATURES[0]),
        (plain, moved, {a: 2, b: 5}, FEATURES[0]),
        (astral_elsewhere, moved, {a: 3, b: 6}, FEATURES[0]),
        (astral_a, moved, {a: 4}, FEATURES[0]),
        (astral_b, uris, {a: 5, b: 7}, FEATURES[0]),
        (plain, uris, {a: 6, b: 8}, FEATURES[1]),
        (plain, uris, {a: 7}, FEATURES[2]),
        (plain, uris, {a: 8}, FEATURES[0]),
    ]
    for texts, uri_map, versions, features in steps:
        files = SnapshotFiles(texts, uri_map, versions)
        got, text = cache.diagnostics(uris[a], findings, files, features, versions[a])
        expected = reference_json(
            findings, SnapshotFiles(texts, uri_map, versions), features, versions[a]
        )
        assert json.loads(json.dumps(got)) == json.loads(text) == expected
    assert cache.diagnostics(uris[a], findings, files, features, 8)[0][1] is got[1]  # reused
    cache.diagnostics("file:///other.py", [], files, features, 1)  # evicts a.py (LRU)
    assert cache.diagnostics(uris[a], findings, files, features, 8)[0][1] is not got[1]


# -- end to end: published or pulled -----------------------------------------------------------


async def test_random_edits_in_the_server(session: Session) -> None:
    folder = session.root / "publish"
    folder.mkdir()
    (folder / "pyproject.toml").write_text('[tool.passlint]\nextend-select = ["PL100"]\n')
    lines = program_module(15, 0).split("\n")
    uri = session.open("publish/program.py", "\n".join(lines))
    path = os.path.realpath(session.path(uri))
    capabilities = session.client.capabilities
    text_caps = capabilities.text_document if capabilities else None
    publish = text_caps.publish_diagnostics if text_caps else None
    tag_support = publish.tag_support if publish else None
    features = ClientFeatures(tags=frozenset(tag_support.value_set) if tag_support else frozenset())
    rng = random.Random(8)
    for step in range(16):
        if step:
            line, col, end_line, end_col, new = random_edit(rng, lines)
            source = SourceText(session.texts[uri])
            start = source.to_utf16(Position(line, col))
            end = source.to_utf16(Position(end_line, end_col))
            session.edit(
                uri,
                types.Range(
                    start=types.Position(line=start.line, character=start.column),
                    end=types.Position(line=end.line, character=end.column),
                ),
                new,
            )
            assert session.texts[uri] == "\n".join(lines)
        got = await session.diagnostics(uri)
        text, version = session.texts[uri], session.versions[uri]
        files = SnapshotFiles({path: text}, {path: uri}, {path: version})
        workspace = snapshot_workspace((os.path.realpath(session.root),), {path: text})
        findings = pipeline.analyze(path, text, SETTINGS, workspace)
        assert CONVERTER.unstructure(got) == reference_json(findings, files, features, version)

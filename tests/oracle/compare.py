"""passlint's predictions against the real pass's ground truth: every outcome compared, the
agreement figure, and each disagreement with its class, file and line.

Compared outcomes: each kernel the pass gives leading parameters (the same names, in the
same order; where the truth has it, also those the pass adds after ``pl.compile``'s
pipeline, unless passlint says that depends on a condition), each call/submit site it changes (the same extents), each rejection (the VS
code of its kind), each kernel outlined from a ``with pl.at(...)`` scope (a finding on that
line naming the symbols), and each prediction passlint makes about code the pass builds and
leaves unchanged (a kernel change or a VS finding there is a disagreement). Predictions
about code no program the oracle ran ever built cannot be checked: they are listed as
unverified, outside the figure. Kernels of programs the pass rejects are compared only
through the rejection (the pass stops before it changes anything).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oracle.predict import PredictedSite, Prediction
from oracle.truth import FileTruth, SiteChange, Truth


@dataclass(frozen=True)
class Disagreement:
    kind: str  # the class of disagreement
    file: str
    line: int
    detail: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.kind}: {self.detail}"


# Disagreements that are known and kept out of the figure, each with why: (file, line, kind of
# the rejection). A rule's scope leaves them out; a test checks that each one still occurs.
KNOWN_DIVERGENCES: dict[tuple[str, int, str], str] = {
    ("clean/jit_code.py", 9, "missing-layout"): "the view is on a `@pl.jit` function, and "
    "VS009 looks only at device kernels' parameters",
}

# Disagreements of the fix check (``compare_fixed``) that are known, each with why: (file,
# line, class). Each must still occur in the files judged, or that is a disagreement.
_NEVER_PARSED = (
    "Python stopped at its views without a layout (VS009) before pypto's parser read the "
    "file; with the layout added the parser rejects `pl.create_tensor(..., valid_shape=...)`, "
    "which this pypto does not accept: a fixture error no rule checks"
)
KNOWN_FIX_DIVERGENCES: dict[tuple[str, int, str], str] = {
    ("forms/call_forms.py", 21, "fix breaks parsing"): _NEVER_PARSED,
    ("forms/call_forms.fixed.py", 21, "fix breaks parsing"): _NEVER_PARSED,
}


@dataclass
class Report:
    agreed: list[str] = field(default_factory=list)
    disagreements: list[Disagreement] = field(default_factory=list)
    known: dict[tuple[str, int, str], Disagreement] = field(default_factory=dict)  # by key
    # of KNOWN_DIVERGENCES
    unverified: list[str] = field(default_factory=list)
    quiet_kernels: int = 0  # built, left unchanged by the pass (in accepted programs)
    quiet_silent: int = 0  # ... on which passlint says nothing either
    quiet_analysed: int = 0  # ... which passlint analysed (it has a summary of them)
    program_classes: int = 0  # @...program classes in the files
    programs_built: int = 0  # ... of which the oracle run built
    files: int = 0

    @property
    def compared(self) -> int:
        return len(self.agreed) + len(self.disagreements)

    def merge(self, other: Report) -> None:
        self.agreed += other.agreed
        self.disagreements += other.disagreements
        self.known.update(other.known)
        self.unverified += other.unverified
        self.quiet_kernels += other.quiet_kernels
        self.quiet_silent += other.quiet_silent
        self.quiet_analysed += other.quiet_analysed
        self.program_classes += other.program_classes
        self.programs_built += other.programs_built
        self.files += other.files

    def figure(self) -> str:
        share = f" ({100 * len(self.agreed) / self.compared:.0f}%)" if self.compared else ""
        return f"{len(self.agreed)}/{self.compared} outcomes agree{share}"

    def text(self) -> str:
        lines = [
            f"passlint vs pypto's MaterializeValidShapeSymbols: {self.figure()} over "
            f"{self.files} files. Of {self.quiet_kernels} built kernels the pass leaves "
            f"unchanged, passlint analysed {self.quiet_analysed} and is silent on "
            f"{self.quiet_silent}. The oracle built {self.programs_built} of the "
            f"{self.program_classes} program classes in these files.",
        ]
        if self.disagreements:
            classes = Counter(d.kind for d in self.disagreements)
            lines.append(
                "Disagreements by class: "
                + "; ".join(f"{k}: {n}" for k, n in classes.most_common())
            )
            lines += [
                f"  {d}" for d in sorted(self.disagreements, key=lambda d: (d.kind, d.file, d.line))
            ]
        if self.known:
            lines.append(f"Known divergences (not counted): {len(self.known)}")
            lines += [f"  {d} ({KNOWN_DIVERGENCES[key]})" for key, d in self.known.items()]
        if self.agreed:
            lines.append("Agreed:")
            lines += [f"  {a}" for a in self.agreed]
        if self.unverified:
            lines.append(
                f"Unverified (no program the oracle ran builds this code): {len(self.unverified)}"
            )
            lines += [f"  {u}" for u in self.unverified]
        return "\n".join(lines)


def normalized(text: str) -> str:
    """One spelling of an extent expression (the printer's and the source's)."""
    try:
        return ast.unparse(ast.parse(text.strip(), mode="eval"))
    except SyntaxError:
        return " ".join(text.split())


class _Places:
    """Line ranges of a file's classes and functions."""

    def __init__(self, text: str) -> None:
        try:
            tree = ast.parse(text)
        except SyntaxError:
            tree = ast.Module(body=[], type_ignores=[])
        self.classes: dict[int, tuple[int, int]] = {}
        self.functions: dict[int, tuple[int, int]] = {}
        self.programs: set[int] = set()  # class lines of classes decorated ...program
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                self.classes[node.lineno] = (_start(node), node.end_lineno or node.lineno)
                if any(_named(d, "program") for d in node.decorator_list):
                    self.programs.add(node.lineno)
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                self.functions[node.lineno] = (_start(node), node.end_lineno or node.lineno)

    def innermost(self, line: int, table: dict[int, tuple[int, int]]) -> int | None:
        inside = [(end - start, key) for key, (start, end) in table.items() if start <= line <= end]
        return min(inside)[1] if inside else None

    def enclosing(self, line: int) -> tuple[int, int] | None:
        """The innermost class (a program) holding ``line``, else the innermost function."""
        key = self.innermost(line, self.classes)
        if key is not None:
            return self.classes[key]
        key = self.innermost(line, self.functions)
        return self.functions[key] if key is not None else None


def _named(decorator: ast.expr, name: str) -> bool:
    """``@x.name``, ``@x.name(...)``, ``@name`` or ``@name(...)``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return (isinstance(target, ast.Attribute) and target.attr == name) or (
        isinstance(target, ast.Name) and target.id == name
    )


def _start(node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return node.decorator_list[0].lineno if node.decorator_list else node.lineno


_SSA_VERSION = re.compile(r"__ssa_v\d+\b")


def source_name(printed: str) -> str:
    """A name as the source spells it: the default pipeline's SSA conversion renames an
    orchestration function's variables before outlining (``n`` -> ``n__ssa_v0``)."""
    return _SSA_VERSION.sub("", printed)


def compare_file(
    rel: str,
    text: str,
    truth: FileTruth,
    prediction: Prediction,
    sites: list[PredictedSite] | None = None,
) -> Report:
    """One file's outcomes; ``sites``: the predicted call sites in this file, of kernels
    wherever they are defined (by default those of this file's own kernels)."""
    if sites is None:
        sites = [s for s in prediction.sites if s.file == prediction.path]
    report = Report(files=1)
    places = _Places(text)
    report.program_classes = len(places.programs)
    report.programs_built = len(places.programs & set(truth.programs))
    finding_lines = [(f.range.start.line + 1, f) for f in prediction.findings]
    explained: set[int] = set()  # indexes into prediction.findings

    def explain(first: int, last: int, codes: set[str] | None = None) -> list[int]:
        hits = [
            i
            for i, (line, f) in enumerate(finding_lines)
            if first <= line <= last and (codes is None or f.code in codes)
        ]
        explained.update(hits)
        return hits

    rejected_programs = [places.enclosing(r.line) for r in truth.rejections]
    rejected_ranges = [r for r in rejected_programs if r is not None]

    def in_rejected(line: int) -> bool:
        return any(start <= line <= end for start, end in rejected_ranges)

    # 1. kernels the pass gives leading parameters
    for (line, name), change in sorted(truth.changes.items()):
        where = f"{rel}:{line}: kernel '{name}' gains {list(change.added)}"
        rng = places.functions.get(line, (line, line))
        explain(*rng, {"VS001"})
        got = prediction.kernels.get(line)
        if got is None:
            report.disagreements.append(
                Disagreement(
                    "kernel not analysed",
                    rel,
                    line,
                    f"the pass adds {list(change.added)} to '{name}'",
                )
            )
        elif not got.added:
            report.disagreements.append(
                Disagreement(
                    "kernel analysed, no change predicted",
                    rel,
                    line,
                    f"the pass adds {list(change.added)} to '{name}'",
                )
            )
        elif got.added != change.added:
            report.disagreements.append(
                Disagreement(
                    "different leading parameters",
                    rel,
                    line,
                    f"'{name}': pass {list(change.added)}, passlint {list(got.added)}",
                )
            )
        elif change.compiled is not None and got.compiled not in (None, change.compiled):
            report.disagreements.append(
                Disagreement(
                    "different leading parameters under pl.compile",
                    rel,
                    line,
                    f"'{name}': pass {list(change.compiled)}, passlint {list(got.compiled)}",
                )
            )
        else:
            report.agreed.append(where)

    # 2. call/submit sites
    changed_names = {name for _, name in truth.changes}
    for site in sorted(truth.sites, key=lambda s: (s.line, s.column)):
        where = f"{rel}:{site.line}:{site.column}: {site.form} of '{site.callee}' prepends {list(site.extents)}"
        explain(site.line, site.line)
        candidates = [p for p in sites if p.line == site.line and p.callee == site.callee]
        near = min(candidates, key=lambda p: abs(p.column - site.column)) if candidates else None
        if near is None:
            report.disagreements.append(
                Disagreement(
                    "call site not found",
                    rel,
                    site.line,
                    f"{site.form} of '{site.callee}' prepends {list(site.extents)}",
                )
            )
        elif near.extents is None:
            report.disagreements.append(
                Disagreement(
                    "extents not resolved",
                    rel,
                    site.line,
                    f"{site.form} of '{site.callee}': pass prepends {list(site.extents)}",
                )
            )
        elif [normalized(t) for t in near.extents] != [normalized(t) for t in site.extents]:
            report.disagreements.append(
                Disagreement(
                    "different extents",
                    rel,
                    site.line,
                    f"'{site.callee}': pass {list(site.extents)}, passlint {list(near.extents)}",
                )
            )
        else:
            report.agreed.append(where)
    truth_site_lines = {(s.line, s.callee) for s in truth.sites}
    for predicted in sites:
        if (
            predicted.callee not in changed_names
            or (predicted.line, predicted.callee) in truth_site_lines
        ):
            continue
        if _built(places, truth, predicted.line) and not in_rejected(predicted.line):
            report.disagreements.append(
                Disagreement(
                    "call site the pass does not change",
                    rel,
                    predicted.line,
                    f"passlint prepends {predicted.extents} to a call of '{predicted.callee}'",
                )
            )

    # 3. rejections
    for rejection in truth.rejections:
        rng = places.enclosing(rejection.line) or (rejection.line, rejection.line)
        where = f"{rel}:{rejection.line}: {rejection.stage} rejects ({rejection.kind})"
        expected = rejection.code
        hits = explain(*rng, {expected} if expected else None)
        if hits:
            report.agreed.append(f"{where}: {expected or prediction.findings[hits[0]].code}")
            continue
        others = [f.code for line, f in finding_lines if rng[0] <= line <= rng[1]]
        disagreement = Disagreement(
            "rejection reported with another code" if others else "rejection not reported",
            rel,
            rejection.line,
            f"{rejection.stage} ({rejection.kind}, expected {expected}); passlint {others or 'nothing'}: "
            + rejection.message.splitlines()[0][:160],
        )
        key = (rel, rejection.line, rejection.kind)
        if key in KNOWN_DIVERGENCES:
            report.known[key] = disagreement
        else:
            report.disagreements.append(disagreement)

    # 4. kernels outlined from pl.at scopes: a finding on the `with` line that names the
    # outlined kernel, its symbols and the extents it will be fed
    for outlined in truth.outlined:
        words = [outlined.name, *map(source_name, (*outlined.added, *outlined.extents))]
        hits = [
            i
            for i, (line, f) in enumerate(finding_lines)
            if line == outlined.line and all(w in f.message for w in words)
        ]
        explained.update(hits)
        what = f"'{outlined.name}' gains {list(outlined.added)}, fed {list(outlined.extents)}"
        if hits:
            report.agreed.append(f"{rel}:{outlined.line}: outlined kernel {what}")
            continue
        on_line = [f.code for line, f in finding_lines if line == outlined.line]
        report.disagreements.append(
            Disagreement(
                "outlined kernel reported without its name, symbols or extents"
                if on_line
                else "outlined kernel not reported",
                rel,
                outlined.line,
                what,
            )
        )

    # 5. predictions where the pass changes nothing
    outlined_lines = {outlined.line for outlined in truth.outlined}
    for line, kernel in sorted(prediction.changes().items()):
        if (line, kernel.name) in truth.changes or in_rejected(line) or line in outlined_lines:
            continue
        if line in truth.built_kernels:
            report.disagreements.append(
                Disagreement(
                    "change predicted where the pass changes nothing",
                    rel,
                    line,
                    f"passlint adds {list(kernel.added)} to '{kernel.name}'",
                )
            )
        else:
            report.unverified.append(
                f"{rel}:{line}: passlint adds {list(kernel.added)} to '{kernel.name}'"
            )
    for index, (line, finding) in enumerate(finding_lines):
        if index in explained or in_rejected(line):
            continue
        first_sentence = finding.message.split(". ")[0]
        if _built(places, truth, line):
            report.disagreements.append(
                Disagreement(
                    "finding where the pass changes nothing",
                    rel,
                    line,
                    f"{finding.code} {first_sentence}",
                )
            )
        else:
            report.unverified.append(f"{rel}:{line}: {finding.code} {first_sentence}")

    if truth.python_errors and report.unverified:
        stop, message = truth.python_errors[0]
        report.unverified.append(
            f"{rel}:{stop}: (why: Python stopped running the file here: {message})"
        )

    # silent agreement on kernels the pass leaves alone
    for line, _name in truth.quiet_kernels.items():
        if in_rejected(line):
            continue
        report.quiet_kernels += 1
        rng = places.functions.get(line, (line, line))
        summary = prediction.kernels.get(line)
        report.quiet_analysed += summary is not None
        noisy = (summary is not None and summary.added) or any(
            rng[0] <= fl <= rng[1] for fl, _ in finding_lines
        )
        if not noisy:
            report.quiet_silent += 1
    return report


def _built(places: _Places, truth: FileTruth, line: int) -> bool:
    """Whether ``line`` lies in a program or a kernel the oracle built."""
    for class_line, (start, end) in places.classes.items():
        if class_line in truth.programs and start <= line <= end:
            return True
    return any(
        start <= line <= end
        for def_line, (start, end) in places.functions.items()
        if def_line in truth.built_kernels
    )


def sites_by_file(predictions: dict[str, tuple[str, Prediction]]) -> dict[str, list[PredictedSite]]:
    """Per file (relative), the predicted call sites in it, of kernels of any file."""
    rel_of = {prediction.path: rel for rel, (_, prediction) in predictions.items()}
    sites: dict[str, list[PredictedSite]] = {}
    for _, prediction in predictions.values():
        for site in prediction.sites:
            if site.file in rel_of:
                sites.setdefault(rel_of[site.file], []).append(site)
    return sites


def compare(truth: Truth, predictions: dict[str, tuple[str, Prediction]]) -> Report:
    """``predictions``: per file relative to the truth's root, its text and prediction."""
    sites = sites_by_file(predictions)
    report = Report()
    for rel, (text, prediction) in sorted(predictions.items()):
        report.merge(compare_file(rel, text, truth.file(rel), prediction, sites.get(rel, [])))
    return report


@dataclass
class FixedVerdict:
    """What the real pass and parser say of the fixed files: the disagreements, how many
    fixed calls were compared with the pass's extents, and the kernels passlint left unfixed
    on purpose (still gaining parameters, as its finding says)."""

    disagreements: list[Disagreement] = field(default_factory=list)
    calls: int = 0
    unfixed: list[str] = field(default_factory=list)
    known: list[str] = field(default_factory=list)  # of KNOWN_FIX_DIVERGENCES, with why


def compare_fixed(
    before: Truth, after: Truth, files: list[str], unfixed: set[tuple[str, int]] | None = None
) -> FixedVerdict:
    """What the real pass says of files after passlint's fixes: every program still built,
    no new parser error and no new rejection, nothing left to add (but to the kernels in
    ``unfixed``: relative path and ``def`` line in the fixed file, which passlint reports
    and does not fix), and at every call the pass changed in the original, the fixed call
    passes what the pass passes there. Programs and calls are matched by their lines,
    carried across the fix's edits; after-truth recorded with ``--arguments``."""
    verdict = FixedVerdict()
    found = verdict.disagreements
    unfixed = unfixed or set()
    empty: dict[str, list[Any]] = {"programs": [], "functions": [], "parser_errors": []}
    for rel in files:
        old = before.document["files"].get(rel, empty)
        new = after.document["files"].get(rel, empty)
        moved = _moved_lines(Path(before.root, rel), Path(after.root, rel))
        still: set[str] = set()  # kernels the pass still changes after the fix
        for entry in new["programs"] + new["functions"]:
            for variant in entry["variants"]:
                for kernel in variant.get("kernels", []) if variant["outcome"] == "changed" else []:
                    still.add(kernel["name"])
                    what = f"'{kernel['name']}' gains {kernel['added']}"
                    if (kernel["file"], kernel["line"]) in unfixed:
                        place = f"{kernel['file']}:{kernel['line']}: {what}"
                        if place not in verdict.unfixed:
                            verdict.unfixed.append(place)
                        continue
                    found.append(
                        Disagreement("fixed code still gains parameters", rel, kernel["line"], what)
                    )
        now = {p["line"]: p for p in new["programs"]}
        unbuilt: list[int] = []  # class lines of the programs no longer built
        for program in old["programs"]:
            again = now.get(moved.get(program["line"], -1))
            if again is None:
                unbuilt.append(program["line"] or 0)
                found.append(
                    Disagreement(
                        "program no longer built after the fix",
                        rel,
                        program["line"] or 0,
                        program["name"],
                    )
                )
                continue
            was_rejected = any(v["outcome"] == "rejected" for v in program["variants"])
            for variant in again["variants"]:
                if variant["outcome"] == "rejected" and not was_rejected:
                    found.append(
                        Disagreement(
                            "fix makes the pass reject",
                            rel,
                            program["line"] or 0,
                            variant["error"]["message"].splitlines()[0][:200],
                        )
                    )
        was = {
            (e["function"], e["type"], e["message"].splitlines()[0]) for e in old["parser_errors"]
        }
        for error in new["parser_errors"]:
            if (error["function"], error["type"], error["message"].splitlines()[0]) not in was:
                found.append(
                    Disagreement(
                        "fix breaks parsing",
                        rel,
                        error["line"] or error["function_line"],
                        error["message"].splitlines()[0][:200],
                    )
                )
        calls = _fixed_calls(after, rel)
        places = _Places(_text(Path(before.root, rel)))
        for site in before.file(rel).sites:
            if site.callee in still:
                continue  # (reported above, or left unfixed on purpose)
            if places.innermost(site.line, places.classes) in unbuilt:
                continue  # (its program is not built: reported above)
            verdict.calls += 1
            problem = _fixed_call_problem(site, moved, calls)
            if problem is not None:
                found.append(Disagreement(problem[0], rel, site.line, problem[1]))
    _set_known_apart(verdict, files)
    return verdict


def _set_known_apart(verdict: FixedVerdict, files: list[str]) -> None:
    """Move the known divergences of ``KNOWN_FIX_DIVERGENCES`` to ``verdict.known``; one of
    the judged files that no longer occurs is a disagreement (the list must shrink)."""
    seen: set[tuple[str, int, str]] = set()
    kept: list[Disagreement] = []
    for item in verdict.disagreements:
        key = (item.file, item.line, item.kind)
        if key in KNOWN_FIX_DIVERGENCES:
            seen.add(key)
            verdict.known.append(f"{item} ({KNOWN_FIX_DIVERGENCES[key]})")
        else:
            kept.append(item)
    for key in KNOWN_FIX_DIVERGENCES:
        if key[0] in files and key not in seen:
            kept.append(Disagreement("known divergence no longer occurs", *key[:2], key[2]))
    verdict.disagreements = kept


# A call of the fixed tree: (line, callee) -> [(column, arguments printed)], per variant.
_FixedCalls = dict[tuple[int, str], list[tuple[int, tuple[str, ...]]]]


def _fixed_calls(after: Truth, rel: str) -> _FixedCalls | None:
    """Every call in file ``rel`` of the fixed tree's programs, with its arguments; None if
    no program built there recorded any (not built: reported as such)."""
    calls: _FixedCalls = {}
    recorded = False
    for section in after.document["files"].values():
        for program in section["programs"]:
            for variant in program["variants"]:
                recorded = recorded or "arguments" in variant
                for call in variant.get("arguments", []):
                    if call["file"] == rel:
                        key = (call["line"], call["callee"])
                        calls.setdefault(key, []).append((call["column"], tuple(call["args"])))
    return calls if recorded else None


def _fixed_call_problem(
    site: SiteChange, moved: dict[int, int], calls: _FixedCalls | None
) -> tuple[str, str] | None:
    """Why the fixed call of ``site`` does not pass the extents the pass passes to the
    original one (None: it does, or nothing of the file was built)."""
    if calls is None:
        return None
    expected = [normalized(e) for e in site.extents]
    what = f"{site.form} of '{site.callee}'"
    line = moved.get(site.line)
    found = calls.get((line, site.callee), []) if line is not None else []
    if not found:
        return ("fixed call not found", f"{what}: the pass prepends {list(site.extents)}")
    nearest = min(abs(column - site.column) for column, _ in found)
    passed = [args for column, args in found if abs(column - site.column) == nearest]
    if any([normalized(a) for a in args[: len(expected)]] == expected for args in passed):
        return None
    return (
        "fixed call passes other extents",
        f"{what}: the pass passes {list(site.extents)} to the original, the fixed call "
        f"{list(passed[0][: len(expected)])}",
    )


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def def_line(text: str, line: int) -> int | None:
    """The ``def`` line of the innermost function holding ``line`` (1-based)."""
    places = _Places(text)
    return places.innermost(line, places.functions)


def _moved_lines(old: Path, new: Path) -> dict[int, int]:
    """Where each line went (1-based lines): those the fix left alone, and those it edited
    (a call given its extents), paired in order within each edited block."""
    try:
        before = old.read_text(encoding="utf-8").splitlines()
        after = new.read_text(encoding="utf-8").splitlines()
    except OSError:
        return {}
    moved = {}
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if tag in ("equal", "replace"):  # an edited line stays where it was
            for k in range(min(a_end - a_start, b_end - b_start)):
                moved[a_start + k + 1] = b_start + k + 1
    return moved

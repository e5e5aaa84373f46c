"""The incremental path equals a from-scratch analysis: after random edits to pl modules,
parsing by cached pieces gives the tree ``ast.parse`` gives (positions included), and the
pass's findings with warm caches equal those of a cold run."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from passlint.analysis.findings import Finding
from passlint.analysis.pl import pieces, resolve
from passlint.analysis.pl.frontend import parse_text
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.pl.model import Module, SyntaxProblem
from passlint.analysis.pl.pieces import parse_pieces
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

MEMO = PlMemo()  # the warm path: kept between the calls of a test
DATA = Path(__file__).resolve().parents[2] / "data" / "pl"
SOURCES = ["valid_shape_cases.py", "softmax_prepare.py", "forms/call_forms.py", "forms/nested.py"]
SNIPPETS = [
    " ",
    "\n",
    "\n\n",
    "#",
    "(",
    ")",
    '"""',
    "    ",
    "x = 1\n",
    "    def extra(self):\n        return 1\n",
    "@pl.program\nclass Other:\n    pass\n",
    "else:\n",
    "VALID",
    "n",
    "16",
    ", ",
    "\\\n",
    "\t",
]


def dump(tree: ast.Module | SyntaxProblem) -> str:
    if isinstance(tree, SyntaxProblem):
        return repr(tree)
    return ast.dump(tree, include_attributes=True)


def edit(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    kind = rng.randrange(5)
    if kind == 0:  # insert a snippet anywhere
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(SNIPPETS) + text[at:]
    if kind == 1:  # delete a few characters
        at = rng.randrange(len(text) + 1)
        return text[:at] + text[at + rng.randrange(1, 4) :]
    if kind == 2:  # append a space to a line (the benchmark's edit)
        line = rng.randrange(len(lines))
        lines[line] += " "
    elif kind == 3:  # delete or duplicate a line
        line = rng.randrange(len(lines))
        if rng.random() < 0.5:
            del lines[line]
        else:
            lines.insert(line, lines[line])
    else:  # rename a word
        line = rng.randrange(len(lines))
        lines[line] = lines[line].replace("VALID", "VALIDX", 1).replace("k_", "kk_", 1)
    return "\n".join(lines)


def fresh_findings(path: str, text: str) -> list[Finding]:
    MEMO.clear()
    return check_text(path, text, None, MEMO)


@pytest.mark.parametrize("name", SOURCES)
def test_random_edits_parse_and_analyse_like_from_scratch(name: str) -> None:
    rng = random.Random(name)
    path = str(DATA / name)
    text = (DATA / name).read_text()
    for _ in range(40):
        text = edit(rng, text)
        assert dump(parse_pieces(path, text, MEMO.pieces)) == dump(parse_text(path, text))
        warm = check_text(path, text, None, MEMO)
        assert warm == fresh_findings(path, text)
        assert warm == check_text(path, text, None)  # the reference path: no memo
        check_text(path, text, None, MEMO)  # warm the caches again for the next edit


def test_classes_are_parsed_member_by_member() -> None:
    MEMO.pieces.clear()
    text = (DATA / "valid_shape_cases.py").read_text()
    parse_pieces("m.py", text, MEMO.pieces)
    head, tail = text.rsplit("        return out\n", 1)  # in main, the last member
    edited = head + "        return  out\n" + tail
    before = resolve_pieces_count()
    parse_pieces("m.py", edited, MEMO.pieces)
    assert resolve_pieces_count() - before == 2  # the touched member and the class piece


def test_classes_of_one_member_are_parsed_with_their_neighbours(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    MEMO.pieces.clear()
    pair = (
        "@pl.function(type=pl.FunctionType.InCore)\n"
        "def kernel(x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:\n"
        "    return x\n\n\n"
        "@pl.program\n"
        "class Program:\n"
        "    @pl.function(type=pl.FunctionType.Orchestration)\n"
        "    def entry(self, x: pl.Tensor[[16], pl.FP32]) -> pl.Tensor[[16], pl.FP32]:\n"
        "        return kernel(x)\n\n\n"
    )
    text = "import pypto.language as pl\n\n\n" + pair * 40
    parses: list[int] = []
    real_parse = pieces._parse_at

    def counted(piece: str, start: int, wrapper: str = "") -> list[ast.stmt] | None:
        parses.append(start)
        return real_parse(piece, start, wrapper)

    monkeypatch.setattr(pieces, "_parse_at", counted)
    tree = parse_pieces("m.py", text, MEMO.pieces)
    monkeypatch.undo()
    assert dump(tree) == dump(parse_text("m.py", text))
    assert len(parses) <= text.count("\n") // 40  # groups of about 80 lines, not 81 pieces


def test_pieces_far_down_a_long_text_have_their_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``_PADDED_LINES`` a piece is parsed unpadded and moved down: the same tree (and
    padding every piece of a 100,000-line text had cost time quadratic in its lines)."""
    monkeypatch.setattr(pieces, "_PADDED_LINES", 50)
    MEMO.pieces.clear()
    text = (DATA / "valid_shape_cases.py").read_text()
    text = text + "\n\nclass Again:\n    x = 1\n\n    def f(self):\n        return 1\n" * 20
    assert text.count("\n") > 200
    assert dump(parse_pieces("m.py", text, MEMO.pieces)) == dump(parse_text("m.py", text))


def resolve_pieces_count() -> int:
    return len(MEMO.pieces.pieces) + len(MEMO.pieces.classes)


# -- the model and per-kernel caches ---------------------------------------------------------

BENCH = Path(__file__).resolve().parents[3] / "bench"


def small_program(kernels: int = 6) -> str:
    import sys

    sys.path.insert(0, str(BENCH))
    try:
        from generate import pl_module
    finally:
        sys.path.remove(str(BENCH))
    return str(pl_module(12 * kernels + 20))


def structural_edit(rng: random.Random, text: str) -> str:
    """Edits that move kernels, change callers (same function or another), module-level
    symbols and definitions, without necessarily touching the kernel itself."""
    lines = text.split("\n")
    kind = rng.randrange(9)
    line = rng.randrange(len(lines))
    if kind == 0:  # move everything below down a line (kernels keep their text)
        lines.insert(line, "")
    elif kind == 1:  # a longer line above: same lines, shifted characters
        lines[line] += "  # note"
    elif kind == 2:  # a call site changes (argument, or the called kernel)
        calls = [n for n, s in enumerate(lines) if "= self.k" in s]
        if calls:
            n = rng.choice(calls)
            lines[n] = rng.choice(
                [lines[n].replace("(a, ", "(src, "), lines[n].replace("self.k", "self.k1", 1)]
            )
    elif kind == 3:  # a module-level symbol changes
        lines = [
            s.replace('pl.dynamic("VALID")', rng.choice(['pl.dynamic("V2")', "16", "pl.FP32"]))
            for s in lines
        ]
    elif kind == 4:  # a new caller in another function
        at = next((n for n, s in enumerate(lines) if "def main" in s), None)
        if at is not None:
            lines[at:at] = [
                "    @pl.function(type=pl.FunctionType.Orchestration)",
                "    def other(self, src: pl.Tensor[[16, 128], pl.FP32], out: pl.Tensor[[16, 128], pl.FP32]):",
                "        return self.k0(src, out)",
            ]
    elif kind == 5:  # a duplicate kernel (the later definition wins)
        start = next((n for n, s in enumerate(lines) if "def k1(" in s), None)
        if start is not None:
            block = lines[start - 1 : start + 9]
            lines[line:line] = [s.replace("def k1(", "def k2(") for s in block]
    elif kind == 6:  # a binding of the extent in the caller
        at = next((n for n, s in enumerate(lines) if "a = pl.slice" in s), None)
        if at is not None:
            lines[at] = lines[at].replace(
                "valid_shape=[16, n]", rng.choice(["", "valid_shape=[16, 8]"])
            )
    elif kind == 7:  # the VALID symbol bound by a scalar parameter in one kernel
        at = next((n for n, s in enumerate(lines) if "        self," in s), None)
        if at is not None:
            lines.insert(at + 1, "        VALID: pl.Scalar[pl.INDEX],")
    else:  # delete a line
        del lines[line]
    return "\n".join(lines)


def model_dump(path: str, text: str) -> str:
    loaded = resolve.load_module(path, text, MEMO)
    if not isinstance(loaded, Module):
        return repr(loaded)
    out = []
    for function in loaded.functions:
        out.append(
            repr(
                (
                    function.name,
                    function.program,
                    function.parent.name if function.parent else None,
                    [(p.name, p.span, p.kind, p.direction) for p in function.params],
                    [(a.name, a.start, a.end) for a in function.assignments],
                    [
                        (c.span, c.insert_at, c.target_name, c.caller is function)
                        for c in function.calls
                    ],
                    sorted((k, d.span) for k, d in function.scope.dynamics.items()),
                    sorted(function.scope.functions),
                )
            )
        )
    out.append(repr(sorted((k, d.span) for k, d in loaded.scope.dynamics.items())))
    return "\n".join(out)


@pytest.mark.parametrize("seed", range(4))
def test_kernels_moving_callers_and_symbols_changing_like_from_scratch(seed: int) -> None:
    rng = random.Random(seed)
    path = "/virtual/big.py"
    text = small_program()
    check_text(path, text, None, MEMO)
    for _ in range(30):
        text = structural_edit(rng, text) if rng.random() < 0.7 else edit(rng, text)
        warm_model = model_dump(path, text)
        warm = check_text(path, text, None, MEMO)
        assert warm == fresh_findings(path, text)
        assert warm_model == model_dump(path, text)  # rebuilt from cleared caches
        check_text(path, text, None, MEMO)


@pytest.mark.parametrize("name", SOURCES)
def test_moved_pieces_give_the_model_of_a_fresh_parse(name: str) -> None:
    rng = random.Random(name + "model")
    path = str(DATA / name)
    text = (DATA / name).read_text()
    model_dump(path, text)
    for _ in range(25):
        lines = text.split("\n")
        at = rng.randrange(len(lines))
        lines[at] = lines[at] + " " * rng.randrange(1, 3) if rng.random() < 0.5 else lines[at]
        if rng.random() < 0.5:
            lines.insert(rng.randrange(len(lines)), "")
        text = "\n".join(lines)
        warm = model_dump(path, text)
        MEMO.clear()
        assert warm == model_dump(path, text)


def test_callers_in_another_file_like_from_scratch(tmp_path: Path) -> None:
    from passlint.analysis.workspace import Workspace

    for source in (DATA / "cross_file").iterdir():
        (tmp_path / source.name).write_text(source.read_text())
    kernels = str(tmp_path / "kernels.py")
    program = str(tmp_path / "program.py")
    rng = random.Random("cross")
    texts = {kernels: Path(kernels).read_text(), program: Path(program).read_text()}
    for _ in range(30):
        which = rng.choice([kernels, program])
        texts[which] = (
            edit(rng, texts[which]) if rng.random() < 0.5 else structural_edit(rng, texts[which])
        )
        if rng.random() < 0.3:
            texts[program] = texts[program].replace("scale_rows(head, out)", "scale_rows(x, out)")
        workspace = Workspace([tmp_path])
        for path, text in texts.items():
            workspace.set_overlay(path, text)
        for path in (kernels, program):
            warm = check_text(path, texts[path], workspace, MEMO)
            MEMO.clear()
            assert warm == check_text(path, texts[path], workspace, MEMO), path


_SHARED_SLICE = """\
import pypto.language as pl
from consts import ROWS

VALID = pl.dynamic("VALID")


@pl.program
class Shared:
{kernels}
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[ROWS, 128], pl.FP32],
        n: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        part = pl.slice(x, [16, 128], [0, 0], valid_shape=[16, n])
{calls}
        return out
"""

_SHARED_KERNEL = """\
    @pl.function(type=pl.FunctionType.InCore)
    def {name}(
        self,
        a: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
        out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
    ) -> pl.Tensor[[16, 128], pl.FP32]:
        t = pl.load(a, [0, 0], [16, 128], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)
"""


def test_kernels_fed_one_slice_follow_the_file_its_parent_s_shape_comes_from(
    tmp_path: Path,
) -> None:
    # Every kernel fed `part` asks for its parent's shape, found once per run; the shape
    # comes from consts.py, so each kernel's findings depend on that file, the later ones
    # too (they are kept only while no other file was read).
    from passlint.analysis.workspace import Workspace

    names = ["head", "mid", "tail"]
    text = _SHARED_SLICE.format(
        kernels="\n".join(_SHARED_KERNEL.format(name=name) for name in names),
        calls="\n".join(f"        out = self.{name}(part, out)" for name in names),
    )
    path = str(tmp_path / "shared.py")
    (tmp_path / "shared.py").write_text(text)
    (tmp_path / "consts.py").write_text("ROWS = 64\n")
    messages = []
    for consts in ("ROWS = 64\n", 'import pypto.language as pl\n\nROWS = pl.dynamic("ROWS")\n'):
        workspace = Workspace([tmp_path])
        workspace.set_overlay(str(tmp_path / "consts.py"), consts)
        warm = check_text(path, text, workspace, MEMO)
        MEMO.clear()
        assert warm == check_text(path, text, workspace, MEMO)
        assert [f.code for f in warm] == ["VS001"] * len(names)
        messages.append([f.message for f in warm])
    static, dynamic = messages
    assert all(a != b for a, b in zip(static, dynamic, strict=True))

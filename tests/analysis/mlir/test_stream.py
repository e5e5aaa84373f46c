"""The streaming reader (``analysis/mlir/stream``, ``passlint.streaming``) gives the JSON
findings of the whole parse (``pipeline.analyze``) on every file it takes: every ``.mlir``
file of ``tests/data``, each odd case below, and (``--stream-corpus PATH``, repeatable) every
``.mlir`` file under PATH, such as openxla/stablehlo's ``stablehlo/tests``. A file it does
not take (None) is analysed whole by its callers, so only the files it takes are compared;
the fixtures show it takes most files that have function bodies."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from passlint import pipeline
from passlint.analysis.mlir.argument_lists import LONG_ARGUMENTS
from passlint.analysis.mlir.stream.hollowed import hollow
from passlint.analysis.mlir.stream.scan import PLACEHOLDER, Unreadable, find_holes
from passlint.config import Settings
from passlint.memo import Memo
from passlint.report.json_report import render_json
from passlint.streaming import analyze_streamed

DATA = Path(__file__).resolve().parents[2] / "data"
FIXTURES = sorted(path for path in DATA.rglob("*.mlir") if path.is_file())
MEMO = Memo()  # a run's, as `passlint check` keeps one


def streamed(text: str, path: str = "m.mlir", settings: Settings | None = None) -> str | None:
    """The streaming reader's JSON findings of ``text`` (None: it does not take it)."""
    found = analyze_streamed(path, text.encode(), settings, MEMO)
    return None if found is None else render_json(found.findings)


def whole(text: str, path: str = "m.mlir", settings: Settings | None = None) -> str:
    return render_json(pipeline.analyze(path, text, settings, memo=Memo()))


def same(text: str, settings: Settings | None = None, taken: bool = True) -> str:
    """Assert the reader gives the whole parse's findings (and, with ``taken``, that it takes
    the file); those findings' JSON."""
    expected = whole(text, settings=settings)
    found = streamed(text, settings=settings)
    if taken:
        assert found is not None, "the reader did not take the file"
    if found is not None:
        assert found == expected
    return expected


def _compare(paths: list[Path]) -> int:
    """Compare every file of ``paths``; how many the reader took."""
    taken = 0
    for path in paths:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        found = analyze_streamed(str(path), data, None, MEMO)
        if found is None:
            continue
        taken += 1
        expected = pipeline.analyze(str(path), text, memo=Memo())
        assert render_json(found.findings) == render_json(expected), path
        lines = text.splitlines()
        assert found.lines == {f.range.start.line: lines[f.range.start.line] for f in expected}
    return taken


def test_every_fixture_gives_the_whole_parse_s_findings() -> None:
    assert _compare(FIXTURES) >= 60  # (of 180: the others have no function body to hollow)


def test_a_corpus_named_on_the_command_line(request: pytest.FixtureRequest) -> None:
    roots = [Path(root) for root in request.config.getoption("--stream-corpus")]
    if not roots:
        pytest.skip("no --stream-corpus PATH given")
    paths = [
        p for root in roots for p in ([root] if root.is_file() else sorted(root.rglob("*.mlir")))
    ]
    assert _compare(paths) > 0


# -- odd cases, each compared ------------------------------------------------------------------

HEADER = "func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {\n"


def body(*lines: str, returned: str = "%arg0") -> str:
    return (
        HEADER
        + "".join(f"  {line}\n" for line in lines)
        + f"  return {returned} : tensor<4xf32>\n}}\n"
    )


ADD = "%{0} = stablehlo.add %{1}, %{2} : tensor<4xf32>"


def chain(count: int, first: int = 0) -> list[str]:
    return [
        ADD.format(first + i, f"{first + i - 1}" if i else "arg0", "arg1") for i in range(count)
    ]


def test_a_function_body_of_one_line_ops_is_hollowed_and_its_output_found() -> None:
    text = body(*chain(50), returned="%49")
    holes = find_holes(text.encode(), MEMO.mlir)
    assert holes is not None
    (function,) = holes.functions
    assert function.name == "main" and len(function.holes) == 1
    # The line defining what is returned stays in the text.
    assert function.holes[0].lines == 49
    assert same(text) == whole(text)


def test_returned_input_and_constant_give_their_copies_fixes() -> None:
    constant = "%cst = stablehlo.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>"
    text = body(*chain(20), constant, *chain(5, 30), returned="%cst")
    found = same(text)
    assert '"code": "TL002"' in found and '"new_text"' in found


def test_a_copy_s_fresh_name_avoids_names_defined_in_holes() -> None:
    lines = [*chain(5), "%output0_copy = stablehlo.add %4, %arg1 : tensor<4xf32>", *chain(5, 5)]
    text = body(*lines, returned="%arg0")
    found = same(text)
    assert "%output0_copy_1 = mhlo.copy" in found


@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            ["%0 = stablehlo.add %arg0, %1 : tensor<4xf32>", *chain(3, 1)], id="forward-use"
        ),
        pytest.param([*chain(3), ADD.format(1, "arg0", "arg1")], id="redefinition"),
        pytest.param([*chain(3), ADD.format("arg1", "2", "arg1")], id="argument-redefined"),
        pytest.param(
            [*chain(3), "%9 = stablehlo.add %nowhere, %2 : tensor<4xf32>"], id="undefined"
        ),
        pytest.param([*chain(3), "%9 = stablehlo.add %2#1, %2 : tensor<4xf32>"], id="bad-result"),
        pytest.param(
            [*chain(3), f"%9 = stablehlo.abs %{'1' * 8000} : tensor<4xf32>"], id="huge-number"
        ),
        pytest.param([*chain(3), "%9 = stablehlo.add %2 %2 : tensor<4xf32>"], id="syntax-error"),
        pytest.param(
            [*chain(3), "%9 = stablehlo.abs %2 : tensor<99999999999999999999xf32>"],
            id="dimension-out-of-range",
        ),
        pytest.param([*chain(3), "%9 = stablehlo.abs %2 : !undefined"], id="undefined-alias"),
        pytest.param([*chain(3), "%9 = stablehlo.abs %2 : tensor<4xf32> loc(#nowhere)"], id="loc"),
        pytest.param(
            [*chain(3), "%9 = stablehlo.abs %2 : tensor<4xf32> // passlint: ignore[E003]"],
            id="suppression",
        ),
        pytest.param(
            [*chain(3), '%9 = "stablehlo.abs"(%2) : (tensor<4xf32>, i1) -> tensor<4xf32>'],
            id="type-count",
        ),
        pytest.param(
            [*chain(3), "%9 = stablehlo.abs %2 : tensor<4xf32>", "^bb1:", *chain(2, 10)],
            id="blocks",
        ),
        pytest.param(
            [
                *chain(3),
                "%9:2 = stablehlo.foo %2 : tensor<4xf32>",
                "%11 = stablehlo.abs %9#1 : tensor<4xf32>",
            ],
            id="result-group",
        ),
    ],
)
def test_errors_on_or_around_hole_lines_are_the_whole_parse_s(lines: list[str]) -> None:
    text = body(*lines, *chain(3, 20))
    same(text, taken=False)


def test_the_variant_is_read_from_hole_lines_too() -> None:
    """TL006 is a warning in MHLO: the module's only mhlo op sits on a hole line."""
    text = (
        "func.func @main(%arg0: tensor<0xf32>) -> tensor<0xf32> {\n"
        "  %0 = mhlo.abs %arg0 : tensor<0xf32>\n"
        "  %1 = mhlo.abs %0 : tensor<0xf32>\n"
        "  return %arg0 : tensor<0xf32>\n}\n"
    )
    found = same(text)
    assert '"code": "TL006"' in found and '"severity": "warning"' in found


def test_generic_form_crlf_chunks_and_other_functions() -> None:
    generic = (
        '"func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({\n'
        "^bb0(%arg0: tensor<4xf32>):\n"
        + "".join(
            f'  %{i} = "stablehlo.abs"(%{i - 1 if i else "arg0"}) : (tensor<4xf32>) -> tensor<4xf32>\n'
            for i in range(10)
        )
        + '  "func.return"(%arg0) : (tensor<4xf32>) -> ()\n}) : () -> ()\n'
    )
    same(generic)
    same(generic.replace("\n", "\r\n"))
    helper = body(*chain(10), returned="%9").replace("@main", "@helper")
    same(helper + "// -----\n" + body(*chain(10)))
    same("module {\n" + helper + body(*chain(10)) + "}\n")


def test_what_the_reader_does_not_take() -> None:
    plain = body(*chain(10))
    assert streamed(plain.replace("\n", "\r", 3)) is None  # a line ends at a lone \r
    assert streamed(plain + f"// {PLACEHOLDER}\n") is None  # its own name is in the file
    assert streamed("%0 = stablehlo.abs %arg0 : tensor<4xf32>\n") is None  # no function
    with pytest.raises(Unreadable) as raised:
        analyze_streamed("m.mlir", plain.encode() + b"// \xff\n", None, MEMO)
    assert raised.value.line == plain.count("\n") + 1


def test_non_ascii_lines_stay_in_the_text() -> None:
    text = body(*chain(5), '%9 = stablehlo.abs %4 : tensor<4xf32> loc("é.py":1:2)', *chain(5, 10))
    same(text)


def test_settings_and_suppressions_apply_as_on_the_whole_text() -> None:
    text = "// passlint: ignore-file[TL001]\n" + body(*chain(10))
    assert same(text) == '{\n  "version": 1,\n  "findings": []\n}\n'
    same(body(*chain(10)), Settings(ignore=("TL001",)))
    same(body(*chain(10)), Settings(extend_select=("PL100",)))


def test_hole_lines_are_as_many_as_the_lines_of_a_dump() -> None:
    """A module of one-line ops is almost all holes: the hollowed text keeps @main's header,
    its return and the line defining what it returns."""
    text = body(*chain(2000), returned="%1999")
    holes = find_holes(text.encode(), MEMO.mlir)
    assert holes is not None
    hollowed = hollow(text.encode(), holes)
    assert hollowed.text == (
        HEADER
        + '  %passlint.hole.0, %1998 = "passlint.hole"() : () -> (i1, i1)\n'
        + "  %1999 = stablehlo.add %1998, %arg1 : tensor<4xf32>\n"
        + "  return %1999 : tensor<4xf32>\n}\n"
    )
    assert [hollowed.file_line(line) for line in range(5)] == [0, None, 2000, 2001, 2002]


# -- mutants of a model dump ---------------------------------------------------------------------


def _dump(generic: bool) -> list[str]:
    """The lines of a small dump in the benchmarks' shape (``bench/generate.py``)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "bench"))
    from generate import mlir_module

    return str(mlir_module(2, generic)).splitlines(keepends=True)


DUMPS = {False: _dump(False), True: _dump(True)}
_PIECES = (
    "%0",
    "%arg1",
    "}",
    "{",
    "(",
    ",",
    "^bb1:",
    "#x",
    "loc(#l)",
    '"',
    "// c",
    "\r",
    "é",
    "9" * 20,
)


@st.composite
def mutants(draw: st.DrawFn) -> str:
    """A dump with a few lines deleted, repeated, swapped or cut, or a piece put in a line."""
    lines = list(DUMPS[draw(st.booleans())])
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("delete", "repeat", "swap", "cut", "insert")))
        if kind == "delete":
            del lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[at])
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif kind == "cut":
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))] + "\n"
        else:
            column = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:column] + draw(st.sampled_from(_PIECES)) + lines[at][column:]
    return "".join(lines)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants())
def test_a_mutant_dump_gives_the_whole_parse_s_findings(text: str) -> None:
    same(text, taken=False)


def test_the_dumps_themselves_are_taken() -> None:
    for lines in DUMPS.values():
        same("".join(lines))


# -- a header of many arguments ------------------------------------------------------------------


def weights(
    count: int, *, extra: str = "", body: tuple[str, ...] = (), returned: str = "%arg1"
) -> str:
    """@main of ``count`` arguments (a model's weights), past ``LONG_ARGUMENTS`` of them."""
    arguments = ", ".join(f"%arg{i}: tensor<4xf32>" for i in range(count)) + extra
    lines = [ADD.format(i, f"{i - 1}" if i else "arg0", f"arg{i % count}") for i in range(40)]
    return (
        f"func.func @main({arguments}) -> tensor<4xf32> {{\n"
        + "".join(f"  {line}\n" for line in (*lines, *body))
        + f"  return {returned} : tensor<4xf32>\n}}\n"
    )


@pytest.mark.parametrize(
    ("extra", "body", "returned"),
    [
        pytest.param("", (), "%arg1", id="returned-argument"),
        pytest.param(
            "",
            ('%r = "x.y"(%arg7) ({\n  }) : (tensor<4xf32>) -> tensor<4xf32>',),
            "%39",
            id="read-outside-holes",
        ),
        pytest.param(", %arg5: tensor<4xf32>", (), "%arg1", id="named-twice"),
        pytest.param("", ("%arg9 = stablehlo.abs %arg1 : tensor<4xf32>",), "%arg9", id="redefined"),
        pytest.param(
            ", %z: tensor<99999999999999999999xf32>", (), "%arg1", id="dimension-out-of-range"
        ),
        pytest.param(", %z: tensor<4xf32", (), "%arg1", id="unclosed-type"),
        pytest.param(", %z: !undefined", (), "%arg1", id="alias"),
        pytest.param(", %output0_copy: tensor<4xf32>", (), "%arg1", id="a-copy-s-name"),
    ],
)
def test_a_long_argument_list_read_for_the_arguments_the_text_reads(
    extra: str, body: tuple[str, ...], returned: str
) -> None:
    text = weights(3000, extra=extra, body=body, returned=returned)
    assert text.index(")") - text.index("(") > LONG_ARGUMENTS
    same(text, taken=False)


def test_the_hollowed_header_keeps_the_arguments_the_text_reads() -> None:
    text = weights(3000, body=('%r = "x.y"(%arg7) ({\n  }) : (tensor<4xf32>) -> tensor<4xf32>',))
    holes = find_holes(text.encode(), MEMO.mlir)
    assert holes is not None and holes.functions[0].arguments_cut is not None
    header = hollow(text.encode(), holes).text.split("\n", 1)[0]
    assert len(header) == text.index("\n")
    assert re.sub(" +", " ", header) == (
        "func.func @main( %arg1: tensor<4xf32>, %arg7: tensor<4xf32> ) -> tensor<4xf32> {"
    )
    assert same(text) == whole(text)

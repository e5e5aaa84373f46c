"""pl sources that are unusual but valid (or invalid in CPython's own way) read as CPython
reads them: a byte order mark, ``\\r\\n`` and lone ``\\r`` line ends, coding declarations,
NUL characters, integers of any length, names and tokens of any length, and odd syntax
(walrus, match, decorators, unicode names, tabs, form feeds, continuations, f-strings).
Positions are 0-based lines (CPython's line minus 1) and character columns in the text."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from passlint import pipeline
from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding, Position, Range
from passlint.analysis.pl.memo import PlMemo
from passlint.analysis.source import SourceText
from passlint.analysis.workspace import Workspace
from passlint.passes.materialize_valid_shape_symbols.dry_run import analyze_module, check_text

KERNELS = """\
import pypto.language as pl

VALID = pl.dynamic("VALID")


@pl.function(type=pl.FunctionType.InCore)
def k(
    x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)],
    out: pl.Out[pl.Tensor[[16, 128], pl.FP32]],
):
    return out


@pl.function(type=pl.FunctionType.Orchestration)
def main(src: pl.Tensor[[16, 128], pl.FP32], n: pl.Scalar[pl.INDEX], o: pl.Tensor[[16, 128], pl.FP32]):
    return k(
        pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]),
        o,
    )
"""

FIXED = KERNELS.replace("def k(\n", "def k(\n    VALID: pl.Scalar[pl.INDEX],\n").replace(
    "return k(\n", "return k(\n        n,\n"
)

ENDINGS = pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])


def at(line: int, column: int) -> Position:
    return Position(line, column)


def span(line: int, start: int, end: int) -> Range:
    return Range(at(line, start), at(line, end))


def only(findings: list[Finding], code: str) -> Finding:
    (found,) = [f for f in findings if f.code == code]
    return found


def fixed(text: str, finding: Finding) -> str:
    assert finding.fix is not None
    return apply_edits(text, finding.fix.edits)


def cpython_line(text: str, needle: str) -> int:
    """The 0-based line CPython's ast gives the first Name ``needle`` of ``text``."""
    tree = ast.parse(text.lstrip("\ufeff"))
    name = next(n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == needle)
    return name.lineno - 1


# -- line ends ----------------------------------------------------------------------------------


@ENDINGS
def test_findings_and_fix_in_each_line_ending(ending: str) -> None:
    text = KERNELS.replace("\n", ending)
    findings = pipeline.analyze("k.py", text)
    vs001 = only(findings, "VS001")
    assert cpython_line(text, "VALID") == 2  # the pl.dynamic statement
    assert vs001.range == span(7, 68, 73)
    assert [(r.range, r.message[:25]) for r in vs001.related] == [
        (span(2, 0, 27), "symbol 'VALID' is declare"),
        (Range(at(15, 11), at(18, 5)), "called here (k); the fix "),
    ]
    # the inserted lines end as the file's lines do
    assert fixed(text, vs001) == FIXED.replace("\n", ending)
    assert pipeline.analyze("k.py", fixed(text, vs001)) == []


@ENDINGS
def test_hover_and_call_site_positions_in_each_line_ending(ending: str) -> None:
    text = KERNELS.replace("\n", ending)
    analysis = analyze_module("k.py", text, None)
    assert analysis.module is not None
    source = SourceText(text)
    offset = source.offset(at(7, 70))  # inside VALID of the valid_shape
    ((summary, symbol),) = analysis.symbols_at(offset)
    assert (summary.kernel.name, symbol.name) == ("k", "VALID")
    (call,) = summary.calls
    assert source.range(*call.site.span) == Range(at(15, 11), at(18, 5))
    assert call.texts == ["n"]
    positions = analysis.module.positions
    assert positions.range(symbol.occurrences[0][1]) == span(7, 68, 73)
    assert source.range(*symbol.declared.span) == span(2, 0, 27)


MOVE = """\
import pypto.language as pl

LATE = pl.dynamic("LATE")


@pl.function(type=pl.FunctionType.AIV)
def kernel(
    x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, LATE], layout=pl.TensorLayout.ND)],
    LATE: pl.Scalar[pl.INDEX],
):
    return x
"""


@ENDINGS
def test_moving_a_parameter_keeps_the_line_ending(ending: str) -> None:
    text = MOVE.replace("\n", ending)
    vs005 = only(check_text("k.py", text, None), "VS005")
    assert vs005.range == span(8, 4, 29)
    expected = MOVE.replace(
        "    x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, LATE], layout=pl.TensorLayout.ND)],\n"
        "    LATE: pl.Scalar[pl.INDEX],\n",
        "    LATE: pl.Scalar[pl.INDEX],\n"
        "    x: pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, LATE], layout=pl.TensorLayout.ND)],\n",
    )
    assert fixed(text, vs005) == expected.replace("\n", ending)


OUTLINED = """\
import pypto.language as pl

V = pl.dynamic("V")


@pl.function(type=pl.FunctionType.Orchestration)
def main(x: pl.Tensor[[16, 64], pl.FP32, pl.TensorView(valid_shape=[16, V], layout=pl.TensorLayout.ND)]):
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="fused"):
        t = pl.load(x, [0, 0], [16, 64])
    return t
"""


@ENDINGS
def test_outlined_scope_is_underlined_to_its_line_end(ending: str) -> None:
    text = OUTLINED.replace("\n", ending)
    vs007 = only(check_text("k.py", text, None), "VS007")
    assert vs007.range == span(7, 4, 61)


def test_mixed_line_ends_count_as_cpython_counts_them() -> None:
    text = KERNELS.replace(
        "\n\n\n@pl.function(type=pl.FunctionType.InCore)",
        "\r\r\r@pl.function(type=pl.FunctionType.InCore)",
    ).replace("):\n    return out\n", "):\r\n    return out\r\n")
    assert cpython_line(text, "src") == 16
    vs001 = only(pipeline.analyze("k.py", text), "VS001")
    assert vs001.range == span(7, 68, 73)
    assert fixed(text, vs001).count("    VALID: pl.Scalar[pl.INDEX],\n    x:") == 1


# -- byte order mark ----------------------------------------------------------------------------


def test_bom_is_read_as_cpython_reads_the_file() -> None:
    text = "\ufeff# kernels\n" + KERNELS  # (the import on line 2: a pl source either way)
    findings = pipeline.analyze("k.py", text)
    vs001 = only(findings, "VS001")
    assert vs001.range == span(8, 68, 73)
    after = fixed(text, vs001)
    assert after == "\ufeff# kernels\n" + FIXED  # the BOM is kept; nothing else changes
    assert pipeline.analyze("k.py", after) == []


def test_bom_columns_on_line_one() -> None:
    # what is on line 1 after the BOM: its columns count the BOM as the character it is
    text = (
        "\ufeffimport pypto.language as pl; VALID = pl.dynamic('VALID')  # é\n"
        + KERNELS[KERNELS.index("\n\n\n@pl") :]
    )
    vs001 = only(check_text("k.py", text, None), "VS001")
    assert vs001.related[0].range == span(0, 30, 57)
    assert text[30:57] == "VALID = pl.dynamic('VALID')"
    analysis = analyze_module("k.py", text, None)
    assert analysis.module is not None
    assert SourceText(text).range(*analysis.kernels[0].unbound[0].declared.span) == span(0, 30, 57)


def test_bom_syntax_error_on_line_one() -> None:
    text = "\ufeffimport pypto.language as pl; x = )\n"
    (error,) = check_text("k.py", text, None)
    assert (error.code, error.range) == ("E002", span(0, 34, 35))
    assert text[34] == ")"
    assert error.message == "Python syntax error: unmatched ')'; the pl source cannot be analysed."


def test_bom_anywhere_else_is_what_cpython_rejects() -> None:
    text = "import pypto.language as pl\n\ufeffx = 1\n"
    (error,) = check_text("k.py", text, None)
    assert (error.code, error.range) == ("E002", span(1, 0, 1))
    assert "invalid non-printable character U+FEFF" in error.message


# -- what CPython refuses before it parses ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message", "where"),
    [
        (
            "\ufeff# -*- coding: latin-1 -*-\nimport pypto.language as pl\n",
            "encoding problem: iso-8859-1 with BOM",
            span(0, 15, 22),
        ),
        (
            "#!/usr/bin/env python\n# vim: set fileencoding=no-such-codec :\nimport pypto.language\n",
            "encoding problem: no-such-codec",
            span(1, 24, 37),
        ),
        (
            "import pypto.language as pl\nx = 1\ny = 'a\0'\n",
            "source code cannot contain null bytes",
            span(2, 6, 7),
        ),
    ],
    ids=["bom-and-latin-1", "unknown-codec", "nul"],
)
def test_what_cpython_refuses_to_read(text: str, message: str, where: Range) -> None:
    (error,) = check_text("k.py", text, None)
    assert (error.code, error.range) == ("E002", where)
    assert error.message == f"Python syntax error: {message}; the pl source cannot be analysed."


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff# coding: utf-8\nimport pypto.language as pl\n",
        "# coding: latin-1\nimport pypto.language as pl\n",  # decoded already, and valid
        "x = 1  # coding: no-such-codec\nimport pypto.language as pl\n",  # not a comment line
        "x = 1\n# coding: no-such-codec\nimport pypto.language as pl\n",  # line 2 after code
        "# a\n# b\n# coding: no-such-codec\nimport pypto.language as pl\n",  # line 3
    ],
)
def test_coding_declarations_cpython_accepts(text: str) -> None:
    assert check_text("k.py", text, None) == []


# -- the batch screen ---------------------------------------------------------------------------

SCREENED = {
    "bom": "\ufeff" + KERNELS,
    "crlf": KERNELS.replace("\n", "\r\n"),
    "cr": KERNELS.replace("\n", "\r"),
    "form-feed": KERNELS.replace("\ndef k(", "\n\fdef k("),
    "joined-def": KERNELS.replace("def k(", "def \\\nk("),
    "joined-crlf": KERNELS.replace("def k(", "def \\\nk(").replace("\n", "\r\n"),
    "nul": KERNELS + "# \0\n",
    "bom-and-latin-1": "\ufeff# coding: latin-1\n" + KERNELS,
    "unknown-codec": "# coding: no-such-codec\n" + KERNELS,
}


@pytest.mark.parametrize("name", sorted(SCREENED))
def test_the_batch_screen_finds_what_the_analysis_finds(name: str, tmp_path: Path) -> None:
    path = tmp_path / "k.py"
    path.write_bytes(SCREENED[name].encode("utf-8"))
    text = path.read_bytes().decode("utf-8")
    full = check_text(str(path), text, Workspace([tmp_path]), PlMemo())
    screened = check_text(str(path), text, Workspace([tmp_path], screen=True), PlMemo())
    assert full and screened == full


# -- integers of any length ---------------------------------------------------------------------

HUGE = int("f" * 5000, 16)  # 6,021 decimal digits: str() refuses it
HEX = f"{HUGE:#x}"
DECIMAL = "9" * 4200  # as long as CPython allows; 13,952 bits: written in hex
KERNEL_X = "pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]"
CALL_ARG = "pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n])"


def with_call(argument: str, kernel_x: str = KERNEL_X, prelude: str = "") -> str:
    text = KERNELS.replace(CALL_ARG, argument).replace(kernel_x and KERNEL_X, kernel_x)
    return text.replace('VALID = pl.dynamic("VALID")\n', f'VALID = pl.dynamic("VALID")\n{prelude}')


def passed(text: str) -> str:
    """What the VS001 fix passes at the call (checking every message stays short)."""
    findings = check_text("k.py", text, None)
    for finding in findings:
        assert len(finding.message) < 1_000
        assert all(len(r.message) < 1_000 for r in finding.related)
        assert finding.fix is None or len(finding.fix.title) < 1_000
    analysis = analyze_module("k.py", text, None)
    assert [k.kernel.name for k in analysis.kernels] == ["k"]
    fix = only(findings, "VS001").fix
    assert fix is not None
    return fix.edits[1].new_text.removesuffix(",\n        ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (with_call(f"pl.slice(src, [16, 128], [0, 0], valid_shape=[16, {HEX}])"), HEX),
        (with_call(f"src[0:16, 1:{HEX}]"), f"{HUGE - 1:#x}"),  # folded: the window's length
        (with_call(f"pl.slice(src, [16, {HEX}], [0, 1])"), HEX),  # the window of a valid source
        (
            with_call(
                "pl.slice(src, [16, C], [0, 0], valid_shape=[16, C - 1])", prelude=f"C = {HEX}\n"
            ),
            "C - 1",
        ),
        (
            # the source's own valid_shape narrows the window, folded: min(max(D, 1) - 1, D9)
            with_call(f"pl.slice(v, [16, {DECIMAL}9], [0, 1])").replace(
                "    return k(\n",
                f"    v = pl.slice(src, [16, {DECIMAL}9], [0, 0], valid_shape=[16, {DECIMAL}])\n"
                "    return k(\n",
            ),
            f"{int(DECIMAL) - 1:#x}",
        ),
    ],
    ids=["slice-bound", "subscript", "window", "constant", "narrowed"],
)
def test_huge_hex_literals_are_integers_like_any_other(text: str, expected: str) -> None:
    assert passed(text) == expected


def test_huge_extents_that_disagree_are_quoted_short() -> None:
    kernel_y = "pl.Tensor[[16, 128], pl.FP32, pl.TensorView(valid_shape=[16, VALID], layout=pl.TensorLayout.ND)]"
    text = (
        KERNELS.replace("    out: pl.Out[", f"    y: {kernel_y},\n    out: pl.Out[")
        .replace(
            "        o,\n",
            f"        pl.slice(src, [16, 128], [0, 0], valid_shape=[16, {HEX} - 1]),\n        o,\n",
        )
        .replace(CALL_ARG, f"pl.slice(src, [16, 128], [0, 0], valid_shape=[16, {HEX}])")
    )
    vs003 = only(check_text("k.py", text, None), "VS003")
    quoted = HEX[:60] + "..."
    assert vs003.message.startswith("The call to kernel 'k' passes two extents for 'VALID'")
    assert f"gives '{quoted}' and the one for 'y' (dim 1) gives '{quoted}'" in vs003.message
    assert len(vs003.message) < 1_000


def test_a_decimal_literal_cpython_refuses_is_underlined() -> None:
    digits = "9" * 5000
    text = with_call(f"pl.slice(src, [16, 128], [0, 0], valid_shape=[16, {digits}])")
    (error,) = check_text("k.py", text, None)
    line = SourceText(text).line_text(16)
    assert error.code == "E002"
    assert error.range == span(16, line.index(digits), line.index(digits) + 5000)
    assert error.message.startswith(
        "Python syntax error: Exceeds the limit (4300 digits) for integer string conversion: "
        "value has 5000 digits;"
    )


# -- long tokens --------------------------------------------------------------------------------

LONG = 1_000_000


def test_messages_quote_a_short_excerpt_of_long_names() -> None:
    kernel, name, symbol, param = "k" * LONG, "V" * LONG, "S" * LONG, "p" * LONG
    text = (
        KERNELS.replace('VALID = pl.dynamic("VALID")', f'{name} = pl.dynamic("{symbol}")')
        .replace("VALID],", f"{name}],")
        .replace("def k(", f"def {kernel}(")
        .replace("return k(", f"return {kernel}(")
        .replace("    x: pl.Tensor", f"    {param}: pl.Tensor")
    )
    vs001 = only(check_text("k.py", text, None), "VS001")
    assert vs001.message.startswith(
        f"Nothing binds '{symbol[:60]}...'; add it as a leading parameter of the kernel. No "
        f"physical dimension or scalar parameter binds it (parameter '{param[:60]}...', dim 1)"
    )
    assert len(vs001.message) < 1_000
    assert all(len(r.message) < 1_000 for r in vs001.related)
    assert vs001.fix is not None and len(vs001.fix.title) < 1_000
    # the fix itself writes the whole name
    assert vs001.fix.edits[0].new_text == f"{name}: pl.Scalar[pl.INDEX],\n    "
    undefined = text.replace(f'{name} = pl.dynamic("{symbol}")', "")
    vs006 = only(check_text("k.py", undefined, None), "VS006")
    assert len(vs006.message) < 1_000 and f"'{name[:60]}...'" in vs006.message


def test_editor_features_on_huge_literals_answer() -> None:
    """Hover and go-to-definition read the same analysis (they answered -32603)."""
    from passlint.server.hover import pl_hover
    from passlint.server.models import build_pl_model
    from passlint.server.navigation import pl_definition

    text = with_call(f"src[0:16, 1:{HEX}]")
    model = build_pl_model("k.py", text, None)
    assert model is not None
    for needle in ("VALID],", "k(\n", "x:", "src[", HEX[:10]):
        offset = text.index(needle) + 1
        found = pl_hover(model, offset)
        assert found is None or len(found[0]) < 2_000 + len(HEX)
        pl_definition(model, offset)


# -- odd but valid syntax -----------------------------------------------------------------------

RETURN_K = "    return k(\n        pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]),\n        o,\n    )\n"


def analysed(text: str, tmp_path: Path) -> list[Finding]:
    """The findings of ``text``, after the editor features answered at every line start and
    a screened batch run found the same."""
    from passlint.server.hover import pl_hover
    from passlint.server.models import build_pl_model
    from passlint.server.navigation import pl_definition, pl_references

    path = tmp_path / "k.py"
    path.write_bytes(text.encode("utf-8"))
    findings = check_text(str(path), text, Workspace([tmp_path]), PlMemo())
    screened = Workspace([tmp_path], screen=True)
    assert check_text(str(path), text, screened, PlMemo()) == findings
    model = build_pl_model(str(path), text, None)
    assert model is not None
    for offset in [0, *SourceText(text).line_starts]:
        pl_hover(model, offset + 4)
        pl_definition(model, offset + 4)
        pl_references(model, offset + 4, True)
    for finding in findings:
        if finding.fix is not None:
            ast.parse(fixed(text, finding))
    return findings


ODD = {
    "walrus in a condition": KERNELS.replace(
        "    return k(\n", "    if (m := n):\n        pass\n    return k(\n"
    ),
    "decorators of any expression": KERNELS.replace(
        "@pl.function(type=pl.FunctionType.InCore)",
        "@(lambda f: f)\n@decorators[0].x(1)(2)\n@pl.function(type=pl.FunctionType.InCore)",
    ),
    "semicolons and one-line bodies": KERNELS.replace(
        "):\n    return out\n", "): a = 1; return out\n"
    ),
    "a 3.11 f-string": KERNELS.replace(
        "    return k(\n", "    s = f\"{'a' + 'b'!r:>{10}} {n=}\"\n    return k(\n"
    ),
    "except star": KERNELS + "try:\n    pass\nexcept* ValueError:\n    pass\n",
    "async orchestration": KERNELS.replace("def main(", "async def main("),
}


@pytest.mark.parametrize("name", sorted(ODD))
def test_odd_syntax_changes_nothing(name: str, tmp_path: Path) -> None:
    (vs001,) = analysed(ODD[name], tmp_path)
    assert vs001.code == "VS001" and vs001.fix is not None and vs001.fix.preferred
    assert (
        vs001.fix.title == "Add leading parameter VALID to 'k' and pass the extent at 1 call site"
    )


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ('    s = f"{"a"}"\n', "f-string: expecting '}'"),  # 3.12's nested quotes
        ("    type X = int\n", "invalid syntax"),  # 3.12's type statement
    ],
)
def test_newer_syntax_is_what_cpython_3_11_rejects(source: str, message: str) -> None:
    text = KERNELS.replace("    return k(\n", source + "    return k(\n")
    (error,) = check_text("k.py", text, None)
    assert error.code == "E002" and error.range.start.line == 15
    assert error.message == f"Python syntax error: {message}; the pl source cannot be analysed."


def test_calls_in_match_cases_are_call_sites(tmp_path: Path) -> None:
    text = KERNELS.replace(
        RETURN_K,
        "    match n:\n"
        "        case 1:\n"
        "            return k(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]), o)\n"
        "        case [a, *rest] if a:\n"
        "            pass\n"
        "        case {'x': y, **kw}:\n"
        "            pass\n"
        "        case _:\n"
        "            return k(pl.slice(src, [16, 128], [0, 0], valid_shape=[16, 4]), o)\n",
    )
    (vs001,) = analysed(text, tmp_path)
    after = fixed(text, vs001)
    assert "return k(n, pl.slice(src, [16, 128], [0, 0], valid_shape=[16, n]), o)" in after
    assert "return k(4, pl.slice(src, [16, 128], [0, 0], valid_shape=[16, 4]), o)" in after


FORM_FEED = "\n\f    x: pl.Tensor"


@pytest.mark.parametrize(
    ("old", "new", "after"),
    [
        ("    ", "\t", FIXED.replace("    ", "\t")),  # tabs
        (  # a form feed in the indentation (which resets its width)
            "\n    x: pl.Tensor",
            FORM_FEED,
            FIXED.replace(
                "\n    VALID: pl.Scalar[pl.INDEX],\n    x: pl.Tensor",
                "\n\f    VALID: pl.Scalar[pl.INDEX]," + FORM_FEED,
            ),
        ),
        ("def k(\n", "def \\\nk(\n", FIXED.replace("def k(\n", "def \\\nk(\n")),  # joined
        (
            "    return k(\n",
            "    return \\\n        k(\n",
            FIXED.replace("    return k(\n", "    return \\\n        k(\n"),
        ),
    ],
    ids=["tabs", "form-feed", "joined-def", "joined-return"],
)
def test_inserted_lines_copy_the_indentation_as_written(
    old: str, new: str, after: str, tmp_path: Path
) -> None:
    text = KERNELS.replace(old, new)
    (vs001,) = analysed(text, tmp_path)
    assert fixed(text, vs001) == after


def test_unicode_names_have_character_columns(tmp_path: Path) -> None:
    text = (
        KERNELS.replace("VALID", "VALIDÉ")
        .replace("src", "données")
        .replace("def k(", "def 核(")
        .replace("return k(", "return 核(")
    )
    (vs001,) = analysed(text, tmp_path)
    line = SourceText(text).line_text(7)
    assert vs001.range == span(7, line.index("VALIDÉ],"), line.index("VALIDÉ],") + 6)
    assert vs001.related[1].range == Range(at(15, 11), at(18, 5))
    assert fixed(text, vs001).count("VALIDÉ: pl.Scalar[pl.INDEX],\n") == 1


FULLWIDTH = str.maketrans({c: chr(ord(c) + 0xFEE0) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZk"})


def test_names_cpython_normalizes_are_the_same_names(tmp_path: Path) -> None:
    """PEP 3131: CPython reads identifiers NFKC-normalized (``InCore`` in fullwidth letters
    is ``InCore``), so the batch screen, the late-parameter check and the workspace index
    must not look for the names as written."""
    core = KERNELS.replace("FunctionType.InCore", "FunctionType." + "InCore".translate(FULLWIDTH))
    (tmp_path / "type").mkdir()
    (vs001,) = analysed(core, tmp_path / "type")  # the screen had found no kernel type
    assert vs001.code == "VS001"
    late = MOVE.replace(
        "valid_shape=[16, LATE]", "valid_shape=[16, " + "LATE".translate(FULLWIDTH) + "]"
    )
    assert [f.code for f in check_text("k.py", late, None)] == ["VS005"]  # (VS001 before)
    kernels = KERNELS[: KERNELS.index("\n\n\n@pl.function(type=pl.FunctionType.Orchestration)")]
    program = "import pypto.language as pl\n\nfrom kernels import \uff4b\n" + KERNELS[
        KERNELS.index("\n\n\n@pl.function(type=pl.FunctionType.Orchestration)") :
    ].replace("return k(", "return \uff4b(")
    (tmp_path / "kernels.py").write_text(kernels)
    (tmp_path / "program.py").write_text(program)
    workspace = Workspace([tmp_path])
    (vs001,) = check_text(str(tmp_path / "kernels.py"), kernels, workspace)
    assert vs001.fix is not None and vs001.fix.preferred
    assert [(Path(e.path).name, e.new_text) for e in vs001.fix.edits] == [
        ("kernels.py", "VALID: pl.Scalar[pl.INDEX],\n    "),
        ("program.py", "n,\n        "),
    ]
    # a use as a value, spelled otherwise: the calls made through it cannot be found
    used = KERNELS + "launch = \uff4b\n"
    (vs001,) = check_text("k.py", used, None)
    assert vs001.fix is not None and not vs001.fix.preferred
    assert vs001.fix.title.endswith("; edit by hand: k.py:20:10 (k)")


@pytest.mark.parametrize("entry", ["(t := 128)", "(yield)"])
def test_a_shape_entry_that_is_an_expression_only_in_parentheses(entry: str) -> None:
    """An open-ended slice of it is its length minus the start (it raised SyntaxError)."""
    text = KERNELS.replace(
        "def main(src: pl.Tensor[[16, 128]", f"def main(src: pl.Tensor[[16, {entry}]"
    )
    (vs001,) = check_text("k.py", text.replace(CALL_ARG, "src[:, 1:]"), None)
    assert vs001.fix is not None and vs001.fix.edits[1].new_text == f"{entry} - 1,\n        "


@ENDINGS
def test_an_importer_with_any_line_ends_gets_its_extents(ending: str, tmp_path: Path) -> None:
    """The index finds the import statement after a comment line whatever ends its lines
    (its patterns start a line at ``\\n``: a CR-only importer was left out of the fix)."""
    split = KERNELS.index("\n\n\n@pl.function(type=pl.FunctionType.Orchestration)")
    kernels = KERNELS[:split]
    program = "# calls k\nimport pypto.language as pl\nfrom kernels import k\n" + KERNELS[split:]
    (tmp_path / "kernels.py").write_text(kernels)
    (tmp_path / "program.py").write_bytes(program.replace("\n", ending).encode())
    (vs001,) = check_text(str(tmp_path / "kernels.py"), kernels, Workspace([tmp_path]))
    assert vs001.fix is not None and vs001.fix.preferred
    assert [(Path(e.path).name, e.new_text) for e in vs001.fix.edits] == [
        ("kernels.py", "VALID: pl.Scalar[pl.INDEX],\n    "),
        ("program.py", f"n,{ending}        "),
    ]

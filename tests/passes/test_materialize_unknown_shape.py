"""VS008: a physical shape dimension that reads a name nothing defines where pypto's parser
looks (``type_resolver.py``, ``_resolve_shape_dim``: the program's frame as it is when the
decorator runs, ``closure_vars``, then the earlier parameters; else "Unknown shape variable").
Each case was run through the real parser (pypto e2d0f78); the corpus programs are in
tests/data/pl/names/unknown_shapes.py.
"""

from __future__ import annotations

import textwrap

from passlint.analysis.findings import Finding
from passlint.passes.materialize_valid_shape_symbols import screen
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

POSTPONED = "from __future__ import annotations\n\n"

PROGRAM = """\
{head}import pypto.language as pl
{above}

@pl.program
class P:
{body}    @pl.function(type=pl.FunctionType.InCore)
    def k(self, {params}) -> pl.Tensor[[16, 64], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 64], target_memory=pl.MemorySpace.Vec)
        return pl.store(t, [0, 0], out)
{below}"""

OUT = "out: pl.Out[pl.Tensor[[16, 64], pl.FP32]]"


def program(
    params: str = "x: pl.Tensor[[ROWS, 64], pl.FP32]",
    head: str = POSTPONED,
    above: str = "",
    body: str = "",
    below: str = "",
) -> str:
    return PROGRAM.format(head=head, above=above, body=body, below=below, params=f"{params}, {OUT}")


def spans(findings: list[Finding]) -> list[tuple[str, int, int, int, int]]:
    return [
        (f.code, f.range.start.line, f.range.start.column, f.range.end.line, f.range.end.column)
        for f in findings
    ]


def test_a_shape_name_defined_nowhere_is_rejected_by_the_parser() -> None:
    # type_resolver.py, _resolve_shape_dim: neither in closure_vars nor in the parser's scope
    # -> ParserTypeError("Unknown shape variable: ROWS"). Unlike _parse_tileview_expr
    # (valid_shape), it never makes a symbol of the name.
    text = program()
    (finding,) = check_text("k.py", text, None)
    assert spans([finding]) == [("VS008", 8, 30, 8, 34)]
    assert finding.message == (
        "The shape of 'x' reads undefined 'ROWS'; define it above the program. pypto's DSL "
        "parser rejects kernel 'k' when it is defined (\"Unknown shape variable: ROWS\"): a "
        "physical dimension is an int, a `pl.dynamic` symbol of the program's frame or an "
        "earlier parameter, and with postponed annotations (`from __future__ import "
        "annotations`) it reads the names bound when the program's decorator runs, and it is "
        'not bound then. For example `ROWS = pl.dynamic("ROWS")` above the program.'
    )
    assert finding.fix is None


def test_a_global_bound_below_the_program_is_unknown_to_the_parser() -> None:
    # decorator.py, program(): closure_vars = {**f_globals, **f_locals} copied when the
    # decorator runs; ROWS is bound after.
    text = program(below='\nROWS = pl.dynamic("ROWS")\n')
    assert [f.code for f in check_text("k.py", text, None)] == ["VS008"]
    assert check_text("k.py", program(above='\nROWS = pl.dynamic("ROWS")\n'), None) == []
    assert check_text("k.py", program(above="\nROWS = 16\n"), None) == []


def test_a_local_of_the_builder_counts_only_when_bound_before_the_program() -> None:
    def built(before: str, after: str) -> str:
        inner = textwrap.indent(program(head="", above=before, below=after), "    ")
        inner = inner.replace("    import pypto.language as pl\n", "")
        return f"{POSTPONED}import pypto.language as pl\n\n\ndef build():\n{inner}    return P\n"

    after = built("", '\nROWS = pl.dynamic("ROWS")\n')
    before = built('\nROWS = pl.dynamic("ROWS")\n', "")
    assert [f.code for f in check_text("k.py", after, None)] == ["VS008"]
    assert check_text("k.py", before, None) == []


def test_a_name_of_an_enclosing_function_the_frame_does_not_read_is_unknown() -> None:
    # closure_vars holds the frame's free variables only when its code reads them.
    text = textwrap.dedent(
        """\
        from __future__ import annotations

        import pypto.language as pl


        def outer():
            ROWS = pl.dynamic("ROWS")

            def inner():
                @pl.function(type=pl.FunctionType.InCore)
                def k(x: pl.Tensor[[ROWS, 64], pl.FP32]) -> pl.Tensor[[16, 64], pl.FP32]:
                    return x

                return k

            return inner()
        """
    )
    assert spans(check_text("k.py", text, None)) == [("VS008", 10, 28, 10, 32)]


def test_a_class_body_name_is_unknown_to_the_parser_even_without_postponed_annotations() -> None:
    # Python evaluates the annotation in the class body and finds ROWS; closure_vars never
    # holds a class body's names, so _resolve_shape_dim fails (a dynamic or an int alike).
    for value in ('pl.dynamic("ROWS")', "16"):
        text = program(head="", body=f"    ROWS = {value}\n\n")
        (finding,) = check_text("k.py", text, None)
        assert spans([finding]) == [("VS008", 8, 30, 8, 34)]
        assert "it never reads a class body's names, where Python found it." in finding.message


def test_without_postponed_annotations_python_raises_name_error_first() -> None:
    (finding,) = check_text("k.py", program(head=""), None)
    assert finding.message == (
        "The shape of 'x' reads undefined 'ROWS'; define it above the program. Python raises "
        "NameError when kernel 'k' is defined: 'ROWS' is no `pl.dynamic` symbol or int "
        "constant where its annotations are evaluated. For example "
        '`ROWS = pl.dynamic("ROWS")` above the program.'
    )


def test_an_earlier_parameter_defines_the_name_a_later_one_does_not() -> None:
    # _resolve_shape_dim, then scope_lookup: the parameters parsed so far.
    earlier = program("ROWS: pl.Scalar[pl.INDEX], x: pl.Tensor[[ROWS, 64], pl.FP32]")
    later = program("x: pl.Tensor[[ROWS, 64], pl.FP32], ROWS: pl.Scalar[pl.INDEX]")
    assert check_text("k.py", earlier, None) == []
    assert spans(check_text("k.py", later, None)) == [("VS008", 8, 30, 8, 34)]


def test_one_finding_per_name_inside_compound_entries_too() -> None:
    # The parser stops at the first; the same name again is the same fix.
    text = program("x: pl.Tensor[[ROWS * 2, 64], pl.FP32], y: pl.Tensor[[ROWS, COLS], pl.FP32]")
    assert spans(check_text("k.py", text, None)) == [
        ("VS008", 8, 30, 8, 34),
        ("VS008", 8, 75, 8, 79),
    ]


def test_the_screen_keeps_a_kernel_whose_shape_reads_a_name() -> None:
    # A batch check analyses only the files the screen keeps.
    assert screen.screen(program()) == screen.Screen(True, frozenset())
    plain = program("x: pl.Tensor[[16, 64], pl.FP32]")
    assert check_text("k.py", plain, None) == []
    assert screen.screen(plain) == screen.Screen(False, frozenset())

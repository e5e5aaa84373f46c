"""The VS001 fix under pypto's rebinding rule: a leading ``N: pl.Scalar[pl.INDEX]``
parameter takes over the ``pl.dynamic`` held by ``N`` for every function parsed after the
kernel (pypto ``python/pypto/language/parser/ast_parser.py``,
``ASTParser._bind_dynvar_to_scalar_param``: ``declared._ir_var = param_var``), while the
functions parsed before it keep the symbol they shared (``decorator.py``,
``_parse_program_body``: one ``dyn_var_cache`` per program, methods in class order). A call
between the two sides then binds one symbol twice (``src/ir/op/type_inference.cpp``,
``DeduceCallReturnType``: "conflicting bindings ... not provably equal"; ``BindCallTypeVar``
skips a symbol bound to itself, which is why it built before). Where that would happen, the
fix gives the kernel a ``pl.dynamic`` of its own (declared after the shared one: Python
evaluates the annotations, so the name must exist), reads it in the kernel and names the
parameter by it; where it cannot, the fix is not preferred and says why."""

from __future__ import annotations

import ast

import linear_time
import pytest

from passlint.analysis.edits import apply_edits
from passlint.analysis.findings import Finding
from passlint.analysis.pl.memo import PlMemo
from passlint.passes.materialize_valid_shape_symbols.dry_run import check_text

MEMO = PlMemo()  # kept between the calls, as a session keeps it
HEAD = 'import pypto.language as pl\n\nN = pl.dynamic("N")\nND = pl.TensorLayout.ND\n\n\n'
VIEW = "pl.Tensor[[64, 64], pl.FP32, pl.TensorView(valid_shape=[N, 64], layout=ND)]"
FIRST = f"""    @pl.function(type=pl.FunctionType.InCore)
    def first(self, a: {VIEW}) -> pl.Tensor[[64, 64], pl.FP32]:
        return pl.store(pl.load(a, [0, 0], [64, 64], valid_shapes=[N, 64]), [0, 0], a)

"""
SECOND = """    @pl.function(type=pl.FunctionType.InCore)
    def second(self, b: pl.Tensor[[N, 64], pl.FP32], c: VIEWED) -> pl.Tensor[[N, 64], pl.FP32]:
        return b

""".replace("VIEWED", VIEW)
MAIN = """    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[N, 64], pl.FP32], n: pl.Scalar[pl.INDEX]):
        part = pl.slice(x, [64, 64], [0, 0], valid_shape=[n, 64])
        o = self.first(part)
        return self.second(x, part)
"""


def program(*methods: str, head: str = HEAD) -> str:
    return head + "@pl.program\nclass Shared:\n" + "".join(methods)


def vs001(text: str) -> Finding:
    [finding] = [f for f in check_text("k.py", text, None, MEMO) if f.code == "VS001"]
    return finding


def fixed(text: str) -> str:
    finding = vs001(text)
    assert finding.fix is not None
    new = apply_edits(text, finding.fix.edits)
    ast.parse(new)
    assert [f for f in check_text("k.py", new, None) if f.code == "VS001"] == []
    return new


def test_a_parameter_that_would_split_the_symbols_readers_is_named_afresh() -> None:
    """second (before first) keeps N, main (after) would read first's parameter: the call
    main makes of second would bind N to two values. The fix declares N_first as the same
    symbol, reads it in first and names the parameter so: it takes over what first alone
    reads."""
    text = program(SECOND, FIRST, MAIN)
    finding = vs001(text)
    assert finding.fix is not None and finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter N_first to 'first' (its own `N_first = pl.dynamic(...)` for "
        "'N') and pass the extent at 1 call site"
    )
    assert (
        " A parameter named 'N' would take over `pl.dynamic` 'N' for every function pypto's "
        "parser reads after 'first' ('main'), while those before it ('second') keep the symbol "
        "they share with them: calls between them would bind one symbol to two values, which "
        "the parser rejects (conflicting bindings, not provably equal). So the fix declares "
        "`N_first` as the same symbol after 'N', reads it for 'N' in 'first' and names the "
        "parameter 'N_first'." in finding.message
    )
    assert fixed(text) == program(
        SECOND,
        FIRST.replace("(self, a", "(self, N_first: pl.Scalar[pl.INDEX], a")
        .replace("valid_shape=[N, 64]", "valid_shape=[N_first, 64]")
        .replace("valid_shapes=[N, 64]", "valid_shapes=[N_first, 64]"),
        MAIN.replace("self.first(part)", "self.first(n, part)"),
        head=HEAD.replace(
            'N = pl.dynamic("N")\n', 'N = pl.dynamic("N")\nN_first = pl.dynamic("N")\n'
        ),
    )


def test_readers_on_one_side_keep_the_plain_fix() -> None:
    """Every other reader after the kernel: they all read its parameter, as one symbol."""
    text = program(FIRST, SECOND, MAIN)
    finding = vs001(text)
    assert finding.fix is not None and finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter N to 'first' and pass the extent at 1 call site"
    )
    assert "would take over" not in finding.message
    assert fixed(text) == program(
        FIRST.replace("(self, a", "(self, N: pl.Scalar[pl.INDEX], a"),
        SECOND,
        MAIN.replace("self.first(part)", "self.first(n, part)"),
    )


def test_a_kernel_that_takes_the_symbol_over_itself_is_no_reader() -> None:
    """A kernel whose own fix gives it the parameter reads that parameter wherever it is."""
    other = FIRST.replace("def first", "def third").replace("a: ", "t: ").replace("(a,", "(t,")
    other = other.replace(", a)", ", t)")
    text = program(other, FIRST, MAIN.replace("return self.second(x, part)", "return o"))
    findings = [f for f in check_text("k.py", text, None) if f.code == "VS001"]
    assert [f.fix.title for f in findings if f.fix is not None] == [
        "Add leading parameter N to 'third' and pass the extent at 0 call sites",
        "Add leading parameter N to 'first' and pass the extent at 1 call site",
    ]


def test_without_a_free_name_the_fix_is_not_preferred() -> None:
    """first assigns N in its body, so its reads of N are not all the symbol: no rename."""
    text = program(
        SECOND,
        FIRST.replace("        return pl.store", "        N = 4\n        return pl.store"),
        MAIN,
    )
    finding = vs001(text)
    assert finding.fix is not None and not finding.fix.preferred
    assert finding.fix.title == (
        "Add leading parameter N to 'first' and pass the extent at 1 call site; not "
        "preferred: parameter 'N' would change what 'main' read"
    )
    assert finding.message.endswith(
        " The fix is not preferred: the kernel cannot get a `pl.dynamic` of its own for it (it "
        "assigns 'N', 'N_first' is taken, or 'N' is not declared here as `N = pl.dynamic(...)`)."
    )


def many_readers(n: int) -> str:
    """n programs, each with a reader before and after a kernel that gains N."""
    return HEAD + "".join(f"@pl.program\nclass P{i}:\n" + SECOND + FIRST + MAIN for i in range(n))


def test_the_readers_of_many_programs_cost_linear_time() -> None:
    small, large = many_readers(40), many_readers(80)
    check_text("k.py", small, None, MEMO)
    linear_time.assert_linear(
        lambda: check_text("k.py", small, None, MEMO),
        lambda: check_text("k.py", large, None, MEMO),
        len(large) / len(small),
        before=MEMO.clear,
    )


def test_a_reused_verdict_follows_an_edit_of_another_member() -> None:
    """The findings of a program's kernel are reused while its program members read the
    same names (``cache.UnitKeys``): an edit that stops 'second' reading N changes whether
    first's parameter would split N's readers, so first's fix must change with it."""
    plain_second = SECOND.replace("pl.Tensor[[N, 64], pl.FP32]", "pl.Tensor[[64, 64], pl.FP32]")
    plain_second = plain_second.replace(VIEW, "pl.Tensor[[64, 64], pl.FP32]")
    split, whole = program(SECOND, FIRST, MAIN), program(plain_second, FIRST, MAIN)
    MEMO.clear()
    alone = {text: vs001(text) for text in (split, whole)}
    assert alone[split].fix != alone[whole].fix  # (the verdicts differ)
    for order in ((split, whole, split), (whole, split, whole)):
        MEMO.clear()
        assert [vs001(text) for text in order] == [alone[text] for text in order]


def test_an_edit_walks_again_only_the_member_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The names each program member reads are kept by the member's text (``UnitMemo``):
    an edit inside one member does not walk the others again (the 4,600-line P4 module's
    edit spent most of its time there)."""
    from passlint.passes.materialize_valid_shape_symbols import cache

    walked: list[str] = []
    real = cache._names_read

    def names_read(node: ast.AST) -> set[str]:
        walked.append(getattr(node, "name", "?"))
        return real(node)

    monkeypatch.setattr(cache, "_names_read", names_read)
    text = program(SECOND, FIRST, MAIN)
    MEMO.clear()
    check_text("k.py", text, None, MEMO)
    assert sorted(set(walked)) == ["first", "main", "second"]
    edited = text.replace("        return b\n", "        return b  # edited\n")
    expected = check_text("k.py", edited, None, PlMemo())
    walked.clear()
    assert check_text("k.py", edited, None, MEMO) == expected
    assert walked == ["second"]

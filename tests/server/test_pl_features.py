"""pl features end to end: hover on valid_shape symbols, kernels and kernel parameters (from
the pass's own analysis), go-to-definition and references across workspace files (imported
kernels and ``pl.dynamic`` symbols, ``self.k`` and ``pl.submit`` call targets), and the
document symbols of a pl source; exact ranges."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .conftest import Session, doc, pos, rng

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

KERNELS = "pl/cross_file/kernels.py"
PROGRAM = "pl/cross_file/program.py"
METHODS = "pl/methods/program.py"


async def hover(session: Session, uri: str, line: int, character: int) -> types.Hover | None:
    return await session.client.text_document_hover_async(
        types.HoverParams(text_document=doc(uri), position=pos(line, character))
    )


def text_of(found: types.Hover | None) -> str:
    assert found is not None and isinstance(found.contents, types.MarkupContent)
    assert found.contents.kind == types.MarkupKind.Markdown
    return found.contents.value


async def locations(
    session: Session, uri: str, line: int, character: int, references: bool = False
) -> list[tuple[str, types.Range]]:
    if references:
        found = await session.client.text_document_references_async(
            types.ReferenceParams(
                text_document=doc(uri),
                position=pos(line, character),
                context=types.ReferenceContext(include_declaration=True),
            )
        )
    else:
        found = await session.client.text_document_definition_async(
            types.DefinitionParams(text_document=doc(uri), position=pos(line, character))
        )
    assert isinstance(found, list | tuple)
    out = []
    for location in found:
        assert isinstance(location, types.Location)
        out.append((location.uri, location.range))
    return out


async def test_hover_on_an_unbound_symbol_lists_slots_and_what_callers_pass(
    session: Session,
) -> None:
    uri = session.open(KERNELS)
    found = await hover(session, uri, 10, 52)  # VALID_COLS in scale_rows' valid_shape
    assert found is not None and found.range == rng(10, 50, 60)
    assert text_of(found) == (
        "**MaterializeValidShapeSymbols**\n\n"
        "valid_shape symbol `VALID_COLS` of kernel `scale_rows`: **unbound**; slots: `x` dim 1. "
        "The pass adds the leading parameter `VALID_COLS: pl.Scalar[pl.INDEX]` and passes the "
        "extent at every call.\n"
        "- program.py:20 `scale_rows`: passes `cols`\n"
        "- program.py:23 `scale_rows`: passes `width`"
    )


async def test_hover_on_bound_symbols_kernels_and_parameters(session: Session) -> None:
    uri = session.open(KERNELS)
    rows = await hover(session, uri, 10, 45)
    assert rows is not None and rows.range == rng(10, 44, 48)
    assert "`ROWS` of kernel `scale_rows`: **bound** by the physical shape of parameter `x` " in (
        text_of(rows)
    )
    kernel = await hover(session, uri, 8, 6)
    assert kernel is not None and kernel.range == rng(8, 4, 14)
    assert "InCore kernel `scale_rows`: valid_shape symbols `ROWS` (bound), `VALID_COLS` " in (
        text_of(kernel)
    )
    param = await hover(session, uri, 9, 4)
    assert param is not None and param.range == rng(9, 4, 5)
    assert text_of(param).endswith(
        "parameter `x` (tensor, in) of kernel `scale_rows`: binds `ROWS` (dim 0); slot of "
        "`VALID_COLS` (dim 1)."
    )
    assert await hover(session, uri, 0, 3) is None  # a comment


async def test_hover_on_a_view_variable_symbol_and_a_scalar_binding(session: Session) -> None:
    uri = session.open(METHODS)
    found = await hover(session, uri, 5, 39)  # VALID inside VIEW, read by two kernels
    assert found is not None and found.range == rng(5, 38, 43)
    value = text_of(found)
    assert "- program.py:22 `self.scale`: passes `n`" in value
    assert "- program.py:23 `pl.submit(self.scale, ...)`: passes `128`" in value
    assert "- program.py:24 `self.scale`: cannot be resolved: the call passes *args" in value
    assert "kernel `tile`" not in value  # tile's view is inline
    inline = await hover(session, uri, 15, 112)  # VALID in tile's own TensorView
    assert inline is not None and inline.range == rng(15, 111, 116)
    assert "`VALID` of kernel `tile`: **bound** by scalar parameter `VALID`" in text_of(inline)


async def test_definition_of_an_imported_kernel_and_symbol(session: Session) -> None:
    program = session.open(PROGRAM)
    kernels = session.uri(KERNELS)
    name = (kernels, rng(8, 4, 14))
    assert await locations(session, program, 19, 16) == [name]  # scale_rows(head, out)
    assert await locations(session, program, 22, 20) == [name]  # return scale_rows(...)
    assert await locations(session, program, 5, 28) == [name]  # the import
    assert await locations(session, program, 13, 24) == [(kernels, rng(3, 0, 4))]  # ROWS
    assert await locations(session, program, 18, 30) == []  # pl.slice


async def test_references_of_a_kernel_include_calls_in_other_files(session: Session) -> None:
    kernels = session.open(KERNELS)
    program = session.uri(PROGRAM)
    assert await locations(session, kernels, 8, 6, references=True) == [
        (kernels, rng(8, 4, 14)),
        (program, rng(5, 26, 36)),
        (program, rng(19, 14, 24)),
        (program, rng(22, 15, 25)),
    ]
    assert await locations(session, kernels, 10, 52, references=True) == [
        (kernels, rng(4, 0, 10)),
        (kernels, rng(10, 50, 60)),
    ]


async def test_references_from_the_importing_file(session: Session) -> None:
    program = session.open(PROGRAM)
    kernels = session.uri(KERNELS)
    found = await locations(session, program, 13, 24, references=True)  # ROWS
    assert found == [
        (kernels, rng(3, 0, 4)),
        (kernels, rng(9, 18, 22)),
        (kernels, rng(10, 44, 48)),
        (kernels, rng(11, 27, 31)),
        (kernels, rng(12, 16, 20)),
        (program, rng(5, 20, 24)),
        (program, rng(13, 22, 26)),
        (program, rng(16, 31, 35)),
        (program, rng(17, 20, 24)),
    ]


async def test_method_kernels_through_self_and_submit(session: Session) -> None:
    uri = session.open(METHODS)
    scale = (uri, rng(11, 8, 13))
    assert await locations(session, uri, 21, 18) == [scale]  # self.scale(a)
    assert await locations(session, uri, 22, 28) == [scale]  # pl.submit(self.scale, src)
    assert await locations(session, uri, 11, 9, references=True) == [
        scale,
        (uri, rng(21, 17, 22)),
        (uri, rng(22, 27, 32)),
        (uri, rng(23, 17, 22)),
    ]
    assert await locations(session, uri, 4, 1, references=True) == [
        (uri, rng(4, 0, 5)),
        (uri, rng(5, 38, 43)),
        (uri, rng(15, 111, 116)),
    ]


async def test_pl_document_symbols_of_methods(session: Session) -> None:
    uri = session.open(METHODS)
    found = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert found is not None
    top = [s for s in found if isinstance(s, types.DocumentSymbol)]
    assert [(s.name, s.detail, s.selection_range) for s in top] == [
        ("VALID", 'pl.dynamic("VALID")', rng(4, 0, 5)),
        ("Methods", "pl.program", rng(9, 6, 13)),
    ]
    methods = top[1].children or []
    assert [(m.name, m.kind, m.detail, m.selection_range) for m in methods] == [
        ("scale", types.SymbolKind.Method, "InCore kernel", rng(11, 8, 13)),
        ("tile", types.SymbolKind.Method, "AIV kernel", rng(15, 8, 12)),
        ("main", types.SymbolKind.Method, "pl.function (Orchestration)", rng(19, 8, 12)),
    ]


NESTED = "pl/nested/builders.py"


async def test_hover_on_a_kernel_of_a_program_built_in_a_function(session: Session) -> None:
    uri = session.open(NESTED)
    symbol = await hover(session, uri, 12, 86)  # TAIL_N, a builder's local pl.dynamic
    assert symbol is not None and symbol.range == rng(12, 84, 90)
    assert text_of(symbol) == (
        "**MaterializeValidShapeSymbols**\n\n"
        "valid_shape symbol `TAIL_N` of kernel `tail`: **unbound**; slots: `a` dim 1. "
        "The pass adds the leading parameter `TAIL_N: pl.Scalar[pl.INDEX]` and passes the "
        "extent at every call.\n"
        "- builders.py:19 `self.tail`: passes `n`"
    )
    tail = await hover(session, uri, 12, 13)  # the kernel lists its call sites
    assert tail is not None and text_of(tail).endswith(
        "The pass adds leading parameters `TAIL_N`.\nCall sites:\n"
        "- builders.py:19 `self.tail`: passes `n`"
    )
    kernel = await hover(session, uri, 28, 13)  # scale, defined in a test method
    assert kernel is not None and kernel.range == rng(28, 12, 17)
    assert "InCore kernel `scale`: valid_shape symbols `R` (bound), `W` (unbound)" in text_of(
        kernel
    )


async def test_definition_and_references_in_a_nested_program(session: Session) -> None:
    uri = session.open(NESTED)
    tail = (uri, rng(12, 12, 16))
    assert await locations(session, uri, 18, 25) == [tail]  # self.tail(view)
    assert await locations(session, uri, 12, 14, references=True) == [tail, (uri, rng(18, 24, 28))]
    local = (uri, rng(7, 4, 10))  # TAIL_N = pl.dynamic("TAIL_N") in build_tail
    assert await locations(session, uri, 12, 86) == [local]
    assert await locations(session, uri, 7, 5, references=True) == [local, (uri, rng(12, 84, 90))]


async def test_document_symbols_nest_programs_under_their_builders(session: Session) -> None:
    uri = session.open(NESTED)
    found = await session.client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(uri))
    )
    assert found is not None
    top = [s for s in found if isinstance(s, types.DocumentSymbol)]
    assert [(s.name, s.kind) for s in top] == [
        ("R", types.SymbolKind.Constant),
        ("build_tail", types.SymbolKind.Function),
        ("test_scale", types.SymbolKind.Function),
    ]
    [program] = top[1].children or []
    assert (program.name, program.detail) == ("Tail", "pl.program")
    assert [(m.name, m.detail) for m in program.children or []] == [
        ("tail", "AIV kernel"),
        ("main", "pl.function (Orchestration)"),
    ]
    [scale] = top[2].children or []
    assert (scale.name, scale.detail, scale.selection_range) == (
        "scale",
        "InCore kernel",
        rng(28, 12, 17),
    )

"""pl completion (``pl.dynamic`` symbols inside ``valid_shape=[...]``, kernels at call sites)
and rename of a valid_shape symbol (declaration, string, uses in other files), end to end."""

from __future__ import annotations

import re

import pytest
from lsprotocol import types

from .conftest import Session, apply_workspace_edit, doc, pos

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

SOFTMAX = "pl/softmax_prepare.py"


async def labels(session: Session, uri: str, line: int, character: int) -> list[str]:
    found = await session.client.text_document_completion_async(
        types.CompletionParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(found, types.CompletionList)
    return [item.label for item in found.items]


def line_of(session: Session, uri: str, needle: str) -> tuple[int, int]:
    for number, text in enumerate(session.texts[uri].split("\n")):
        if needle in text:
            return number, text.index(needle)
    raise AssertionError(needle)


async def test_symbols_in_valid_shape(editor: Session) -> None:
    uri = editor.open(SOFTMAX)
    await editor.diagnostics(uri)
    line, column = line_of(editor, uri, "valid_shape=[Q, VALID]")
    inside = column + len("valid_shape=[")
    assert await labels(editor, uri, line, inside) == ["BLK", "Q", "VALID"]
    # while typing, the text does not parse: the last model that did answers
    editor.edit(
        uri,
        types.Range(start=pos(line, inside), end=pos(line, inside + len("Q, VALID]"))),
        "Q, VA",
    )
    assert await labels(editor, uri, line, inside + len("Q, VA")) == ["VALID"]


async def test_kernels_at_call_sites(editor: Session) -> None:
    uri = editor.open(SOFTMAX)
    await editor.diagnostics(uri)
    line, column = line_of(editor, uri, "return softmax_prepare(")
    end = column + len("return soft")
    rest = len("max_prepare(narrowed, out)")
    editor.edit(uri, types.Range(start=pos(line, end), end=pos(line, end + rest)), "")
    assert await labels(editor, uri, line, end) == ["softmax_prepare"]
    methods = editor.open("pl/methods/program.py")
    await editor.diagnostics(methods)
    line, column = line_of(editor, methods, "r = self.scale(a)")
    assert await labels(editor, methods, line, column + len("r = self.")) == ["scale", "tile"]


async def rename(
    session: Session, uri: str, line: int, character: int, name: str
) -> dict[str, str]:
    prepared = await session.client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=doc(uri), position=pos(line, character))
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    edit = await session.client.text_document_rename_async(
        types.RenameParams(text_document=doc(uri), position=pos(line, character), new_name=name)
    )
    assert edit is not None

    def read(u: str) -> str:
        return session.texts[u] if u in session.texts else session.path(u).read_text()

    return apply_workspace_edit(edit, read)


async def test_rename_a_valid_shape_symbol(editor: Session) -> None:
    uri = editor.open(SOFTMAX)
    await editor.diagnostics(uri)
    line, column = line_of(editor, uri, "valid_shape=[Q, VALID]")
    renamed = await rename(editor, uri, line, column + len("valid_shape=[Q, V"), "VALID_LEN")
    text = renamed[uri]
    assert 'VALID_LEN = pl.dynamic("VALID_LEN")' in text
    assert "valid_shape=[Q, VALID_LEN]" in text
    assert text.replace("VALID_LEN", "VALID") == editor.texts[uri]


async def test_rename_reaches_other_files(editor: Session) -> None:
    kernels = editor.open("pl/cross_file/kernels.py")
    await editor.diagnostics(kernels)
    line, column = line_of(editor, kernels, 'ROWS = pl.dynamic("ROWS")')
    renamed = await rename(editor, kernels, line, column + 1, "NROWS")
    program = editor.uri("pl/cross_file/program.py")
    assert set(renamed) == {kernels, program}
    # the declaration, its string, three shapes and the valid_shape; the import and 3 shapes
    assert renamed[kernels].count("NROWS") == 6 and not re.search(r"\bROWS\b", renamed[kernels])
    assert "from kernels import NROWS, scale_rows" in renamed[program]
    assert renamed[program].count("NROWS") == 4 and not re.search(r"\bROWS\b", renamed[program])


async def test_rename_refuses_other_names(editor: Session) -> None:
    uri = editor.open(SOFTMAX)
    await editor.diagnostics(uri)
    line, column = line_of(editor, uri, "valid_shape=[Q, VALID]")
    with pytest.raises(Exception, match="not a Python name"):
        await editor.client.text_document_rename_async(
            types.RenameParams(
                text_document=doc(uri), position=pos(line, column + 17), new_name="2x"
            )
        )
    kernel_line, kernel_column = line_of(editor, uri, "def softmax_prepare")
    assert (
        await editor.client.text_document_prepare_rename_async(
            types.PrepareRenameParams(
                text_document=doc(uri), position=pos(kernel_line, kernel_column + 6)
            )
        )
        is None
    )

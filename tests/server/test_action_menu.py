"""The code-action menu of a line with two findings of one rule (issue 30, point 3): every
editor sends all the diagnostics of the cursor's line, and each suppression or explanation
is offered once for all of them, not once per diagnostic."""

from __future__ import annotations

import pytest

from .conftest import Session
from .test_editor_features import applied, code_actions

pytestmark = pytest.mark.filterwarnings("error::pytest_lsp.LspSpecificationWarning")

RETURN_LINE = 26  # `func.return %arg0, %arg1, ..., %cst, ...` of mlir/hybrid.mlir

# @main returns its arguments from two lines: one TL001 on each.
TWO_LINES = """\
module @m {
  func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    return %arg0,
      %arg1 : tensor<4xf32>, tensor<4xf32>
  }
}
"""


async def test_each_action_once_for_two_findings_on_a_line(editor: Session) -> None:
    uri = editor.open("mlir/hybrid.mlir")
    on_line = [d for d in await editor.diagnostics(uri) if d.range.start.line == RETURN_LINE]
    assert sorted(str(d.code) for d in on_line) == ["TL001", "TL001", "TL002", "TL006"]
    found = await code_actions(editor, uri, on_line)
    titles = [a.title for a in found]
    assert len(titles) == len(set(titles)), titles
    assert [t for t in titles if not t.startswith("Copy ")] == [
        "Disable TL001 for this line",
        "Disable TL001 for this file",
        "Explain TL001",
        "Disable TL002 for this line",
        "Disable TL002 for this file",
        "Explain TL002",
        "Disable TL006 for this line",
        "Disable TL006 for this file",
        "Explain TL006",
        "Fix all passlint findings",
    ]
    by_title = {a.title: a for a in found}
    line = by_title["Disable TL001 for this line"]
    assert [d.code for d in line.diagnostics or []] == ["TL001", "TL001"]
    editor.change(uri, applied(editor, uri, line.edit))  # both are silenced
    codes = [d.code for d in await editor.diagnostics(uri) if d.range.start.line == RETURN_LINE]
    assert sorted(str(code) for code in codes) == ["TL002", "TL006"]


async def test_findings_of_one_rule_on_two_lines_name_their_lines(editor: Session) -> None:
    uri = editor.open("mlir/two_lines.mlir", TWO_LINES)
    diagnostics = await editor.diagnostics(uri)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("TL001", 2), ("TL001", 3)]
    found = {a.title: a for a in await code_actions(editor, uri, diagnostics)}
    assert [t for t in found if not t.startswith("Copy ")] == [
        "Disable TL001 for line 3",
        "Disable TL001 for line 4",
        "Disable TL001 for this file",
        "Explain TL001",
        "Fix all passlint findings",
    ]
    text = applied(editor, uri, found["Disable TL001 for line 4"].edit)
    assert text.split("\n")[3].endswith("tensor<4xf32>  // passlint: ignore[TL001]")
    editor.change(uri, text)
    assert [(d.code, d.range.start.line) for d in await editor.diagnostics(uri)] == [("TL001", 2)]

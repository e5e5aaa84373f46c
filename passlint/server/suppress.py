"""Code actions beside each passlint diagnostic that do not fix it: "Disable CODE for this
line" and "... for this file" (a suppression comment the way the suppression rules read it,
merged into one already there), and "Explain CODE" (``passlint rule CODE``).

They read only the diagnostics and the document's current text, so they are offered at once,
whatever version the diagnostics were published for. Each is offered once for all the
request's diagnostics it answers: two TL001 findings on one line give one "Disable TL001 for
this line", one "... for this file" and one "Explain TL001".
"""

from __future__ import annotations

from collections.abc import Sequence

from lsprotocol import types

from passlint.analysis.pl.excerpt import excerpt
from passlint.analysis.source import SourceText
from passlint.catalog import RULES
from passlint.server.convert import SOURCE
from passlint.server.lsp_objects import lsp_range, workspace_edit
from passlint.suppression import Suppression, suppression_comments

EXPLAIN = "passlint.explainRule"
_HEADER_LINES = ("#!", "# -*-", "# vim:")  # stay first in a Python file


def marker(path: str) -> str:
    return "#" if path.endswith(".py") else "//"


def diagnostic_code(diagnostic: types.Diagnostic) -> str | None:
    """The rule code of a passlint diagnostic (None for any other)."""
    code = diagnostic.code
    if diagnostic.source != SOURCE or not isinstance(code, str) or code not in RULES:
        return None
    return code


def actions(
    diagnostics: Sequence[types.Diagnostic],
    source: SourceText,
    path: str,
    uri: str,
    document_changes: bool,
    version: int | None = None,
) -> list[types.CodeAction]:
    """Per rule code of the passlint ``diagnostics``: disable it for the line (one action per
    distinct edit; titled with the line number when the diagnostics lie on several lines),
    for the file, and explain it."""
    by_code: dict[str, list[types.Diagnostic]] = {}
    for diagnostic in diagnostics:
        code = diagnostic_code(diagnostic)
        if code is not None:
            by_code.setdefault(code, []).append(diagnostic)
    comments = suppression_comments(source)
    line_comments: dict[int, Suppression] = {}
    for comment in comments:
        if not comment.whole_file:
            line_comments.setdefault(comment.line, comment)
    out = []
    for code, answered in by_code.items():
        edits = _line_edits(code, answered, source, path, line_comments)
        for edit, on_line in edits:
            line = on_line[0].range.start.line + 1
            where = "this line" if len(edits) == 1 else f"line {line}"
            out.append(
                _edit_action(
                    f"Disable {code} for {where}", edit, on_line, uri, document_changes, version
                )
            )
        file_edit = _file_edit(code, source, path, comments)
        if file_edit is not None:
            out.append(
                _edit_action(
                    f"Disable {code} for this file",
                    file_edit,
                    answered,
                    uri,
                    document_changes,
                    version,
                )
            )
        out.append(
            types.CodeAction(
                title=f"Explain {code}",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=answered,
                command=types.Command(title=f"Explain {code}", command=EXPLAIN, arguments=[code]),
            )
        )
    return out


def _line_edits(
    code: str,
    diagnostics: list[types.Diagnostic],
    source: SourceText,
    path: str,
    line_comments: dict[int, Suppression],
) -> list[tuple[types.TextEdit, list[types.Diagnostic]]]:
    """The distinct line suppressions of ``diagnostics``, each with the diagnostics it
    silences, in their order."""
    found: dict[tuple[int, int, str], tuple[types.TextEdit, list[types.Diagnostic]]] = {}
    for diagnostic in diagnostics:
        edit = _line_edit(code, diagnostic, source, path, line_comments)
        if edit is not None:
            at = (edit.range.start.line, edit.range.start.character, edit.new_text)
            found.setdefault(at, (edit, []))[1].append(diagnostic)
    return list(found.values())


def _edit_action(
    title: str,
    edit: types.TextEdit,
    diagnostics: list[types.Diagnostic],
    uri: str,
    document_changes: bool,
    version: int | None,
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=diagnostics,
        edit=workspace_edit(
            [{"uri": uri, "version": version, "edits": [_json(edit)]}], document_changes
        ),
    )


def _line_edit(
    code: str,
    diagnostic: types.Diagnostic,
    source: SourceText,
    path: str,
    line_comments: dict[int, Suppression],
) -> types.TextEdit | None:
    """A suppression of ``code`` on the diagnostic's line (``line_comments``: the first
    line suppression comment of each line)."""
    line = diagnostic.range.start.line
    if line >= source.line_count:
        return None
    for at in (line, line - 1):  # a comment on the line, or on the line above, applies
        comment = line_comments.get(at)
        if comment is not None:
            return _merged(code, comment, source)
    text = source.line_text(line)
    end = source.to_utf16(source.position(source.line_starts[line] + len(text)))
    position = types.Position(line=line, character=end.column)
    gap = "  " if text.strip() else ""
    return types.TextEdit(
        range=types.Range(start=position, end=position),
        new_text=f"{gap}{marker(path)} passlint: ignore[{code}]",
    )


def _file_edit(
    code: str, source: SourceText, path: str, comments: list[Suppression]
) -> types.TextEdit | None:
    for comment in comments:
        if comment.whole_file:
            return _merged(code, comment, source)
    line = 0
    while path.endswith(".py") and source.line_text(line).startswith(_HEADER_LINES):
        line += 1
    position = types.Position(line=line, character=0)
    return types.TextEdit(
        range=types.Range(start=position, end=position),
        new_text=f"{marker(path)} passlint: ignore-file[{code}]\n",
    )


def _merged(code: str, comment: Suppression, source: SourceText) -> types.TextEdit | None:
    """``code`` added to the list of an existing comment (None: it is there already)."""
    if code in comment.codes:
        return None
    end = comment.list_end
    while end > comment.list_start and source.text[end - 1] == " ":
        end -= 1
    return types.TextEdit(range=lsp_range(source, source.range(end, end)), new_text=f", {code}")


def _json(edit: types.TextEdit) -> dict[str, object]:
    def position(at: types.Position) -> dict[str, int]:
        return {"line": at.line, "character": at.character}

    return {
        "range": {"start": position(edit.range.start), "end": position(edit.range.end)},
        "newText": edit.new_text,
    }


def explanation(code: str) -> str:
    """What ``passlint rule CODE`` prints."""
    rule = RULES.get(code.upper())
    if rule is None:
        raise ValueError(f"unknown rule {excerpt(code)!r}")
    return rule.explain()

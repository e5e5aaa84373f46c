"""The IR of a parsed .mlir file as plain data, for tests that compare two parses (the
line-shape and token paths, cached and fresh caches), and the check that ops' tokens cut
again are the scanner's."""

from __future__ import annotations

from passlint.analysis.mlir import parser
from passlint.analysis.mlir.ir import Operation, ParsedFile, function_name
from passlint.analysis.mlir.lexer import Tok
from passlint.analysis.mlir.structure import StatementSyntax
from passlint.analysis.mlir.template import Template


def dump(parsed: ParsedFile) -> list[object]:
    """Every op with its name, spans, results, uses (and their definitions), arguments,
    attributes and types, after the file's errors."""
    out: list[object] = [[(e.start, e.end, e.message) for e in parsed.errors]]
    for chunk in parsed.chunks:
        for top in chunk.operations:
            for op in top.walk():
                out.append(
                    (
                        op.tokens,  # (those kept: read before anything cuts them)
                        _structure(op),
                        op.name,
                        op.span,
                        op.name_span,
                        op.header_span,
                        [(r.name, r.span) for r in op.results],
                        [
                            (
                                u.name,
                                u.span,
                                u.value.name if u.value else None,
                                u.value.span if u.value else None,
                            )
                            for u in op.operands
                        ],
                        [(a.name, a.span, a.type_text) for a in op.header_arguments],
                        [(a.key, a.value) for a in op.attributes],
                        [t.text for t in op.types],
                        op.signature_types()[0] and [t.text for t in op.signature_types()[0]],
                    )
                )
    return out


def _structure(op: Operation) -> list[object]:
    """Where ``op`` stands (its parents) and its regions' spans, blocks, labels and block
    arguments with their owners."""
    parent = op.parent_op
    out: list[object] = [
        None if parent is None else parent.span,
        op.parent is not None and op in op.parent.operations,
        [a.owner is op for a in op.header_arguments],
    ]
    for region in op.regions:
        out.append((region.span, region.parent is op))
        for block in region.blocks:
            arguments = [
                (a.name, a.span, a.index, a.type_span, a.type_text) for a in block.arguments
            ]
            owners = [a.owner is op for a in block.arguments]
            out.append((block.label, block.label_span, arguments, owners, len(block.operations)))
    return out


def recut_mismatches(text: str) -> list[str]:
    """Ops (name and span) whose ``toks``, cut again from the text, are not the tokens the
    statement scanner gave their statement (a parse with the token path), or whose name's
    span read from the text is not its token's."""
    seen: list[tuple[Operation, list[Tok]]] = []
    build = parser._Builder._operation

    def recording(
        self: parser._Builder, statement: StatementSyntax, template: Template
    ) -> Operation:
        op = build(self, statement, template)
        seen.append((op, list(statement.toks)))
        return op

    parser._Builder._operation = recording  # type: ignore[method-assign]
    try:
        parser.parse_file(text)
    finally:
        parser._Builder._operation = build  # type: ignore[method-assign]
    # (the name's span, read from the text while the op has no tokens, then from them)
    names = [op.name_span for op, _ in seen]
    wrong = [
        f"{op.name} at {op.span}"
        for (op, toks), name in zip(seen, names, strict=True)
        if op.toks != toks or op.tok_span(op.template.name) != name
    ]
    fast = [
        op
        for chunk in parser.parse_file(text).chunks
        for top in chunk.operations
        for op in top.walk()
    ]
    names = [(op.name_span, function_name(op)) for op in fast]
    wrong += [
        f"{op.name} at {op.span} (line shape)"
        for op, (name, function) in zip(fast, names, strict=True)
        if op.tok_span(op.template.name) != name or _function_name_from_tokens(op) != function
    ]
    return wrong


def _function_name_from_tokens(op: Operation) -> str | None:
    op.toks  # noqa: B018 (cut: function_name reads them then)
    return function_name(op)

"""The IR of a parsed .mlir file as plain data, for tests that compare two parses (the
line-shape and token paths, cached and fresh caches)."""

from __future__ import annotations

from passlint.analysis.mlir.ir import ParsedFile


def dump(parsed: ParsedFile) -> list[object]:
    """Every op with its name, spans, results, uses (and their definitions), arguments,
    attributes and types, after the file's errors."""
    out: list[object] = [[(e.start, e.end, e.message) for e in parsed.errors]]
    for chunk in parsed.chunks:
        for top in chunk.operations:
            for op in top.walk():
                out.append(
                    (
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

"""Splitting the text of an attribute or type at a top-level separator: outside brackets
(``<>``, ``()``, ``[]``, ``{}``; the ``>`` of ``->`` is not a bracket) and outside strings."""

from __future__ import annotations


def split_top_level(text: str, separator: str) -> list[str]:
    """``text`` cut at each top-level ``separator`` (one character); at least one part."""
    parts: list[str] = []
    depth, start, in_string, escaped = 0, 0, False, False
    for index, char in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "<([{":
            depth += 1
        elif char in ">)]}" and not (char == ">" and index > 0 and text[index - 1] == "-"):
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return parts

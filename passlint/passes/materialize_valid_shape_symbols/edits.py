"""Byte-minimal, layout-keeping source edits for MaterializeValidShapeSymbols fixes.

A signature written one parameter per line stays so (same indentation); a one-line
signature stays on one line. Only the inserted or moved text changes.
"""

from __future__ import annotations

from passlint.analysis.findings import TextEdit
from passlint.analysis.pl.model import CallSite, Function, Module, Param
from passlint.analysis.pl.positions import Positions


def scalar_annotation(module: Module) -> str:
    """``pl.Scalar[pl.INDEX]`` spelled with the module's own alias of pypto.language."""
    for local, full in sorted(module.aliases.items()):
        if full == "pypto.language":
            return f"{local}.Scalar[{local}.INDEX]"
    if module.aliases.get("Scalar") == "pypto.language.Scalar" and "INDEX" in module.aliases:
        return "Scalar[INDEX]"
    if module.aliases.get("pypto") == "pypto":
        return "pypto.language.Scalar[pypto.language.INDEX]"
    return "pl.Scalar[pl.INDEX]"


def _insertion(text: str, at: int, items: list[str]) -> str:
    """``item, `` per item, or ``item,\\n<indent>`` when ``at`` starts its line."""
    line_start = text.rfind("\n", 0, at) + 1
    indent = text[line_start:at]
    if indent.strip() == "":
        return "".join(f"{item},\n{indent}" for item in items)
    return "".join(f"{item}, " for item in items)


def leading_params(kernel: Function, module: Module, pos: Positions, names: list[str]) -> TextEdit:
    """Insert ``NAME: pl.Scalar[pl.INDEX]`` params in front of the kernel's first param."""
    annotation = scalar_annotation(module)
    declarations = [f"{name}: {annotation}" for name in names]
    text = module.text
    if kernel.params:
        at = pos.start(kernel.params[0].node)
        new_text = _insertion(text, at, declarations)
    else:
        args = kernel.node.args
        first = [*args.posonlyargs, *args.args]
        if kernel.has_self and first:
            at = pos.end(first[0])
            new_text = ", " + ", ".join(declarations)
        else:
            at = text.find("(", pos.start(kernel.node)) + 1
            new_text = ", ".join(declarations)
    return TextEdit(module.path, pos.source.range(at, at), new_text)


def call_extents(site: CallSite, module: Module, pos: Positions, texts: list[str]) -> TextEdit:
    """Prepend the extents to the kernel's arguments at one call site."""
    text = module.text
    if site.insert_at >= 0:
        at = site.insert_at
        new_text = _insertion(text, at, texts)
    elif site.form == "call":
        at = site.span[1] - 1
        new_text = ", ".join(texts)
    else:
        at = pos.end(site.node.args[0])
        new_text = ", " + ", ".join(texts)
    return TextEdit(module.path, pos.source.range(at, at), new_text)


def move_param(
    kernel: Function, module: Module, pos: Positions, late: Param, first_reader: Param
) -> list[TextEdit]:
    """Move ``late`` in front of ``first_reader`` (VS005), keeping the signature layout."""
    text = module.text
    params = kernel.params
    start, end = pos.span(late.node)
    target = pos.start(first_reader.node)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    rest = text[end:line_end]
    stripped = rest.strip()
    own_line = text[line_start:start].strip() == "" and (
        stripped in ("", ",") or stripped.lstrip(",").lstrip().startswith("#")
    )
    target_own_line = text[text.rfind("\n", 0, target) + 1 : target].strip() == ""
    if own_line and target_own_line:
        if rest.lstrip().startswith(","):
            moved = text[start:line_end].rstrip()
        else:
            moved = text[start:end] + "," + rest.rstrip()
        indent = text[text.rfind("\n", 0, target) + 1 : target]
        delete_end = min(line_end + 1, len(text))
        return [
            TextEdit(module.path, pos.source.range(target, target), f"{moved}\n{indent}"),
            TextEdit(module.path, pos.source.range(line_start, delete_end), ""),
        ]
    moved = text[start:end]
    insert = _insertion(text, target, [moved])
    following = next((p for p in params if p.index == late.index + 1), None)
    previous = next((p for p in params if p.index == late.index - 1), None)
    if following is not None:
        delete = (start, pos.start(following.node))
    else:
        assert previous is not None
        delete = (pos.end(previous.node), end)
    return [
        TextEdit(module.path, pos.source.range(target, target), insert),
        TextEdit(module.path, pos.source.range(*delete), ""),
    ]

"""The package's layers and its import graph, read from its files with ``ast`` (nothing is
imported or run): every ``import passlint...`` and ``from passlint... import`` statement,
at module level and inside functions alike. An import under ``if TYPE_CHECKING:`` is read
for the layers (a type names what it depends on) but is no edge of the run-time graph the
cycle check walks (it is never executed)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import passlint

PACKAGE = Path(passlint.__file__).parent

# Top down: the faces (what people and editors talk to), the pipeline that runs the passes
# on a document, the passes, and analysis/ (front ends, IR, rule catalog) at the bottom.
FACES = ("passlint.server", "passlint.cli", "passlint.check", "passlint.runner", "passlint.report")
PIPELINE = (
    "passlint.pipeline",
    "passlint.suppression",
    "passlint.quick",
    "passlint.streaming",
    "passlint.memo",
)
PASSES = ("passlint.passes",)

# What each layer must not import (a module, or anything below a package).
FORBIDDEN = {
    "passlint.analysis": (*PASSES, *PIPELINE, *FACES),
    "passlint.passes": (*PIPELINE, *FACES),
}


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the passlint module it imports
    line: int
    typing_only: bool  # under ``if TYPE_CHECKING:``


def _module_of(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_of(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _targets(node: ast.Import | ast.ImportFrom, module: str) -> list[str]:
    """The passlint modules an import statement loads (``from X import y``: ``X.y`` when that
    is a module, else ``X``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names if _within(alias.name, "passlint")]
    base = node.module or ""
    if node.level:  # relative: from the importing module's package
        package = module.split(".")
        if MODULES[module].name != "__init__.py":
            package = package[:-1]
        package = package[: len(package) - (node.level - 1)]
        base = ".".join([*package, *([base] if base else [])])
    if not _within(base, "passlint"):
        return []
    found = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in MODULES]
    return found if len(found) == len(node.names) else [*found, base]


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(module: str) -> list[Import]:
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target in _targets(node, module):
                found.append(Import(module, target, node.lineno, typing_only))
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for statement in node.body:
                visit(statement, True)
            for statement in node.orelse:
                visit(statement, typing_only)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(tree, False)
    return found


IMPORTS = [found for module in MODULES for found in _imports_of(module)]


def test_the_graph_reads_every_module() -> None:
    """A sanity check of the reader: known edges are found, function-level ones included."""
    edges = {(found.module, found.target) for found in IMPORTS}
    assert ("passlint.cli", "passlint.check") in edges  # inside main()
    assert ("passlint.pipeline", "passlint.suppression") in edges
    assert ("passlint.quick", "passlint.passes.tensorizer_legalization.findings") in edges
    assert all(found.target in MODULES for found in IMPORTS)


def test_layers_import_only_downwards() -> None:
    """``analysis/`` (front ends, IR, rules) knows nothing of the passes, the pipeline that
    drives them or the faces; ``passes/`` knows nothing of the pipeline or the faces."""
    wrong = [
        f"{found.module}:{found.line} imports {found.target}"
        for found in IMPORTS
        for layer, forbidden in FORBIDDEN.items()
        if _within(found.module, layer) and any(_within(found.target, f) for f in forbidden)
    ]
    assert wrong == []


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module in the run-time graph
    (Tarjan's algorithm), each sorted."""
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for found in IMPORTS:
        if not found.typing_only and found.target != found.module:
            graph[found.module].add(found.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return sorted(components)


def test_no_import_cycles() -> None:
    """No module imports (directly or through others) a module that imports it back, at
    module level or inside a function."""
    assert _cycles() == []

"""No import circle among the modules of a package folder: the graph of the imports each
module runs (at its top level or in a function; not those under ``if TYPE_CHECKING:``),
read with ``ast`` from the files, has no cycle. Any folder of ``passlint`` can be checked:
add it to ``FOLDERS``."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "passlint"
FOLDERS = [PACKAGE / "analysis" / "mlir"]


def module_name(path: Path, root: Path) -> str:
    """The dotted name of the module in ``path`` under the import root ``root`` (a
    package's is its folder's)."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of ``tree`` that run (all but those under TYPE_CHECKING)."""
    found: list[ast.Import | ast.ImportFrom] = []
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return found


def imported(name: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules an import statement of module ``name`` names (``from a import b``: the
    module ``a.b`` when there is one, else ``a``; the caller keeps the ones it knows)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = name.split(".")
        keep = len(parts) - node.level + (1 if is_package else 0)
        base = ".".join([*parts[:keep], *([base] if base else [])])
    return [base, *(f"{base}.{alias.name}" for alias in node.names)]


def import_graph(folder: Path, root: Path = PACKAGE.parent) -> dict[str, set[str]]:
    """Each module under ``folder`` (``root``: the folder its top package is in) and the
    modules under ``folder`` it imports."""
    files = {module_name(path, root): path for path in sorted(folder.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        targets = {t for node in _run_imports(tree) for t in imported(name, is_package, node)}
        graph[name] = {t for t in targets if t in files and t != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each strongly connected part of ``graph`` that has one (Tarjan's
    algorithm, iterative), each as the modules in import order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    parts: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        parts.append(part)
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return [_cycle(graph, set(part)) for part in parts]


def _cycle(graph: dict[str, set[str]], part: set[str]) -> list[str]:
    """A cycle inside the strongly connected ``part``, from its first module back to it."""
    start = min(part)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & part):
            if child == start:
                return [*paths[node], start]
            if child not in paths:
                paths[child] = [*paths[node], child]
                queue.append(child)
    raise AssertionError("a strongly connected part without a cycle")


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda folder: str(folder.relative_to(PACKAGE)))
def test_no_import_circle(folder: Path) -> None:
    assert [" -> ".join(cycle) for cycle in circles(import_graph(folder))] == []


def test_a_circle_is_found_through_function_imports_and_not_through_type_checking(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "a.py").write_text("from pkg.b import x\n")
    (folder / "b.py").write_text("def f():\n    from pkg import c\n")
    (folder / "c.py").write_text("from . import a\n")
    (folder / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n"
    )
    (folder / "e.py").write_text("import pkg.d\n")
    graph = import_graph(folder, tmp_path)
    assert graph["pkg.d"] == set() and graph["pkg.e"] == {"pkg.d"}
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]

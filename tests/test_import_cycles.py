"""No import cycles among qrelsmith's modules, lazy (function-level) imports included."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "qrelsmith"


def module_names(package: Path) -> dict[str, Path]:
    """Every module under ``package``, by dotted name (a package by its own name)."""
    names = {}
    for path in package.rglob("*.py"):
        parts = [package.name, *path.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _type_checking(node: ast.AST) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` that can run: the body of ``if TYPE_CHECKING:`` is left out (its
    imports are for type hints only; its ``else`` is kept)."""
    nodes: list[ast.AST] = []
    pending = [tree]
    while pending:
        node = pending.pop()
        nodes.append(node)
        if _type_checking(node):
            pending.extend([node.test, *node.orelse])  # type: ignore[attr-defined]
        else:
            pending.extend(ast.iter_child_nodes(node))
    return nodes


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``name`` (at ``path``) imports anywhere in its source.

    ``from X import a`` imports ``X.a`` when that is a module, and ``X`` itself for any other
    name; importing a module only to reach its submodule (its parent package) is no edge."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base)
    return {imported for imported in found if imported in modules and imported != name}


def import_graph(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` -> the modules of it that it imports."""
    names = module_names(package)
    return {name: imports_of(name, path, set(names)) for name, path in names.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as its modules in import order (the first again at the end), or
    None. Depth first, in sorted order, so the same graph names the same cycle."""
    done: set[str] = set()
    for start in sorted(graph):
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack = [(start, iter(sorted(graph[start])))]
        path.append(start)
        on_path.add(start)
        while stack:
            node, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                stack.pop()
                path.pop()
                on_path.discard(node)
                done.add(node)
            elif target in on_path:
                return [*path[path.index(target) :], target]
            elif target not in done:
                stack.append((target, iter(sorted(graph[target]))))
                path.append(target)
                on_path.add(target)
    return None


def test_qrelsmith_has_no_import_cycle() -> None:
    graph = import_graph(PACKAGE)
    assert len(graph) > 80 and graph["qrelsmith.run.page_results"]  # the scan sees the tree
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b", "c"}, "b": set(), "c": {"d"}, "d": {"c"}}, ["c", "d", "c"]),
    ],
)
def test_find_cycle(graph: dict[str, set[str]], cycle: list[str] | None) -> None:
    assert find_cycle(graph) == cycle


def test_the_scan_sees_lazy_and_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .sub import leaf\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "leaf.py").write_text("def f():\n    from .. import top\n")
    (package / "top.py").write_text(
        "from typing import TYPE_CHECKING\nfrom .sub.leaf import f\n"
        "if TYPE_CHECKING:\n    from . import sub\n"
    )
    graph = import_graph(package)
    assert graph == {
        "pkg": {"pkg.sub.leaf"},
        "pkg.sub": set(),
        "pkg.sub.leaf": {"pkg.top"},
        "pkg.top": {"pkg.sub.leaf"},
    }
    assert find_cycle(graph) == ["pkg.sub.leaf", "pkg.top", "pkg.sub.leaf"]

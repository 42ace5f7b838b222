"""docs/layout.md maps every module under src/qrelsmith/, and only modules that exist."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "qrelsmith"
DOC = ROOT / "docs" / "layout.md"
INDENT = 2  # spaces per level of the tree


def listed_paths(doc: str) -> list[str]:
    """The paths the doc's tree names, relative to src/qrelsmith/ (packages end in ``/``).

    The tree is the fenced block that opens with ``src/qrelsmith/``; each further line is a
    name indented two spaces per level, then its description."""
    block = doc.split("```text\nsrc/qrelsmith/\n", 1)[1].split("```", 1)[0]
    parents: list[str] = []
    paths = []
    for line in block.splitlines():
        found = re.match(r"( +)(\S+)", line)
        assert found, f"not a tree line: {line!r}"
        depth = len(found.group(1)) // INDENT - 1
        assert len(found.group(1)) % INDENT == 0 and depth <= len(parents), line
        parents = parents[:depth]
        name = found.group(2)
        paths.append("".join(parents) + name)
        if name.endswith("/"):
            parents.append(name)
    return paths


def existing_paths() -> set[str]:
    """Every module and package under src/qrelsmith/, as the doc spells them."""
    paths = set()
    for module in PACKAGE.rglob("*.py"):
        relative = module.relative_to(PACKAGE)
        paths.add(relative.as_posix())
        for parent in relative.parents:
            if parent != Path("."):
                paths.add(parent.as_posix() + "/")
    return paths


def test_the_layout_doc_lists_every_module_once_and_nothing_else() -> None:
    listed = listed_paths(DOC.read_text(encoding="utf-8"))
    assert len(listed) == len(set(listed)), [p for p in listed if listed.count(p) > 1]
    existing = existing_paths()
    assert sorted(existing - set(listed)) == [], "modules missing from docs/layout.md"
    assert sorted(set(listed) - existing) == [], "docs/layout.md lists modules that do not exist"


def test_the_tree_reader_nests_by_indentation() -> None:
    doc = (
        "```text\nsrc/qrelsmith/\n  a.py   x\n  b/     y\n    c.py  z\n    d/\n      e.py\n"
        "  f.py\n```\n"
    )
    assert listed_paths(doc) == ["a.py", "b/", "b/c.py", "b/d/", "b/d/e.py", "f.py"]

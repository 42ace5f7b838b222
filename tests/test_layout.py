"""layout.py: the one owner of a build folder's names and of the id grammar."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from qrelsmith.store import layout
from qrelsmith.store.layout import article_of, query_id, section_id, section_number

SOURCE = Path(layout.__file__).parents[1]  # src/qrelsmith/

#: Every file name of a build, as layout.py spells it (the last part of a path like beir/...).
FILE_NAMES = {
    value.rsplit("/", 1)[-1]
    for name, value in vars(layout).items()
    if name.isupper() and isinstance(value, str) and "." in value
}


def test_ids_round_trip() -> None:
    assert section_id("ja/rdp-port.html", 3) == "ja/rdp-port.html#3"
    assert section_number(section_id("ja/rdp-port.html", 3)) == "3"
    assert query_id("ja/rdp-port.html", 3) == "ja/rdp-port.html#q3"
    for article in ("ja/rdp-port.html", "example.com/a#b", "example.com/a#q1"):  # '#' inside
        assert article_of(query_id(article, 12)) == article
        assert article_of(section_id(article, 4)) == article
    assert article_of("no-mark") == "no-mark"
    assert section_number("chunk-7") == "chunk-7"  # an alignment's chunk id: no '#'


def test_version_folders() -> None:
    assert layout.version_folder(3) == "v3"
    assert layout.version_number("v12") == 12
    assert [layout.version_number(n) for n in ("v", "vx", "w1", "12")] == [None] * 4


def test_layout_imports_nothing_of_qrelsmith() -> None:
    tree = ast.parse((SOURCE / "store" / "layout.py").read_text(encoding="utf-8"))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not [m for m in imported if m.startswith(("qrelsmith", ".")) or m == ""], imported


def _is_path_to_a_build_file(text: str) -> bool:
    return bool(FILE_NAMES & set(text.split("/")))


def file_name_literals(source: str) -> list[tuple[int, str]]:
    """String literals that spell a build file name: the whole literal, a path without spaces
    (``"audit/audit.csv"``), or the path an f-string goes on with after a value
    (``f"{out}/audit.csv holds"``). Prose (help, docstrings) may name files."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            value = node.value
            spaceless = not any(char.isspace() for char in value)
            if value == layout.LOCK_SUFFIX or (spaceless and _is_path_to_a_build_file(value)):
                found.append((node.lineno, value))
        elif isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, after in zip(parts, parts[1:], strict=False):
                if (
                    isinstance(before, ast.FormattedValue)
                    and isinstance(after, ast.Constant)
                    and isinstance(after.value, str)
                    and after.value.split()
                    and _is_path_to_a_build_file(after.value.split()[0])
                ):
                    found.append((node.lineno, after.value))
    return found


def id_grammar_uses(source: str) -> list[int]:
    """Lines that build an id as ``f"{article}#{n}"`` or read one back with rsplit/rpartition
    at '#': layout.py's job."""
    marks = {layout.SECTION_MARK, layout.QUERY_MARK}
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for before, mark, after in zip(parts, parts[1:], parts[2:], strict=False):
                if (
                    isinstance(before, ast.FormattedValue)
                    and isinstance(mark, ast.Constant)
                    and mark.value in marks
                    and isinstance(after, ast.FormattedValue)
                ):
                    lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("rsplit", "rpartition")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value in marks
        ):
            lines.append(node.lineno)
    return lines


def _modules() -> list[Path]:
    return sorted(p for p in SOURCE.rglob("*.py") if p.name != "layout.py")


def test_no_module_but_layout_spells_a_build_file_name() -> None:
    assert {"golden.jsonl", "audit.csv", "test.tsv", "align_report.json"} <= FILE_NAMES
    found = {
        f"{path.relative_to(SOURCE)}:{line}: {value!r}"
        for path in _modules()
        for line, value in file_name_literals(path.read_text(encoding="utf-8"))
    }
    assert not found, "use layout.py's names:\n" + "\n".join(sorted(found))


def test_no_module_but_layout_builds_or_parses_an_id() -> None:
    found = {
        f"{path.relative_to(SOURCE)}:{line}"
        for path in _modules()
        for line in id_grammar_uses(path.read_text(encoding="utf-8"))
    }
    assert not found, "use layout.section_id / query_id / article_of:\n" + "\n".join(found)


@pytest.mark.parametrize(
    "code",
    [
        'path = folder / "golden.jsonl"\n',
        'warn(f"{out}/audit/audit.csv holds verdicts")\n',
        'SUFFIX = ".lock"\n',
    ],
)
def test_the_scan_sees_a_file_name(code: str) -> None:
    assert file_name_literals(code)


def test_the_scan_leaves_prose_alone() -> None:
    assert not file_name_literals('HELP = "writes corpus.jsonl and golden.jsonl to DIR"\n')


@pytest.mark.parametrize(
    "code", ['sid = f"{article}#{n}"\n', 'qid = f"{a}#q{row}"\n', 'tail = sid.rsplit("#", 1)\n']
)
def test_the_scan_sees_an_id(code: str) -> None:
    assert id_grammar_uses(code)


def test_the_scan_leaves_a_heading_line_alone() -> None:
    assert not id_grammar_uses('line = f"#{number} {heading}"\n')


def imports_of(relative: str) -> set[str]:
    """The qrelsmith modules a source file imports, as dotted names below the package
    (``from ..export import AUDIT_FOLDER`` in audit/sample.py -> ``export``), lazy ones too."""
    path = SOURCE / relative
    package = list(Path(relative).parent.parts)
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found |= {f"{module}.{a.name}".strip(".") for a in node.names} | {module}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("qrelsmith."):
            found.add(str(node.module).removeprefix("qrelsmith."))
    return {name for name in found if name}


#: (module, an import it must not make): an earlier stage reaching a later one for a name.
FORWARD_REACHES = [
    ("page/parse.py", "page.sections"),
    ("page/quickref.py", "labelling.matching"),
    ("store/buildfolder.py", "export"),
    ("run/page_results.py", "export"),
    ("store/formats/__init__.py", "export"),
    ("audit/diff.py", "export"),
    ("audit/sample.py", "export"),
    ("audit/writer.py", "export"),
    ("audit/writer.py", "audit.diff"),
    ("cli/build.py", "audit.apply"),
    ("evaluate/validate.py", "export"),
]


@pytest.mark.parametrize(("module", "later"), FORWARD_REACHES)
def test_an_earlier_stage_does_not_import_a_later_one(module: str, later: str) -> None:
    reached = {name for name in imports_of(module) if name == later or name.startswith(later + ".")}
    assert not reached, f"{module} imports {sorted(reached)}"


def test_the_import_scan_sees_an_import() -> None:
    assert "store.formats" in imports_of("run/build.py")
    assert "labelling.matching" in imports_of("sources/table.py")
    assert "labelstudio" in {n.split(".")[-1] for n in imports_of("audit/writer.py")}


def test_a_page_worker_imports_no_export_kind() -> None:
    # A worker process imports page_results; the kinds of `qrelsmith export` (and the
    # libraries some of them load) are no part of a page's work.
    code = (
        "import sys\n"
        "import qrelsmith.run.page_results\n"
        "print(sorted(m for m in sys.modules if m.startswith('qrelsmith.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(SOURCE.parent), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = ast.literal_eval(done.stdout)
    assert "qrelsmith.store.formats" in loaded  # what a worker renders its lines with
    assert [m for m in loaded if m.startswith("qrelsmith.export")] == []

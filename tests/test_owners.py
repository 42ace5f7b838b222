"""store/owners.py: every command that writes a folder writes only into an empty one or its own
earlier output (issue 27, items 1-3), and validate notices a folder of several writers."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from qrelsmith.cli import main
from qrelsmith.evaluate.validate import validate_build
from qrelsmith.export import EXPORT_KINDS
from qrelsmith.store.owners import EXPORT_ENTRIES, MARKS, refuse_foreign, writers_of

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CHUNKS = Path(__file__).parent / "fixtures" / "eval" / "chunks.jsonl"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """b/rv (a build with a reviewed version v1) and b/victim (another build)."""
    root = tmp_path_factory.mktemp("owners") / "b"
    for name in ("rv", "victim"):
        assert main(["build", str(SAMPLES / "site"), "--out", str(root / name), "-q"]) == 0
    assert main(["audit", "apply", str(root / "rv"), str(SAMPLES / "verdicts.csv")]) == 0
    return root


def test_export_into_a_reviewed_version_is_refused(
    builds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    version = builds / "rv" / "versions" / "v1"
    before = snapshot(version)
    capsys.readouterr()
    assert main(["export", "ir_datasets", str(builds / "rv"), "--out", str(version)]) == 2
    err = capsys.readouterr().err
    assert f"--out {version} is a reviewed version (CHANGES.md, changelog.jsonl" in err
    assert "written by qrelsmith audit apply" in err
    assert snapshot(version) == before


@pytest.mark.parametrize("kind", ["ir_datasets", "pyserini"])
def test_export_into_another_build_is_refused(
    builds: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = builds / "victim"
    before = snapshot(victim)
    assert main(["export", kind, str(builds / "rv"), "--out", str(victim)]) == 2
    err = capsys.readouterr().err
    assert f"--out {victim} is a build folder (report.json, written by qrelsmith build)" in err
    assert snapshot(victim) == before


def test_align_into_a_build_or_the_folder_holding_dir_is_refused(
    builds: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = builds / "victim"
    before = snapshot(victim)
    align = ["align", str(builds / "rv"), "--chunks", str(CHUNKS), "--out"]
    assert main([*align, str(victim)]) == 2
    assert "is a build folder" in capsys.readouterr().err
    assert snapshot(victim) == before
    assert main([*align, str(builds)]) == 2
    assert f"--out {builds} is DIR or holds it" in capsys.readouterr().err


def test_each_writer_keeps_to_its_own_folders(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ragas = tmp_path / "ragas"
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(ragas)]) == 0
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(ragas)]) == 0  # its own
    capsys.readouterr()
    hf = ["export", "hf", str(builds / "rv"), "--license", "mit", "--language", "en"]
    assert main([*hf, "--out", str(ragas)]) == 2
    assert "is an export (ragas.jsonl, written by qrelsmith export ragas)" in (
        capsys.readouterr().err
    )
    assert main(["build", str(SAMPLES / "site"), "--out", str(ragas), "-q"]) == 2
    assert "build writes only into an empty folder" in capsys.readouterr().err
    aligned = tmp_path / "aligned"
    assert main(["align", str(builds / "rv"), "--chunks", str(CHUNKS), "--out", str(aligned)]) == 0
    assert main(["align", str(builds / "rv"), "--chunks", str(CHUNKS), "--out", str(aligned)]) == 0
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(aligned)]) == 2
    assert "is an alignment (align_report.json" in capsys.readouterr().err


def test_a_folder_holding_a_build_or_files_of_the_user_is_refused(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = tmp_path / "holder"
    shutil.copytree(builds / "victim", holder / "inner")
    capsys.readouterr()
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(holder)]) == 2
    assert f"--out {holder} holds a build folder (report.json" in capsys.readouterr().err
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "mine.txt").write_text("mine\n")
    (notes / ".git").mkdir()  # hidden entries belong to nobody
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(notes)]) == 2
    err = capsys.readouterr().err
    assert f"--out {notes} holds files qrelsmith did not write (mine.txt)" in err
    (notes / "mine.txt").unlink()
    assert main(["export", "ragas", str(builds / "rv"), "--out", str(notes)]) == 0
    assert (notes / ".git").is_dir()


def test_refuse_foreign_lets_missing_empty_and_own_folders_through(tmp_path: Path) -> None:
    refuse_foreign(tmp_path / "missing", "build")
    refuse_foreign(tmp_path, "build")
    (tmp_path / "report.json").write_text("{}")
    refuse_foreign(tmp_path, "build")
    (tmp_path / "ragas.jsonl").write_text("")
    assert writers_of(tmp_path) == {"build": ["report.json"], "export ragas": ["ragas.jsonl"]}
    with pytest.raises(Exception, match="is an export"):
        refuse_foreign(tmp_path, "build")


def test_every_writer_has_a_mark_of_its_own() -> None:
    assert all(MARKS.values())
    marks = [mark for writer in MARKS.values() for mark in writer]
    assert len(marks) == len(set(marks))


def test_validate_notices_a_folder_of_several_writers(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mixed = tmp_path / "mixed"
    shutil.copytree(builds / "victim", mixed)
    aligned = tmp_path / "aligned"
    assert main(["align", str(builds / "rv"), "--chunks", str(CHUNKS), "--out", str(aligned)]) == 0
    assert main(["validate", str(mixed)]) == 0
    capsys.readouterr()
    shutil.copy(aligned / "align_report.json", mixed)
    assert main(["validate", str(mixed)]) == 1
    out = capsys.readouterr().out
    assert "the files come from different commands: a build folder (report.json" in out
    assert "an alignment (align_report.json, written by qrelsmith align)" in out


def test_the_library_validate_gives_the_commands_answer(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The writers check lived in the command alone (evaluate/ may not import export/), so
    # validate_build passed a folder the command refused.
    from qrelsmith.evaluate.validate import format_problem

    mixed = tmp_path / "mixed"
    shutil.copytree(builds / "victim", mixed)
    assert validate_build(mixed) == []
    (mixed / "ragas.jsonl").write_text("")
    problems = validate_build(mixed)
    assert [p.kind for p in problems] == ["writers"]
    assert "an export (ragas.jsonl, written by qrelsmith export ragas)" in problems[0].message
    capsys.readouterr()
    assert main(["validate", str(mixed)]) == 1
    assert capsys.readouterr().out == "".join(format_problem(p) + "\n" for p in problems)


def test_the_stores_export_names_are_the_kinds() -> None:
    assert {name: kind.entries for name, kind in EXPORT_KINDS.items()} == EXPORT_ENTRIES


def test_a_file_output_never_replaces_a_file_of_a_commands_folder(
    builds: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = builds / "victim"
    before = snapshot(victim)
    capsys.readouterr()
    assert main(["baseline", str(builds / "rv"), "--out", str(victim / "qrels.trec")]) == 2
    assert capsys.readouterr().err == (
        f"error: --out {victim / 'qrels.trec'} is qrels.trec of a build folder (report.json, "
        "written by qrelsmith build): give a file of your own\n"
    )
    diff = ["diff", str(builds / "rv"), str(victim), "--out", str(victim / "report.json")]
    assert main(diff) == 2  # diff's trouble
    assert "is report.json of a build folder" in capsys.readouterr().err
    assert snapshot(victim) == before
    run = tmp_path / "mine.trec"  # a file of one's own, anywhere, is written
    assert main(["baseline", str(builds / "rv"), "--out", str(run)]) == 0

"""qrelsmith diff OLD NEW: what changed between two builds, and which verdicts carry over."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from qrelsmith.cli import main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "site"
VERDICTS = ROOT / "samples" / "verdicts.csv"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def changed_site(folder: Path) -> Path:
    """samples/site a month later (samples/make_site_june.py, the README's walkthrough)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_site_june", ROOT / "samples" / "make_site_june.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    site: Path = module.make_site_june(SAMPLE, folder / "site")
    return site


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("diff")
    old, new = folder / "old", folder / "new"
    assert main(["build", str(SAMPLE), "--out", str(old), "-q"]) == 0
    shutil.copyfile(VERDICTS, old / "audit" / "audit.csv")  # the reviewer's filled-in sheet
    assert main(["build", str(changed_site(folder)), "--out", str(new), "-q"]) == 0
    return old, new


def run_diff(old: Path, new: Path, *extra: str) -> tuple[int, dict]:
    code = main(["diff", str(old), str(new), *extra])
    report = json.loads((new / "audit" / "diff.json").read_text(encoding="utf-8"))
    return code, report


def test_a_build_against_itself_is_no_change(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, _ = builds
    same = tmp_path / "same"
    shutil.copytree(old, same)
    code, report = run_diff(old, same)
    assert code == 0 and not report["changed_anything"]
    assert report["counts"]["carried"] == 40 and report["rereview"] == []
    assert "no change" in capsys.readouterr().out


def test_what_changed(builds: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    old, new = builds
    code, report = run_diff(old, new)
    assert code == 1 and report["changed_anything"]
    assert report["added"] == ["en/sql-joins.html#q5"]
    assert report["removed"] == [f"es/git-stash.html#q{n}" for n in range(5)]
    changed = {c["qid"]: c["fields"] for c in report["changed"]}
    assert changed == {"en/sql-joins.html#q1": ["reference"], "en/sql-joins.html#q4": ["query"]}
    assert [(m["qid"], m["old_headings"], m["new_headings"]) for m in report["moved"]] == [
        ("en/sql-joins.html#q1", ["LEFT JOIN and RIGHT JOIN"], ["FULL OUTER JOIN"])
    ]
    assert [
        (s["qid"], s["heading"], s["old_section"], s["new_section"])
        for s in report["sections_changed"]
    ] == [
        (
            "en/sql-joins.html#q3",
            "Finding rows with no match (anti-join)",
            "en/sql-joins.html#5",
            "en/sql-joins.html#6",
        )
    ]
    corpus = report["counts"]["corpus"]
    assert (corpus["added"], corpus["text_changed"]) == (1, 1)  # renumbering is no change
    printed = capsys.readouterr().out
    assert "~ en/sql-joins.html#q4  query: 'Every combination of sizes and colours' -> " in printed
    assert "+ en/sql-joins.html#q5" in printed and "- es/git-stash.html#q0" in printed


def test_verdicts_carry_over_only_where_nothing_they_judged_changed(
    builds: tuple[Path, Path],
) -> None:
    old, new = builds
    _, report = run_diff(old, new)
    carried = {c["qid"]: c for c in report["carried"]}
    rereview = {r["qid"]: r["reasons"] for r in report["rereview"]}
    assert report["verdicts_from"] == [str(old / "audit" / "audit.csv")]
    # q2's section was renumbered (#4 -> #5), text unchanged: its verdict holds.
    assert carried["en/sql-joins.html#q2"]["verdict"] == "correct"
    assert rereview == {
        "en/sql-joins.html#q3": ["labelled section text changed"],
        "en/sql-joins.html#q4": ["query changed"],
    }
    # The git-stash verdicts are gone with their article; 40 - 2 removed - 2 to review again.
    assert len(carried) == 36
    # A "wrong" verdict naming #3 keeps naming that section, by its id in the new build.
    assert carried["en/network-ports.html#q3"]["sections"] == ["en/network-ports.html#3"]


def test_the_next_audit_sample_draws_rereview_first_and_fills_in_carried_verdicts(
    builds: tuple[Path, Path], tmp_path: Path
) -> None:
    old, built = builds
    new = tmp_path / "new"
    shutil.copytree(built, new)
    assert run_diff(old, new)[0] == 1
    assert main(["audit", "sample", str(new), "--size", "10", "--seed", "3"]) == 0
    sample = json.loads((new / "audit" / "sample.json").read_text(encoding="utf-8"))
    strata = [row["stratum"] for row in sample["rows"]]
    assert strata[:2] == ["rereview", "rereview"]
    assert {row["qid"] for row in sample["rows"][:2]} == {
        "en/sql-joins.html#q3",
        "en/sql-joins.html#q4",
    }
    assert sample["strata"]["rereview"] == {"population": 2, "sampled": 2}
    assert sample["strata"]["carried"] == {"population": 36, "sampled": 36}
    fresh = sum(
        s["sampled"] for name, s in sample["strata"].items() if name not in ("rereview", "carried")
    )
    assert fresh == 8  # --size 10: two to review again, eight drawn as usual
    with open(new / "audit" / "audit.csv", encoding="utf-8-sig", newline="") as handle:
        rows = {row["qid"]: row for row in csv.DictReader(handle)}
    assert rows["en/sql-joins.html#q2"]["verdict"] == "correct"
    assert rows["en/network-ports.html#q3"]["correct_sections"] == "en/network-ports.html#3"
    assert rows["en/sql-joins.html#q3"]["verdict"] == ""  # to be judged again
    # The reviewer judges the two rows; apply then uses the carried verdicts too.
    for qid in ("en/sql-joins.html#q3", "en/sql-joins.html#q4"):
        rows[qid]["verdict"] = "correct"
    for row in rows.values():
        if not row["verdict"]:
            row["verdict"] = "correct"
    verdicts = tmp_path / "verdicts.csv"
    with open(verdicts, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(next(iter(rows.values()))))
        writer.writeheader()
        writer.writerows(rows.values())
    assert main(["audit", "apply", str(new), str(verdicts)]) == 0
    assert (new / "versions" / "v1" / "golden.jsonl").is_file()


def test_a_stale_diff_is_ignored_after_a_rebuild(builds: tuple[Path, Path], tmp_path: Path) -> None:
    old, built = builds
    new = tmp_path / "new"
    shutil.copytree(built, new)
    run_diff(old, new)
    report = json.loads((new / "audit" / "diff.json").read_text(encoding="utf-8"))
    report["new_golden_sha256"] = "0" * 64
    (new / "audit" / "diff.json").write_text(json.dumps(report), encoding="utf-8")
    assert main(["audit", "sample", str(new), "--size", "10"]) == 0
    sample = json.loads((new / "audit" / "sample.json").read_text(encoding="utf-8"))
    assert "rereview" not in sample["strata"] and "carried" not in sample["strata"]


def test_diff_json_validates_and_is_byte_identical_on_rerun(
    builds: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = builds
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["diff", str(old), str(new), "--out", str(first)]) == 1
    assert main(["diff", str(old), str(new), "--out", str(second)]) == 1
    assert first.read_bytes() == second.read_bytes()
    schema = json.loads((ROOT / "schemas" / "diff.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads(first.read_text(encoding="utf-8")), schema)


def test_verdicts_named_explicitly_and_found_through_a_version(
    builds: tuple[Path, Path], tmp_path: Path
) -> None:
    old_built, new = builds
    old = tmp_path / "old"
    shutil.copytree(old_built, old)
    (old / "audit" / "audit.csv").unlink()
    code = main(["build", str(SAMPLE), "--out", str(old), "-q"])  # a fresh, empty sheet
    assert code == 0
    # No verdicts anywhere: nothing carried.
    _, report = run_diff(old, new)
    assert report["verdicts_from"] == [] and report["carried"] == []
    # Named on the command line.
    _, report = run_diff(old, new, "--verdicts", str(VERDICTS))
    assert report["counts"]["carried"] == 36
    # Found through the review that made versions/v1.
    assert main(["audit", "apply", str(old), str(VERDICTS)]) == 0
    _, report = run_diff(old, new)
    assert report["verdicts_from"] == [str(VERDICTS)] and report["counts"]["carried"] == 36


def test_trouble_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert main(["diff", str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_a_build_against_the_same_folder_is_refused_and_writes_nothing(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, _ = builds
    same = tmp_path / "same"
    shutil.copytree(old, same)
    (tmp_path / "link").symlink_to(same)
    capsys.readouterr()
    link = tmp_path / "link"
    for first, second in ((same, same), (same, link), (link, same)):  # a link on either side
        assert main(["diff", str(first), str(second)]) == 2
        assert "the same folder" in capsys.readouterr().err
    assert not (same / "audit" / "diff.json").exists()


def test_out_in_a_missing_folder_is_a_usage_error(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = builds
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--out", str(tmp_path / "nope" / "d.json")]) == 2
    assert "no folder" in capsys.readouterr().err
    assert not (tmp_path / "nope").exists()
    assert main(["diff", str(old), str(new), "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def ports_moved_site(folder: Path) -> Path:
    """samples/site with a section inserted before the first of network-ports.html (every
    section renumbered: #3 is another section now) and the text of "TCP vs UDP" changed."""
    site = folder / "site-b"
    shutil.copytree(SAMPLE, site)
    ports = site / "en" / "network-ports.html"
    text = ports.read_text(encoding="utf-8")
    first = text.index("<h2")
    text = (
        text[:first]
        + '<h2 id="sec-0">Before you start</h2><p>Read this first.</p>\n'
        + text[first:]
    )
    ports.write_text(text, encoding="utf-8")
    edit(
        ports,
        '<h2 id="sec-4">TCP vs UDP</h2>',
        '<h2 id="sec-4">TCP vs UDP</h2><p>One more paragraph.</p>',
    )
    return site


@pytest.mark.parametrize("edited", [ports_moved_site, changed_site])
def test_a_review_of_an_earlier_build_into_old_is_not_carried_over(
    edited: Callable[[Path], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reviewed = tmp_path / "reviewed"
    assert main(["build", str(SAMPLE), "--out", str(reviewed), "-q"]) == 0
    assert main(["audit", "apply", str(reviewed), str(VERDICTS)]) == 0
    site = edited(tmp_path)
    # OLD: the reviewed folder built again from the edited site; versions/v1 stays in it.
    assert main(["build", str(site), "--out", str(reviewed), "-q"]) == 0
    assert (reviewed / "versions" / "v1" / "review.json").is_file()
    new = tmp_path / "new"
    assert main(["build", str(site), "--out", str(new), "-q"]) == 0
    capsys.readouterr()
    code, report = run_diff(reviewed, new)
    # OLD and NEW are builds of one site: no change. With changed_site, the review's git-stash
    # qids are not in OLD any more, which must not make the diff fail either.
    assert code == 0
    assert report["verdicts_from"] == [] and report["carried"] == [] and report["rereview"] == []
    err = capsys.readouterr().err
    assert f"{reviewed / 'versions' / 'v1' / 'review.json'} reviewed another golden.jsonl" in err
    assert "not carried over" in err


def test_a_filled_in_sheet_of_an_earlier_build_into_old_is_not_carried_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old"
    assert main(["build", str(SAMPLE), "--out", str(old), "-q"]) == 0
    shutil.copyfile(VERDICTS, old / "audit" / "audit.csv")
    site = ports_moved_site(tmp_path)
    assert main(["build", str(site), "--out", str(old), "-q"]) == 0  # audit/ kept: verdicts
    new = tmp_path / "new"
    assert main(["build", str(site), "--out", str(new), "-q"]) == 0
    capsys.readouterr()
    code, report = run_diff(old, new)
    assert code == 0 and report["verdicts_from"] == [] and report["carried"] == []
    assert "audit.csv reviewed another golden.jsonl" in capsys.readouterr().err


def test_a_diff_json_that_cannot_be_written_is_trouble_not_a_difference(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = builds
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--out", str(blocker / "diff.json")]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_the_changes_go_to_stdout_and_what_was_written_to_stderr(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, new = builds
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--out", str(tmp_path / "d.json")]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith(f"{old} -> {new}: 87 -> 83 queries\n")
    assert "wrote" not in captured.out
    assert captured.err == f"wrote {tmp_path / 'd.json'}\n"


def test_stdout_json(builds: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    old, new = builds
    capsys.readouterr()
    assert main(["diff", str(old), str(new), "--out", "-"]) == 1
    assert json.loads(capsys.readouterr().out)["counts"]["added"] == 1


def test_a_wrong_verdict_with_disputed_sections_is_reviewed_again_not_carried(
    builds: tuple[Path, Path], tmp_path: Path
) -> None:
    old, new = builds
    carol = tmp_path / "carol.csv"
    carol.write_text(
        VERDICTS.read_text(encoding="utf-8-sig").replace("q3,wrong,#3", "q3,wrong,#2"),
        encoding="utf-8",
    )
    _, report = run_diff(old, new, "--verdicts", str(VERDICTS), str(carol))
    rereview = {r["qid"]: r for r in report["rereview"]}
    assert rereview["en/network-ports.html#q3"] == {
        "qid": "en/network-ports.html#q3",
        "verdict": "wrong",
        "reasons": ["the reviewers named different correct sections"],
    }
    assert "en/network-ports.html#q3" not in {c["qid"] for c in report["carried"]}


def test_carried_verdicts_as_filled_in_do_not_block_the_next_sample(
    builds: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old, built = builds
    new = tmp_path / "new"
    shutil.copytree(built, new)
    run_diff(old, new)
    assert main(["audit", "sample", str(new), "--size", "10"]) == 0
    # the help's own example, on a sheet holding only the carried verdicts it filled in
    assert main(["audit", "sample", str(new), "--size", "10", "--format", "label-studio"]) == 0
    sheet = new / "audit" / "audit.csv"
    with open(sheet, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert sum(row["note"].startswith("(carried over by qrelsmith diff)") for row in rows) == 36

    def save() -> None:
        with open(sheet, "w", encoding="utf-8-sig", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)

    # a reviewer who overrules a carried verdict (note left as it was) has unsaved work
    carried = next(row for row in rows if row["qid"] == "en/sql-joins.html#q2")
    carried["verdict"] = "unsure"
    save()
    capsys.readouterr()
    assert main(["audit", "sample", str(new), "--size", "10"]) == 2
    assert "holds 1 verdict no 'audit apply' has read" in capsys.readouterr().err
    carried["verdict"] = "correct"
    save()
    assert main(["audit", "sample", str(new), "--size", "10"]) == 0
    # so has one who judges a row to review again
    with open(sheet, encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    next(row for row in rows if row["qid"] == "en/sql-joins.html#q3")["verdict"] = "correct"
    save()
    assert main(["audit", "sample", str(new), "--size", "10"]) == 2

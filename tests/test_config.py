"""The options model: defaults from patterns.py, TOML overrides, and a dump that stays stable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qrelsmith import patterns
from qrelsmith.cli import main
from qrelsmith.config import Config, load_config
from qrelsmith.errors import UsageError

EVAL_BUILD = Path(__file__).parent / "fixtures" / "eval" / "build"
ROOT = Path(__file__).resolve().parents[1]


def test_defaults_come_from_patterns() -> None:
    config = Config()
    assert config.eval.measures == list(patterns.EVAL_MEASURES)
    assert (config.eval.rel, config.eval.gains) == (patterns.EVAL_REL, patterns.EVAL_GAINS)
    assert config.audit.oversample == patterns.OVERSAMPLE
    assert (config.baseline.k1, config.baseline.b) == (patterns.BM25_K1, patterns.BM25_B)
    assert config.baseline.ngrams == patterns.NGRAM_RANGE


def test_the_manifest_dump_holds_every_section_and_loads_back() -> None:
    # report.json's manifest is Config().model_dump(): the effective options, all of them
    dumped = Config().model_dump(mode="json")
    assert set(dumped) == {"build", "audit", "pool", "eval", "baseline"}
    assert dumped["eval"]["rel"] == patterns.EVAL_REL
    assert Config.model_validate(dumped) == Config()


def test_a_changed_key_is_dumped_and_loads_back(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text(
        "[audit]\noversample = {fuzzy = 5}\n[baseline]\nngrams = [2, 4]\n[eval]\nrel = 1\n"
    )
    config = load_config(path)
    assert config.audit.oversample == {**patterns.OVERSAMPLE, "fuzzy": 5.0}
    dumped = config.model_dump(mode="json")
    assert dumped["baseline"]["ngrams"] == [2, 4] and dumped["eval"]["rel"] == 1
    assert Config.model_validate(dumped) == config


@pytest.mark.parametrize(
    "text",
    [
        "[audit]\noversample = {risky = 2}\n",
        "[audit]\noversample = {fuzzy = 0}\n",
        "[baseline]\nngrams = [3, 2]\n",
        "[eval]\nmeasures = []\n",
        '[eval]\ngains = "log"\n',
        '[build]\ndrop_tags = ["div.sidebar"]\n',
        '[build]\ndrop_tags = ["*"]\n',
    ],
)
def test_bad_values_are_usage_errors(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UsageError):
        load_config(path)


def test_drop_tags_are_lower_cased(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text('[build]\ndrop_tags = ["PRE", " Nav ", "my-widget"]\n')
    assert load_config(path).build.drop_tags == ["pre", "nav", "my-widget"]


def test_eval_reads_the_config_and_flags_override_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = tmp_path / "run.trec"
    assert main(["baseline", str(EVAL_BUILD), "--out", str(run), "--k", "10"]) == 0
    path = tmp_path / "site.toml"
    path.write_text('[eval]\nrel = 1\nmeasures = ["RR@10"]\nbootstrap_samples = 100\n')
    capsys.readouterr()
    assert main(["eval", str(EVAL_BUILD), str(run), "--json", "--config", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["measures"] == ["RR@10"] and report["settings"]["rel"] == 1
    assert (
        main(["eval", str(EVAL_BUILD), str(run), "--json", "--config", str(path), "--rel", "2"])
        == 0
    )
    assert json.loads(capsys.readouterr().out)["measures"] == ["RR(rel=2)@10"]


def test_check_flags_low_confidence_by_the_audit_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def low_confidence(*config: str) -> set[str]:
        assert main(["check", str(EVAL_BUILD), "--json", *config]) == 0
        suspects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        return {
            s["qid"]
            for s in suspects
            for signal in s["signals"]
            if signal["kind"] == "low-confidence"
        }

    path = tmp_path / "site.toml"
    path.write_text("[audit]\nlow_confidence = 0\n")
    assert low_confidence() and not low_confidence("--config", str(path))


def test_baseline_reads_the_config(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text('[baseline]\nmethod = "tfidf"\nk = 1\n')
    run = tmp_path / "run.trec"
    assert main(["baseline", str(EVAL_BUILD), "--out", str(run), "--config", str(path)]) == 0
    lines = run.read_text(encoding="utf-8").splitlines()
    assert lines and all(line.endswith(" tfidf-c2-3") for line in lines)
    assert len({line.split()[0] for line in lines}) == len(lines)  # one result per query


@pytest.mark.parametrize(
    ("line", "where"),
    [
        ('article_selectors = ["div["]', "build.article_selectors"),
        ('excluded_headings = ["("]', "build.excluded_headings"),
        ('encoding = "bogus"', "build.encoding"),
        ('reference_separators = [""]', "build.reference_separators"),
    ],
)
def test_a_config_that_would_skip_every_page_is_refused_before_any_page_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, where: str
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "a.html").write_text("<article><h2>A</h2><p>a</p></article>", encoding="utf-8")
    config = tmp_path / "site.toml"
    config.write_text(f"[build]\n{line}\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", str(site), "--out", str(out), "-c", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: config") and where in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[build]\nsection_level = true\n", "build.section_level: Input should be a valid integer"),
        (
            '[build]\nfuzzy_threshold = "0.5"\n',
            "build.fuzzy_threshold: Input should be a valid number",
        ),
        ("[build]\npage_timeout = inf\n", "build.page_timeout: Input should be a finite number"),
        (
            "[build]\npage_timeout = 1e300\n",
            "build.page_timeout: Input should be less than or equal to 86400",
        ),
        ("[baseline]\nk1 = nan\n", "baseline.k1: Input should be a finite number"),
        ('[audit]\nseed = "7"\n', "audit.seed: Input should be a valid integer"),
    ],
)
def test_config_types_are_strict_and_numbers_finite(
    tmp_path: Path, text: str, message: str
) -> None:
    # Issue 16: `section_level = true` became 1, "0.5" was taken as a number, inf accepted.
    path = tmp_path / "site.toml"
    path.write_text(text)
    with pytest.raises(UsageError) as caught:
        load_config(path)
    assert str(caught.value) == f"config {path}: {message}"


def test_toml_arrays_still_give_the_ngram_pair(tmp_path: Path) -> None:
    path = tmp_path / "site.toml"
    path.write_text("[baseline]\nngrams = [2, 4]\nk1 = 2\n")
    options = load_config(path).baseline
    assert options.ngrams == (2, 4) and options.k1 == 2.0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["baseline", "{build}", "--out", "{run}", "--k1", "nan"],
            "--k1: Input should be a finite number",
        ),
        (
            ["baseline", "{build}", "--out", "{run}", "--b", "-3"],
            "--b: Input should be greater than or equal to 0",
        ),
        (
            ["eval", "{build}", "{run}", "--rel", "-1"],
            "--rel: Input should be greater than or equal to 1",
        ),
    ],
)
def test_flags_are_checked_as_the_config_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # Issue 16: `--k1 nan` wrote "86 queries, 0 lines", exit 0, where the TOML value exits 2.
    from qrelsmith.cli import main

    build = Path(__file__).parent / "fixtures" / "eval" / "build"
    run = tmp_path / "run.trec"
    if argv[0] == "eval":
        assert main(["baseline", str(build), "--out", str(run)]) == 0
        capsys.readouterr()
    code = main([part.format(build=build, run=run) for part in argv])
    assert code == 2
    assert capsys.readouterr().err == f"error: {message}\n"
    if argv[0] == "baseline":
        assert not run.exists()


@pytest.fixture(scope="module")
def a_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = tmp_path_factory.mktemp("bounds") / "bm25.trec"
    assert main(["baseline", str(EVAL_BUILD), "--out", str(run)]) == 0
    return run


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--seed", "-1"], "--seed: Input should be greater than or equal to 0"),
        (["--seed", str(2**32)], f"--seed: Input should be less than or equal to {2**32 - 1}"),
        (
            ["--subsets", "100000000000000000000", "--sizes", "2"],
            "--subsets: Input should be less than or equal to 10000",
        ),
        (
            ["--subsets", "2000000000", "--sizes", "2"],
            "--subsets: Input should be less than or equal to 10000",
        ),
        (
            ["--measures", "P@99999999999999999999"],
            "--measures: measure 'P@99999999999999999999': the cutoff (@k) must be at most "
            "1,000,000",
        ),
        (["--rel", str(2**63)], "--rel: Input should be less than or equal to 2147483647"),
    ],
)
def test_every_count_and_cutoff_of_eval_is_bounded(
    a_run: Path, flags: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 27, item 8: these ended in tracebacks, numpy's out-of-memory errors or runs that
    # never end; a flag and a config key meet the same bound, named in the message (exit 2).
    assert main(["eval", str(EVAL_BUILD), str(a_run), *flags]) == 2
    assert capsys.readouterr().err == f"error: {message}\n"


@pytest.mark.parametrize(
    ("table", "key", "value", "bound"),
    [
        ("eval", "seed", "-1", "greater than or equal to 0"),
        ("eval", "bootstrap_samples", "100000000000000", "less than or equal to 100000"),
        ("eval", "permutation_rounds", str(2**63 - 1), "less than or equal to 1000000"),
        ("eval", "subset_resamples", "1000000", "less than or equal to 100000"),
        ("eval", "subset_rounds", "10000000", "less than or equal to 1000000"),
        ("audit", "seed", "-1", "greater than or equal to 0"),
        ("audit", "size", "1000000000", "less than or equal to 100000"),
        ("baseline", "k", "1000000000", "less than or equal to 1000000"),
        ("baseline", "ngrams", "[2, 1000]", "1 <= low <= high <= 20"),
        ("baseline", "dims", "1000000000", "less than or equal to 10000"),
        ("pool", "depth", "1000000000", "less than or equal to 1000000"),
        ("pool", "size", "1000000000", "less than or equal to 100000"),
    ],
)
def test_every_count_of_the_config_is_bounded(
    tmp_path: Path, table: str, key: str, value: str, bound: str
) -> None:
    path = tmp_path / "c.toml"
    path.write_text(f"[{table}]\n{key} = {value}\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"config {path}: {table}.{key}: ")
    assert bound in str(caught.value)


@pytest.mark.parametrize("command", ["build", "baseline"])
def test_the_workers_are_bounded_as_a_flag_and_in_the_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    # `-j 100000` asked a process pool for 100,000 processes, which fork starts at once.
    bound = f"Input should be less than or equal to {patterns.MAX_WORKERS}"
    config = tmp_path / "c.toml"
    config.write_text(f"[{command}]\nworkers = {patterns.MAX_WORKERS + 1}\n", encoding="utf-8")
    source = str(ROOT / "samples" / "site") if command == "build" else str(EVAL_BUILD)
    out = tmp_path / "out"
    argv = [command, source, "--out", str(out)]
    assert main([*argv, "-j", str(patterns.MAX_WORKERS + 1)]) == 2
    assert capsys.readouterr().err == f"error: --workers: {bound}\n"
    assert main([*argv, "-c", str(config)]) == 2
    assert capsys.readouterr().err == f"error: config {config}: {command}.workers: {bound}\n"
    assert not out.exists()


def test_the_configs_workers_are_kept_beside_a_flag_and_out_of_the_manifest(
    tmp_path: Path,
) -> None:
    from argparse import Namespace

    from qrelsmith.cli.options import override

    config = tmp_path / "c.toml"
    config.write_text("[build]\nworkers = 3\n[baseline]\nworkers = 2\n", encoding="utf-8")
    options = load_config(config)
    assert (options.build.workers, options.baseline.workers) == (3, 2)
    # another flag given keeps the file's workers (model_dump leaves them out)
    assert override(options.build, Namespace(semantic=True), ("semantic",)).workers == 3
    assert override(options.baseline, Namespace(k=5), ("k",)).workers == 2
    assert override(options.build, Namespace(workers=1), ("workers",)).workers == 1
    assert "workers" not in options.model_dump(mode="json")["build"]  # not in report.json


def test_the_bounds_leave_every_default_and_the_bound_itself_in() -> None:
    at_bounds = {
        "eval": {
            "seed": patterns.MAX_SEED,
            "bootstrap_samples": patterns.MAX_RESAMPLES,
            "permutation_rounds": patterns.MAX_ROUNDS,
            "subsets": patterns.MAX_SUBSETS,
            "measures": [f"P@{patterns.MAX_CUTOFF}"],
        },
        "baseline": {
            "k": patterns.MAX_CUTOFF,
            "ngrams": (1, patterns.MAX_NGRAM),
            "workers": patterns.MAX_WORKERS,
        },
        "build": {"workers": patterns.MAX_WORKERS},
    }
    assert Config.model_validate(at_bounds).eval.subsets == patterns.MAX_SUBSETS


def test_the_curves_cutoffs_are_bounded_in_the_request_too() -> None:
    from pydantic import ValidationError

    from qrelsmith.config import EvalRequest

    assert EvalRequest(curve=[1, patterns.MAX_CUTOFF]).curve == [1, patterns.MAX_CUTOFF]
    with pytest.raises(ValidationError):
        EvalRequest(curve=[patterns.MAX_CUTOFF + 1])

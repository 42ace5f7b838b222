"""``qrelsmith baseline | eval | check | validate | align``: the evaluation stage's commands."""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
from contextlib import closing
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from ..config import BaselineOptions, Draw, EvalOptions, EvalRequest, View
from ..errors import DataError, QrelsmithError, UsageError
from ..patterns import BASELINE_PRESETS, MAX_CUTOFF, MAX_WORKERS
from ..store.buildfolder import build_topics, iter_records, load_build, no_query_line
from ..store.files import atomic_open, dumps
from ..store.layout import CORPUS, GOLDEN, QRELS, QUERIES
from ..store.owners import refuse_foreign, refuse_owned_file
from .options import (
    FORMATTER,
    add_config,
    choices,
    config_of,
    override,
    positive,
    refuse_input_as_output,
    say,
    warn,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ..evaluate.evaluation import RunScorer, RunScores
    from ..store.buildfolder import Build

#: `eval --curve`: the cut-offs of the seed's table for choosing k.
CURVE_CUTOFFS: tuple[int, ...] = (1, 3, 5, 10, 20, 50, 100)

#: Results per query of the baseline that `check` computes when no run is given: only the top
#: hit is used, so depth barely matters; 10 keeps the run small.
CHECK_DEPTH = 10

# The stages (numpy, scipy, ir_measures, scikit-learn) are imported inside the handlers: every
# CLI call builds this parser, and `qrelsmith build` should not pay ~0.4 s to import them.

#: The documented defaults, shown in --help (a --config file may change them).
BASELINE = BaselineOptions()
EVAL = EvalOptions()

#: The labelling views of `eval --views` (the study's three).
VIEWS: tuple[str, ...] = get_args(View)


def _ngrams(text: str) -> tuple[int, int]:
    from ..evaluate.baseline import parse_ngrams

    try:
        return parse_ngrams(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def run_baseline(args: argparse.Namespace) -> int:
    """Retrieve the top k sections of every query with a baseline retriever (or a preset's)."""
    from ..evaluate.baseline import indexed_texts, prefixed_topics, preset_options, search_lines
    from ..evaluate.runs import write_lines
    from ..models import CorpusRecord
    from ..run.parallel import default_workers

    names = ("method", "ngrams", "k1", "b", "dims", "k", "queries", "workers", "rrf_k")
    options = override(config_of(args).baseline, args, names)
    if options.method == "rrf" or args.runs is not None:
        return _run_fusion(args, options)
    runs = {args.out: options}
    if args.preset is not None:
        given = [f"--{name}" for name in names[:5] if getattr(args, name) is not None]
        if given:
            raise UsageError(f"--preset {args.preset} sets {', '.join(given)}: leave them out")
        if args.out == "-":
            raise UsageError("--preset writes several runs: --out must be a folder")
        folder = Path(args.out)
        presets = preset_options(args.preset, options)
        runs = {str(folder / f"{name}.trec"): run for name, run in presets.items()}
    build = load_build(args.dir, need=(CORPUS,), only_articles=())  # the queries, no section
    if args.out != "-" and args.preset is None:  # atomic_open would put the run in its place
        refuse_owned_file(args.out, "--out")
        read = [build.folder / name for name in (CORPUS, QUERIES, GOLDEN)]
        refuse_input_as_output(
            args.out,
            read,
            lambda source: f"--out {args.out} is the input {source}: give another file",
        )
    topics = build_topics(build, args.dir)
    # only the sections' ids and text are needed: each record is let go once read
    subjects: dict[str, str] | None = {} if options.queries == "prefixed" else None
    doc_ids, texts = indexed_texts(iter_records(build.folder / CORPUS, CorpusRecord), subjects)
    if subjects is not None:
        topics, missing = prefixed_topics(topics, build.qrels, subjects)
        if missing:
            warn(f"{missing} of {len(topics)} queries have no judged section: left unprefixed")
    del build
    workers = options.workers or default_workers()
    if args.preset is not None:
        Path(args.out).mkdir(parents=True, exist_ok=True)
    for out, run_options in runs.items():
        # search_lines lets the texts go once indexed: each run but the last gets a copy
        last = out == list(runs)[-1]
        lines_of = search_lines(
            doc_ids, texts if last else list(texts), topics, run_options, workers
        )
        if out == "-":
            write_lines(sys.stdout, lines_of)
            continue
        with atomic_open(out) as handle:
            lines = write_lines(handle, lines_of)
        say(f"{len(topics)} queries, {lines} lines -> {out} ({run_options.tag})")
    return 0


def _run_fusion(args: argparse.Namespace, options: BaselineOptions) -> int:
    """``baseline --method rrf --runs A B ...``: the runs, read and checked against the build,
    fused by reciprocal rank and written as a run."""
    from ..evaluate.fusion import check_fusable, fuse, fused_tag
    from ..evaluate.runs import read_tagged_run, write_run

    if options.method != "rrf":
        raise UsageError("--runs gives the runs that --method rrf fuses: give --method rrf")
    if args.preset is not None:
        raise UsageError(f"--preset {args.preset} sets the methods: --method rrf fuses --runs")
    if not args.runs or len(args.runs) < 2:
        raise UsageError("--method rrf fuses two runs or more: give them with --runs")
    if args.runs.count("-") > 1:
        raise UsageError("only one run can come from stdin")
    if options.queries != "raw":
        raise UsageError("--queries names the query form of a retriever: rrf fuses runs")
    build = load_build(args.dir, need=(CORPUS,))
    if args.out != "-":
        refuse_owned_file(args.out, "--out")
        read = [*(run for run in args.runs if run != "-")]
        read += [build.folder / name for name in (CORPUS, QUERIES, GOLDEN)]
        refuse_input_as_output(
            args.out,
            read,
            lambda source: f"--out {args.out} is the input {source}: give another file",
        )
    topics = build_topics(build, args.dir)
    runs, tags = [], []
    for path in args.runs:
        run, tag = read_tagged_run(path, warn)
        check_fusable(path if path != "-" else "stdin", run, build, args.dir, topics)
        runs.append(run)
        tags.append(tag)
    tag = fused_tag(options.tag, tags)
    fused = fuse(runs, options.rrf_k, options.k, topics)
    if args.out == "-":
        write_run(sys.stdout, fused, tag)
        return 0
    with atomic_open(args.out) as handle:
        lines = write_run(handle, fused, tag)
    say(f"{len(topics)} queries, {lines} lines -> {args.out} ({tag})")
    return 0


# --------------------------------------------------------------------------- eval


def _sizes(text: str) -> list[Any]:
    from ..evaluate.evaluation import parse_sizes

    try:
        return list(parse_sizes(text))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _delta(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a finite difference above 0, got {text!r}")
    return value


def _cutoffs(text: str) -> list[int]:
    """``"1,3,5,10"`` -> [1, 3, 5, 10]: --curve's cut-offs."""
    values = []
    for part in text.split(","):
        item = part.strip()
        if not item.isdigit() or not 1 <= int(item) <= MAX_CUTOFF:
            raise argparse.ArgumentTypeError(
                f"a cut-off is a whole number from 1 to {MAX_CUTOFF:,}, not {item!r}"
            )
        values.append(int(item))
    return sorted(set(values))


def _views(text: str) -> list[str]:
    """``"strict,graded,exp"`` -> the views, in that order."""
    views = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [view for view in views if view not in VIEWS]
    if unknown or not views:
        raise argparse.ArgumentTypeError(
            f"views are {', '.join(VIEWS)} (comma-separated), not {text!r}"
        )
    return list(dict.fromkeys(views))


def _subset(text: str) -> tuple[str, str]:
    from ..evaluate.difficulty import parse_subset

    try:
        return parse_subset(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def run_eval(args: argparse.Namespace) -> int:
    """Score runs with intervals; compare each run with the first."""
    from ..evaluate.difficulty import build_groups, subset_qrels
    from ..evaluate.evaluation import EvalInput, RunScorer, evaluate_scored, measure_specs
    from ..evaluate.tables import format_json, format_report

    if args.runs.count("-") > 1:
        raise UsageError("only one run can come from stdin")
    options = override(config_of(args).eval, args, ("seed", "measures", "rel", "gains", "subsets"))
    if args.k is not None and not args.curve:
        raise UsageError("--k gives the cut-offs of --curve: give --curve too")
    if args.draw is not None and not args.sizes:
        raise UsageError("--draw says how --sizes draws its subsets: give --sizes too")
    if args.plot and not (args.sizes or args.curve):
        raise UsageError("--plot draws --sizes and --curve: give one of them")
    if args.need is not None and len(args.runs) < 2:
        raise UsageError("--need compares runs: give two or more")
    build = load_build(args.dir, need=(QRELS,))
    if args.plot:
        refuse_owned_file(args.plot, "--plot")
        read = [*(run for run in args.runs if run != "-"), build.folder / QRELS]
        read += [build.folder / CORPUS, build.folder / GOLDEN]
        refuse_input_as_output(
            args.plot,
            read,
            lambda source: f"--plot {args.plot} is the input {source}: give another file",
        )
    if not build.qrels:
        raise DataError(f"{args.dir}/{QRELS} has no judgements")
    measure_specs(build.qrels, options)  # an unknown measure is refused before runs are read
    low_confidence = config_of(args).audit.low_confidence
    qrels, subset_name = build.qrels, None
    if args.subset is not None:
        by, wanted = args.subset
        qrels, subset_name = subset_qrels(build, by, wanted, args.dir, low_confidence)
    groups = None
    if args.by is not None:
        groups = (args.by, build_groups(args.by, build, args.dir, low_confidence))
    data = EvalInput(
        qrels=qrels,
        runs={},  # read and scored below, run by run
        articles=build.article_ids(),
        doc_ids=build.doc_ids if build.corpus else None,
        groups=groups,
        subset=subset_name,
    )
    request = EvalRequest(
        options=options,
        unjudged=args.unjudged or "irrelevant",
        pairs=args.pairs or "first",
        draw=args.draw,
        per_query=args.per_query,
        sizes=args.sizes or [],
        need=args.need,
        curve=(args.k or list(CURVE_CUTOFFS)) if args.curve else [],
        ranks=args.ranks,
        views=args.views or [],
        micro=args.micro,
    )
    scored = _scored_runs(args.runs, RunScorer(data, request), build, args.dir)
    report = evaluate_scored(data, request, scored)
    for warning in report.warnings:
        warn(warning)
    if args.plot:
        from ..evaluate.plot import plot_report

        panels = plot_report(report, args.plot)
        say(f"{panels} {'panel' if panels == 1 else 'panels'} -> {args.plot}")
    if args.json:
        sys.stdout.write(format_json(report))
    else:
        sys.stdout.write(format_report(report, per_query=args.per_query))
    return 0


#: Runs of at least this many bytes in all are read and scored in worker processes (one
#: consecutive part of the runs each, forked), below it in this process: forking and sending
#: a run's scores back cost ~30 ms, about what reading and scoring 1 MB of run costs (0.3 s
#: for a 10 MB run of 1,856 queries x 100 on the 2-core machine of benchmarks/README.md).
PARALLEL_RUN_BYTES = 2 << 20


def _scored_runs(
    paths: list[str], scorer: RunScorer, build: Build, folder: str
) -> dict[str, RunScores]:
    """Every run read, checked against the build and scored, in the order given, by name;
    in up to all cores' processes when the runs are large (PARALLEL_RUN_BYTES) and none comes
    from stdin. A run's warnings are said, and its error raised, in run order, as one
    process would."""
    from ..evaluate.runs import run_names
    from ..run.parallel import cuts, default_workers, in_parts

    items = list(zip(run_names(paths), paths, strict=True))
    sizes = [os.path.getsize(path) if os.path.isfile(path) else 0 for path in paths]
    parts = 1
    if "-" not in paths and sum(sizes) >= PARALLEL_RUN_BYTES:
        parts = min(default_workers(), len(paths))
    bounds = cuts(sizes, parts)
    produce = [
        partial(_score_files, items[low:high], scorer, build, folder)
        for low, high in zip(bounds, bounds[1:], strict=False)
    ]
    scored: dict[str, RunScores] = {}
    # the runs' millions of tuples hold no reference cycle: the collector's passes over them
    # would be ~15% of the time, for nothing
    collecting = gc.isenabled()
    gc.disable()
    try:
        with closing(in_parts(produce)) as results:
            for name, said, result in results:
                for line in said:
                    warn(line)
                if isinstance(result, QrelsmithError):
                    raise result
                scored[name] = result
    finally:
        if collecting:
            gc.enable()
    return scored


def _score_files(
    items: list[tuple[str, str]], scorer: RunScorer, build: Build, folder: str
) -> Iterator[tuple[str, list[str], RunScores | QrelsmithError]]:
    """(name, its warnings, its scores) of each (name, path) of runs, up to the first that
    cannot be read or is not of this build: (name, warnings, the error)."""
    from ..evaluate.runs import check_run_ids, read_run

    for name, path in items:
        said: list[str] = []
        try:
            run = read_run(path, said.append)
            check_run_ids(path if path != "-" else "stdin", run, build, folder)
            result: RunScores | QrelsmithError = scorer.score(name, run)
        except QrelsmithError as exc:
            result = exc
        yield name, said, result
        if isinstance(result, QrelsmithError):
            return


# --------------------------------------------------------------------------- check


def run_check(args: argparse.Namespace) -> int:
    """List suspicious queries, most suspicious first."""
    from ..evaluate import baseline
    from ..evaluate.check import check_build
    from ..evaluate.runs import check_run_ids, read_run

    config = config_of(args)
    build = load_build(args.dir, need=(CORPUS,))
    if not build.topics:  # "0 of 0 look suspicious" would say nothing: say why
        raise DataError(no_query_line(build.folder))
    if args.run:
        run = read_run(args.run, warn)
        check_run_ids(args.run if args.run != "-" else "stdin", run, build, args.dir)
    else:
        if config.baseline.method == "rrf":
            raise UsageError("[baseline] method rrf fuses runs: give check the run with --run")
        depth = config.baseline.model_copy(update={"k": CHECK_DEPTH})
        run = baseline.run_baseline(build.corpus, build.topics, depth)
    suspects = check_build(build, run, config.audit)
    found = len(suspects)
    if args.limit:
        suspects = suspects[: args.limit]
    if args.json:
        for suspect in suspects:
            sys.stdout.write(dumps(suspect) + "\n")
    else:
        for suspect in suspects:
            reasons = "; ".join(f"{s.kind}: {s.detail}" for s in suspect.signals)
            sys.stdout.write(
                f"{suspect.suspicion:4.1f}  {suspect.qid}  {suspect.query}  [{reasons}]\n"
            )
    shown = f" ({len(suspects)} shown)" if len(suspects) < found else ""
    verb = "looks" if found == 1 else "look"
    say(f"{found} of {len(build.topics)} queries {verb} suspicious{shown}")
    return 0


# --------------------------------------------------------------------------- validate


def run_validate(args: argparse.Namespace) -> int:
    """Check a build folder; exit 1 listing the problems."""
    from ..evaluate.validate import format_problem, validate_build

    problems = validate_build(args.dir)
    for problem in problems:
        line = dumps(problem) if args.json else format_problem(problem)
        sys.stdout.write(line + "\n")
    if problems:
        count = len(problems)
        raise DataError(f"{count} {'problem' if count == 1 else 'problems'} in {args.dir}")
    say(f"{args.dir}: ok")
    return 0


# --------------------------------------------------------------------------- align


def run_align(args: argparse.Namespace) -> int:
    """Write qrels over the user's chunk ids."""
    from ..evaluate.align import align, read_chunks, write_aligned

    build = load_build(args.dir, need=(CORPUS, GOLDEN, QRELS))
    refuse_input_as_output(
        args.out,
        [args.dir],
        lambda _: f"--out {args.out} is DIR or holds it: give another folder",
        holding=True,
    )
    refuse_foreign(args.out, "align")
    chunks = read_chunks(args.chunks)
    result = align(build, chunks)
    report = write_aligned(args.out, build, chunks, result)
    counts = report.counts
    say(
        f"{counts.mapped} of {counts.chunks} chunks mapped; {counts.queries} queries kept, "
        f"{counts.dropped_queries} dropped (no chunk takes their target) -> {args.out}"
    )
    for item in report.unmapped:
        warn(f"chunk {item.id or '(no id)'} maps to nothing: {item.reason}")
    return 0


# --------------------------------------------------------------------------- registration


def register(subparsers: Any) -> None:  # argparse._SubParsersAction
    """Add baseline, eval, check, validate and align."""
    _register_baseline(subparsers)
    _register_eval(subparsers)
    _register_check(subparsers)
    _register_validate(subparsers)
    _register_align(subparsers)


def _register_baseline(subparsers: Any) -> None:
    """``baseline DIR --out RUN.trec``."""
    p = subparsers.add_parser(
        "baseline",
        formatter_class=FORMATTER,
        help="BM25/TF-IDF/LSA/dense baseline run over corpus.jsonl",
        description="Retrieve sections for every query of DIR with a baseline retriever "
        "(character n-grams after NFKC and lower case, so no tokenizer is needed; or sentence "
        "embeddings) and write a TREC run, tagged with every parameter of its setting.",
        epilog="example:\n  qrelsmith baseline out/ --out runs/bm25.trec --k 100\n"
        "  qrelsmith baseline out/ --out - --method tfidf --ngrams 2-3 | head\n"
        "  qrelsmith baseline out/ --out runs/lsa.trec --method lsa --ngrams 2 --dims 128\n"
        "  qrelsmith baseline out/ --preset study --queries prefixed --out runs/prefixed/\n"
        "  qrelsmith baseline out/ --method rrf --runs runs/bm25.trec runs/lsa.trec "
        "--out runs/rrf.trec",
    )
    p.add_argument("dir", metavar="DIR", help="build folder (corpus.jsonl, queries.tsv)")
    p.add_argument(
        "--out",
        required=True,
        metavar="RUN.trec",
        help="run file, '-' for stdout (with --preset: a folder)",
    )
    p.add_argument(
        "--k",
        type=positive,
        default=None,
        help=f"results per query (default: config, {BASELINE.k})",
    )
    p.add_argument(
        "--method",
        choices=choices(BaselineOptions, "method"),
        default=None,
        help="bm25; tfidf (sublinear tf, cosine); lsa (TF-IDF over the 30,000 most frequent "
        "n-grams, TruncatedSVD to --dims, cosine); dense (cosine of the [semantic] extra's "
        "sentence embeddings); rrf (reciprocal rank fusion of the runs of --runs) "
        f"(default: config, {BASELINE.method})",
    )
    p.add_argument(
        "--ngrams",
        type=_ngrams,
        default=None,
        metavar="N-M",
        help=f"character n-gram sizes (default: config, {BASELINE.ngrams[0]}-{BASELINE.ngrams[1]})",
    )
    p.add_argument(
        "--k1", type=float, default=None, help=f"BM25 k1 (default: config, {BASELINE.k1})"
    )
    p.add_argument("--b", type=float, default=None, help=f"BM25 b (default: config, {BASELINE.b})")
    dims = f"LSA dimensions (default: config, {BASELINE.dims})"
    p.add_argument("--dims", type=positive, default=None, help=dims)
    p.add_argument(
        "--queries",
        choices=choices(BaselineOptions, "queries"),
        default=None,
        help="raw: as written; prefixed: each after its article's subject, the title "
        "before its first ｜, |, ' - ' or ': ' (the qids stay, so eval compares the two) "
        f"(default: config, {BASELINE.queries})",
    )
    p.add_argument(
        "--runs",
        nargs="+",
        default=None,
        metavar="RUN.trec",
        help="with --method rrf: the runs of DIR to fuse ('-' for stdin), each document "
        "adding 1 / (--rrf-k + its rank) in each run that retrieves it",
    )
    p.add_argument(
        "--rrf-k",
        type=int,
        default=None,
        metavar="K",
        help=f"reciprocal rank fusion's k (default: config, {BASELINE.rrf_k})",
    )
    p.add_argument(
        "--preset",
        choices=tuple(BASELINE_PRESETS),
        default=None,
        help="write a named set of runs into the folder --out: study = the seed's six "
        "settings as bm25_2, bm25_23, bm25_2_b03, tfidf_23, lsa_128, lsa_256 .trec "
        "(--k, --queries and --workers apply)",
    )
    p.add_argument(
        "--workers",
        "-j",
        type=positive,
        default=None,
        metavar="N",
        help="processes searching the queries once the index is built, each a consecutive "
        f"part (default: config, else all cores; at most {MAX_WORKERS}); the run is the same "
        "bytes whatever N",
    )
    add_config(p)
    p.set_defaults(func=run_baseline)


#: The longest helps of eval, apart so that its options read on a screen.
SIZES_HELP = (
    "stability by set size, e.g. 20,50,100,200,all: per size, --subsets subsets "
    "drawn without replacement (whole articles when articles hold several queries: "
    "round(N x articles/queries) of them), each measure's mean over subsets, the 2.5-97.5%% "
    "range of subset means, the mean width of a subset's 95%% bootstrap interval; for each "
    "run after the first, the swap rate (share of subsets where B - A has the opposite sign "
    "to the full set's) and the wrong-call rate (share where a sign-flip permutation test "
    "at p < 0.05 calls that opposite direction). Seeded by --seed and N"
)
NEED_HELP = (
    "queries needed to detect a mean difference DELTA with each compared run, at 95%% "
    "confidence and 80%% power (paired z-approximation): n = ((z_0.975 + z_0.80) * sd_d / "
    "DELTA)^2 = (2.80 * sd_d / DELTA)^2, sd_d the standard deviation of the per-query "
    "differences B - A; and the smallest difference the current n detects, "
    "2.80 * sd_d / sqrt(n), for independent queries; when articles hold several queries, "
    "also by article: design effect D = variance of the mean difference over whole articles "
    "/ (sd_d^2 / n), needed x D queries and detectable x sqrt(D)"
)


def _register_eval(subparsers: Any) -> None:
    """``eval DIR RUN.trec...``."""
    p = subparsers.add_parser(
        "eval",
        formatter_class=FORMATTER,
        help="score runs with bootstrap intervals and paired tests",
        description="Score TREC runs against DIR/qrels.trec with ir_measures (and Ragas' "
        "context precision CP@k). Queries of the qrels missing from a run count "
        "as 0 (trec_eval -c). Intervals: 95% bootstrap over queries and over "
        "articles. With two or more runs, each is compared with the first (--pairs all: "
        "every pair): mean difference, its interval, a sign-flip permutation p-value, "
        "win/tie/loss. Every run's Judged@10 (the share of its top 10 that the qrels judge) "
        "is printed under the scores.",
        epilog="example:\n  qrelsmith eval out/ runs/bm25.trec runs/tfidf.trec "
        "--measures nDCG@10 RR@10 R@100 CP@5 --gains exp\n"
        "  qrelsmith eval out/ runs/bm25.trec --rel 1 --per-query --json > scores.json\n"
        "  qrelsmith eval out/ runs/bm25.trec runs/tfidf.trec --sizes 20,50,200,all "
        "--need 0.01 --curve\n"
        "  qrelsmith eval out/ runs/*.trec --pairs all --ranks --views strict,graded,exp "
        "--unjudged condensed",
    )
    p.add_argument(
        "dir", metavar="DIR", help="build folder (qrels.trec; corpus.jsonl to check ids)"
    )
    p.add_argument("runs", nargs="+", metavar="RUN.trec", help="TREC runs; '-' for stdin")
    p.add_argument(
        "--measures",
        nargs="+",
        default=None,
        metavar="M",
        help=f"ir_measures names or CP@k (default: config, {' '.join(EVAL.measures)})",
    )
    p.add_argument(
        "--rel",
        type=int,
        default=None,
        help=f"lowest relevant grade for R, P, RR, AP, Success, CP (default: config, {EVAL.rel})",
    )
    p.add_argument(
        "--gains",
        choices=choices(EvalOptions, "gains"),
        default=None,
        help="nDCG gain of grade g: g (linear, trec_eval) or 2^g-1 (exp) "
        f"(default: config, {EVAL.gains})",
    )
    p.add_argument(
        "--unjudged",
        choices=choices(EvalRequest, "unjudged"),
        default=None,
        help="a retrieved document the qrels do not judge: irrelevant (trec_eval, TREC) or "
        "condensed (removed from the run before scoring, Sakai's condensed lists: does a "
        "conclusion survive without them?) (default: irrelevant)",
    )
    p.add_argument(
        "--pairs",
        choices=choices(EvalRequest, "pairs"),
        default=None,
        help="paired comparisons (and --need): each run with the first, or all pairs "
        "(default: first)",
    )
    _add_stability(p)
    _add_reading(p)
    _add_groups(p)
    p.add_argument(
        "--plot",
        metavar="FILE.png",
        help="also draw --sizes (interval width and swap / wrong-call rates against n) and "
        "--curve (recall at k) into a PNG (needs the [plot] extra: matplotlib)",
    )
    p.add_argument("--per-query", action="store_true", help="also print per-query values")
    p.add_argument("--json", action="store_true", help="one JSON document for scripts")
    p.add_argument(
        "--seed", type=int, default=None, help=f"resampling seed (default: config, {EVAL.seed})"
    )
    add_config(p)
    p.set_defaults(func=run_eval)


def _add_stability(p: argparse.ArgumentParser) -> None:
    """eval's --sizes, --subsets, --need and --curve: how far the scores can be trusted."""
    p.add_argument(
        "--sizes",
        type=_sizes,
        default=None,
        metavar="N,N,...",
        help=SIZES_HELP,
    )
    p.add_argument(
        "--draw",
        choices=get_args(Draw),
        default=None,
        help="how --sizes draws its subsets: whole articles, or single queries (default: whole "
        "articles when articles hold several queries; the output says which)",
    )
    p.add_argument(
        "--subsets",
        type=positive,
        default=None,
        help=f"subsets per size of --sizes (default: config, {EVAL.subsets})",
    )
    p.add_argument(
        "--need",
        type=_delta,
        default=None,
        metavar="DELTA",
        help=NEED_HELP,
    )
    p.add_argument(
        "--curve",
        action="store_true",
        help="recall at k (threshold --rel), one line per run; k as --k says",
    )
    p.add_argument(
        "--k",
        type=_cutoffs,
        default=None,
        metavar="K,K,...",
        help="the cut-offs of --curve (default: " + ",".join(map(str, CURVE_CUTOFFS)) + ")",
    )


def _add_reading(p: argparse.ArgumentParser) -> None:
    """eval's --ranks, --views and --micro: what lies behind the means."""
    p.add_argument(
        "--ranks",
        action="store_true",
        help="per run, the queries whose first relevant document (grade >= --rel) is at "
        "rank 1, 2, 3, 4-10 or not in the top 10, as counts and shares",
    )
    p.add_argument(
        "--views",
        type=_views,
        default=None,
        metavar="VIEW,...",
        help="nDCG@10 under labelling views side by side, with the best run of each: strict "
        "(grade >= --rel relevant at gain 1, the rest not), graded (the grade as gain), exp "
        "(gain 2^grade - 1); e.g. strict,graded,exp",
    )
    p.add_argument(
        "--micro",
        action="store_true",
        help="for each recall measure (R@k): the micro recall (relevant documents found / all "
        "relevant, over all queries) and the zero-recall rate beside the macro mean",
    )


def _add_groups(p: argparse.ArgumentParser) -> None:
    """eval's --by and --subset: the scores per group of queries, or of one group."""
    p.add_argument(
        "--by",
        choices=("overlap", "rule", "confidence", "article"),
        default=None,
        help="every measure per group of queries: overlap (thirds by the share of the "
        "query's units -- the matcher's words and CJK bigrams -- found in its labelled "
        "sections: low, mid, high), rule (the match rule), confidence (below / at least the "
        "audit's low_confidence: low, high), article",
    )
    p.add_argument(
        "--subset",
        type=_subset,
        default=None,
        metavar="GROUP",
        help="evaluate one group only: hard (= overlap=low, the queries sharing the fewest "
        "words with their section) or BY=GROUP, e.g. rule=fuzzy, confidence=low",
    )


def _register_check(subparsers: Any) -> None:
    """``check DIR``."""
    p = subparsers.add_parser(
        "check",
        formatter_class=FORMATTER,
        help="list queries likely mislabelled or unanswerable",
        description="Rank the queries of DIR by suspicion: the top hit is in another article, "
        "no content word out of context, a near-duplicate in another article, a "
        "label of low confidence, a near-tie of headings, or a checkable answer (a port, a "
        "code, a version: a number) found in another section only. Without --run the BM25 "
        "baseline is used.",
        epilog="example:\n  qrelsmith check out/ --limit 40\n"
        "  qrelsmith check out/ --run runs/bm25.trec --json > suspects.jsonl",
    )
    p.add_argument("dir", metavar="DIR", help="build folder")
    p.add_argument("--run", metavar="RUN.trec", help="a run whose top hits to use ('-' stdin)")
    p.add_argument("--limit", type=positive, default=None, help="show the first N only")
    p.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    add_config(p)
    p.set_defaults(func=run_check)


def _register_validate(subparsers: Any) -> None:
    """``validate DIR``."""
    p = subparsers.add_parser(
        "validate",
        formatter_class=FORMATTER,
        help="check a build folder before trusting it",
        description="Check that every qrels id exists in the corpus and the queries, no id has "
        "whitespace, grades are integers, every query has a grade-2 target, and "
        "the BEIR and TREC files agree. Exit 1 listing the problems.",
        epilog="example:\n  qrelsmith validate out/ && echo ok",
    )
    p.add_argument("dir", metavar="DIR", help="build folder")
    p.add_argument("--json", action="store_true", help="problems as JSON lines")
    p.set_defaults(func=run_validate)


def _register_align(subparsers: Any) -> None:
    """``align DIR --chunks CHUNKS.jsonl --out DIR2``."""
    p = subparsers.add_parser(
        "align",
        formatter_class=FORMATTER,
        help="carry the qrels over to your own chunks",
        description='Map chunks ({"id", "text", "url" or "path"}, as exported from '
        "LangChain or LlamaIndex) to the sections of their article by character "
        "overlap and write qrels over chunk ids. A chunk takes the highest grade "
        "of the sections that make up >= 50% of it or that it covers >= 50% of, "
        "else 1; chunks with < 50% of their text in their article map to nothing "
        "and are reported (see align_report.json).",
        epilog="example:\n  qrelsmith align out/ --chunks my_chunks.jsonl --out out-chunks/\n"
        "  qrelsmith eval out-chunks/ my_retriever.trec",
    )
    p.add_argument("dir", metavar="DIR", help="build folder")
    p.add_argument("--chunks", required=True, metavar="CHUNKS.jsonl", help="'-' for stdin")
    p.add_argument("--out", required=True, metavar="DIR2", help="folder for the chunk qrels")
    p.set_defaults(func=run_align)

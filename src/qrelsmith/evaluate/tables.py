"""How `qrelsmith eval` shows its report: text tables for people, one JSON document for scripts.

Pure: takes the ``EvalReport`` the analyses filled and returns text; the CLI writes it.
"""

from __future__ import annotations

import json

from ..models import EvalReport, GroupSummary, StabilityRow
from .statistics import NEEDED_CAP, units_per_subset

#: Below this many articles a subset's cluster bootstrap is too narrow to read (a bootstrap
#: of 2 or 3 clusters can only reshuffle them); the table says so for those sizes.
FEW_ARTICLES = 10


def format_report(report: EvalReport, *, per_query: bool = False) -> str:
    """eval's tables: the scores, then the blocks the options asked for."""
    text = format_table(report)
    for block in (
        format_groups(report),
        format_stability(report),
        format_needed(report),
        format_curve(report),
        format_recall(report),
        format_ranks(report),
        format_views(report),
    ):
        if block:
            text += "\n" + block
    if per_query:
        text += "\n" + format_per_query(report)
    return text


def format_json(report: EvalReport) -> str:
    """The report as one JSON document (non-ASCII kept), for scripts."""
    return json.dumps(report.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"


def format_table(report: EvalReport) -> str:
    """A plain-text table for people: means with both intervals, then the paired comparisons."""
    lines = [
        f"{report.queries} queries in {report.articles} articles; 95% intervals from "
        f"{report.settings['bootstrap_samples']} resamples of queries [q] and of articles [a]",
    ]
    width_run = max([len("run")] + [len(name) for name in report.runs])
    width_measure = max([len("measure")] + [len(m) for m in report.measures])
    lines.append(
        f"{'run':<{width_run}}  {'measure':<{width_measure}}  "
        f"{'mean':>6}  {'CI95 [q]':>15}  {'CI95 [a]':>15}"
    )
    for s in report.summaries:
        articles = (
            f"[{s.cluster_low:.4f},{s.cluster_high:.4f}]"
            if s.cluster_low is not None and s.cluster_high is not None
            else f"{'n/a':>15}"
        )
        lines.append(
            f"{s.run:<{width_run}}  {s.measure:<{width_measure}}  {s.mean:6.4f}  "
            f"[{s.low:.4f},{s.high:.4f}]  {articles}"
        )
    lines += _judged_lines(report)
    if report.comparisons:
        lines.append("")
        lines.append(
            f"paired: B - A, permutation test with {report.settings['permutation_rounds']} rounds"
        )
        for c in report.comparisons:
            cluster = (
                f" CI95[a]=[{c.cluster_low:+.4f},{c.cluster_high:+.4f}]"
                if c.cluster_low is not None and c.cluster_high is not None
                else ""
            )
            lines.append(
                f"{c.measure} {c.run_a}->{c.run_b}: diff={c.diff:+.4f} "
                f"CI95=[{c.low:+.4f},{c.high:+.4f}]{cluster} perm_p={c.p_value:.4f} "
                f"win/tie/loss={c.wins}/{c.ties}/{c.losses}"
            )
    return "\n".join(lines) + "\n"


def format_stability(report: EvalReport) -> str:
    """The seed's table, one block per run: per size, each measure's mean over subsets, the
    2.5-97.5 % range of subset means and the mean interval width (swap and wrong-call rates
    for runs after the first)."""
    if not report.stability:
        return ""
    study = report.settings.get("stability")
    if not isinstance(study, dict):  # evaluate_runs sets it whenever it fills the rows
        return ""
    several = report.articles < report.queries
    if study["draw"] == "article":
        # the default says which draw it took as it always has; an asked draw says so
        asked = "; --draw article" if study.get("draw_asked") else ""
        how = (
            f"whole articles ({report.articles} articles hold the {report.queries} queries; "
            f"n queries = round(n x {report.articles}/{report.queries}) articles{asked})"
        )
    elif several:
        how = (
            f"single queries (--draw query; {report.articles} articles hold the "
            f"{report.queries} queries, which the default draws whole)"
        )
    else:
        how = "queries (each article holds one)"
    lines = [
        f"stability: {study['subsets']} subsets per size, drawn without replacement by {how}",
        "  [low,high] = 2.5-97.5% of the subsets' means; w = mean width of a subset's 95% "
        f"bootstrap interval ({study['subset_resamples']} resamples)",
        "  swap = share of subsets where B - A has the sign opposite to all queries'; wrong = "
        f"share where a sign-flip permutation test ({study['subset_rounds']} rounds) calls "
        "that opposite direction at p < 0.05",
    ]
    by_run: dict[str, dict[int, list[StabilityRow]]] = {}
    for row in report.stability:
        by_run.setdefault(row.run, {}).setdefault(row.n, []).append(row)
    digits = len(str(max(row.n for row in report.stability)))
    for run, by_size in by_run.items():
        lines.append(run if run == report.runs[0] else f"{run} (vs {report.runs[0]})")
        for n, rows in by_size.items():
            cells = []
            for row in rows:
                cell = (
                    f"{row.measure}={row.mean:.3f} [{row.low:.3f},{row.high:.3f}] w={row.width:.3f}"
                )
                if row.swap_rate is not None and row.wrong_call_rate is not None:
                    cell += f" swap={row.swap_rate:.3f} wrong={row.wrong_call_rate:.3f}"
                cells.append(cell)
            lines.append(f"n={n:>{digits}} " + " | ".join(cells))
    if study["draw"] == "article":
        few = [
            n
            for n in study["sizes"]
            if units_per_subset(n, report.queries, report.articles) < FEW_ARTICLES
        ]
        if few:
            lines.append(
                f"note: at n = {', '.join(map(str, few))} a subset holds fewer than "
                f"{FEW_ARTICLES} articles: a bootstrap over so few understates the width "
                "(read the [low,high] range there)"
            )
    left_out = study.get("left_out") or []
    if left_out:
        lines.append(f"left out (more than the {report.queries} queries): {left_out}")
    whole = study.get("whole_set") or []
    if whole:
        lines.append(f"left out (a subset of whole articles would be the whole set): {whole}")
    return "\n".join(lines) + "\n"


def format_needed(report: EvalReport) -> str:
    """`--need`: per compared pair and measure, the queries needed and the detectable difference."""
    if not report.needed:
        return ""
    delta = report.needed[0].delta
    lines = [
        f"queries needed to detect a mean difference of {delta:g} (95% confidence, 80% power)",
        "  needed = ((z_0.975 + z_0.80) * sd / delta)^2, sd of the per-query differences B - A; "
        "detectable = (z_0.975 + z_0.80) * sd / sqrt(queries); queries taken as independent",
    ]
    if report.needed[0].design_effect is not None:
        lines.append(
            "  by article: the same with the variance over whole articles, as this set's "
            "queries come; design effect = that variance / (sd^2 / queries)"
        )
    for row in report.needed:
        by_article = (
            f"; by article: design effect {row.design_effect:.2f}, "
            f"needed={_count(row.queries_needed_by_article)} "
            f"detectable={row.detectable_by_article:.4f}"
            if row.design_effect is not None and row.sd > 0
            else ""
        )
        lines.append(
            f"{row.measure} {row.run_a}->{row.run_b}: sd={row.sd:.4f} "
            f"needed={_count(row.queries_needed)} (have {row.queries}) "
            f"detectable={row.detectable:.4f}"
            + by_article
            + ("  (no query differs from the mean difference)" if row.sd == 0 else "")
        )
    return "\n".join(lines) + "\n"


def _count(needed: int | None) -> str:
    """A count of queries needed, or "more than N" where it reached what an int holds."""
    if needed is not None and needed >= NEEDED_CAP:
        return f"more than {NEEDED_CAP:,}"
    return str(needed)


def _judged_lines(report: EvalReport) -> list[str]:
    """Every run's Judged@k under the scores, and, with condensed lists, that the scores are
    theirs."""
    if not report.judged:
        return []
    measure = report.judged[0].measure
    depth = measure.rsplit("@", 1)[-1]
    cells = "  ".join(f"{share.run} {share.mean:.4f}" for share in report.judged)
    lines = [f"{measure} (share of the top {depth} with a judgement, grade 0 included): {cells}"]
    if report.settings.get("unjudged") == "condensed":
        lines.append(
            "scored on condensed lists (--unjudged condensed): each run without the documents "
            "its query's qrels do not judge"
        )
    return lines


def format_recall(report: EvalReport) -> str:
    """`--micro`: each recall measure as the macro mean, the micro ratio and the zero-recall
    rate (seed 003)."""
    if not report.recall:
        return ""
    width_run = max([len("run")] + [len(row.run) for row in report.recall])
    width_measure = max([len("measure")] + [len(row.measure) for row in report.recall])
    lines = [
        "recall: macro = mean of the queries' recall (the table above); micro = relevant "
        "documents found / all relevant, over all queries; zero = share of queries finding none",
        f"{'run':<{width_run}}  {'measure':<{width_measure}}  {'macro':>6}  {'micro':>6}  "
        f"{'zero':>6}",
    ]
    for row in report.recall:
        lines.append(
            f"{row.run:<{width_run}}  {row.measure:<{width_measure}}  {row.macro:6.4f}  "
            f"{row.micro:6.4f}  {row.zero_recall_rate:6.4f}"
        )
    return "\n".join(lines) + "\n"


def format_ranks(report: EvalReport) -> str:
    """`--ranks`: per run, the queries whose first relevant document is at rank 1, 2, 3,
    4-10 or not in the top 10, as counts and shares."""
    if not report.ranks:
        return ""
    labels = list(dict.fromkeys(row.rank for row in report.ranks))
    cells = {(row.run, row.rank): f"{row.queries} ({row.share:.3f})" for row in report.ranks}
    width_run = max([len("run")] + [len(run) for run in report.runs])
    width = max(len(cell) for cell in cells.values())
    lines = [
        f"rank of the first relevant document (grade >= {report.settings['rel']}): queries "
        "(share); none = not in the top 10",
        f"{'run':<{width_run}}  " + "  ".join(f"{label:>{width}}" for label in labels),
    ]
    for run in report.runs:
        row = "  ".join(f"{cells[(run, label)]:>{width}}" for label in labels)
        lines.append(f"{run:<{width_run}}  {row}")
    return "\n".join(lines) + "\n"


def format_views(report: EvalReport) -> str:
    """`--views`: the study's table of labelling views, the runs side by side, and the best
    run under each view."""
    if not report.views:
        return ""
    views = list(dict.fromkeys(row.view for row in report.views))
    means = {(row.run, row.view): row.mean for row in report.views}
    rel = report.settings["rel"]
    meaning = {
        "strict": f"strict = grade >= {rel} relevant at gain 1, the rest not",
        "graded": "graded = the grade as gain",
        "exp": "exp = gain 2^grade - 1",
    }
    width_run = max([len("best")] + [len(run) for run in report.runs])
    best = {view: max(report.runs, key=lambda run: means[(run, view)]) for view in views}
    width = max([6] + [len(view) for view in views] + [len(run) for run in best.values()])
    lines = [
        f"labelling views, {report.views[0].measure}: "
        + "; ".join(meaning[view] for view in views),
        f"{'run':<{width_run}}  " + "  ".join(f"{view:>{width}}" for view in views),
    ]
    for run in report.runs:
        row = "  ".join(f"{means[(run, view)]:>{width}.4f}" for view in views)
        lines.append(f"{run:<{width_run}}  {row}")
    lines.append(f"{'best':<{width_run}}  " + "  ".join(f"{best[v]:>{width}}" for v in views))
    return "\n".join(lines) + "\n"


def format_curve(report: EvalReport) -> str:
    """`--curve`: recall at each cut-off, one line per run (the seed's table for choosing k)."""
    if not report.curve:
        return ""
    measure = report.curve[0].measure.rsplit("@", 1)[0]
    width = max(len(run) for run in report.runs)
    lines = [f"recall at k ({measure}@k)"]
    for run in report.runs:
        cells = [f"@{p.k}={p.mean:.3f}" for p in report.curve if p.run == run]
        lines.append(f"{run:<{width}}  " + " ".join(cells))
    return "\n".join(lines) + "\n"


def format_per_query(report: EvalReport) -> str:
    """Tab-separated ``run measure qid value`` lines (trec_eval -q style)."""
    if report.per_query is None:
        return ""
    lines = []
    for run, measures in report.per_query.items():
        for measure, by_qid in measures.items():
            for qid, value in by_qid.items():
                lines.append(f"{run}\t{measure}\t{qid}\t{value:.4f}")
    return "\n".join(lines) + "\n"


def format_groups(report: EvalReport) -> str:
    """`--by`: one line per group and run, every measure's mean and interval."""
    if not report.groups:
        return ""
    by = report.groups[0].by
    what = {
        "overlap": "thirds of the queries by the share of their units found in their "
        "labelled sections (low = the hardest for word matching)",
        "rule": "the rule that matched the label",
        "confidence": "label confidence below (low) or at least (high) the audit's low_confidence",
        "article": "article",
    }[by]
    lines = [f"by {by}: {what}; 95% intervals over the group's queries"]
    seen: dict[tuple[str, str], list[GroupSummary]] = {}
    for row in report.groups:
        seen.setdefault((row.group, row.run), []).append(row)
    width = max(len(group) for group, _ in seen)
    run_width = max(len(run) for run in report.runs)
    for (group, run), rows in seen.items():
        cells = " | ".join(f"{r.measure}={r.mean:.3f} [{r.low:.3f},{r.high:.3f}]" for r in rows)
        lines.append(f"{group:<{width}}  n={rows[0].queries:<5} {run:<{run_width}}  {cells}")
    return "\n".join(lines) + "\n"

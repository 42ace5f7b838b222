"""How `qrelsmith eval` shows its report: text tables for people, one JSON document for scripts.

Pure: takes the ``EvalReport`` the analyses filled and returns text; the CLI writes it.
"""

from __future__ import annotations

import json

from ..models import EvalReport, GroupSummary, StabilityRow
from .statistics import units_per_subset

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
    if study["draw"] == "article":
        how = (
            f"whole articles ({report.articles} articles hold the {report.queries} queries; "
            f"n queries = round(n x {report.articles}/{report.queries}) articles)"
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
            f"needed={row.queries_needed_by_article} detectable={row.detectable_by_article:.4f}"
            if row.design_effect is not None and row.sd > 0
            else ""
        )
        lines.append(
            f"{row.measure} {row.run_a}->{row.run_b}: sd={row.sd:.4f} "
            f"needed={row.queries_needed} (have {row.queries}) detectable={row.detectable:.4f}"
            + by_article
            + ("  (no query differs from the mean difference)" if row.sd == 0 else "")
        )
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

"""`eval --plot FILE.png`: the stability study and the recall curve as pictures.

Panels, from what the report holds: the mean 95 % interval width against the number of
queries (log-log, with the 1/sqrt(n) line through the largest size for reference), the swap
and wrong-call rates against n for each run after the first, and recall at k per run.
matplotlib is an optional extra (``pip install qrelsmith[plot]``); it is imported here only.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..models import EvalReport
from ..store.files import atomic_open_bytes


def plot_report(report: EvalReport, path: str | Path) -> int:
    """Draw the report's stability rows and recall curve into a PNG; returns the panels."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise UsageError("--plot needs matplotlib: pip install 'qrelsmith[plot]'") from exc
    compared = [r for r in report.stability if r.swap_rate is not None]
    panels = [
        kind
        for kind, present in (
            ("width", bool(report.stability)),
            ("swap", bool(compared)),
            ("curve", bool(report.curve)),
        )
        if present
    ]
    if not panels:
        raise UsageError("--plot draws --sizes and --curve: give one of them")
    figure, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.2), squeeze=False)
    for axis, kind in zip(axes[0], panels, strict=True):
        if kind == "width":
            series: dict[tuple[str, str], list[tuple[int, float]]] = {}
            for row in report.stability:
                series.setdefault((row.run, row.measure), []).append((row.n, row.width))
            for (run, measure), points in series.items():
                axis.plot(*zip(*points, strict=True), marker="o", label=f"{run} {measure}")
            # through the first series' largest size, where the width is the best estimated
            largest, width = max(next(iter(series.values())))
            sizes = sorted({row.n for row in report.stability})
            axis.plot(
                sizes,
                [width * (largest / n) ** 0.5 for n in sizes],
                linestyle=":",
                color="grey",
                label="1/sqrt(n)",
            )
            axis.set_xscale("log")
            axis.set_yscale("log")
            axis.set_xlabel("queries (n)")
            axis.set_ylabel("mean 95% interval width")
        elif kind == "swap":
            for row_run in dict.fromkeys((r.run, r.measure) for r in compared):
                rows = [r for r in compared if (r.run, r.measure) == row_run]
                label = f"{row_run[0]} vs {report.runs[0]} {row_run[1]}"
                axis.plot([r.n for r in rows], [r.swap_rate for r in rows], marker="o",
                          label=f"swap {label}")  # fmt: skip
                axis.plot([r.n for r in rows], [r.wrong_call_rate for r in rows], marker="x",
                          linestyle="--", label=f"wrong call {label}")  # fmt: skip
            axis.set_xscale("log")
            axis.set_ylim(0, 1)
            axis.set_xlabel("queries (n)")
            axis.set_ylabel("share of subsets")
        else:
            for run in report.runs:
                points = [(p.k, p.mean) for p in report.curve if p.run == run]
                axis.plot(*zip(*points, strict=True), marker="o", label=run)
            axis.set_xscale("log")
            axis.set_ylim(0, 1)
            axis.set_xlabel("k")
            axis.set_ylabel(report.curve[0].measure.rsplit("@", 1)[0] + "@k")
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=7)
    figure.tight_layout()
    with atomic_open_bytes(path) as handle:
        # no date or version in the file: the same report draws the same bytes
        figure.savefig(handle, format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)
    return len(panels)

"""Agreement between reviewers on the verdicts of one sample. Pure functions.

Cohen's kappa for two reviewers (over the rows both decided), scikit-learn's
``cohen_kappa_score``; Krippendorff's alpha for any number of reviewers, which allows rows some
reviewers left open, the ``krippendorff`` package's: nominal over the verdicts, and ordinal
over the ordered verdicts (wrong < partly < correct; "unsure" is no position on that scale and
counts as not judged), whose metric weighs a correct/wrong split more than a correct/partly
one. Where a figure is undefined (no pair of labels, or one label only: chance explains all)
it is NaN, decided here before the libraries, which would raise or warn. Tests check alpha
against the paper's worked example (Krippendorff 2011, "Computing Krippendorff's
Alpha-Reliability": nominal 0.743, ordinal 0.815) and both figures against their definitions.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from .verdicts import Review

#: The verdicts that have an order, lowest first; the others are left out of ordinal alpha.
ORDERED_VERDICTS: tuple[str, ...] = ("wrong", "partly", "correct")


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's kappa of two reviewers' labels on the same items; NaN when chance explains all
    (no item, or both reviewers gave one and the same label throughout)."""
    from sklearn.metrics import cohen_kappa_score  # a second's import: only when asked

    if len(first) != len(second):
        raise ValueError("both reviewers must label the same items")
    categories = sorted(set(first) | set(second), key=str)
    if len(categories) < 2:
        return math.nan
    index = {category: number for number, category in enumerate(categories)}
    return float(cohen_kappa_score([index[a] for a in first], [index[b] for b in second]))


def _alpha(
    units: Sequence[Sequence[Hashable | None]],
    order: Sequence[Hashable],
    level: Literal["nominal", "ordinal"],
) -> float:
    """Krippendorff's alpha at ``level`` (nominal, ordinal) over the labels of ``order`` (any
    other label counts as None); NaN when no unit has two such labels or all are the same."""
    import krippendorff

    if not units:
        return math.nan
    rank = {value: position for position, value in enumerate(order)}
    data = np.array(
        [[rank.get(v, np.nan) if v is not None else np.nan for v in unit] for unit in units],
        dtype=np.float64,
    ).reshape(len(units), -1)
    pairable = np.count_nonzero(~np.isnan(data), axis=1) >= 2
    seen = np.unique(data[pairable][~np.isnan(data[pairable])])
    if len(seen) < 2:
        return math.nan
    return float(
        krippendorff.alpha(
            reliability_data=data.T,
            level_of_measurement=level,
            value_domain=list(range(len(order))),
        )
    )


def krippendorff_alpha_nominal(units: Sequence[Sequence[Hashable | None]]) -> float:
    """Krippendorff's alpha for nominal data; ``units[i]`` holds each reviewer's label or None."""
    labels = sorted({v for unit in units for v in unit if v is not None}, key=str)
    return _alpha(units, labels, "nominal")


def krippendorff_alpha_ordinal(
    units: Sequence[Sequence[Hashable | None]], order: Sequence[Hashable]
) -> float:
    """Krippendorff's alpha for ordinal data; ``units[i]`` holds each reviewer's label or None,
    ``order`` the labels lowest first (labels outside it count as None). NaN when no unit has
    two ordered labels or every ordered label is the same."""
    return _alpha(units, order, "ordinal")


@dataclass(frozen=True)
class Disagreement:
    """A sampled query the reviewers judged differently: each reviewer's verdict and sections."""

    qid: str
    verdicts: dict[str, str]


@dataclass(frozen=True)
class Agreement:
    """How far the reviewers agree on the verdicts, and where they do not."""

    reviewers: list[str]
    rows: int
    kappa: float | None
    alpha: float
    disagreements: list[Disagreement]
    ordinal_alpha: float = math.nan
    order: tuple[str, ...] = ORDERED_VERDICTS

    def lines(self) -> list[str]:
        """The agreement for people, one fact a line."""

        def show(value: float) -> str:
            return "undefined (every verdict is the same)" if math.isnan(value) else f"{value:.3f}"

        out = [f"agreement of {len(self.reviewers)} reviewers over {self.rows} rows judged by 2+"]
        figures = [("Cohen's kappa", self.kappa)] if self.kappa is not None else []
        figures.append(("Krippendorff's alpha (nominal)", self.alpha))
        figures.append(
            (f"Krippendorff's alpha (ordinal: {' < '.join(self.order)})", self.ordinal_alpha)
        )
        width = max(len(name) for name, _ in figures)  # the values in one column
        out += [f"  {name:<{width}}  {show(value)}" for name, value in figures if value is not None]
        out.append(f"  disagreements: {len(self.disagreements)}")
        qid_width = max((len(item.qid) for item in self.disagreements), default=0)
        for item in self.disagreements:
            said = "; ".join(f"{who}: {what}" for who, what in item.verdicts.items())
            out.append(f"    {item.qid:<{qid_width}}  {said}")
        return out


def _said(review: Review, qid: str) -> str | None:
    verdict = review.verdicts.get(qid)
    if verdict is None:
        return None
    if verdict.sections is not None and verdict.verdict in ("wrong", "partly"):
        return f"{verdict.verdict} -> {' | '.join(verdict.sections) or 'none'}"
    return verdict.verdict


def agreement(
    reviews: Sequence[Review], qids: Sequence[str], order: Sequence[str] = ORDERED_VERDICTS
) -> Agreement:
    """Kappa (two reviewers), alpha, and the rows where the reviewers' verdicts differ;
    ``order``: the verdicts of ordinal alpha, lowest first (the pool's for pool sheets)."""
    names = [review.reviewer for review in reviews]
    units = [[_verdict(review, qid) for review in reviews] for qid in qids]
    judged = [unit for unit in units if sum(v is not None for v in unit) >= 2]
    kappa = None
    if len(reviews) == 2:
        both = [unit for unit in units if None not in unit]
        kappa = cohen_kappa([u[0] for u in both], [u[1] for u in both])
    disagreements = []
    for qid in qids:
        said: Mapping[str, str | None] = {review.reviewer: _said(review, qid) for review in reviews}
        given = {who: what for who, what in said.items() if what is not None}
        if len(set(given.values())) > 1:
            disagreements.append(Disagreement(qid, given))
    return Agreement(
        names,
        len(judged),
        kappa,
        krippendorff_alpha_nominal(units),
        disagreements,
        krippendorff_alpha_ordinal(units, order),
        tuple(order),
    )


def _verdict(review: Review, qid: str) -> str | None:
    verdict = review.verdicts.get(qid)
    return verdict.verdict if verdict else None

"""The one options model, passed through every stage, and its TOML loading.

A site's file overrides only what it names; everything else keeps the documented default
from ``patterns.py``. Example ``site.toml``::

    [build]
    article_selectors = ["div.post-body", "article"]
    fuzzy_threshold = 65

    [audit]
    size = 60
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import patterns
from .errors import UsageError


class _Options(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BuildOptions(_Options):
    """How pages become sections, quick-reference rows and matches."""

    article_selectors: list[str] = Field(default_factory=lambda: list(patterns.ARTICLE_SELECTORS))
    drop_tags: list[str] = Field(default_factory=lambda: list(patterns.DROP_TAGS))
    section_level: int = Field(default=patterns.SECTION_LEVEL, ge=1, le=6)
    excluded_headings: list[str] = Field(default_factory=lambda: list(patterns.EXCLUDED_HEADINGS))
    query_headers: list[str] = Field(default_factory=lambda: list(patterns.QUERY_HEADERS))
    answer_headers: list[str] = Field(default_factory=lambda: list(patterns.ANSWER_HEADERS))
    reference_headers: list[str] = Field(default_factory=lambda: list(patterns.REFERENCE_HEADERS))
    reference_separators: list[str] = Field(
        default_factory=lambda: list(patterns.REFERENCE_SEPARATORS)
    )
    fuzzy_threshold: float = Field(default=patterns.FUZZY_THRESHOLD, ge=0, le=100)
    ambiguity_margin: float = Field(default=patterns.AMBIGUITY_MARGIN, ge=0, le=100)
    encoding: str | None = Field(
        default=None, description="force this encoding instead of detecting it"
    )


class AuditOptions(_Options):
    """The audit sample a build writes by default."""

    size: int = Field(default=patterns.AUDIT_SIZE, ge=0)
    seed: int = patterns.AUDIT_SEED
    low_score: float = Field(default=patterns.LOW_SCORE, ge=0, le=100)


class EvalOptions(_Options):
    """Resampling for intervals and paired tests."""

    seed: int = patterns.EVAL_SEED
    bootstrap_samples: int = Field(default=patterns.BOOTSTRAP_SAMPLES, ge=100)
    permutation_rounds: int = Field(default=patterns.PERMUTATION_ROUNDS, ge=100)


class Config(_Options):
    """All options of qrelsmith; the defaults are the documented defaults of the config file."""

    build: BuildOptions = Field(default_factory=BuildOptions)
    audit: AuditOptions = Field(default_factory=AuditOptions)
    eval: EvalOptions = Field(default_factory=EvalOptions)


def load_config(path: str | Path | None) -> Config:
    """Read a TOML config file; ``None`` gives the defaults. Bad files raise UsageError."""
    if path is None:
        return Config()
    try:
        with open(path, "rb") as handle:
            data: dict[str, Any] = tomllib.load(handle)
    except OSError as exc:
        raise UsageError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"config {path} is not valid TOML: {exc}") from exc
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UsageError(f"config {path}: {where}: {first['msg']}") from exc

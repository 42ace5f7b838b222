"""The one options model, passed through every stage, and its TOML loading.

A site's file overrides only what it names; everything else keeps the documented default
from ``patterns.py``. Example ``site.toml``::

    [build]
    article_selectors = ["div.post-body", "article"]
    fuzzy_threshold = 0.65

    [audit]
    size = 60

    [pool]
    depth = 20

    [eval]
    rel = 1

    [baseline]
    ngrams = [2, 4]
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)

from . import patterns
from .errors import UsageError
from .patterns import TAG_NAME

#: evaluate.baseline.METHODS, and rrf (evaluate.fusion): runs already written, fused
Method = Literal["bm25", "tfidf", "lsa", "dense", "rrf"]
QueryForm = Literal["raw", "prefixed"]

#: A measure's cut-off, ``@k`` at the end of its name (``P@10``, ``CP(rel=2)@5``).
_CUTOFF = re.compile(r"@(\d+)$")
Gains = Literal["linear", "exp"]
Draw = Literal["article", "query"]
View = Literal["strict", "graded", "exp"]


def _share(default: float, description: str) -> Any:
    """A 0-1 option: a share, a similarity or a confidence."""
    return Field(default=default, ge=0, le=1, description=description)


def _workers(what: str) -> Any:
    """A count of worker processes: unset means all cores (at most MAX_WORKERS). Never in
    report.json's manifest: the output is the same bytes whatever the count."""
    return Field(
        default=None,
        ge=1,
        le=patterns.MAX_WORKERS,
        exclude=True,
        description=f"{what} (unset: all cores)",
    )


class _Options(BaseModel):
    # Strict: a TOML value of the wrong type is refused, never coerced (``section_level =
    # true`` is not 1, ``fuzzy_threshold = "0.5"`` is no number); NaN and infinity are no
    # option's value. Command-line flags go through the same validation (``with_flags``).
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, allow_inf_nan=False)


class BuildOptions(_Options):
    """How pages become sections, quick-reference rows and matches."""

    article_selectors: list[str] = Field(default_factory=lambda: list(patterns.ARTICLE_SELECTORS))
    drop_tags: list[str] = Field(default_factory=lambda: list(patterns.DROP_TAGS))
    permalink_selectors: list[str] = Field(
        default_factory=lambda: list(patterns.PERMALINK_SELECTORS),
        description="CSS selectors of heading permalink anchors, whose text is dropped",
    )
    section_level: int = Field(default=patterns.SECTION_LEVEL, ge=1, le=6)
    excluded_headings: list[str] = Field(default_factory=lambda: list(patterns.EXCLUDED_HEADINGS))
    link_only_density: float = _share(
        patterns.LINK_ONLY_DENSITY,
        "a section whose characters are at least this share link text (links to other pages) "
        "with little text besides is excluded as link-only; 0 = never",
    )
    query_headers: list[str] = Field(default_factory=lambda: list(patterns.QUERY_HEADERS))
    answer_headers: list[str] = Field(default_factory=lambda: list(patterns.ANSWER_HEADERS))
    reference_headers: list[str] = Field(default_factory=lambda: list(patterns.REFERENCE_HEADERS))
    heading_column_share: float = _share(
        patterns.HEADING_COLUMN_MIN_SHARE,
        "a table without telling headers is the quick-reference table when one column has at "
        "least this share of its cells naming the article's headings",
    )
    reference_separators: list[str] = Field(
        default_factory=lambda: list(patterns.REFERENCE_SEPARATORS)
    )
    fuzzy_threshold: float = _share(
        patterns.FUZZY_THRESHOLD,
        "word-aware similarity (0-1) a reference needs to match a heading fuzzily",
    )
    ambiguity_margin: float = _share(
        patterns.AMBIGUITY_MARGIN,
        "two sections whose similarity differs by less than this are a near-tie",
    )
    semantic: bool = Field(
        default=False,
        description="match the rows the lexical rules leave unmatched or ambiguous with a "
        "multilingual sentence encoder (needs the [semantic] extra; rule 'semantic', "
        "confidence at most 0.6)",
    )
    encoding: str | None = Field(
        default=None, description="force this encoding instead of detecting it"
    )
    ascii_ids: bool = Field(
        default=False,
        description="ids in printable ASCII: other characters and '%' percent-encoded (UTF-8), "
        "for tools that read files in the locale's encoding",
    )
    sources: list[str] = Field(
        default_factory=lambda: list(patterns.QUERY_SOURCES),
        min_length=1,
        # left out of report.json's manifest at its default: a table-only build writes the
        # bytes it wrote before there were other sources
        exclude_if=lambda value: value == list(patterns.QUERY_SOURCES),
        description="the query sources read, in order (sources.SOURCES: table = quick-reference "
        "tables, faq = question/answer pairs)",
    )
    page_timeout: float = Field(
        default=patterns.PAGE_TIMEOUT,
        ge=0,
        le=patterns.MAX_PAGE_TIMEOUT,
        description="seconds (wall clock) one page may take before it is skipped; 0: no limit",
    )
    max_page_bytes: int = Field(
        default=patterns.MAX_PAGE_BYTES,
        ge=1,
        le=patterns.LARGEST_PAGE_CAP,
        # left out of report.json's manifest at its default, as sources is: a build writes
        # the bytes it wrote before there was a cap
        exclude_if=lambda value: value == patterns.MAX_PAGE_BYTES,
        description="bytes a page may hold, as read or inflated, before it is skipped (its "
        "size in the reason); inflating stops at the cap",
    )
    workers: int | None = _workers("worker processes building pages")

    @field_validator("drop_tags", mode="before")
    @classmethod
    def _tag_names(cls, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return value
        tags = [tag.strip().lower() if isinstance(tag, str) else tag for tag in value]
        bad = [tag for tag in tags if not isinstance(tag, str) or not re.match(TAG_NAME, tag)]
        if bad:
            raise ValueError(f"{bad[0]!r} is not an HTML tag name (drop_tags takes tag names)")
        return tags

    # A value that fails on the first page fails on every page: it is refused when the file is
    # read (exit 2, nothing written), not turned into one skipped page per page of the crawl.

    @field_validator("article_selectors", "permalink_selectors")
    @classmethod
    def _selectors_parse(cls, value: list[str]) -> list[str]:
        plain = re.compile(TAG_NAME)
        for css in value:
            if plain.fullmatch(css):
                continue
            from cssselect import SelectorError  # lxml.cssselect's parser, only when needed
            from lxml.cssselect import CSSSelector

            try:
                CSSSelector(css, translator="html")
            except SelectorError as exc:
                raise ValueError(f"{css!r} is not a CSS selector: {exc}") from None
        return value

    @field_validator("sources")
    @classmethod
    def _sources_once(cls, value: list[str]) -> list[str]:
        # which names exist is the registry's to say (sources.check_sources, run by the
        # build command): the registry imports the stages, which import this module
        return list(dict.fromkeys(value))

    @field_validator("excluded_headings")
    @classmethod
    def _patterns_compile(cls, value: list[str]) -> list[str]:
        for pattern in value:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a regular expression: {exc}") from None
        return value

    @field_validator("reference_separators")
    @classmethod
    def _separators_not_empty(cls, value: list[str]) -> list[str]:
        if any(not separator for separator in value):
            raise ValueError("a separator cannot be empty")
        return value

    @field_validator("encoding")
    @classmethod
    def _known_encoding(cls, value: str | None) -> str | None:
        if value is None:
            return value
        import codecs

        try:
            codecs.lookup(value.strip())
        except LookupError:
            raise ValueError(f"unknown encoding {value!r}") from None
        return value


def build_options(options: BuildOptions | None) -> BuildOptions:
    """``options``, or the defaults when None: how a function with optional build options
    fills them in."""
    return options if options is not None else BuildOptions()


class AuditOptions(_Options):
    """The audit sample a build writes by default."""

    size: int = Field(default=patterns.AUDIT_SIZE, ge=0, le=patterns.MAX_AUDIT_SIZE)
    seed: int = Field(default=patterns.AUDIT_SEED, ge=0, le=patterns.MAX_SEED)
    low_confidence: float = _share(
        patterns.LOW_CONFIDENCE,
        "labels below this confidence (0-1, any rule) are over-sampled and flagged by check",
    )
    oversample: dict[str, float] = Field(
        default_factory=lambda: dict(patterns.OVERSAMPLE),
        description="stratum (low_confidence, fuzzy, multi, plain) -> how many times more likely "
        "its rows are drawn; strata not named keep their default",
    )

    @field_validator("oversample", mode="before")
    @classmethod
    def _known_strata(cls, value: Any) -> Any:
        if not isinstance(value, dict):
            return value
        unknown = sorted(set(value) - set(patterns.OVERSAMPLE))
        if unknown:
            raise ValueError(
                f"unknown stratum {unknown[0]!r} (strata: {', '.join(patterns.OVERSAMPLE)})"
            )
        if any(not isinstance(v, int | float) or v <= 0 for v in value.values()):
            raise ValueError("over-sampling factors must be numbers above 0")
        return {**patterns.OVERSAMPLE, **value}


class PoolOptions(_Options):
    """``audit pool``: the depth of the pool and the sample of it drawn for review."""

    depth: int = Field(
        default=patterns.POOL_DEPTH,
        ge=1,
        le=patterns.MAX_CUTOFF,
        description="each run's top k pooled",
    )
    size: int = Field(
        default=patterns.POOL_SIZE,
        ge=1,
        le=patterns.MAX_AUDIT_SIZE,
        description="pooled pairs to draw",
    )
    seed: int = patterns.AUDIT_SEED


class EvalOptions(_Options):
    """Measures and resampling of `qrelsmith eval` (its flags override these)."""

    seed: int = Field(default=patterns.EVAL_SEED, ge=0, le=patterns.MAX_SEED)
    bootstrap_samples: int = Field(
        default=patterns.BOOTSTRAP_SAMPLES, ge=100, le=patterns.MAX_RESAMPLES
    )
    permutation_rounds: int = Field(
        default=patterns.PERMUTATION_ROUNDS, ge=100, le=patterns.MAX_ROUNDS
    )
    subsets: int = Field(
        default=patterns.STABILITY_SUBSETS,
        ge=1,
        le=patterns.MAX_SUBSETS,
        description="subsets per size of --sizes",
    )
    subset_resamples: int = Field(
        default=patterns.STABILITY_RESAMPLES,
        ge=100,
        le=patterns.MAX_RESAMPLES,
        description="bootstrap of each subset",
    )
    subset_rounds: int = Field(
        default=patterns.STABILITY_ROUNDS,
        ge=100,
        le=patterns.MAX_ROUNDS,
        description="permutation test of each subset",
    )
    measures: list[str] = Field(
        default_factory=lambda: list(patterns.EVAL_MEASURES),
        min_length=1,
        description="ir_measures names or CP@k",
    )
    rel: int = Field(
        default=patterns.EVAL_REL,
        ge=1,
        le=patterns.MAX_GRADE,
        description="lowest relevant grade for R, P, RR, AP, Success, CP",
    )
    gains: Gains = Field(
        default=patterns.EVAL_GAINS, description="nDCG gain of grade g: g (linear) or 2^g-1 (exp)"
    )

    @field_validator("measures")
    @classmethod
    def _cutoffs_bounded(cls, value: list[str]) -> list[str]:
        for name in (part for item in value for part in item.split()):
            cutoff = _CUTOFF.search(name)
            if cutoff is not None and int(cutoff.group(1)) > patterns.MAX_CUTOFF:
                raise ValueError(
                    f"measure {name!r}: the cutoff (@k) must be at most {patterns.MAX_CUTOFF:,}"
                )
        return value


class EvalRequest(_Options):
    """What one `qrelsmith eval` call computes beyond the scores (flags only): the options
    model, then one field per analysis."""

    options: EvalOptions = Field(default_factory=EvalOptions)
    unjudged: Literal["irrelevant", "condensed"] = Field(
        default="irrelevant",
        description="a retrieved document the qrels do not judge: irrelevant (trec_eval), or "
        "removed from the run before scoring (condensed lists, Sakai 2007)",
    )
    pairs: Literal["first", "all"] = Field(
        default="first", description="paired comparisons: each run with the first, or every pair"
    )
    draw: Draw | None = Field(
        default=None,
        description="--sizes subsets drawn by whole articles or single queries (unset: by "
        "article when articles hold several queries)",
    )
    per_query: bool = Field(default=False, description="keep every per-query value")
    sizes: list[int | Literal["all"]] = Field(
        default_factory=list, description="set sizes of the stability study"
    )
    need: float | None = Field(default=None, gt=0, description="difference to detect")
    curve: list[Annotated[int, Field(ge=1, le=patterns.MAX_CUTOFF)]] = Field(
        default_factory=list, description="recall at these cut-offs"
    )
    ranks: bool = Field(default=False, description="rank of the first relevant document")
    views: list[View] = Field(default_factory=list, description="labelling views side by side")
    micro: bool = Field(default=False, description="micro recall and the zero-recall rate")


class BaselineOptions(_Options):
    """The character n-gram retriever of `qrelsmith baseline` (and of `check` without a run)."""

    method: Method = patterns.BASELINE_METHOD
    ngrams: tuple[int, int] = Field(
        default=patterns.NGRAM_RANGE, description="smallest and largest character n-gram"
    )
    k1: float = Field(default=patterns.BM25_K1, ge=0)
    b: float = Field(default=patterns.BM25_B, ge=0, le=1)
    k: int = Field(
        default=patterns.BASELINE_DEPTH,
        ge=1,
        le=patterns.MAX_CUTOFF,
        description="results per query",
    )
    dims: int = Field(
        default=patterns.LSA_DIMS,
        ge=1,
        le=patterns.MAX_LSA_DIMS,
        description="LSA dimensions (TruncatedSVD components)",
    )
    workers: int | None = _workers("processes searching the queries")
    queries: QueryForm = Field(
        default="raw",
        description="raw: the queries as written; prefixed: each after its article's subject "
        "(the title before a separator)",
    )
    rrf_k: int = Field(
        default=patterns.RRF_K,
        ge=0,
        description="rrf: a document at rank r of a fused run adds 1 / (rrf_k + r)",
    )

    @field_validator("ngrams", mode="before")
    @classmethod
    def _pair(cls, value: Any) -> Any:
        return tuple(value) if isinstance(value, list) else value  # TOML has arrays, no tuples

    @field_validator("ngrams")
    @classmethod
    def _ordered(cls, value: tuple[int, int]) -> tuple[int, int]:
        if value[0] < 1 or value[1] < value[0] or value[1] > patterns.MAX_NGRAM:
            raise ValueError(
                f"n-gram sizes must be [low, high] with 1 <= low <= high <= {patterns.MAX_NGRAM}"
            )
        return value

    @property
    def tag(self) -> str:
        """The run tag, naming every parameter the method reads: the method, its n-grams
        (``c2-3``), k1 and b where they differ from the defaults (``b0.3``), LSA's dims
        (``d256``) and prefixed queries (``prefixed``), rrf's k (``rrf-k60``, then the fused
        runs' tags): ``bm25-c2-3`` is the default, and two runs share a tag only when they are
        the same setting."""
        if self.method == "rrf":  # the fused runs' tags follow (evaluate.fusion)
            return f"rrf-k{self.rrf_k}"
        parts: list[str] = [self.method]
        if self.method != "dense":  # the encoder reads whole texts
            parts.append(f"c{self.ngrams[0]}-{self.ngrams[1]}")
        if self.method == "bm25":
            parts += [f"k1{self.k1!r}"] if self.k1 != patterns.BM25_K1 else []
            parts += [f"b{self.b!r}"] if self.b != patterns.BM25_B else []
        if self.method == "lsa":
            parts.append(f"d{self.dims}")
        if self.queries != "raw":
            parts.append(self.queries)
        return "-".join(parts)


class Config(_Options):
    """All options of qrelsmith; the defaults are the documented defaults of the config file."""

    build: BuildOptions = Field(default_factory=BuildOptions)
    audit: AuditOptions = Field(default_factory=AuditOptions)
    pool: PoolOptions = Field(default_factory=PoolOptions)
    eval: EvalOptions = Field(default_factory=EvalOptions)
    baseline: BaselineOptions = Field(default_factory=BaselineOptions)


OptionsT = TypeVar("OptionsT", bound=BaseModel)


def with_flags(options: OptionsT, given: dict[str, Any]) -> OptionsT:
    """``options`` with the values of command-line flags, validated as a config file's are: a
    bad one is a UsageError naming the flag (``--k1: Input should be a finite number``)."""
    if not given:
        return options
    try:
        # the fields as they are, not model_dump(): that leaves out the fields kept out of
        # report.json (workers), which a flag would then reset to their defaults
        return type(options).model_validate({**dict(options), **given})
    except ValidationError as exc:
        first = exc.errors()[0]
        flag = "--" + str(first["loc"][0]).replace("_", "-") if first["loc"] else "a flag"
        raise UsageError(f"{flag}: {_message(first['msg'])}") from exc


def load_config(path: str | Path | None) -> Config:
    """Read a TOML config file; ``None`` gives the defaults. Bad files raise UsageError."""
    if path is None:
        return Config()
    import tomllib  # only when there is a file to read

    from .errors import DataError
    from .store.files import decode_utf8

    try:
        with open(path, "rb") as handle:
            text = decode_utf8(handle.read(), f"config {path}")  # a UTF-8 BOM is dropped
        data: dict[str, Any] = tomllib.loads(text)
    except OSError as exc:
        raise UsageError(f"cannot read config {path}: {exc.strerror or exc}") from exc
    except DataError as exc:  # not UTF-8: a config that cannot be read is a usage error
        raise UsageError(str(exc)) from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"config {path} is not valid TOML: {exc}") from exc
    try:
        return Config.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UsageError(f"config {path}: {where}: {_message(first['msg'])}") from exc


def _message(text: str) -> str:
    """pydantic's message without the "Value error, " of an option's own check."""
    return text.removeprefix("Value error, ")

"""qrelsmith: graded retrieval qrels from author-written quick-reference tables.

The library API (the CLI is a thin layer over it)::

    import qrelsmith
    article = qrelsmith.parse_article(html_bytes, "guides/rdp.html")
    article.sections[0].id, article.sections[0].heading
    match = qrelsmith.match_reference("ポート番号3389", article)
    matches = qrelsmith.match_table([("ポート番号3389", [], ["RDPのポート", "3389"])], article)
    result = qrelsmith.build(["site/"], qrelsmith.Config())
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .version import __version__

if TYPE_CHECKING:
    from .config import Config, load_config
    from .labelling.matching import match_reference, match_table
    from .models import Article, BuildResult, GoldenQuery, Match, Section
    from .page.article import article_queries, parse_article
    from .run.build import build

#: Where each name of the API lives. They are imported when first used, not with the
#: package: every CLI call imports it, and `qrelsmith eval` should not pay ~0.4 s for the
#: build's pipeline (matching, parsing, the run) that it never calls.
_API = {
    "Config": ".config",
    "load_config": ".config",
    "match_reference": ".labelling.matching",
    "match_table": ".labelling.matching",
    "Article": ".models",
    "BuildResult": ".models",
    "GoldenQuery": ".models",
    "Match": ".models",
    "Section": ".models",
    "article_queries": ".page.article",
    "parse_article": ".page.article",
    "build": ".run.build",
}


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(import_module(_API[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Article",
    "BuildResult",
    "Config",
    "GoldenQuery",
    "Match",
    "Section",
    "__version__",
    "article_queries",
    "build",
    "load_config",
    "match_reference",
    "match_table",
    "parse_article",
]

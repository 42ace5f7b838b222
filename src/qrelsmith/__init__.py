"""qrelsmith: graded retrieval qrels from author-written quick-reference tables.

The library API (the CLI is a thin layer over it)::

    import qrelsmith
    article = qrelsmith.parse_article(html_bytes, "guides/rdp.html")
    article.sections[0].id, article.sections[0].heading
    match = qrelsmith.match_reference("ポート番号3389", article)
    result = qrelsmith.build(["site/"], qrelsmith.Config())
"""

__version__ = "0.1.0"

from .article import article_queries, parse_article  # noqa: E402
from .build import build  # noqa: E402
from .config import Config, load_config  # noqa: E402
from .matching import match_reference  # noqa: E402
from .models import Article, BuildResult, GoldenQuery, Match, Section  # noqa: E402

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
    "parse_article",
]

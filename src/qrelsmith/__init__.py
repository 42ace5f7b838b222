"""qrelsmith: graded retrieval qrels from author-written quick-reference tables.

The library API (the CLI is a thin layer over it)::

    import qrelsmith
    article = qrelsmith.parse_article(html_bytes, "guides/rdp.html")
    article.sections[0].id, article.sections[0].heading
    match = qrelsmith.match_reference("ポート番号3389", article)
    matches = qrelsmith.match_table([("ポート番号3389", [], ["RDPのポート", "3389"])], article)
    result = qrelsmith.build(["site/"], qrelsmith.Config())
"""

from .config import Config, load_config
from .labelling.matching import match_reference, match_table
from .models import Article, BuildResult, GoldenQuery, Match, Section
from .page.article import article_queries, parse_article
from .run.build import build
from .version import __version__

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

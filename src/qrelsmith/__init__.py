"""qrelsmith: graded retrieval qrels from author-written quick-reference tables."""

__version__ = "0.1.0"

"""The page stages: one page's bytes -> an Article (decode, parse, markdown, sections, quickref).

``decode`` finds the text encoding, ``parse`` builds the lxml tree of the article (``markdown``
first turns a ``.md`` page into HTML), ``sections`` splits it at headings, ``quickref`` finds the
author's quick-reference table and its rows, and ``article`` runs them in order into an
``Article`` and its queries. Pure: no files, no clock.
"""

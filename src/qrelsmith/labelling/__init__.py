"""Labelling: an Article's quick-reference rows -> matches, graded labels and their evidence.

``matching/`` resolves each row's section reference against the article's headings,
``content`` and ``semantic`` are the fallbacks on a section's text, ``labels`` turns matches
into graded qrels, ``evidence`` and ``overlap`` say where each label's answer is written and how
many of the query's words its section shares. Pure: no files, no clock.
"""

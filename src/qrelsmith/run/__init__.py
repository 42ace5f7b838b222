"""The run of a build: pages in, page results folded into outputs on disk.

``build`` drives it (in process or over ``parallel`` worker processes with ``progress`` on
stderr); each page goes through ``page_results`` under its ``timeout``, ``failures`` says which
exception is a skipped page and which a bug, and ``report`` folds the results into report.json.
"""

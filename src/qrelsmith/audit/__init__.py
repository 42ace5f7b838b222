"""The human review of a build's labels: sample, sheet and page, verdicts, apply, agreement.

``write_default_sample(build_dir, config)`` is what ``qrelsmith build`` calls to leave a review
sheet in ``DIR/audit/``.
"""

from .writer import write_default_sample

__all__ = ["write_default_sample"]

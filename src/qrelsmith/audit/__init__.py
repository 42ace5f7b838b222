"""The human review of a build's labels: sample, sheet and page, verdicts, apply, agreement.

``sample_staged_build(staged, report, config, out)`` is what ``qrelsmith build`` calls to leave
a review sheet in ``DIR/audit/`` (``write_default_sample(build_dir, config)`` draws it).
"""

from .writer import sample_staged_build, write_default_sample

__all__ = ["sample_staged_build", "write_default_sample"]

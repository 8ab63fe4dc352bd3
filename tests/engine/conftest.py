"""Hypothesis keeps no example database on disk (no .hypothesis/ folder at the top level)."""

from hypothesis import settings

settings.register_profile("skatschule", database=None)
settings.load_profile("skatschule")

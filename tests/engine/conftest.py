"""Hypothesis keeps nothing at the project's top level: no example database, and its
cache lives in the system's temporary folder (the top level is fixed by the design card)."""

import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir

set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "skatschule-hypothesis")
settings.register_profile("skatschule", database=None)
settings.load_profile("skatschule")

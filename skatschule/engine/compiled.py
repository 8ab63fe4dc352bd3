"""Which build of the engine runs: the compiled one (mypyc) or the pure Python one.

``make setup`` compiles the modules of :data:`MODULES` with mypyc where a C compiler exists
(``python -m skatschule.engine.mypyc_build``) into the folder ``_mypyc`` beside this file,
with a fingerprint of the sources it was built from. When the package is imported,
:func:`select` puts that folder first on the package's path, so the compiled modules
shadow their sources, unless

* ``SKATSCHULE_PURE_ENGINE`` is set (to anything but ``""`` or ``0``): the pure build is
  forced, e.g. to run the same tests on both builds;
* nothing was compiled (no C compiler, or ``make setup`` never ran);
* a source changed since the build (the fingerprint differs): a stale compiled module
  never runs, the source does until the next ``make setup``.

The pure Python modules stay the reference: both builds give the same answers
(``tests/engine/test_solver.py``).
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import MutableSequence
from pathlib import Path

__all__ = ["MODULES", "FOLDER", "fingerprint", "select", "ACTIVE"]

MODULES = ("solver", "playout", "game")
"""The engine modules compiled with mypyc. Modules run with ``python -m`` (bench, vectors)
must stay interpreted. mypyc turns an argument of the wrong built-in type into a ``TypeError``,
so a compiled module that takes input checks it first itself (see ``GameState``)."""

NATIVE = ("solver_core.c",)
"""C sources built beside the mypyc modules (the solver's native core, see ``solver.py``)."""

FOLDER = Path(__file__).with_name("_mypyc")
"""Where the compiled modules and their fingerprint (``FINGERPRINT``) live."""

ACTIVE = False
"""Whether this process runs the compiled modules (set by :func:`select`)."""


def fingerprint() -> str:
    """The sources of :data:`MODULES` and the Python version, hashed: a build is used only
    for exactly the sources it was built from."""
    digest = hashlib.sha256(sys.implementation.cache_tag.encode())
    here = Path(__file__).parent
    for name in MODULES:
        digest.update(name.encode())
        digest.update((here / f"{name}.py").read_bytes())
    for name in NATIVE:
        digest.update(name.encode())
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def pure_forced() -> bool:
    return os.environ.get("SKATSCHULE_PURE_ENGINE", "") not in ("", "0")


def select(package_path: MutableSequence[str]) -> bool:
    """Put the compiled modules first on ``package_path`` (the engine package's
    ``__path__``) if they exist, are current and are not switched off; returns whether."""
    global ACTIVE
    if pure_forced():
        return False
    try:
        built = (FOLDER / "FINGERPRINT").read_text().strip()
    except OSError:
        return False
    if built != fingerprint():
        return False
    package_path.insert(0, str(FOLDER))
    ACTIVE = True
    return True


_package = sys.modules[__name__.rpartition(".")[0]]
select(_package.__path__)  # the engine package imports this module first

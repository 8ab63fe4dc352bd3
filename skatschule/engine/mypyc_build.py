"""Compile the engine modules of :data:`.compiled.MODULES` with mypyc.

    python -m skatschule.engine.mypyc_build            # build (make setup runs it)
    python -m skatschule.engine.mypyc_build --status   # which build runs, and why

Needs a C compiler and Python's headers (Debian: gcc and python3-dev); mypy, which ships
mypyc, is a test dependency. Without them it says so and exits 0: the pure Python engine
runs. The result goes to ``skatschule/engine/_mypyc/`` (not in git) with the fingerprint
of its sources (see :mod:`.compiled`). Run from the project's top folder.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import sysconfig
import tempfile
from pathlib import Path

from . import compiled

# mypy without the project's settings (the Django plugin is not needed to compile the engine)
_MYPY_CONFIG = "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"


def can_compile() -> str | None:
    """None if a C compiler, Python's headers and mypyc are there, else what is missing."""
    if not (shutil.which("cc") or shutil.which("gcc")):
        return "no C compiler (cc/gcc)"
    include = sysconfig.get_paths().get("include", "")
    if not include or not (Path(include) / "Python.h").is_file():
        return "no Python headers (Python.h; Debian: python3-dev)"
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as exc:
        return f"no {exc.name} (pip install mypy setuptools)"
    return None


def build(root: Path) -> None:
    from mypyc.build import mypycify
    from setuptools import Extension, setup

    sources = [f"skatschule/engine/{name}.py" for name in compiled.MODULES]
    with tempfile.TemporaryDirectory(prefix="skatschule-mypyc-") as tmp:
        config = Path(tmp) / "mypy.ini"
        config.write_text(_MYPY_CONFIG)
        lib = Path(tmp) / "lib"
        # separate: one shared library per module, beside it in the package (a common one would
        # be a top-level module that the copy below does not carry)
        extensions = mypycify(["--config-file", str(config), *sources], target_dir=str(Path(tmp) / "c"), separate=True)
        # the solver's native core (plain C, no mypyc): used by the compiled solver only
        for name in compiled.NATIVE:
            stem = name.removesuffix(".c")
            extensions.append(
                Extension(f"skatschule.engine._{stem}", [f"skatschule/engine/{name}"], extra_compile_args=["-O3"])
            )
        setup(
            name="skatschule-engine-compiled",
            packages=[],
            py_modules=[],
            ext_modules=extensions,
            script_args=["--quiet", "build_ext", "--build-lib", str(lib), "--build-temp", str(Path(tmp) / "o")],
        )
        out = compiled.FOLDER
        if out.exists():
            shutil.rmtree(out)
        out.mkdir()
        for so in (lib / "skatschule" / "engine").iterdir():
            shutil.copy2(so, out / so.name)
        # written last: a half-finished build is never used
        (out / "FINGERPRINT").write_text(compiled.fingerprint() + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--status", action="store_true", help="say which build runs and why")
    args = parser.parse_args(argv)
    if args.status:
        if compiled.ACTIVE:
            print(f"compiled engine: {', '.join(compiled.MODULES)} from {compiled.FOLDER}")
        elif compiled.pure_forced():
            print("pure Python engine: SKATSCHULE_PURE_ENGINE is set")
        elif (compiled.FOLDER / "FINGERPRINT").is_file():
            print("pure Python engine: the compiled build is stale (run make setup)")
        else:
            print("pure Python engine: nothing compiled")
        return 0
    missing = can_compile()
    if missing:
        print(f"mypyc build skipped: {missing}; the pure Python engine runs")
        return 0
    root = Path(__file__).resolve().parents[2]
    if Path.cwd().resolve() != root:
        print(f"run from {root}", file=sys.stderr)
        return 2
    build(root)
    print(f"compiled with mypyc: {', '.join(compiled.MODULES)} -> {compiled.FOLDER}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

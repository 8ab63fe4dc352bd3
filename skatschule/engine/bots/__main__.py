"""``python -m skatschule.engine.bots`` is the arena under its old name (see :mod:`..arena`)."""

from ..arena import main

if __name__ == "__main__":
    raise SystemExit(main())

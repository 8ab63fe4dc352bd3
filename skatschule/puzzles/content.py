"""The shipped puzzles: ``rules_content/puzzles/puzzles.jsonl`` (one engine record a line).

``manage.py make_puzzles`` writes the file; ``manage.py load_puzzles`` (run by ``load_content``) calls
:func:`load_shipped`, which checks every record with the engine and adds the new ones to
the database (published ids are never removed or changed; a puzzle's rating stays).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.db import transaction

from skatschule.engine import SkatError
from skatschule.engine.puzzles import Puzzle as EnginePuzzle

from .models import Puzzle

SHIPPED = Path(settings.BASE_DIR) / "rules_content" / "puzzles" / "puzzles.jsonl"


def read(path: Path = SHIPPED) -> list[EnginePuzzle]:
    """Every puzzle of the file, read by the engine (a broken line raises SkatError with its number)."""
    if not path.exists():
        return []
    out: list[EnginePuzzle] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append(EnginePuzzle.from_dict(json.loads(line)))
        except (ValueError, KeyError, TypeError, SkatError) as exc:
            raise SkatError(f"puzzles.jsonl Zeile {number}: {exc}", f"puzzles.jsonl line {number}: {exc}") from exc
    return out


def write(puzzles: Iterable[EnginePuzzle], path: Path = SHIPPED) -> int:
    """Write the puzzles (sorted by id, each once) to the file; returns how many."""
    by_id = {p.id: p for p in puzzles}
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(by_id[k].as_dict(), ensure_ascii=False, sort_keys=True) for k in sorted(by_id)]
    path.write_text("\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
    return len(lines)


def row_fields(puzzle: EnginePuzzle) -> dict[str, object]:
    return {
        "record": puzzle.as_dict(),
        "view": puzzle.view.value,
        "themes": " " + " ".join(t.value for t in puzzle.themes) + " ",
        "source": puzzle.source,
    }


@transaction.atomic
def load_shipped(path: Path = SHIPPED) -> tuple[int, int]:
    """Add the shipped puzzles that are not in the database yet: (added, total in the file).

    A puzzle already there whose record changed in the file (its themes derived afresh by
    ``make_puzzles --retag``) takes the new record and themes; its id, rating and plays stay.
    """
    puzzles = read(path)
    known = dict(Puzzle.objects.filter(owner_user__isnull=True).values_list("id", "record"))
    taken = set(Puzzle.objects.filter(owner_user__isnull=False).values_list("id", flat=True))
    new = [
        Puzzle(id=p.id, rating=float(p.rating), **row_fields(p))
        for p in puzzles
        if p.id not in known and p.id not in taken
    ]
    Puzzle.objects.bulk_create(new, batch_size=500)
    changed = [Puzzle(id=p.id, **row_fields(p)) for p in puzzles if p.id in known and known[p.id] != p.as_dict()]
    Puzzle.objects.bulk_update(changed, ["record", "view", "themes", "source"], batch_size=500)
    return len(new), len(puzzles)

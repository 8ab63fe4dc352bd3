"""``manage.py make_puzzles --strong --games 100``: play seeded bot games, keep the proven puzzles.

``--strong``: whole games (auction, skat, play) with every seat the strongest bot
(``engine.puzzles.from_strong_game``); without it the older PIMC games with the bots' rule for
the declaration (``engine.puzzles.from_bot_game``, ``--null`` for Null games).

Each batch of games is one job (``skatschule.puzzles.generation.run_batch``) through the jobs API:
run workers beside it (``manage.py run_jobs``; with the database backend, one per core). The puzzles found
are added to rules_content/puzzles/puzzles.jsonl (ids already there stay as they are; a new one
only while no fixed guess beats chance by more than 7 %, see ``engine.puzzles.balanced``), and the
command prints the figures: puzzles per minute per worker and the rejection counts by reason.
``--start`` is the first seed: a new run with a new start makes more puzzles. ``--iss FILE`` takes
the puzzles from ISS records instead (a public ISS archive, one record a line, plain or packed
with bzip2 or gzip; ``--skip`` and ``--limit`` take a slice of a large one); ``--imported`` from
the records learners imported at /ueben/spiel/iss/ (``skatschule.puzzles.imports``: their jobs
were queued at the import; the command submits the ones still waiting and folds in every
finished one). ``--results`` folds saved batch results (JSON lines) in instead of playing.
``--retag`` plays nothing: it derives every shipped puzzle's themes afresh from its record
(``engine.puzzles.retag``, after a change to the theme rules) and rewrites the file; ``manage.py
load_content`` then carries the new themes into the database.
"""

from __future__ import annotations

import bz2
import gzip
import json
import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from skatschule.engine.iss import split_records
from skatschule.engine.puzzles import balanced, retag
from skatschule.jobs import services as jobs
from skatschule.jobs.models import Job, JobStatus
from skatschule.owners import Owner
from skatschule.puzzles import content, imports
from skatschule.puzzles.generation import GENERATE, RECORDS, VERSION, merge

OWNER = Owner.for_session("make-puzzles")
"""The jobs of this command belong to no visitor: a session key no browser gets."""


def _archive_text(path: Path) -> str:
    """The text of an ISS archive: plain, or packed with bzip2 (``.bz2``, as the server's
    archives come) or gzip (``.gz``)."""
    if path.suffix == ".bz2":
        return bz2.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    if path.suffix == ".gz":
        return gzip.decompress(path.read_bytes()).decode("utf-8", errors="replace")
    return path.read_text(encoding="utf-8", errors="replace")


class Command(BaseCommand):
    help = "Erzeugt Aufgaben aus Computerspielen (mit Beweis durch die Engine) und schreibt sie nach rules_content."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games", type=int, default=20, help="how many bot games to play")
        parser.add_argument("--start", type=int, default=0, help="the first seed")
        parser.add_argument("--batch", type=int, default=5, help="games per job")
        parser.add_argument("--strong", action="store_true", help="whole games of the strongest bots")
        parser.add_argument("--null", action="store_true", help="every game a Null game (the bots never declare one)")
        parser.add_argument("--results", type=Path, help="fold saved batch results (JSON lines) in instead")
        parser.add_argument("--iss", type=Path, help="take the puzzles from the ISS records of this file instead")
        parser.add_argument("--skip", type=int, default=0, help="with --iss: leave out the first N records")
        parser.add_argument("--limit", type=int, default=0, help="with --iss: at most N records (0: all)")
        parser.add_argument("--imported", action="store_true", help="take the puzzles from imported ISS records")
        parser.add_argument("--retag", action="store_true", help="derive the shipped puzzles' themes afresh")
        parser.add_argument("--out", type=Path, default=content.SHIPPED)

    def handle(self, *args: Any, **options: Any) -> None:
        if options["retag"]:
            self._retag(options["out"])
            return
        if options["iss"]:
            records = split_records(_archive_text(options["iss"]))[options["skip"] :]
            if options["limit"]:
                records = records[: options["limit"]]
            results = self._wait(
                [
                    (
                        RECORDS,
                        imports.records_key(part),
                        {"records": part, "first_seed": n},
                    )
                    for n in range(0, len(records), options["batch"])
                    for part in [records[n : n + options["batch"]]]
                ]
            )
        elif options["imported"]:
            results = self._imported()
        elif options["results"]:
            lines = options["results"].read_text(encoding="utf-8").splitlines()
            results = [json.loads(line) for line in lines if line.strip()]
        else:
            results = list(
                self._run(options["start"], options["games"], options["batch"], options["null"], options["strong"])
            )
        figures = merge(results)
        before = content.read(options["out"])
        kept, left_out = balanced(before, figures.puzzles.values())
        total = content.write(kept, options["out"])
        for line in figures.lines():
            self.stdout.write(line)
        self.stdout.write(f"  nicht aufgenommen, damit kein Raten über dem Zufall liegt: {left_out}")
        self.stdout.write(f"{options['out']}: {total} Aufgaben ({total - len(before)} neu)")

    def _retag(self, path: Path) -> None:
        before = content.read(path)
        after = [retag(p) for p in before]
        changed = sum(a.themes != b.themes for a, b in zip(after, before, strict=True))
        content.write(after, path)
        self.stdout.write(f"{path}: {len(after)} Aufgaben, bei {changed} die Themen neu abgeleitet")

    def _run(self, start: int, games: int, batch: int, null: bool, strong: bool) -> list[dict[str, Any]]:
        todo = []
        kind = "strong:" if strong else "null:" if null else ""
        for first in range(start, start + games, batch):
            payload = {"first_seed": first, "games": min(batch, start + games - first), "null": null, "strong": strong}
            key = f"bots:v{VERSION}:{kind}{payload['first_seed']}:{payload['games']}"
            todo.append((GENERATE, key, payload))
        return self._wait(todo)

    def _imported(self) -> list[dict[str, Any]]:
        """Submit the imported records still waiting for a job, wait for those jobs, and return
        the results of every finished record job."""
        tried: set[str] = set()
        while submitted := imports.submit_waiting(owner=OWNER):
            if all(job.key in tried for job in submitted):
                break  # these failed before: left for a later run
            tried.update(job.key for job in submitted)
            pending = list(submitted)
            while pending:
                time.sleep(0.5)
                for job in pending:
                    job.refresh_from_db()
                pending = [job for job in pending if job.status not in (JobStatus.DONE, JobStatus.FAILED)]
        self.stderr.write(f"  eingelesene ISS-Datensätze, noch in Arbeit: {imports.pending_count()}")
        return imports.finished_results()

    def _wait(self, todo: list[tuple[str, str, dict[str, Any]]]) -> list[dict[str, Any]]:
        """Submit one job per batch (as many at a time as JOBS_PER_OWNER allows) and collect the results.

        The workers (``manage.py run_jobs``, one or more) do the work; a batch computed before
        (same key: same seeds or records, same VERSION) is answered from the stored result at once.
        """
        pending: list[Job] = []
        out: list[dict[str, Any]] = []
        while todo or pending:
            while todo:
                kind, key, payload = todo[0]
                try:
                    pending.append(jobs.submit(owner=OWNER, kind=kind, key=key, payload=payload))
                except jobs.LimitReached:
                    break
                todo.pop(0)
            still: list[Job] = []
            for job in pending:
                job.refresh_from_db()
                if job.status == JobStatus.DONE and job.result is not None:
                    out.append(job.result.data)
                    self.stderr.write(
                        f"  Spiele ab {job.payload['first_seed']}: {len(job.result.data['puzzles'])} Aufgaben"
                    )
                elif job.status == JobStatus.FAILED:
                    self.stderr.write(f"  Spiele ab {job.payload['first_seed']}: fehlgeschlagen ({job.failure})")
                else:
                    still.append(job)
            pending = still
            if pending:
                time.sleep(0.5)
        return out

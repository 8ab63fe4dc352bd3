"""How quickly the bots answer at the table, through the site: ``python -m skatschule.table.bench_live``.

Plays whole games over HTTP as htmx does (``HX-Request``), one client, at each bots' level: the
learner passes in the auction and plays its first legal card. A quick level's cards come with
the answer to the learner's card; a strong bot's card that needs thinking is a job, whose end
the page learns from its event stream (``/rechnung/<id>/ereignisse/``), upon which it fetches the
board. Measured:

- **answer**: from sending the learner's card until the board shows the learner's turn again (or
  the end), every bot card of that answer visible;
- **thinking card** (strong): from the board that says "Der Computer überlegt" until the board
  with that card, through the pushed event;
- **cpu**: each request's CPU seconds in its view (``Server-Timing``, the server started with
  ``SERVER_TIMING=1``; ``--spawn`` does so);
- **reference**: ``/regeln/``, a plain page, fetched between the moves in the same run.

``--spawn`` starts ``manage.py serve`` (uvicorn and one worker in one process) on a free port
against the configured database (migrated, content loaded); else ``--url`` names a running site.
The figures come last.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["main", "spawn", "figure_line", "Client"]

LEVELS = ("beginner", "club", "strong")
_LEGAL = re.compile(r'name="value" value="([A-Z0-9]{2})" class="legal"')
_PASS = 'name="action" value="pass"'
_WAITING = re.compile(r'sse-connect="(/rechnung/[0-9a-f-]+/ereignisse/)"')
_OVER = 'id="table-result"'
_CPU = re.compile(r"cpu;dur=([0-9.]+)")


@dataclass
class Figures:
    answers: dict[str, list[float]] = field(default_factory=lambda: {level: [] for level in LEVELS})
    thinking: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    reference: list[float] = field(default_factory=list)


class Client:
    """One browser: cookies, the CSRF token, htmx's header."""

    def __init__(self, base: str, figures: Figures) -> None:
        self.base = base.rstrip("/")
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.figures = figures

    def _token(self) -> str:
        return next((c.value or "" for c in self.jar if c.name == "csrftoken"), "")

    def request(self, path: str, data: dict[str, str] | None = None, *, htmx: bool = True) -> str:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body)
        if htmx:
            request.add_header("HX-Request", "true")
        if body is not None:
            request.add_header("X-CSRFToken", self._token())
            request.add_header("Referer", self.base + path)
        with self.opener.open(request, timeout=60) as response:
            timing = _CPU.search(response.headers.get("Server-Timing", ""))
            if timing:
                self.figures.cpu.append(float(timing.group(1)) / 1000)
            return str(response.read().decode())

    def wait_for_end(self, path: str) -> None:
        """Read the job's event stream until it says ``done``."""
        request = urllib.request.Request(self.base + path, headers={"Accept": "text/event-stream"})
        with self.opener.open(request, timeout=60) as response:
            for raw in response:
                if raw.decode().strip() == "event: done":
                    return
        raise RuntimeError(f"the stream {path} ended without 'done'")


def _play(client: Client, level: str) -> None:
    figures = client.figures
    client.request("/ueben/spiel/", htmx=False)  # the session and the CSRF cookie
    board = client.request("/ueben/spiel/", {"action": "new", "level": level, "confirm": "1"})
    sent: float | None = None
    for _ in range(200):
        waiting = _WAITING.search(board)
        if waiting:
            shown = time.perf_counter()
            client.wait_for_end(waiting.group(1))
            board = client.request("/ueben/spiel/")
            figures.thinking.append(time.perf_counter() - shown)
            continue
        if sent is not None:
            figures.answers[level].append(time.perf_counter() - sent)
            sent = None
        start = time.perf_counter()
        client.request("/regeln/", htmx=False)
        figures.reference.append(time.perf_counter() - start)
        if _OVER in board:
            return
        legal = _LEGAL.findall(board)
        if _PASS in board:
            board = client.request("/ueben/spiel/", {"action": "pass"})
        elif legal:
            sent = time.perf_counter()
            board = client.request("/ueben/spiel/", {"action": "card", "value": legal[0]})
        else:
            raise RuntimeError("the board offers no move:\n" + board[:2000])
    raise RuntimeError("the game did not end")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn() -> tuple[subprocess.Popen[bytes], str]:
    """Start ``manage.py serve`` (uvicorn) on a free port; the process and its base URL."""
    port = free_port()
    env = {**os.environ, "SERVER_TIMING": "1"}
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "manage.py", "serve", f"127.0.0.1:{port}", "--log-level", "warning"], cwd=root, env=env
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=2).read()
            return process, base
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the server did not start")


def figure_line(name: str, values: list[float]) -> str:
    """``name: n=…, p50 …, p95 …, max …`` (seconds)."""
    if not values:
        return f"{name}: none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{name}: n={len(values)} p50 {statistics.median(values):.3f} s, p95 {p95:.3f} s, max {ordered[-1]:.3f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--spawn", action="store_true", help="start manage.py serve on a free port")
    parser.add_argument("--games", type=int, default=3, help="games per level")
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args(argv)
    process = None
    base = args.url
    if args.spawn:
        process, base = spawn()
    figures = Figures()
    try:
        for level in args.levels.split(","):
            for _ in range(args.games):
                _play(Client(base, figures), level)
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
    for level in args.levels.split(","):
        print(figure_line(f"{level} bots, answer visible", figures.answers[level]))
    print(figure_line("strong bots, each thinking card visible (pushed)", figures.thinking))
    print(figure_line("reference /regeln/", figures.reference))
    over = sum(1 for c in figures.cpu if c > 0.5)
    print(f"CPU per request: n={len(figures.cpu)}, max {max(figures.cpu, default=0):.3f} s, {over} over 0.5 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

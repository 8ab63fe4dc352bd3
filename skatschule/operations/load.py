"""Load test: N simulated visitors for a fixed time; latency percentiles per request class.

    python -m skatschule.operations.load --base http://127.0.0.1:8000 --users 20 --seconds 60
    python -m skatschule.operations.load --spawn --users 20 --seconds 60   # starts gunicorn itself

Each visitor has its own session cookie and one keep-alive connection and repeats, with a
think time between requests (``--think``, mean seconds, exponential; 0 = hammer):

- ``minimal``: ``GET /healthz``, the smallest Django view (the whole middleware stack);
- ``page``: ``GET /``, the home page: a small page with the site's layout (session, CSRF
  token, navigation), the cost every page has before its own content;
- ``rules``: ``GET /regeln/kapitel/<n>/``, a chapter of the annotated rules;
- ``generate``: ``GET /ueben/aufgabe/<type>/``, issue and render a new exercise;
- ``grade``: ``POST /ueben/antwort/<uuid>/`` (htmx), grade an answer read from the form.

It prints p50, p95, p99 and max latency per class, the request count and the errors
(status >= 400 or no answer). ``--spawn`` runs ``collectstatic`` and ``migrate`` and starts
gunicorn with production settings (DEBUG off, ``--workers``, ``--threads``) on a free port,
using ``DATABASE_URL`` from the environment (PostgreSQL recommended; SQLite serialises
writers). Exit status 1 if any request failed or the ``--check`` goals are missed.
"""

from __future__ import annotations

import argparse
import http.client
import math
import os
import random
import re
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["1", "2", "3", "4"]
KINDS = ["augen", "rangfolge", "stich", "zugeben", "spitzen", "spielwert", "reizen_hoehe", "abrechnung", "null"]
ANSWER_URL = re.compile(r'hx-post="(/ueben/antwort/[0-9a-f-]{36}/)"')
FORM = re.compile(r'<form class="answer-form".*?</form>', re.S)
INPUT = re.compile(r'<input[^>]*\bname="answer"[^>]*>')
SELECT = re.compile(r'<select[^>]*\bname="answer"[^>]*>(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]+)"')
ATTR = re.compile(r'(\w+)="([^"]*)"')


def answer_from_form(html: str) -> list[str]:
    """A well-formed (not necessarily right) answer for the exercise form in ``html``."""
    form = FORM.search(html)
    text = form.group(0) if form else html
    values: list[str] = []
    seen_radio = seen_checkbox = False
    for tag in INPUT.findall(text):
        attrs = dict(ATTR.findall(tag))
        kind = attrs.get("type", "text")
        if kind == "radio" and not seen_radio:
            values.append(attrs.get("value", ""))
            seen_radio = True
        elif kind == "checkbox" and not seen_checkbox:
            values.append(attrs.get("value", ""))
            seen_checkbox = True
        elif kind in ("number", "text"):
            low, high = int(attrs.get("min", 0)), int(attrs.get("max", 120))  # e.g. the Spitzen count 1..11
            values.append(str(random.randint(low, high)))
    selects = SELECT.findall(text)
    if selects:
        options = OPTION.findall(selects[0])
        random.shuffle(options)
        values.extend(options[: len(selects)])
    return values


@dataclass
class Stats:
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    samples: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, name: str, seconds: float, ok: bool, note: str = "") -> None:
        with self.lock:
            self.times[name].append(seconds)
            if not ok:
                self.errors[name] += 1
                if len(self.samples) < 10:
                    self.samples.append(f"{name}: {note}")


class Visitor:
    """One simulated visitor: a keep-alive connection and a cookie jar that ignores Secure."""

    def __init__(self, base: str, stats: Stats, think: float, rng: random.Random) -> None:
        parsed = urllib.parse.urlsplit(base)
        self.host, self.port = parsed.hostname or "127.0.0.1", parsed.port or 80
        self.cookies: dict[str, str] = {}
        self.stats, self.think, self.rng = stats, think, rng
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)

    def request(self, name: str, method: str, path: str, form: list[tuple[str, str]] | None = None) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers.update(
                {
                    "Content-Type": "application/x-www-form-urlencoded",
                    "X-CSRFToken": self.cookies.get("csrftoken", ""),
                    "HX-Request": "true",
                    "Referer": f"http://{self.host}:{self.port}{path}",
                }
            )
        start = time.perf_counter()
        try:
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # the server closed the idle keep-alive connection: reconnect once, like a browser
                self.conn.close()
                start = time.perf_counter()
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
        except (OSError, http.client.HTTPException) as exc:
            self.stats.add(name, time.perf_counter() - start, False, f"{path}: {exc!r}")
            self.conn.close()
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
            return 0, ""
        elapsed = time.perf_counter() - start
        for header in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(header).items():
                self.cookies[key] = morsel.value
        ok = response.status < 400
        self.stats.add(name, elapsed, ok, f"{path}: HTTP {response.status}")
        return response.status, text

    def pause(self) -> None:
        if self.think > 0:
            time.sleep(self.rng.expovariate(1 / self.think))

    def run(self, until: float) -> None:
        while time.monotonic() < until:
            self.request("minimal", "GET", "/healthz")
            self.pause()
            self.request("page", "GET", "/")
            self.pause()
            self.request("rules", "GET", f"/regeln/kapitel/{self.rng.choice(CHAPTERS)}/")
            self.pause()
            status, html = self.request("generate", "GET", f"/ueben/aufgabe/{self.rng.choice(KINDS)}/")
            found = ANSWER_URL.search(html) if status == 200 else None
            if found is None:
                continue
            self.pause()
            self.request("grade", "POST", found.group(1), [("answer", v) for v in answer_from_form(html)])
            self.pause()


def percentile(values: Sequence[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))  # nearest rank
    return ordered[index]


def drive(base: str, users: int, seconds: float, think: float, warmup: float = 2.0) -> Stats:
    # warm-up (templates, rules cache, connections) is not counted
    if warmup > 0:
        drive(base, min(users, 4), warmup, 0.0, warmup=0)
    stats = Stats()
    until = time.monotonic() + seconds
    threads = [
        threading.Thread(target=Visitor(base, stats, think, random.Random(i)).run, args=(until,), daemon=True)
        for i in range(users)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=seconds + 60)
    return stats


def report(stats: Stats, seconds: float) -> str:
    lines = [
        f"{'class':<10} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8} "
        f"{'errors':>6}"
    ]
    for name in ("minimal", "page", "rules", "generate", "grade"):
        t = stats.times.get(name, [])
        ms = [1000 * x for x in t]
        lines.append(
            f"{name:<10} {len(t):>8} {len(t) / seconds:>7.1f} {percentile(ms, 50):>8.1f} {percentile(ms, 95):>8.1f} "
            f"{percentile(ms, 99):>8.1f} {max(ms, default=float('nan')):>8.1f} {stats.errors.get(name, 0):>6}"
        )
    lines.append(f"errors: {sum(stats.errors.values())}")
    lines.extend(f"  {s}" for s in stats.samples)
    return "\n".join(lines)


def goals(stats: Stats) -> list[str]:
    """The issue's goals: p95 grading < 50 ms, no errors, rules p95 <= 2 x minimal p95."""
    missed = []
    grade = percentile([1000 * x for x in stats.times.get("grade", [])], 95)
    minimal = percentile([1000 * x for x in stats.times.get("minimal", [])], 95)
    rules = percentile([1000 * x for x in stats.times.get("rules", [])], 95)
    if not grade < 50:
        missed.append(f"p95 grading {grade:.1f} ms (goal < 50 ms)")
    if sum(stats.errors.values()):
        missed.append(f"{sum(stats.errors.values())} errors (goal 0)")
    if not rules <= 2 * minimal:
        missed.append(f"p95 rules page {rules:.1f} ms > 2 x minimal view {minimal:.1f} ms")
    page = percentile([1000 * x for x in stats.times.get("page", [])], 95)
    if not rules <= 2 * page:
        missed.append(f"p95 rules page {rules:.1f} ms > 2 x home page {page:.1f} ms")
    return missed


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spawn(workers: int, threads: int) -> tuple[subprocess.Popen[bytes], str, tempfile.TemporaryDirectory[str]]:
    """Start gunicorn with production settings (plain HTTP on loopback)."""
    static = tempfile.TemporaryDirectory(prefix="skatschule-static-")
    env = dict(os.environ)
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.pop("DEBUG", None)
    env.update(
        SECRET_KEY=env.get("SECRET_KEY") or secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="0",
        STATIC_ROOT=static.name,
        AXES_FAILURE_LIMIT="1000",
    )
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], env=env, cwd=ROOT, check=True)
    port = _free_port()
    gunicorn = Path(sys.executable).with_name("gunicorn")
    proc = subprocess.Popen(
        [
            str(gunicorn),
            "skatschule.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(workers),
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ],
        env=env,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc, base, static
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not come up")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="server to load (ignored with --spawn)")
    parser.add_argument("--users", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.5, help="mean think time between requests, seconds")
    parser.add_argument("--spawn", action="store_true", help="start gunicorn with production settings")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--check", action="store_true", help="exit 1 if a goal of the issue is missed")
    args = parser.parse_args(argv)
    proc = static = None
    base = args.base
    if args.spawn:
        proc, base, static = spawn(args.workers, args.threads)
    try:
        print(f"load: {args.users} users, {args.seconds:g} s, think {args.think:g} s, {base}", flush=True)
        stats = drive(base, args.users, args.seconds, args.think)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=20)
        if static is not None:
            static.cleanup()
    print(report(stats, args.seconds))
    missed = goals(stats)
    for line in missed:
        print("goal missed:", line)
    if not missed:
        print("goals met: p95 grading < 50 ms, 0 errors, rules page <= 2 x minimal view")
    return 1 if sum(stats.errors.values()) or (args.check and missed) else 0


if __name__ == "__main__":
    raise SystemExit(main())

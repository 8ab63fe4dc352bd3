"""No test reads the real date: each one passes on every day of the year (issue 39).

A test of the streak once began "two days before today" and failed on every Monday. So test code
(everything under tests/ but tests/clock.py) may not, outside a pinned clock:

- read the calendar or the wall clock: ``date.today()``, ``datetime.now()``/``today()``/``utcnow()``,
  ``timezone.localdate()``, ``timezone.localtime()`` of now, ``time.localtime()``/``strftime()``;
- take calendar fields from the real instant: ``timezone.now().date()``, ``.replace(hour=...)``,
  ``.weekday()``, ``.astimezone(...)`` and the like;
- step whole days or weeks from it: ``timezone.now() - timedelta(days=2)`` builds a history whose
  weekdays, month and clock changes are the real ones.

Where the day cannot change the outcome (a quiz that closes tomorrow, a cut-off of 90 days, a
local time of 18:30, which every day has), the line says so with the comment ``# any day``, at
its end or on a line of its own just above.

A clock is pinned in a test that takes the fixture ``clock`` (tests/clock.py; freezegun) or is
decorated with ``freeze_time``, and in a module whose ``pytestmark`` uses the fixture.
``timezone.now()`` itself, an instant, stays allowed: most tests only need "some time".

A static check, not a runtime one, on purpose: it costs milliseconds, it cannot miss a test that
happens not to run, and it points at the line. A runtime guard cannot tell a test that renders
today's goal (hundreds do, after every answer) from one whose verdict depends on the day; the
clock-dependent outcomes themselves are covered by the boundary tests of each feature.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
EXEMPT = {TESTS / "clock.py"}
MARKER = "# any day"

CALENDAR_READS = {
    ("date", "today"),
    ("datetime", "today"),
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("timezone", "localdate"),
    ("time", "localtime"),
    ("time", "gmtime"),
    ("time", "strftime"),
    ("time", "ctime"),
}
CALENDAR_FIELDS = {
    "date",
    "time",
    "replace",
    "weekday",
    "isoweekday",
    "isocalendar",
    "year",
    "month",
    "day",
    "hour",
    "astimezone",
    "timetuple",
    "strftime",
}


def _dotted(node: ast.expr) -> tuple[str, str] | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    return None


def _is_now(node: ast.AST) -> bool:
    """``timezone.now()``."""
    return isinstance(node, ast.Call) and _dotted(node.func) == ("timezone", "now")


def _holds_now(node: ast.AST) -> bool:
    return any(_is_now(inner) for inner in ast.walk(node))


def _whole_days(node: ast.AST) -> bool:
    """``timedelta(days=...)`` or ``timedelta(weeks=...)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "timedelta"
        and any(k.arg in ("days", "weeks") for k in node.keywords)
    )


def _pinned_function(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    names = [a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)]
    return "clock" in names or any("freeze_time" in ast.unparse(d) for d in node.decorator_list)


def _pinned_module(tree: ast.Module) -> bool:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            text = ast.unparse(node.value)
            return 'usefixtures("clock")' in text or "usefixtures('clock')" in text
    return False


def _problem(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        name = _dotted(node.func)
        if name in CALENDAR_READS:
            return f"{name[0]}.{name[1]}() reads the real date"
        if name == ("timezone", "localtime") and (not node.args or _holds_now(node.args[0])):
            return "timezone.localtime() of now reads the real wall clock"
    if isinstance(node, ast.Attribute) and node.attr in CALENDAR_FIELDS and _is_now(node.value):
        return f"timezone.now().{node.attr} takes a calendar field of the real date"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub):
        sides = (node.left, node.right)
        if any(_holds_now(s) for s in sides) and any(_whole_days(s) for s in sides):
            return "whole days from the real now"
    return None


def _findings(path: Path, root: Path = TESTS.parent) -> list[str]:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, str(path))
    if _pinned_module(tree):
        return []
    lines = source.splitlines()
    found: list[str] = []

    def visit(node: ast.AST, pinned: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            pinned = pinned or _pinned_function(node)
        problem = None if pinned else _problem(node)
        if problem is not None:
            line = getattr(node, "lineno", 0)
            if MARKER not in lines[line - 1] and not lines[line - 2].strip().startswith(MARKER):
                found.append(f"{path.relative_to(root)}:{line}: {problem}")
                return
        for child in ast.iter_child_nodes(node):
            visit(child, pinned)

    visit(tree, False)
    return found


def findings() -> list[str]:
    return [f for path in sorted(TESTS.rglob("*.py")) if path not in EXEMPT for f in _findings(path)]


def test_no_test_reads_the_real_date() -> None:
    found = findings()
    assert not found, "pin the clock (fixture clock, tests/clock.py) or say '# any day':\n" + "\n".join(found)


def test_the_check_sees_each_kind_of_read(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(
        "def test_a():\n"
        "    a = date.today()\n"
        "    b = timezone.localtime()\n"
        "    c = timezone.now().replace(hour=12)\n"
        "    d = timezone.now() - timedelta(days=2)\n"
        "    e = timezone.now() - timedelta(days=2)  # any day\n"
        "    f = timezone.now() - timedelta(hours=2)\n"
        "    # any day: a cut-off\n"
        "    h = timezone.now() - timedelta(days=90)\n"
        "def test_b(clock):\n"
        "    g = date.today()\n",
        encoding="utf-8",
    )
    lines = [f.split(":")[1] for f in _findings(sample, root=tmp_path)]
    assert lines == ["2", "3", "4", "5"]
    pinned = tmp_path / "test_pinned.py"
    pinned.write_text(
        'pytestmark = [pytest.mark.usefixtures("clock")]\ndef test_c():\n    date.today()\n', encoding="utf-8"
    )
    assert _findings(pinned, root=tmp_path) == []

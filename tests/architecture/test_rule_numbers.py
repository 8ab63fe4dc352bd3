"""The game's numbers (ISkO 4.2: 120 Augen, 61 to win, 90 for Schneider, 31 out of it) are
written once, in the engine's constants (``engine/games.py``: TOTAL_POINTS, WIN_POINTS,
SCHNEIDER_POINTS, OUT_OF_SCHNEIDER) and its helpers (``augen_needed``, ``augen_to_stop``,
``tricks_from_augen``); everywhere else they are used by name (issue 38 §3).

The test reads every module of the package and refuses an integer literal 61, 90, 31 or 120
(also negative). Not counted: the operand of a bit operation or a power (``k & 31``,
``2**31``: bit widths and masks), a slice bound (``title[:120]``) and ``max_length=`` (text
lengths). A literal that is no rule number goes into ``NOT_RULE_NUMBERS`` with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "skatschule"
RULE_NUMBERS = frozenset({61, 90, 31, 120})
CONSTANTS = "engine/games.py"
"""The engine's constants module, where the numbers are named."""

NOT_RULE_NUMBERS = {
    # "path:function:value" (function: the innermost def, or <module>) -> why it is no rule number
    "engine/bench_reference.py:solve:61": "a frozen copy of the old solver, measured as it was",
    "engine/cards.py:<module>:31": "positions in a 32-card deal",
    "exercises/ueberreizt.py:<module>:90": "list entries of conceded games, not Augen",
    "exercises/ueberreizt.py:<module>:120": "list entries of conceded games, not Augen",
    "casebook/services.py:<module>:90": "seconds per exam question",
    "casebook/group_exams.py:create_group_exam:120": "a title's length",
    "quizzes/own_items.py:create_own_item:120": "a title's length",
    "quizzes/publishing.py:copy_title:120": "a title's length",
    "quizzes/services/authoring.py:checked_settings:120": "a title's length",
    "operations/load.py:answer_from_form:120": "the load test's highest number for a form field",
    "operations/scale.py:fill_learner:90": "minutes between made-up attempts",
    "table/services.py:_bot_rng:31": "a multiplier that spreads seeds",
}


def _bit_or_slice(node: ast.AST, parent: ast.AST | None) -> bool:
    if isinstance(parent, ast.BinOp) and isinstance(
        parent.op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift, ast.Pow)
    ):
        return True
    if isinstance(parent, ast.Slice):
        return True
    return isinstance(parent, ast.keyword) and parent.arg == "max_length"


def rule_number_literals(source: str, path: str) -> list[str]:
    """``path:function:value`` of every literal rule number in ``source``."""
    tree = ast.parse(source)
    found: list[str] = []

    def visit(node: ast.AST, parent: ast.AST | None, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and node.value in RULE_NUMBERS
            and not _bit_or_slice(node, parent)
        ):
            found.append(f"{path}:{function}:{node.value}")
        for child in ast.iter_child_nodes(node):
            visit(child, node, function)

    visit(tree, None, "<module>")
    return found


def _modules() -> list[tuple[str, str]]:
    return [
        (path.relative_to(PACKAGE).as_posix(), path.read_text(encoding="utf-8"))
        for path in sorted(PACKAGE.rglob("*.py"))
        if "migrations" not in path.parts and "_mypyc" not in path.parts
    ]


def test_the_rule_numbers_are_written_only_in_the_engines_constants() -> None:
    found = [hit for path, source in _modules() if path != CONSTANTS for hit in rule_number_literals(source, path)]
    assert [hit for hit in found if hit not in NOT_RULE_NUMBERS] == []


def test_the_list_of_exceptions_has_no_stale_entry() -> None:
    found = {hit for path, source in _modules() for hit in rule_number_literals(source, path)}
    assert sorted(set(NOT_RULE_NUMBERS) - found) == []


def test_the_check_finds_a_rule_number_wherever_it_hides() -> None:
    source = """
def won(points):
    return points >= 61

LIMIT = -120
mask = 2**31 & 31
title = text[:120]
"""
    assert rule_number_literals(source, "x.py") == ["x.py:won:61", "x.py:<module>:120"]


def test_the_constants_are_the_isko_numbers() -> None:
    from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, TOTAL_POINTS, WIN_POINTS

    found = set(rule_number_literals((PACKAGE / CONSTANTS).read_text(encoding="utf-8"), CONSTANTS))
    assert {
        f"{CONSTANTS}:<module>:{n}" for n in (TOTAL_POINTS, WIN_POINTS, SCHNEIDER_POINTS, OUT_OF_SCHNEIDER)
    } == found

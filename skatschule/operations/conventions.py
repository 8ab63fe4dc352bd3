"""The review's counts (issue 38), printed by one command and held at or below their floors.

    python -m skatschule.operations.conventions

Each line is a count of something the project means to get rid of, beside its floor:

- **positional service and selector functions**: public functions of the modules named
  ``services*``/``selectors*`` and of the ``services/``/``selectors/`` packages in
  ``skatschule/`` that take an argument by position (:func:`positional_functions`, the rule
  below);
- **files exempt from the complexity checks as a whole**: the files ``pyproject.toml`` lists in
  ruff's ``per-file-ignores`` with ``C901`` (complexity above 10) or ``PLR0913`` (more than five
  arguments);
- **rule-number literals**: the ISkO's numbers 61, 90, 31 and 120 written as literals anywhere
  in ``skatschule/`` except where the engine defines them (``engine/games.py``: ``WIN_POINTS``,
  ``SCHNEIDER_POINTS``, ``OUT_OF_SCHNEIDER``, ``TOTAL_POINTS``);
- **translation conflicts**: msgids (with their context) that two ``.po`` files of one language
  translate differently.

The rule for services and selectors: every argument is keyword-only (``def f(*, user, quiz)``),
except that the first may stay positional when it is the one subject the function is about: a
model instance (its annotation names a class imported from a ``models`` module, or a union of
such classes) or the request (``HttpRequest``). So ``item_count(quiz)`` and
``own_quiz(user, pk=pk)`` are fine; ``own_quiz(user, pk)`` and ``type_levels(kind)`` are not.

The floors (:data:`FLOORS`) only go down: whoever lowers a count lowers its floor to the new
count in the same commit (the command says when a floor can go down); nobody raises one.
``tests/operations/test_conventions.py`` fails when a count is above its floor.
"""

from __future__ import annotations

import ast
import sys
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from skatschule.engine.games import OUT_OF_SCHNEIDER, SCHNEIDER_POINTS, TOTAL_POINTS, WIN_POINTS

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent

POSITIONAL = "positional service and selector functions"
EXEMPT = "files exempt from the complexity checks as a whole"
LITERALS = "rule-number literals (61, 90, 31, 120) outside the engine's constants"
CONFLICTS = "msgids translated two ways"

FLOORS: dict[str, int] = {
    POSITIONAL: 0,
    EXEMPT: 0,
    LITERALS: 9,
    CONFLICTS: 0,
}
"""The most each count may be. Only ever lower these (to the count the command prints)."""

COMPLEXITY_RULES = frozenset({"C901", "PLR0913"})
RULE_NUMBERS = frozenset({WIN_POINTS, SCHNEIDER_POINTS, OUT_OF_SCHNEIDER, TOTAL_POINTS})
CONSTANTS_MODULE = PACKAGE / "engine" / "games.py"
CONSTANT_NAMES = frozenset({"TOTAL_POINTS", "WIN_POINTS", "SCHNEIDER_POINTS", "OUT_OF_SCHNEIDER"})
NOT_A_RULE_NUMBER = "# not a rule number"
"""A comment that marks a literal on its line as some other number (a length, a seed range)."""


# --- services and selectors -------------------------------------------------------------------


def service_modules(package: Path = PACKAGE) -> list[Path]:
    """The modules named ``services*``/``selectors*`` and those inside ``services/``/``selectors/``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).parts
        if "migrations" in parts:
            continue
        if any(part in ("services", "selectors") for part in parts[:-1]) or path.stem.startswith(
            ("services", "selectors")
        ):
            found.append(path)
    return found


def _imported_from(tree: ast.Module) -> dict[str, str]:
    """Each name the module imports with ``from ... import``, mapped to the module it comes from."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                names[alias.asname or alias.name] = node.module or ""
    return names


def _is_subject(annotation: ast.expr | None, imported: dict[str, str]) -> bool:
    """Does the annotation name a model (a class from a ``models`` module) or ``HttpRequest``?"""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        annotation = ast.parse(annotation.value, mode="eval").body
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _is_subject(annotation.left, imported) and _is_subject(annotation.right, imported)
    if isinstance(annotation, ast.Name):
        module = imported.get(annotation.id, "")
        return module.rpartition(".")[2] == "models" or (module == "django.http" and annotation.id == "HttpRequest")
    return False


def positional_functions(source: str) -> list[str]:
    """The public top-level functions in ``source`` that break the keyword-only rule."""
    tree = ast.parse(source)
    imported = _imported_from(tree)
    found = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name.startswith("_"):
            continue
        positional = [*node.args.posonlyargs, *node.args.args]
        subject_only = len(positional) == 1 and _is_subject(positional[0].annotation, imported)
        if node.args.vararg is not None or (positional and not subject_only):
            found.append(node.name)
    return found


def public_functions(source: str) -> int:
    tree = ast.parse(source)
    return sum(
        isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_") for node in tree.body
    )


def positional_offenders(package: Path = PACKAGE) -> list[str]:
    """``path:function`` for every service or selector function that takes a positional argument."""
    return [
        f"{path.relative_to(package.parent)}:{name}"
        for path in service_modules(package)
        for name in positional_functions(path.read_text(encoding="utf-8"))
    ]


# --- per-file ignores ----------------------------------------------------------------------------


def exempt_files(pyproject: str) -> list[str]:
    """The files ruff's ``per-file-ignores`` exempt from C901 or PLR0913 as a whole."""
    ignores = tomllib.loads(pyproject).get("tool", {}).get("ruff", {}).get("lint", {}).get("per-file-ignores", {})
    return sorted(pattern for pattern, rules in ignores.items() if COMPLEXITY_RULES & set(rules))


# --- rule numbers ----------------------------------------------------------------------------------


def _not_rule_numbers(tree: ast.Module, *, constants: bool) -> set[int]:
    """ids of the literal nodes that are no rule number by their place: ``2**31``, bit masks,
    slice bounds (a text cut to length), ``max_length=``, negative values (game values), and
    in the engine's constants module the constants' own definitions."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            skipped.add(id(node.right))
        elif isinstance(node, ast.BinOp) and isinstance(
            node.op, ast.BitAnd | ast.BitOr | ast.BitXor | ast.LShift | ast.RShift
        ):
            skipped.update((id(node.left), id(node.right)))
        elif isinstance(node, ast.Slice):
            skipped.update(id(part) for bound in (node.lower, node.upper) if bound for part in ast.walk(bound))
        elif isinstance(node, ast.keyword) and node.arg in ("max_length", "min_length"):
            skipped.add(id(node.value))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            skipped.add(id(node.operand))
        elif constants and isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in CONSTANT_NAMES for t in targets):
                skipped.add(id(node.value))
    return skipped


def rule_number_literals(source: str, *, constants: bool = False) -> list[tuple[int, int]]:
    """(line, number) of each literal 61, 90, 31 or 120 in ``source`` that may be a rule number."""
    tree = ast.parse(source)
    skipped = _not_rule_numbers(tree, constants=constants)
    lines = source.splitlines()
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and type(node.value) is int
        and node.value in RULE_NUMBERS
        and id(node) not in skipped
        and NOT_A_RULE_NUMBER not in lines[node.lineno - 1]
    )


def literal_offenders(package: Path = PACKAGE) -> list[str]:
    return [
        f"{path.relative_to(package.parent)}:{line}: {number}"
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.parts
        for line, number in rule_number_literals(path.read_text(encoding="utf-8"), constants=path == CONSTANTS_MODULE)
    ]


# --- translations ------------------------------------------------------------------------------


def po_entries(text: str) -> dict[str, str]:
    """The translated singular entries of a ``.po`` text, keyed ``context\\x04msgid`` (or msgid)."""
    entries: dict[str, str] = {}
    fields: dict[str, str] = {}
    current = ""

    def flush() -> None:
        msgid = fields.get("msgid", "")
        msgstr = fields.get("msgstr", fields.get("msgstr[0]", ""))
        if msgid and msgstr and "msgid_plural" not in fields:
            context = fields.get("msgctxt")
            entries[f"{context}\x04{msgid}" if context is not None else msgid] = msgstr
        fields.clear()

    for raw in [*text.splitlines(), ""]:
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            fields[current] += ast.literal_eval(line)
        else:
            current, _sep, quoted = line.partition(" ")
            if current == "msgctxt" and "msgid" in fields:
                flush()
            fields[current] = ast.literal_eval(quoted)
    return entries


def translation_conflicts(catalogues: Iterable[tuple[str, str]]) -> list[str]:
    """``lang: msgid`` for each msgid that two catalogues of one language translate differently;
    ``catalogues`` are (language, .po text) pairs."""
    seen: dict[tuple[str, str], set[str]] = {}
    for lang, text in catalogues:
        for key, value in po_entries(text).items():
            seen.setdefault((lang, key), set()).add(value)
    return sorted(f"{lang}: {key}" for (lang, key), values in seen.items() if len(values) > 1)


def _catalogues(package: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(package.rglob("locale/*/LC_MESSAGES/*.po")):
        yield path.parent.parent.name, path.read_text(encoding="utf-8")


# --- the command -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Count:
    name: str
    found: list[str]
    note: str = ""

    @property
    def count(self) -> int:
        return len(self.found)

    @property
    def floor(self) -> int:
        return FLOORS[self.name]


def counts(package: Path = PACKAGE) -> list[Count]:
    modules = service_modules(package)
    total = sum(public_functions(path.read_text(encoding="utf-8")) for path in modules)
    positional = positional_offenders(package)
    return [
        Count(
            POSITIONAL,
            positional,
            f"{total - len(positional)} of {total} functions in {len(modules)} modules keyword-only",
        ),
        Count(EXEMPT, exempt_files((package.parent / "pyproject.toml").read_text(encoding="utf-8"))),
        Count(LITERALS, literal_offenders(package)),
        Count(CONFLICTS, translation_conflicts(_catalogues(package))),
    ]


def report(found: list[Count], *, verbose: bool = False) -> str:
    """A line per count beside its floor; under a count over its floor (or all, ``verbose``) what it found."""
    width = max(len(c.name) for c in found)
    lines = [f"{'count':>{width + 7}} / floor"]
    for c in found:
        state = "over the floor!" if c.count > c.floor else "lower the floor" if c.count < c.floor else "at the floor"
        line = f"{c.name:<{width}}  {c.count:5d} / {c.floor:<5d} {state}"
        lines.append(line + (f" ({c.note})" if c.note else ""))
        if verbose or c.count > c.floor:
            lines.extend(f"    {item}" for item in c.found)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    found = counts()
    print(report(found, verbose="-v" in args or "--verbose" in args))
    return 1 if any(c.count > c.floor for c in found) else 0


if __name__ == "__main__":
    raise SystemExit(main())

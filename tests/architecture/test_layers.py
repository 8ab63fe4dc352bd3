"""The import graph of ``skatschule``: no cycles, and the layers point one way.

Every ``import`` counts, also the ones inside functions (they hide cycles, they do not
remove them). Two graphs are checked:

- modules: no module reaches itself through imports;
- packages (``skatschule.engine``, ``skatschule.training`` ...): no package reaches itself
  through another package;

and the pure layers import nothing of Django and nothing of the project above them: the engine
only itself, the content format itself and the engine, the exercises those and themselves.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "skatschule"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        found[_module_name(path)] = path
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` is or lies in (``a.b.c`` -> ``a.b``)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    """Module -> the project modules it imports (anywhere in its body)."""
    modules = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = module.split(".")
                    base = base if is_package else base[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                # "from pkg import mod" imports the module pkg.mod when there is one
                targets = [f"{prefix}.{alias.name}" for alias in node.names] + [prefix]
            for target in targets:
                if not target.startswith(PACKAGE):
                    continue
                resolved = _resolve(target, modules)
                if resolved and resolved != module:
                    graph[module].add(resolved)
        graph.setdefault(module, set())
    # a package's __init__ importing its own submodules is not a cycle with them
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:  # noqa: C901 - a test helper over the budget since issue 27; to be split
    """The strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def _without_init_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Drop edges from a package's ``__init__`` to its own submodules and back: re-exports
    and ``from . import x`` are how a package presents itself, not a dependency loop."""
    modules = set(graph)
    out: dict[str, set[str]] = {}
    for module, targets in graph.items():
        keep = set()
        for target in targets:
            if target.startswith(module + ".") or module.startswith(target + ".") and target in modules:
                # parent package <-> its own child
                continue
            keep.add(target)
        out[module] = keep
    return out


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = defaultdict(set)
    for module, targets in graph.items():
        packages[_package(module)]
        for target in targets:
            if _package(target) != _package(module):
                packages[_package(module)].add(_package(target))
    return packages


def test_no_module_cycles() -> None:
    found = cycles(_without_init_edges(import_graph()))
    assert not found, "import cycles between modules:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_package_cycles() -> None:
    found = cycles(package_graph(import_graph()))
    assert not found, "import cycles between packages:\n" + "\n".join(" <-> ".join(c) for c in found)


# The pure layers: what each may import of the project (nothing of Django in any of them).
PURE_LAYERS = {
    "engine": ("engine",),
    "exercises": ("engine", "content", "exercises"),
    "content": ("engine", "content"),
}


def offending_imports(source: str, layer: str) -> list[str]:
    """The imports in ``source`` that a module of the pure ``layer`` must not make."""
    allowed = tuple(f"{PACKAGE}.{name}" for name in PURE_LAYERS[layer])
    found = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [node.module or ""]
        for name in names:
            project = name == PACKAGE or name.startswith(f"{PACKAGE}.")
            if name == "django" or name.startswith("django.") or (project and not name.startswith(allowed)):
                found.append(name)
    return found


@pytest.mark.parametrize("layer", sorted(PURE_LAYERS))
def test_the_pure_layers_import_only_what_lies_below_and_no_django(layer: str) -> None:
    offenders = []
    for module, path in _modules().items():
        if module == f"{PACKAGE}.{layer}" or module.startswith(f"{PACKAGE}.{layer}."):
            offenders += [f"{module} imports {name}" for name in offending_imports(path.read_text("utf-8"), layer)]
    assert not offenders, "\n".join(offenders)


def test_the_layer_check_finds_an_offender() -> None:
    source = "import os\nfrom django.db import models\nfrom skatschule.engine import cards\nimport skatschule.home\n"
    assert offending_imports(source, "exercises") == ["django.db", "skatschule.home"]
    assert offending_imports("from skatschule.exercises import gen\n", "engine") == ["skatschule.exercises"]


def test_the_checker_finds_a_cycle() -> None:
    """The cycle finder itself works (so a passing run means something)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []

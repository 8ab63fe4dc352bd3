"""English second: every interface string of the templates has an English translation.

Reads each template with Django's own parser, collects the messages of ``{% translate %}``
and ``{% blocktranslate %}`` (with their context, plural and ``trimmed`` handling, exactly
as ``makemessages`` would extract them) and looks each up in the compiled English
catalogs. No gettext tools are needed.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.template import engines
from django.template.backends.django import Template as DjangoTemplate
from django.template.base import Node
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils import translation
from django.utils.translation import trans_real

TEMPLATES = Path(settings.BASE_DIR) / "templates"


def _nodes(nodelist: Iterable[Node]) -> list[Node]:
    found: list[Node] = []
    for node in nodelist:
        found.append(node)
        for name in getattr(node, "child_nodelists", ()):
            found += _nodes(getattr(node, name, None) or [])
    return found


def _literal(expression: object) -> str | None:
    """The string of a constant ``FilterExpression`` (None for a variable)."""
    if expression is None:
        return None
    var = getattr(expression, "var", expression)
    if isinstance(var, str):
        return str(var)
    literal = getattr(var, "literal", None)
    return literal if isinstance(literal, str) else None


def _messages(path: Path) -> list[tuple[str | None, str]]:
    """(context, msgid) of every translated string in one template (blocks of child
    templates included: ``extends`` keeps them under the ExtendsNode)."""
    loaded = engines["django"].from_string(path.read_text(encoding="utf-8"))
    assert isinstance(loaded, DjangoTemplate)
    template = loaded.template
    messages: list[tuple[str | None, str]] = []
    for node in _nodes(template.nodelist):
        if isinstance(node, TranslateNode):
            literal = _literal(node.filter_expression)
            if literal is not None:
                messages.append((_literal(node.message_context), literal))
        elif isinstance(node, BlockTranslateNode):
            singular, _ = node.render_token_list(node.singular)
            if node.trimmed:
                singular = translation.trim_whitespace(singular)
            messages.append((_literal(node.message_context), singular))
    return messages


def test_every_template_string_has_an_english_translation() -> None:
    catalog = cast(Any, trans_real.translation("en"))._catalog  # Django's own table: private
    missing = []
    count = 0
    for path in sorted(TEMPLATES.rglob("*.html")):
        for context, msgid in _messages(path):
            count += 1
            key = f"{context}\x04{msgid}" if context else msgid
            if key not in catalog and (key, 0) not in catalog:
                missing.append(f"{path.relative_to(TEMPLATES)}: {msgid[:80]!r}")
    assert count > 500  # the walk found the strings at all
    assert not missing, "\n".join(missing)


_GETTEXT = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "ngettext", "ngettext_lazy"}


def _python_messages(path: Path) -> list[tuple[str | None, str]]:
    """(context, msgid) of the gettext calls with literal strings in one module."""
    import ast

    messages: list[tuple[str | None, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name not in _GETTEXT:
            continue
        strings = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        if name.startswith("p") and len(strings) >= 2 and strings[0] is not None and strings[1] is not None:
            messages.append((strings[0], strings[1]))
        elif not name.startswith("p") and strings[0] is not None:
            messages.append((None, strings[0]))
    return messages


def test_every_python_interface_string_has_an_english_translation() -> None:
    catalog = cast(Any, trans_real.translation("en"))._catalog  # Django's own table: private
    package = Path(settings.BASE_DIR) / "skatschule"
    missing = []
    count = 0
    for path in sorted(package.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for context, msgid in _python_messages(path):
            count += 1
            key = f"{context}\x04{msgid}" if context else msgid
            if key not in catalog and (key, 0) not in catalog:
                missing.append(f"{path.relative_to(package)}: {msgid[:80]!r}")
    assert count > 100
    assert not missing, "\n".join(missing)

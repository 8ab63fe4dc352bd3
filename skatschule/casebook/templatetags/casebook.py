"""``{% load casebook %}``: the casebook in templates of any app.

- ``{% cases_for_rule rule.id as cases %}``: the cases that cite a rule (for the rule pages);
- ``{{ text|case_markdown }}``: case markdown rendered with the rules directives
  (``[[cards: ...]]``, ``[[rule: ...]]``) in the active language and the visitor's deck;
- ``{% case_text case "situation" %}``: one text block of a case, rendered the same way.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from skatschule.casebook import cases as casebook
from skatschule.core.language import current_lang
from skatschule.rules.render import render_markdown, term_definitions

register = template.Library()


@register.simple_tag
def cases_for_rule(rule_id: str) -> tuple[casebook.Case, ...]:
    try:
        return casebook.cases_for_rule(str(rule_id))
    except (casebook.CaseFormatError, OSError):  # a broken casebook must not break the rule pages
        return ()


def _render(source: str, context: template.Context, where: str) -> SafeString:
    lang = current_lang()
    html = render_markdown(source, lang=lang, deck=str(context.get("deck") or "french"), where=where)
    # the definitions of the linked glossary terms follow the text, out of its flow and once
    # per response (the set lives on the request, so two blocks of one page share it)
    request = context.get("request")
    done: set[str] = set()
    if request is not None:
        done = getattr(request, "_term_definitions_done", None) or done
        request._term_definitions_done = done
    return SafeString(html + term_definitions(html, lang=lang, done=done))


@register.simple_tag(takes_context=True)
def case_text(context: template.Context, case: casebook.Case, block: str) -> SafeString:
    """``block``: situation, question, ruling or explanation."""
    if block not in casebook.TEXT_BLOCKS:
        raise template.TemplateSyntaxError(f"unknown case block {block!r}")
    source = getattr(case, block)(current_lang())
    return _render(source, context, f"{case.source}:{case.line} {case.id} @{block}")


@register.simple_tag(takes_context=True)
def case_markdown(context: template.Context, source: str) -> SafeString:
    return _render(str(source or ""), context, "casebook")


@register.filter
def in_lang(obj: object, attr: str) -> str:
    """``{{ case|in_lang:"title" }}``, ``{{ category|in_lang:"name" }}``: a text in the active language."""
    method = getattr(obj, attr)
    return str(method(current_lang()))


@register.filter
def get_item(mapping: object, key: str) -> str:
    """``{{ solved|get_item:case.id }}``: a value of a dict, ``""`` when missing."""
    if isinstance(mapping, dict):
        return str(mapping.get(key, ""))
    return ""

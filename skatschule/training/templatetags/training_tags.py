"""``{% load training_tags %}``: links to rules for the training pages.

- ``{% rule_link "3.2.1" %}``: a link to the rule's permalink (``/regeln/3.2.1``);
  ``{% rule_link "3.2.1" titled=True %}`` adds the rule's title;
- ``{{ "3.2.1"|rule_url }}``: only the address.
"""

from __future__ import annotations

from typing import Protocol

from django import template
from django.utils.safestring import SafeString, mark_safe

from skatschule.core.language import current_lang

from ..lessons import rule_link as _rule_link
from ..lessons import rule_url as _rule_url

register = template.Library()


class _Titled(Protocol):
    def title(self, lang: str) -> str: ...


@register.simple_tag
def rule_link(rule_id: str, titled: bool = False) -> SafeString:
    """A link to the rule; ``titled=True`` shows the rule's title after the id."""
    return mark_safe(_rule_link(str(rule_id), current_lang(), show_title=titled))  # noqa: S308 - escaped


@register.filter
def rule_url(rule_id: str) -> str:
    return _rule_url(str(rule_id))


@register.filter
def title_in_lang(obj: _Titled) -> str:
    """``{{ lesson|title_in_lang }}``: the title in the active language (anything with ``title(lang)``)."""
    return obj.title(current_lang())

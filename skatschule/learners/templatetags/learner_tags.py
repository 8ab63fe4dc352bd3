"""``{% load learner_tags %}``: ``{% daily_goal %}``, the visitor's daily goal and streak of days
(shown on the dashboard and after each answer)."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from skatschule.owners import owner_for

from .. import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def daily_goal(context: template.Context) -> SafeString:
    request = context.get("request")
    if request is None:
        return SafeString("")
    choices = selectors.choices_for(request=request)
    streak = selectors.streak_for(owner=owner_for(request, create=False), choices=choices)
    return render_to_string("learners/goal_status.html", {"streak": streak, "choices": choices}, request=request)

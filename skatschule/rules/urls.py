"""URLs under /regeln/ (namespace ``rules``), German paths.

``rules:rule`` is the permalink of a rule (``/regeln/3.2.4``; a trailing slash works too,
and older citations such as ``/regeln/SkO-4.2.9`` resolve to today's id). Rule ids in
paths use the ``rule`` converter (:mod:`.converters`), the one rule-id grammar of
:mod:`skatschule.content.ids`.
"""

from django.urls import path, register_converter

from . import views
from .converters import CitationConverter, RuleIdConverter

app_name = "rules"

register_converter(RuleIdConverter, "rule")
register_converter(CitationConverter, "citation")

urlpatterns = [
    path("", views.index, name="index"),
    path("kapitel/<str:chapter_id>/", views.chapter, name="chapter"),
    path("glossar/", views.glossary, name="glossary"),
    path("suche/", views.search, name="search"),
    path("alias/<path:alias>", views.alias, name="alias"),
    path("<rule:rule_id>/einzeln/", views.rule_detail, name="rule_detail"),
    path("<citation:ref>/", views.rule, name="rule"),
    path("<citation:ref>", views.rule, name="rule"),
    path("<rule:ref>/", views.rule, name="rule"),
    path("<rule:ref>", views.rule, name="rule"),
]

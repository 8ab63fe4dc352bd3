"""URLs under /regeln/ (namespace ``rules``), German paths.

``rules:rule`` is the permalink of a rule (``/regeln/3.2.4``; a trailing slash works too,
and older citations such as ``/regeln/SkO-4.2.9`` resolve to today's id).
"""

from django.urls import path, re_path

from . import views

app_name = "rules"

RULE_ID = r"(?:[0-9]+|[A-Za-z])\.[0-9]+(?:\.[0-9]+)?"
OLD_CITATION = r"[Ss][Kk][Oo][^/]*"

urlpatterns = [
    path("", views.index, name="index"),
    path("kapitel/<str:chapter_id>/", views.chapter, name="chapter"),
    path("glossar/", views.glossary, name="glossary"),
    path("suche/", views.search, name="search"),
    path("alias/<path:alias>", views.alias, name="alias"),
    re_path(rf"^(?P<rule_id>{RULE_ID})/einzeln/$", views.rule_detail, name="rule_detail"),
    re_path(rf"^(?P<ref>{RULE_ID}|{OLD_CITATION})/?$", views.rule, name="rule"),
]

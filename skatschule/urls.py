"""Top-level URLs: each app owns its own prefix."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("skatschule.home.urls")),
    path("karten/", include("skatschule.cards.urls")),
    path("regeln/", include("skatschule.rules.urls")),
    path("ueben/spiel/", include("skatschule.table.urls")),
    path("ueben/aufgaben/", include("skatschule.puzzles.urls")),
    path("ueben/druecken/", include("skatschule.graded_by_play.urls")),
    # the same pages for the bidding exercise graded by play (skatschule.graded_by_play.views)
    path("ueben/reizen/", include(("skatschule.graded_by_play.urls", "druecken"), namespace="reizen")),
    path("ueben/", include("skatschule.training.urls")),
    path("konto/", include("skatschule.accounts.urls")),
    path("faelle/", include("skatschule.casebook.urls")),
    path("schiedsrichter/", include("skatschule.referee.urls")),
    path("klassen/", include("skatschule.classrooms.urls")),
    path("studien/", include("skatschule.studies.urls")),
    path("quiz/", include("skatschule.quizzes.urls")),
    path("liste/", include("skatschule.scoresheet.urls")),
    path("rechnung/", include("skatschule.jobs.urls")),
    path("tagesziel/", include("skatschule.learners.urls")),
    path("lti/", include("skatschule.lti.urls")),
    path("blatt-der-woche/", include("skatschule.weekly.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("skatschule.operations.urls")),
]

# a database outage answers 503 with a page that needs neither database nor session
handler500 = "skatschule.operations.views.server_error"
# a form over the size limit (skatschule.core.limits) answers 413 with the site's error page
handler400 = "skatschule.core.limits.bad_request"

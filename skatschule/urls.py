"""Top-level URLs: each app owns its own prefix."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("skatschule.home.urls")),
    path("karten/", include("skatschule.cards.urls")),
    path("regeln/", include("skatschule.rules.urls")),
    path("ueben/spiel/", include("skatschule.table.urls")),
    path("ueben/", include("skatschule.training.urls")),
    path("konto/", include("skatschule.accounts.urls")),
    path("faelle/", include("skatschule.casebook.urls")),
    path("klassen/", include("skatschule.classrooms.urls")),
    path("quiz/", include("skatschule.quizzes.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("skatschule.operations.urls")),
]

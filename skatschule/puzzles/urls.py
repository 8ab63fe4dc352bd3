from django.urls import path, register_converter

from . import views


class PuzzleId:
    regex = "[0-9a-f]{12}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(PuzzleId, "puzzle")

app_name = "puzzles"
urlpatterns = [
    path("", views.index, name="index"),
    path("naechste/", views.next_one, name="next"),
    path("taeglich/", views.daily, name="daily"),
    path("serie/", views.streak, name="streak"),
    path("themen/", views.themes, name="themes"),
    path("thema/<slug:slug>/", views.theme, name="theme"),
    path("verlauf/", views.history, name="history"),
    path("meine-fehler/", views.own, name="own"),
    path("meine-fehler/frage/<uuid:public_id>/", views.own_question, name="own_question"),
    path("wiederholen/", views.retry, name="retry"),
    path("<puzzle:puzzle_id>/", views.puzzle, name="puzzle"),
    path("<puzzle:puzzle_id>/tipp/", views.hint, name="hint"),
    path("<puzzle:puzzle_id>/loesung/", views.solution, name="solution"),
]

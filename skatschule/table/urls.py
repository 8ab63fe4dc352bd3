from django.urls import path

from . import views, views_board

app_name = "table"
urlpatterns = [
    path("", views.table_view, name="play"),
    path("analyse/", views.analysis, name="analysis"),
    path("brett/", views.board, name="board"),
    path("brett/nochmal/", views_board.play_again, name="again"),
    path("meine/", views.games, name="games"),
    path("export.sgf", views.export, name="export"),
    path("iss/", views.iss_import, name="iss"),
    path("iss/brett/", views.iss_board, name="iss_board"),
    path("ouvert/", views.ouvert, name="ouvert"),
    path("<int:pk>/", views.stored, name="stored"),
    path("<int:pk>/analyse/", views.stored_analysis, name="stored_analysis"),
    path("<int:pk>/brett/", views.stored_board, name="stored_board"),
    path("<int:pk>/export.sgf", views.stored_export, name="stored_export"),
    path("<int:pk>/teilen/", views_board.share, name="share"),
    path("<int:pk>/nochmal/", views_board.stored_play_again, name="stored_again"),
    path("geteilt/<uuid:token>/", views_board.shared, name="shared"),
]

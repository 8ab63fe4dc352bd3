from django.urls import path

from . import views

app_name = "scoresheet"
urlpatterns = [
    path("", views.index_view, name="index"),
    path("hausregeln/", views.house_rules, name="house_rules"),
    path("geteilt/<str:share_id>/", views.shared, name="shared"),
    path("geteilt/<str:share_id>/druck/", views.shared_print, name="shared_print"),
    path("geteilt/<str:share_id>/liste.csv", views.shared_csv, name="shared_csv"),
    path("<str:key>/", views.detail, name="detail"),
    path("<str:key>/spiel/", views.add_game, name="add_game"),
    path("<str:key>/ramsch/", views.add_ramsch, name="add_ramsch"),
    path("<str:key>/platzwechsel/", views.change_player, name="change"),
    path("<str:key>/eingepasst/", views.add_passed, name="add_passed"),
    path("<str:key>/spiel/<int:number>/", views.correct, name="correct"),
    path("<str:key>/rueckgaengig/", views.undo, name="undo"),
    path("<str:key>/einsatz/", views.stake, name="stake"),
    path("<str:key>/liste.csv", views.csv_export, name="csv"),
    path("<str:key>/protokoll.txt", views.game_log, name="log"),
    path("<str:key>/druck/", views.print_view, name="print"),
    path("<str:key>/teilen/", views.share, name="share"),
]

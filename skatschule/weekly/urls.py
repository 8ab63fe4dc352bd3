from django.urls import path

from . import views

app_name = "weekly"
urlpatterns = [
    path("", views.index, name="index"),
    path("turnier/neu/", views.new_tournament, name="new_tournament"),
    path("spiel/<int:entry>/", views.entry, name="entry"),
    path("<str:key>/", views.deal_set, name="set"),
    path("<str:key>/rangliste/", views.standings, name="standings"),
    path("<str:key>/<int:number>/spielen/", views.play, name="play"),
    path("<str:key>/<int:number>/vergleich/", views.compare, name="compare"),
]

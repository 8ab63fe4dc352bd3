from django.urls import path

from . import views

app_name = "training"
urlpatterns = [
    path("", views.lessons, name="lessons"),
    path("lektion/<slug:slug>/", views.lesson, name="lesson"),
    path("aufgabe/<slug:kind>/", views.exercise, name="exercise"),
    path("antwort/<uuid:public_id>/", views.answer, name="answer"),
    path("wiederholen/", views.review_next, name="review"),
    path("fortschritt/", views.dashboard, name="dashboard"),
    path("reizen-am-tisch/", views.auction_table, name="auction"),
]

from django.urls import path

from . import views

app_name = "druecken"
urlpatterns = [
    path("", views.start, name="start"),
    path("<uuid:public_id>/", views.exercise, name="exercise"),
    path("<uuid:public_id>/antwort/", views.answer, name="answer"),
]

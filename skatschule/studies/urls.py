from django.urls import path

from . import views

app_name = "studies"
urlpatterns = [
    path("", views.index, name="index"),
    path("neu/", views.create, name="create"),
    path("<int:pk>/bearbeiten/", views.edit, name="edit"),
    path("<int:pk>/teilen/", views.share, name="share"),
    path("<int:pk>/bewerten/", views.regrade, name="regrade"),
    path("<int:pk>/ergebnisse/", views.results, name="results"),
    path("<int:pk>/loeschen/", views.delete, name="delete"),
    path("s/<str:token>/", views.study, name="study"),
    path("s/<str:token>/halt/<int:moment>/", views.answer, name="answer"),
]

from django.urls import path

from . import views

app_name = "cards"
urlpatterns = [
    path("", views.gallery, name="gallery"),
    path("blatt/", views.set_deck, name="deck"),
]

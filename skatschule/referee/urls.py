from django.urls import path

from . import views

app_name = "referee"
urlpatterns = [
    path("abkuerzung/", views.claim, name="claim"),
]

from django.urls import path

from . import views

app_name = "learners"
urlpatterns = [
    path("", views.goal_settings, name="settings"),
    path("abbestellen/<str:token>/", views.unsubscribe, name="unsubscribe"),
]

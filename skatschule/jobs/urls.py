from django.urls import path

from . import views

app_name = "jobs"

urlpatterns = [
    path("<uuid:job_id>/", views.status, name="status"),
    path("<uuid:job_id>/ereignisse/", views.events, name="events"),
]

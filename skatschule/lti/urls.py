from django.urls import path

from . import views

app_name = "lti"
urlpatterns = [
    path("jwks.json", views.jwks, name="jwks"),
    path("login/<uuid:registration_uuid>/", views.LoginInitView.as_view(), name="login"),
    path("start/", views.launch, name="launch"),
    path("auswahl/", views.pick, name="pick"),
    path("kurs/<int:pk>/", views.course, name="course"),
    path("kurs/<int:pk>/abgleichen/", views.sync, name="sync"),
    path("kurs/<int:pk>/noten-senden/", views.resend, name="resend"),
]

from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("registrieren/", views.signup, name="signup"),
    path("anmelden/", views.LoginView.as_view(), name="login"),
    path("abmelden/", views.LogoutView.as_view(), name="logout"),
    path("export/", views.export_progress, name="export"),
    path("import/", views.import_progress, name="import"),
]

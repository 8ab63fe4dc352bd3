from django.urls import path

from . import views

app_name = "accounts"
urlpatterns = [
    path("registrieren/", views.signup, name="signup"),
    path("anmelden/", views.LoginView.as_view(), name="login"),
    path("abmelden/", views.LogoutView.as_view(), name="logout"),
    path("export/", views.export_progress, name="export"),
    path("import/", views.import_progress, name="import"),
    path("", views.account_settings, name="settings"),
    path("passwort/", views.PasswordChangeView.as_view(), name="password_change"),
    path("passwort-vergessen/", views.PasswordResetView.as_view(), name="password_reset"),
    path("passwort-vergessen/gesendet/", views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "passwort-vergessen/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path("passwort-vergessen/fertig/", views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    path("daten/", views.export_account_view, name="export_account"),
    path("loeschen/", views.delete_account_view, name="delete"),
]

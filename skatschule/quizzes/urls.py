from django.urls import path

from . import views

app_name = "quizzes"
urlpatterns = [
    path("", views.index, name="index"),
    path("neu/", views.create, name="create"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/bearbeiten/", views.edit, name="edit"),
    path("<int:pk>/beenden/", views.close_now, name="close"),
    path("<int:pk>/vorschau/", views.preview, name="preview"),
    path("<int:pk>/vorschau/<int:position>/", views.preview_answer, name="preview_answer"),
    path("<int:pk>/ergebnisse/", views.results, name="results"),
    path("<int:pk>/ergebnisse.csv", views.results_csv, name="results_csv"),
    path("<int:pk>/ergebnisse/<int:attempt_pk>/", views.attempt_detail, name="attempt_detail"),
    path("<int:pk>/druck/", views.print_sheet, name="print"),
    path("<int:pk>/start/", views.start, name="start"),
    path("versuch/<uuid:public_id>/", views.take, name="take"),
    path("versuch/<uuid:public_id>/antwort/<int:position>/", views.save, name="save"),
    path("versuch/<uuid:public_id>/abgeben/", views.submit, name="submit"),
    path("versuch/<uuid:public_id>/ergebnis/", views.my_result, name="my_result"),
]

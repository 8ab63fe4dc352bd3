from django.urls import path

from . import views, views_history

app_name = "casebook"
urlpatterns = [
    path("", views.index, name="index"),
    path("pruefung/", views.exam_start, name="exam_start"),
    path("pruefung/verlauf/", views_history.history, name="exam_history"),
    path("pruefung/gruppe/neu/", views_history.group_create, name="group_create"),
    path("pruefung/gruppe/<int:pk>/", views_history.group_results, name="group_results"),
    path("pruefung/gruppe/<int:pk>/starten/", views_history.group_sit, name="group_sit"),
    path("pruefung/gruppe/<int:pk>/freigeben/", views_history.group_release, name="group_release"),
    path("pruefung/<uuid:public_id>/ergebnisblatt/", views_history.result_sheet, name="exam_sheet"),
    path("pruefung/<uuid:public_id>/", views.exam, name="exam"),
    path("pruefung/<uuid:public_id>/antwort/<int:position>/", views.exam_answer, name="exam_answer"),
    path("pruefung/<uuid:public_id>/abgeben/", views.exam_finish, name="exam_finish"),
    path("pruefung/<uuid:public_id>/auswertung/", views.exam_review, name="exam_review"),
    path("<str:case_id>/", views.case_detail, name="case"),
    path("<str:case_id>/antwort/", views.case_answer, name="case_answer"),
]

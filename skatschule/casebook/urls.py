from django.urls import path

from . import views

app_name = "casebook"
urlpatterns = [
    path("", views.index, name="index"),
    path("pruefung/", views.exam_start, name="exam_start"),
    path("pruefung/<uuid:public_id>/", views.exam, name="exam"),
    path("pruefung/<uuid:public_id>/antwort/<int:position>/", views.exam_answer, name="exam_answer"),
    path("pruefung/<uuid:public_id>/abgeben/", views.exam_finish, name="exam_finish"),
    path("pruefung/<uuid:public_id>/auswertung/", views.exam_review, name="exam_review"),
    path("<str:case_id>/", views.case_detail, name="case"),
    path("<str:case_id>/antwort/", views.case_answer, name="case_answer"),
]

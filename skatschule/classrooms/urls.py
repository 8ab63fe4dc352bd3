from django.urls import path

from . import views, views_teachers

app_name = "classrooms"
urlpatterns = [
    path("", views.index, name="index"),
    path("neu/", views.create, name="create"),
    path("lehrkraft/", views.become_teacher, name="become_teacher"),
    path("beitreten/", views.join_form, name="join"),
    path("beitreten/<str:code>/", views.join_code, name="join_code"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/code-erneuern/", views.rotate, name="rotate"),
    path("<int:pk>/entfernen/<int:student_id>/", views.remove_member, name="remove_member"),
    path("<int:pk>/fortschritt/", views_teachers.class_progress, name="progress"),
    path("<int:pk>/fortschritt.csv", views_teachers.class_progress_export, {"fmt": "csv"}, name="progress_csv"),
    path("<int:pk>/fortschritt.xlsx", views_teachers.class_progress_export, {"fmt": "xlsx"}, name="progress_xlsx"),
    path("<int:pk>/hausaufgaben/", views_teachers.assign, name="assign"),
    path("<int:pk>/hausaufgaben/<int:assignment_pk>/", views_teachers.assignment_detail, name="assignment"),
    path("<int:pk>/hausaufgaben/<int:assignment_pk>/zuruecknehmen/", views_teachers.withdraw, name="withdraw"),
]

from django.urls import path

from . import views

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
]

from django.urls import path

from . import views, views_live, views_own, views_teachers

app_name = "quizzes"
urlpatterns = [
    path("", views.index, name="index"),
    path("neu/", views.create, name="create"),
    path("eigene/", views_own.own_list, name="own_list"),
    path("eigene/neu/", views_own.own_create, name="own_create"),
    path("eigene/import/", views_own.own_import, name="own_import"),
    path("eigene/<int:pk>/", views_own.own_detail, name="own_detail"),
    path("eigene/<int:pk>/hinzufuegen/", views_own.own_add, name="own_add"),
    path("eigene/<int:pk>/loeschen/", views_own.own_delete, name="own_delete"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/bearbeiten/", views.edit, name="edit"),
    path("<int:pk>/beenden/", views.close_now, name="close"),
    path("<int:pk>/vorschau/", views.preview, name="preview"),
    path("<int:pk>/vorschau/<int:position>/", views.preview_answer, name="preview_answer"),
    path("<int:pk>/ergebnisse/", views.results, name="results"),
    path("<int:pk>/ergebnisse.csv", views.results_csv, name="results_csv"),
    path("<int:pk>/ergebnisse/<int:attempt_pk>/", views.attempt_detail, name="attempt_detail"),
    path(
        "<int:pk>/ergebnisse/<int:attempt_pk>/aufgabe/<int:position>/punkte/",
        views_teachers.override,
        name="override",
    ),
    path("<int:pk>/druck/", views.print_sheet, name="print"),
    path("<int:pk>/start/", views.start, name="start"),
    path("<int:pk>/veroeffentlichen/", views_teachers.publish, name="publish"),
    path("<int:pk>/entwurf/", views_teachers.unpublish, name="unpublish"),
    path("<int:pk>/kopieren/", views_teachers.copy, name="copy"),
    path("<int:pk>/export/", views_teachers.exports_page, name="exports"),
    path("<int:pk>/export/ergebnisse.csv", views_teachers.export_csv, name="export_csv"),
    path("<int:pk>/export/ergebnisse.xlsx", views_teachers.export_xlsx, name="export_xlsx"),
    path("<int:pk>/export/aufgabenanalyse.csv", views_teachers.export_items, {"fmt": "csv"}, name="export_items_csv"),
    path(
        "<int:pk>/export/aufgabenanalyse.xlsx", views_teachers.export_items, {"fmt": "xlsx"}, name="export_items_xlsx"
    ),
    path("<int:pk>/export/moodle.xml", views_teachers.export_moodle, name="export_moodle"),
    path("<int:pk>/live/", views_live.projector, name="live"),
    path("<int:pk>/live/stand/", views_live.projector_count, name="live_count"),
    path("<int:pk>/live/ereignisse/", views_live.projector_events, name="live_events"),
    path("<int:pk>/live/steuern/", views_live.control, name="live_control"),
    path("<int:pk>/mitmachen/", views_live.join, name="live_join"),
    path("<int:pk>/mitmachen/stand/", views_live.join_poll, name="live_poll"),
    path("<int:pk>/mitmachen/ereignisse/", views_live.join_events, name="live_join_events"),
    path("<int:pk>/mitmachen/antwort/", views_live.answer, name="live_answer"),
    path("versuch/<uuid:public_id>/", views.take, name="take"),
    path("versuch/<uuid:public_id>/antwort/<int:position>/", views.save, name="save"),
    path("versuch/<uuid:public_id>/abgeben/", views.submit, name="submit"),
    path("versuch/<uuid:public_id>/ergebnis/", views.my_result, name="my_result"),
]

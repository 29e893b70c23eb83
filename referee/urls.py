from django.urls import path

from . import views

urlpatterns = [
    path("", views.dashboard, name="referee-dashboard"),
    path("incidents/new/", views.incident_new, name="referee-incident-new"),
    path("incidents/<int:incident_id>/", views.incident_detail, name="referee-incident"),
    path("incidents/<int:incident_id>/print/", views.incident_print, name="referee-incident-print"),
    path("incidents/<int:incident_id>/decide/", views.ruling_decide, name="referee-ruling-decide"),
    path("incidents/<int:incident_id>/close/", views.incident_close, name="referee-incident-close"),
    path("rulings/<int:ruling_id>/appeal/", views.appeal_file, name="referee-appeal-file"),
    path("appeals/<int:appeal_id>/decide/", views.appeal_decide, name="referee-appeal-decide"),
    path("mine/", views.mine, name="referee-mine"),
    path("leagues/<int:league_id>/catalogue/", views.catalogue_edit, name="referee-catalogue"),
    path("seasons/<int:season_id>/rulings/", views.season_rulings, name="referee-season-rulings"),
]

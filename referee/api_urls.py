from django.urls import path, re_path

from . import api

urlpatterns = [
    re_path(r"^rulings/preview/?$", api.RulingPreviewView.as_view(), name="api-ruling-preview"),
    re_path(r"^false-win/check/?$", api.FalseWinCheckView.as_view(), name="api-false-win-check"),
    path("incidents/", api.IncidentListView.as_view(), name="api-incidents"),
    path("incidents/<int:pk>/", api.IncidentDetailView.as_view(), name="api-incident"),
    path("incidents/<int:pk>/ruling/", api.IncidentRulingView.as_view(), name="api-incident-ruling"),
    path("rulings/", api.RulingListView.as_view(), name="api-rulings"),
    path("rulings/<int:pk>/", api.RulingDetailView.as_view(), name="api-ruling"),
    path("rulings/<int:pk>/appeal/", api.RulingAppealView.as_view(), name="api-ruling-appeal"),
    path("appeals/<int:pk>/decide/", api.AppealDecideView.as_view(), name="api-appeal-decide"),
]

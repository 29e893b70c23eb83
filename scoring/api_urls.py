from django.urls import path

from . import api

urlpatterns = [
    path("settle", api.SettleView.as_view(), name="api-settle"),
    path("rules/riichi/presets/", api.RiichiPresetsView.as_view(), name="api-riichi-presets"),
    path("games/<int:pk>/hands/", api.GameHandsView.as_view(), name="api-game-hands"),
    path("games/<int:pk>/hands/preview/", api.GameHandPreviewView.as_view(), name="api-game-hands-preview"),
    path("games/<int:pk>/hands/finish/", api.GameHandsFinishView.as_view(), name="api-game-hands-finish"),
    path("seasons/<int:pk>/rules/", api.SeasonRulesView.as_view(), name="api-season-rules"),
    path("seasons/<int:pk>/resettle/", api.SeasonResettleView.as_view(), name="api-season-resettle"),
    path("games/<int:pk>/hands/<int:sequence>/", api.GameHandDetailView.as_view(), name="api-game-hand"),
]

from django.urls import path

from . import api

urlpatterns = [
    path("games/<int:pk>/import/", api.GameImportView.as_view(), name="api-game-import"),
    path("players/<int:pk>/accounts/", api.PlayerAccountsView.as_view(), name="api-player-accounts"),
]

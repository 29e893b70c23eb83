from django.urls import path

from . import api

urlpatterns = [
    path("leagues/<slug:slug>/ratings/", api.LeagueRatingsView.as_view(), name="api-ratings-league"),
    path("players/<int:player_id>/ratings/", api.PlayerRatingsView.as_view(), name="api-ratings-player"),
]

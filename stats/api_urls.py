from django.urls import path

from . import api

urlpatterns = [
    path("players/<int:player_id>/statistics/", api.PlayerStatisticsView.as_view(), name="api-stats-player"),
    path("leagues/<slug:slug>/statistics/", api.LeaderboardView.as_view(), name="api-stats-leaderboard"),
    path("leagues/<slug:slug>/records/", api.RecordsView.as_view(), name="api-stats-records"),
]

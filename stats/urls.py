from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:player_id>/statistics/", views.player_statistics, name="stats-player"),
    path("players/<int:player_id>/statistics.<str:fmt>", views.player_statistics_export, name="stats-player-export"),
    path("leagues/<slug:slug>/statistics/", views.league_leaderboard, name="stats-leaderboard"),
    path("leagues/<slug:slug>/statistics.<str:fmt>", views.league_leaderboard_export, name="stats-leaderboard-export"),
    path("leagues/<slug:slug>/records/", views.league_records, name="stats-records"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("rules/", views.rules_tables, name="scoring-rules"),
    path("seasons/<int:season_id>/rules/", views.season_rules, name="season-rules"),
    path("games/<int:game_id>/scorekeeper/", views.scorekeeper, name="scorekeeper"),
]

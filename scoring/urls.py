from django.urls import path

from . import views

urlpatterns = [
    path("rules/", views.rules_tables, name="scoring-rules"),
    path("seasons/<int:season_id>/rules/", views.season_rules, name="season-rules"),
    path("games/<int:game_id>/scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path("games/<int:game_id>/hands/<int:sequence>/delete/", views.hand_delete, name="hand-delete"),
]

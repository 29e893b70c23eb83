from django.urls import path
from django.views.generic import RedirectView

from kyoku.access import PUBLIC, access

from . import views

urlpatterns = [
    # /scoring/ itself: the rules tables (a game's scorekeeper is reached from the game's page)
    path(
        "",
        access(GET=PUBLIC)(RedirectView.as_view(pattern_name="scoring-rules", permanent=False)),
        name="scoring-index",
    ),
    path("rules/", views.rules_tables, name="scoring-rules"),
    path("seasons/<int:season_id>/rules/", views.season_rules, name="season-rules"),
    path("games/<int:game_id>/scorekeeper/", views.scorekeeper, name="scorekeeper"),
    path("games/<int:game_id>/hands/<int:sequence>/delete/", views.hand_delete, name="hand-delete"),
]

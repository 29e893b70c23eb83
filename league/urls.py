from django.urls import path

from . import views, views_export, views_office

urlpatterns = [
    path("", views.home, name="home"),
    path("seasons/<int:season_id>/", views.season_detail, name="season"),
    path("seasons/<int:season_id>/divisions/<str:code>/", views.standings, name="standings"),
    path("seasons/<int:season_id>/audit/", views.season_audit, name="season-audit"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("games/<int:game_id>/result/", views.game_result_entry, name="game-result-entry"),
    path("review/applications/", views.applications_review, name="review"),
    path("review/applications/<int:application_id>/decide/", views.application_decide, name="review-decide"),
    path("me/", views.my_page, name="me"),
    path("applications/<int:application_id>/proof/", views.application_proof, name="application-proof"),
    path("office/seasons/<int:season_id>/", views_office.season_office, name="office-season"),
    path("office/seasons/<int:season_id>/next/", views_office.season_next_create, name="office-next-season"),
    path("office/seasons/<int:season_id>/open/", views_office.season_open, name="office-open"),
    path("office/seasons/<int:season_id>/close/", views_office.season_close, name="office-close"),
    path("office/seasons/<int:season_id>/reopen/", views_office.season_reopen, name="office-reopen"),
    path("office/seasons/<int:season_id>/entries/", views_office.season_entries, name="office-entries"),
    path(
        "office/seasons/<int:season_id>/entries/<int:entry_id>/remove/",
        views_office.entry_remove,
        name="office-entry-remove",
    ),
    path("office/seasons/<int:season_id>/games/", views_office.season_games, name="office-games"),
    path("office/seasons/<int:season_id>/promotion/", views_office.season_promotion, name="office-promotion"),
    path(
        "seasons/<int:season_id>/divisions/<str:code>/standings.<str:fmt>",
        views_export.standings_export,
        name="standings-export",
    ),
    path("seasons/<int:season_id>/results.<str:fmt>", views_export.season_results_export, name="results-export"),
    path("players/<int:player_id>/history.<str:fmt>", views_export.player_history_export, name="player-export"),
]

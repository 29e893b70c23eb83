"""Who may reach the online app's routes (read by the endpoint-matrix test)."""

from kyoku.access import ADMIN, OWNER, SELF_OR_ADMIN, route

ROUTES = {
    "online-game-import": route("online_game", GET=ADMIN, POST=ADMIN),
    "api-game-import": route("online_pk_game", POST=ADMIN),
    "online-application-records": route("online_application", GET=OWNER, POST=OWNER),
    # a player's online names: private (docs/privacy.md), changed by the player or their leagues' admins
    "api-player-accounts": route("online_player", GET=SELF_OR_ADMIN, POST=SELF_OR_ADMIN, DELETE=SELF_OR_ADMIN),
}


def matrix_objects(world) -> dict:
    """A fresh game of its own (no hands, so an import could run) and an application of the
    owning player (players[0]) for a tier of the world's league."""
    from league import services
    from league.models import QualificationTier

    game = services.game_create(division=world.division, match_day=91, table=1, players=world.players[:4])  # 90 is the match days app's
    tier = QualificationTier.objects.create(league=world.league, code="ON1", description="Online evidence",
                                            effective_year=world.season.year, validity="yearly",
                                            requirements={"accounts": [{"platform": "tenhou",
                                                                        "min_games_in_year": 40,
                                                                        "min_room": "phoenix"}]})
    application = services.application_submit(player=world.players[0], season=world.season, tier=tier,
                                              evidence={"platform": "tenhou", "account_id": "owner_tenhou",
                                                        "games_in_year": 40, "room": "phoenix",
                                                        "evidence_year": world.season.year})
    return {"online_game": {"game_id": game.pk}, "online_pk_game": {"pk": game.pk},
            "online_application": {"application_id": application.pk},
            "online_player": {"pk": world.players[0].pk}}

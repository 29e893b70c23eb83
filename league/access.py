"""Who may use each route of the league app (pages and API), read by the endpoint-matrix test."""

from kyoku.access import ADMIN, ANY_ADMIN, LOGGED_IN, OWNER, PUBLIC, route

ROUTES = {
    # pages
    "home": route(GET=PUBLIC),
    "season": route("season", GET=PUBLIC),
    "standings": route("division_page", GET=PUBLIC),
    "season-audit": route("season", GET=ADMIN),
    "player": route("player", GET=PUBLIC),
    "game-result-entry": route("game", GET=ADMIN, POST=ADMIN),
    "review": route(GET=ANY_ADMIN),
    "review-decide": route("application", POST=ADMIN),
    "me": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "application-proof": route("application", GET=OWNER),
    # API
    "player-list": route(GET=PUBLIC),
    "player-detail": route("pk_player", GET=PUBLIC),
    "player-history": route("pk_player", GET=PUBLIC),
    "ruleset-list": route(GET=PUBLIC),
    "ruleset-detail": route("pk_ruleset", GET=PUBLIC),
    "season-list": route(GET=PUBLIC),
    "season-detail": route("pk_season", GET=PUBLIC),
    "division-list": route(GET=PUBLIC),
    "division-detail": route("pk_division", GET=PUBLIC),
    "division-entries": route("pk_division", GET=PUBLIC),
    "division-standings": route("pk_division", GET=PUBLIC),
    "game-list": route(GET=PUBLIC),
    "game-detail": route("pk_game", GET=PUBLIC),
    "game-result": route("pk_result_game", GET=PUBLIC, POST=ADMIN),
    "qualificationtier-list": route(GET=PUBLIC),
    "qualificationtier-detail": route("pk_tier", GET=PUBLIC),
    # a player files their own application; the body names the season (validated before the league check)
    "application-list": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "application-detail": route("pk_application", GET=OWNER),
    "application-decide": route("pk_application", POST=ADMIN),
    "penalty-list": route(GET=PUBLIC),
    "penalty-detail": route("pk_penalty", GET=PUBLIC),
}


def matrix_objects(world) -> dict:
    return {
        "season": {"season_id": world.season.pk},
        "division_page": {"season_id": world.season.pk, "code": world.division.code},
        "player": {"player_id": world.players[0].pk},
        "game": {"game_id": world.game.pk},
        "application": {"application_id": world.application.pk},
        "pk_player": {"pk": world.players[0].pk},
        "pk_ruleset": {"pk": world.season.rule_set_id},
        "pk_season": {"pk": world.season.pk},
        "pk_division": {"pk": world.division.pk},
        "pk_game": {"pk": world.game.pk},
        "pk_result_game": {"pk": world.result_game.pk},
        "pk_tier": {"pk": world.tier.pk},
        "pk_application": {"pk": world.application.pk},
        "pk_penalty": {"pk": world.penalty.pk},
    }

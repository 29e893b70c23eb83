"""Who may use each route of the scoring app, read by the endpoint-matrix test."""

from kyoku.access import ADMIN, PUBLIC, route

ROUTES = {
    "game": route("game", GET=PUBLIC),  # the game page (scoring.game_urls)
    "api-settle": route(POST=PUBLIC),
    "api-riichi-presets": route(GET=PUBLIC),
    "api-game-hands": route("pk_hand_game", GET=PUBLIC, POST=ADMIN),
    "api-game-hands-preview": route("pk_hand_game", POST=ADMIN),
    "api-game-hands-finish": route("pk_hand_game", POST=ADMIN),
    "api-game-hand": route("pk_hand", PUT=ADMIN, DELETE=ADMIN, query="hand_id={hand_id}"),
    "api-season-rules": route("pk_season", POST=ADMIN),
    "api-season-resettle": route("pk_season", POST=ADMIN),
    "scoring-index": route(GET=PUBLIC),
    "scoring-rules": route(GET=PUBLIC),
    "season-rules": route("season", GET=PUBLIC, POST=ADMIN),
    "scorekeeper": route("hand_game", GET=ADMIN, POST=ADMIN),
    "hand-delete": route("hand", POST=ADMIN),
}


def matrix_objects(world) -> dict:
    return {
        "pk_hand_game": {"pk": world.hand_game.pk},
        "pk_hand": {"pk": world.hand_game.pk, "sequence": world.hand.sequence, "hand_id": world.hand.pk},
        "hand_game": {"game_id": world.hand_game.pk},
        "hand": {"game_id": world.hand_game.pk, "sequence": world.hand.sequence},
    }

"""Route declarations of the scorekeeper pages and the site favicon (see kyoku/access.py)."""

from kyoku.access import ADMIN, PUBLIC, route

ROUTES = {
    "scorekeeper": route("sk_game", GET=ADMIN, POST=ADMIN),
    "hand-delete": route("sk_hand", POST=ADMIN),
    "favicon": route(None, GET=PUBLIC),
}


def matrix_objects(world) -> dict:
    """A stored hand (the scorekeeper's undo button deletes it by number)."""
    from scoring import services

    hand, _ = services.hand_record_add(game=world.game, actor=world.admin,
                                       record={"result": {"type": "draw", "tenpai": [0]}})
    return {"sk_game": {"game_id": world.game.pk}, "sk_hand": {"game_id": world.game.pk, "sequence": hand.sequence}}

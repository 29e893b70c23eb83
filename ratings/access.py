"""Who may reach the ratings routes: all public reads (ratings are league results, shown to all)."""

from kyoku.access import PUBLIC, route

ROUTES = {
    "ratings-league": route("ratings_league", GET=PUBLIC),
    "api-ratings-league": route("ratings_league", GET=PUBLIC),
    "api-ratings-player": route("ratings_player", GET=PUBLIC),
}


def matrix_objects(world) -> dict:
    """The world's league (its ratings computed from whatever results it holds) and the owning
    player; no game or result is created, so other apps' probes see the world unchanged."""
    from .services import league_ratings_rebuild

    league_ratings_rebuild(league=world.league)
    return {"ratings_league": {"slug": world.league.slug},
            "ratings_player": {"player_id": world.players[0].pk}}

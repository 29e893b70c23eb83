"""Who may use the season office routes (read by the endpoint-matrix test)."""

from kyoku.access import ADMIN, route

ROUTES = {
    "office-season": route("office_season", GET=ADMIN),
    "office-next-season": route("office_season", POST=ADMIN),
    "office-close": route("office_season", POST=ADMIN),
    "office-promotion": route("office_season", GET=ADMIN, POST=ADMIN),
}


def matrix_objects(world) -> dict:
    return {"office_season": {"season_id": world.season.pk}}

"""Who may use the season office routes (read by the endpoint-matrix test)."""

from kyoku.access import ADMIN, PUBLIC, route

ROUTES = {
    "office-season": route("office_season", GET=ADMIN),
    "office-next-season": route("office_season", POST=ADMIN),
    "office-close": route("office_season", POST=ADMIN),
    "office-reopen": route("office_season", POST=ADMIN),
    "office-promotion": route("office_season", GET=ADMIN, POST=ADMIN),
    "office-entries": route("office_season", GET=ADMIN, POST=ADMIN),
    "office-entry-remove": route("office_entry", POST=ADMIN),
    "office-games": route("office_season", GET=ADMIN, POST=ADMIN),
    "api-season-next": route("pk_office_season", POST=ADMIN),
    "api-season-close": route("pk_office_season", POST=ADMIN),
    "api-season-reopen": route("pk_office_season", POST=ADMIN),
    "api-season-promotion": route("pk_office_season", GET=ADMIN, POST=ADMIN),
    # entries and games: public lists like the standings; writes by an admin of the season's league
    "api-season-entries": route("pk_office_season", GET=PUBLIC, POST=ADMIN),
    "api-season-entry": route("pk_office_entry", DELETE=ADMIN),
    "api-season-games": route("pk_office_season", GET=PUBLIC, POST=ADMIN),
    # data out: public like the standings, season and player pages they come from
    "standings-export": route("export_standings", GET=PUBLIC),
    "results-export": route("export_results", GET=PUBLIC),
    "player-export": route("export_player", GET=PUBLIC),
}


def matrix_objects(world) -> dict:
    spare = _spare_entry(world)  # an entry without games, so removing it is allowed for the admin
    return {"office_season": {"season_id": world.season.pk},
            "pk_office_season": {"pk": world.season.pk},
            "office_entry": {"season_id": world.season.pk, "entry_id": spare.pk},
            "pk_office_entry": {"pk": world.season.pk, "entry_id": spare.pk},
            "export_standings": {"season_id": world.season.pk, "code": world.division.code, "fmt": "csv"},
            "export_results": {"season_id": world.season.pk, "fmt": "json"},
            "export_player": {"player_id": world.players[0].pk, "fmt": "csv"}}


def _spare_entry(world):
    from league.models import Entry, Player

    player = Player.objects.create(display_name="Office spare", membership_number="OFFICE-SPARE")
    return Entry.objects.create(season=world.season, division=world.division, player=player)

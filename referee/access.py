"""Who may use each route of the referee app, read by the endpoint-matrix test."""

from kyoku.access import ADMIN, ANY_REFEREE, LOGGED_IN, OWNER, PUBLIC, REFEREE, SELF, route

ROUTES = {
    # stateless engine calls: any referee (they read and store nothing of a league)
    "api-ruling-preview": route(POST=ANY_REFEREE),
    "api-false-win-check": route(POST=ANY_REFEREE),
    # players see the incidents of their own games; staff those of their leagues
    "api-incidents": route(GET=LOGGED_IN, POST=ANY_REFEREE),
    "api-incident": route("pk_incident", GET=OWNER),
    "api-incident-ruling": route("pk_incident", GET=REFEREE, POST=REFEREE),
    "api-rulings": route(GET=PUBLIC),
    "api-ruling": route("pk_ruling", GET=PUBLIC),
    "api-ruling-appeal": route("pk_ruling", POST=SELF),
    "api-appeal-decide": route("pk_appeal", POST=REFEREE),
    "referee-dashboard": route(GET=ANY_REFEREE),
    "referee-incident-new": route("new_incident", GET=REFEREE, POST=REFEREE, query="game={game}"),
    "referee-incident": route("incident", GET=OWNER),
    "referee-incident-print": route("incident", GET=OWNER),
    "referee-ruling-decide": route("incident", POST=REFEREE),
    "referee-incident-close": route("incident", POST=REFEREE),
    "referee-appeal-file": route("ruling", POST=SELF),
    "referee-appeal-decide": route("appeal", POST=REFEREE),
    "referee-mine": route(GET=LOGGED_IN),
    "referee-season-rulings": route("season", GET=PUBLIC),
    # the league's penalty catalogue: its referees read it, its admins revise it
    "referee-catalogue": route("catalogue_league", GET=REFEREE, POST=ADMIN),
}


def matrix_objects(world) -> dict:
    return {
        "pk_incident": {"pk": world.incident.pk},
        "pk_ruling": {"pk": world.ruling.pk},
        "pk_appeal": {"pk": world.appeal.pk},
        "new_incident": {"game": world.game.pk},
        "incident": {"incident_id": world.incident.pk},
        "ruling": {"ruling_id": world.ruling.pk},
        "appeal": {"appeal_id": world.appeal.pk},
        "catalogue_league": {"league_id": world.league.pk},
    }

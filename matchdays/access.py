"""Who may use each route of the match days app (pages and API), read by the endpoint-matrix test."""

import datetime

from kyoku.access import ADMIN, LOGGED_IN, PUBLIC, REFEREE, route

ROUTES = {
    "matchday-list": route("season", GET=PUBLIC),
    "matchday-add": route("season", POST=ADMIN),
    "season-calendar": route("season", GET=PUBLIC),
    "player-calendar": route("player", GET=PUBLIC),
    "matchday": route("matchday", GET=PUBLIC),
    "matchday-generate": route("matchday", POST=ADMIN),
    "matchday-swap": route("matchday", POST=ADMIN),
    "matchday-publish": route("matchday", POST=ADMIN),
    # a player marks their own attendance (the view refuses players outside the division);
    # admins and referees mark anyone's
    "matchday-attendance": route("matchday", POST=LOGGED_IN),
    "matchday-attendance-roster": route("matchday", POST=REFEREE),
    "matchday-substitute": route("matchday", POST=ADMIN),
    "matchday-sheet": route("matchday_table", GET=PUBLIC),
    # API
    "matchday-api-list": route(GET=PUBLIC, POST=LOGGED_IN),
    "matchday-api-detail": route("pk_matchday", GET=PUBLIC),
    "matchday-api-attendance": route("pk_matchday", GET=PUBLIC, POST=LOGGED_IN),
    "matchday-api-seating": route("pk_matchday", GET=PUBLIC, POST=ADMIN),
    "matchday-api-swap": route("pk_matchday", POST=ADMIN),
    "matchday-api-publish": route("pk_matchday", POST=ADMIN),
}


def matrix_objects(world) -> dict:
    from matchdays import services
    from matchdays.models import MatchDay

    day = MatchDay.objects.filter(division=world.division, number=90).first()
    if day is None:
        day = services.match_day_create(division=world.division, number=90, date=datetime.date(2026, 12, 1),
                                        venue="Matrix hall")
        services.seating_generate(match_day=day, seed=0)
        services.seating_publish(plan=day.seating)
    return {
        "matchday": {"match_day_id": day.pk},
        "matchday_table": {"match_day_id": day.pk, "table": 1},
        "pk_matchday": {"pk": day.pk},
    }

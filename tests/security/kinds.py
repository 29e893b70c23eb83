"""The objects a declared route's ``obj`` names, built in the matrix world (tests/security/world.py):
kind → the URL arguments that point at it, under every name a URL gives them (``pk`` in the API,
``game_id`` on pages …); the probe passes those its pattern takes. A "?" entry is a query string
the probe adds."""

from __future__ import annotations


def _event(world):
    """A tournament in world.league: the eight players registered and checked in, round 1 seated
    (the owning player at table 1)."""
    import datetime as dt

    from events import services as events
    from league.models import Game

    event = events.event_create(league=world.league, name="Matrix Open", slug="matrix-open",
                                starts_on=dt.date(2026, 12, 1), ends_on=dt.date(2026, 12, 1),
                                rule_set=world.season.rule_set, capacity=8, rounds=2, cut=4)
    for p in world.players:
        events.checkin_set(registration=events.registration_add(event=event, player=p), present=True)
    events.seating_plan(event=event, time_limit=0.5)
    table = Game.objects.get(season=event.season, match_day=1, seats__player=world.players[0])
    return event, event.round_set.get(number=1), table


def matrix_objects(world) -> dict:
    event, round_, table = _event(world)
    events = {
        "event": {"pk": event.pk, "event_id": event.pk},
        "event_round": {"pk": round_.pk, "round_id": round_.pk},
        "event_table": {"pk": table.pk, "game_id": table.pk, "action": "report"},
        "event_table_hand": {"pk": table.pk, "sequence": 1},
    }
    game = world.hand_game.pk  # a game kept hand by hand, its first hand entered
    return {
        "game": {"pk": game, "game_id": game},
        "hand": {"pk": game, "game_id": game, "sequence": world.hand.sequence, "hand_id": world.hand.pk},
        "season": {"pk": world.season.pk, "season_id": world.season.pk},
        **events,
    }

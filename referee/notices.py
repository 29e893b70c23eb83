"""What the referee desk's facts tell (notifications.kinds), each called in the transaction of its
fact: a ruling issued (to the players of the incident's game), an appeal filed (to the league's
referees and admins, and the game's other players) and decided (to the players); its penalties are told by the ledger
(league.notices.penalty_issued). Private
kinds: a ruling is never announced on a public channel (docs/privacy.md)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from kyoku.models import LeagueRole
from kyoku.principals import Actor
from league.models import Game
from league.names import names_said
from notifications import services as notify

from .models import Appeal, Ruling


def _players(game: Game) -> list[Any]:
    return [getattr(s.player, "user", None) for s in game.seats.select_related("player__user")]


def _base(game: Game) -> dict[str, Any]:
    league = game.season.league
    return {"league": notify.league_words(league), "game": notify.in_languages(lambda: str(game))}


def ruling_issued(*, ruling: Ruling, actor: Actor) -> None:
    game = ruling.incident.game
    notify.notification_send(
        kind="ruling_issued",
        recipients=_players(game),
        league=game.season.league,
        params=_base(game),
        link=reverse("referee-mine"),
        key=f"ruling:{ruling.pk}",
        actor=actor,
    )


def appeal_filed(*, appeal: Appeal, actor: Actor) -> None:
    """To the league's referees and admins (to decide it), and to the game's other players (the
    ruling concerns them too); the appellant knows."""
    game = appeal.ruling.incident.game
    league = game.season.league
    params = {**_base(game), "player": names_said([appeal.player]), "decided": False}
    notify.notification_send(
        kind="ruling_appealed",
        recipients=notify.recipients_with_role(league, LeagueRole.Role.REFEREE, LeagueRole.Role.ADMIN),
        league=league,
        params=params,
        link=reverse("referee-incident", args=[appeal.ruling.incident_id]),
        key=f"appeal:{appeal.pk}",
        actor=actor,
    )
    appellant = getattr(appeal.player, "user_id", None)
    notify.notification_send(
        kind="ruling_appealed",
        recipients=[u for u in _players(game) if u is not None and u.pk != appellant],
        league=league,
        params=params,
        link=reverse("referee-mine"),
        key=f"appeal:{appeal.pk}",
        actor=actor,
    )


def appeal_decided(*, appeal: Appeal, actor: Actor) -> None:
    game = appeal.ruling.incident.game
    notify.notification_send(
        kind="ruling_appealed",
        recipients=_players(game),
        league=game.season.league,
        params={**_base(game), "decided": True},
        link=reverse("referee-mine"),
        key=f"appeal-decided:{appeal.pk}",
        actor=actor,
    )

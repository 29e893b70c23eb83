"""Tournament reads: standings, the board, seating cards, table views, exports."""

from __future__ import annotations

from decimal import Decimal

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.desk import DeskCall
from kyoku.labels import label
from league.models import Game, GameSeat, Penalty, Player

from . import clock as clocks
from . import ranking
from .ema import Placed
from .models import Event, Registration, Round, TableReport

WINDS = ("E", "S", "W", "N")
BOARD_KEY = "events:board:{}"


def events_list(*, league=None):
    qs = Event.objects.select_related("league")
    return qs.filter(league=league) if league else qs


def _cache_shared() -> bool:
    """Whether every server process sees the same cache (Redis): a process-local cache would keep
    serving one worker's old version after another worker's write."""
    from django.conf import settings

    return "locmem" not in str(settings.CACHES["default"]["BACKEND"]).lower()


def board_version(event_id: int) -> int | None:
    """The event's board version, from a shared cache when there is one (a board's poll then
    costs no database query), else one primary-key lookup; None for no such event."""
    if not _cache_shared():
        return Event.objects.filter(pk=event_id).values_list("board_version", flat=True).first()
    key = BOARD_KEY.format(event_id)
    version = cache.get(key)
    if version is None:
        version = Event.objects.filter(pk=event_id).values_list("board_version", flat=True).first()
        if version is not None:
            cache.set(key, version, 300)
    return version


def board_version_forget(event_id: int) -> None:
    cache.delete(BOARD_KEY.format(event_id))


def penalties_by_player(event: Event) -> dict[int, Decimal]:
    out: dict[int, Decimal] = {}
    for player_id, points in Penalty.objects.filter(season=event.season, cancelled_at__isnull=True).values_list(
        "player_id", "points"
    ):
        out[player_id] = out.get(player_id, Decimal("0")) + (points or Decimal("0"))
    return out


def ranked_registrations(event: Event) -> dict[int, bool]:
    """Who is ranked, each with whether they withdrew: a non-substitute player, confirmed or
    withdrawn, who played at least one finished game of the event. A player who never played (never
    checked in, or checked in but never seated in a played game) is not ranked and not exported.

    The EMA's ranking rules (mahjong-europe.org/ranking/Basicsranking.html) rank the players who
    took part in a tournament (base rank = 1000 * (players - rank) / (players - 1)) and do not
    say more about a player who leaves; we assume, as the EMA's tournament results list them, that a
    player who played and then left (withdrawn, or checked out) takes part and keeps the place the
    games played earn, marked as withdrawn, and that a registered player who played no game did not
    take part at all (not ranked, not counted, not in the EMA file)."""
    regs = Registration.objects.filter(
        event=event,
        substitute=False,
        status__in=[Registration.Status.CONFIRMED, Registration.Status.WITHDRAWN],
    ).values_list("player_id", "status", "checked_in")
    played = set(
        GameSeat.objects.filter(
            game__season=event.season, game__result__isnull=False, points__isnull=False
        ).values_list("player_id", flat=True)
    )
    return {
        player: status == Registration.Status.WITHDRAWN or not checked_in
        for player, status, checked_in in regs
        if player in played
    }


def ranked_players(event: Event) -> list[int]:
    """Who is ranked (``ranked_registrations``)."""
    return list(ranked_registrations(event))


def _lines(event: Event, stage_rounds) -> list[ranking.Line]:
    seats = GameSeat.objects.filter(
        game__season=event.season,
        game__match_day__in=list(stage_rounds),
        game__result__isnull=False,
        points__isnull=False,
    ).values_list("player_id", "game__match_day", "points", "place", "raw_score")
    return [
        ranking.Line(player=p, round=r, points=pts, place=pl or 0, raw_score=raw or 0)  # type: ignore[arg-type]  # points__isnull=False
        for p, r, pts, pl, raw in seats
    ]


def qualifying_standings(event: Event) -> list[ranking.Row]:
    ranked = ranked_registrations(event)
    players = list(ranked)
    lines = [line for line in _lines(event, range(1, event.rounds + 1)) if line.player in ranked]
    rows = ranking.qualifying_rank(lines, players, penalties_by_player(event), event.tiebreaks or [])
    for row in rows:
        row.withdrawn = ranked.get(row.player, False)
    return rows


def tiebreak_words(event: Event) -> list[str]:
    """The event's tiebreaks in force, in order, in the reader's language."""
    return [str(label(name, "tiebreak")) for name in event.tiebreaks or []]


def final_seated(event: Event) -> bool:
    return bool(event.cut) and Game.objects.filter(season=event.season, match_day=event.rounds + 1).exists()


def event_standings(event: Event) -> list[ranking.Row]:
    """The event's order now: after the cut, the finalists first (carried + final points)."""
    qualifying = qualifying_standings(event)
    if not final_seated(event):
        return qualifying
    return ranking.final_rank(qualifying, _lines(event, [event.rounds + 1]), event.cut, event.final_points)


def team_standings(event: Event, rows: list[ranking.Row]) -> list[ranking.TeamRow]:
    if event.team_scoring == Event.TeamScoring.NONE:
        return []
    teams = dict(Registration.objects.filter(event=event).exclude(team="").values_list("player_id", "team"))
    return ranking.team_rank(rows, teams, event.team_scoring, event.team_best)


def names(player_ids) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=list(player_ids)).values_list("pk", "display_name"))


def standings_rows(event: Event, rows: list[ranking.Row]) -> list[dict]:
    """Plain rows for pages and JSON: names, points as text-safe numbers."""
    who = names(r.player for r in rows)
    return [
        {
            "rank": r.rank,
            "shared": r.shared,
            "player": r.player,
            "name": who.get(r.player, ""),
            "points": r.points,
            "games": r.games,
            "places": r.places,
            "penalty": r.penalty,
            "finalist": r.finalist,
            "carried": r.carried,
            "final_points": r.final_points,
            "withdrawn": r.withdrawn,
        }
        for r in rows
    ]


def current_round(event: Event) -> Round | None:
    """The round running (started, not ended), else the next one not started after the last
    played (a round with a finished game, or ended), else the last played; with none played, the
    first not started, else the last."""
    rounds = list(event.round_set.order_by("number"))
    for r in rounds:
        if r.started_at and not r.ended_at:
            return r
    with_results = set(
        Game.objects.filter(season=event.season, result__isnull=False).values_list("match_day", flat=True)
    )
    played = [r for r in rounds if r.ended_at or r.number in with_results]
    last = played[-1] if played else None
    for r in rounds:
        if not r.started_at and (last is None or r.number > last.number):
            return r
    if last is not None:
        return last
    return rounds[-1] if rounds else None


def round_clock_state(round_: Round | None, now=None) -> dict | None:
    if round_ is None:
        return None
    state = clocks.clock_state(clocks.round_clock(round_), now or timezone.now())
    return {
        **state,
        "round": round_.number,
        "stage": round_.stage,
        "hands_after_time": clocks.hands_left_after_time(round_.event.time_rule),
        "dealer_repeats": round_.event.dealer_repeats_after_time,
    }


TABLE_PLAYING, TABLE_PENDING, TABLE_DISPUTED, TABLE_DONE = "playing", "pending", "disputed", "done"


def round_tables(round_: Round) -> list[dict]:
    games = (
        Game.objects.filter(season=round_.event.season, match_day=round_.number)
        .select_related("result", "table_report")
        .prefetch_related("seats__player")
        .order_by("table")
    )
    out = []
    for game in games:
        report = getattr(game, "table_report", None)
        result = getattr(game, "result", None)
        if result is not None:
            status = TABLE_DONE
        elif report is not None and report.status == TableReport.Status.DISPUTED:
            status = TABLE_DISPUTED
        elif report is not None:
            status = TABLE_PENDING
        else:
            status = TABLE_PLAYING
        seats = sorted(game.seats.all(), key=lambda s: s.seat)
        out.append(
            {
                "game": game,
                "table": game.table,
                "status": status,
                "report": report,
                "result": result,
                "seats": [
                    {
                        "seat": s.seat,
                        "wind": WINDS[s.seat],
                        "player": s.player_id,
                        "name": s.player.display_name,
                        "score": s.raw_score,
                        "points": s.points,
                        "place": s.place,
                    }
                    for s in seats
                ],
            }
        )
    return out


def latest_results(event: Event, limit: int = 6) -> list[dict]:
    games = (
        Game.objects.filter(season=event.season, result__isnull=False)
        .select_related("result")
        .prefetch_related("seats__player")
        .order_by("-result__entered_at")[:limit]
    )
    return [
        {
            "round": g.match_day,
            "table": g.table,
            "seats": [
                {"name": s.player.display_name, "score": s.raw_score, "points": s.points}
                for s in sorted(g.seats.all(), key=lambda s: s.seat)
            ],
        }
        for g in games
    ]


def board(event: Event) -> dict:
    """Everything the big screen shows, JSON-ready (numbers as strings where they are decimals)."""
    round_ = current_round(event)
    rows = event_standings(event)
    tables = round_tables(round_) if round_ else []
    teams = team_standings(event, rows)
    who = names(p for t in teams for p in t.counted)
    return {
        "event": {"id": event.pk, "name": event.name, "status": event.status, "rounds": event.rounds, "cut": event.cut},
        "version": event.board_version,
        "server_time": timezone.now().isoformat(),
        "clock": round_clock_state(round_),
        "tables": [
            {"table": t["table"], "status": t["status"], "players": [s["name"] for s in t["seats"]]} for t in tables
        ],
        "standings": [
            {
                **row,
                "points": str(row["points"]),
                "penalty": str(row["penalty"]),
                "carried": None if row["carried"] is None else str(row["carried"]),
                "final_points": None if row["final_points"] is None else str(row["final_points"]),
            }
            for row in standings_rows(event, rows)
        ],
        "teams": [
            {
                "rank": t.rank,
                "team": t.team,
                "points": str(t.points),
                "shared": t.shared,
                "counted": [who.get(p, "") for p in t.counted],
            }
            for t in teams
        ],
        "latest": [
            {**r, "seats": [{**s, "points": None if s["points"] is None else str(s["points"])} for s in r["seats"]]}
            for r in latest_results(event)
        ],
    }


BOARD_BODY_KEY = "events:board-body:{}:{}"


def board_at_version(event_id: int, version: int) -> dict | None:
    """The board for ``version``, built once per version and server (or once in all, with a shared
    cache) however many screens ask: keyed by the version, so it is never stale. The clock is
    added per request from the round's stored moments (``board_clock``), so it is always now."""
    key = BOARD_BODY_KEY.format(event_id, version)
    body = cache.get(key)
    if body is None:
        event = Event.objects.filter(pk=event_id).select_related("league", "season").first()
        if event is None:
            return None
        body = board(event)
        body["version"] = version  # the version asked for: what the ETag says this body is
        round_ = current_round(event)
        body["clock_round"] = (
            None
            if round_ is None
            else {
                "pk": round_.pk,
                "number": round_.number,
                "stage": round_.stage,
                "minutes": round_.minutes,
                "started_at": round_.started_at,
                "paused_at": round_.paused_at,
                "paused_seconds": round_.paused_seconds,
                "extra_seconds": round_.extra_seconds,
                "ended_at": round_.ended_at,
                "time_rule": event.time_rule,
                "dealer_repeats": event.dealer_repeats_after_time,
            }
        )
        cache.set(key, body, 600)
    return body


def board_clock(body: dict, now=None) -> dict | None:
    """The clock of a cached board, as of now."""
    r = body.get("clock_round")
    if r is None:
        return None
    state = clocks.clock_state(
        clocks.Clock(
            minutes=r["minutes"],
            started_at=r["started_at"],
            paused_at=r["paused_at"],
            paused_seconds=r["paused_seconds"],
            extra_seconds=r["extra_seconds"],
            ended_at=r["ended_at"],
        ),
        now or timezone.now(),
    )
    return {
        **state,
        "round": r["number"],
        "stage": r["stage"],
        "hands_after_time": clocks.hands_left_after_time(r["time_rule"]),
        "dealer_repeats": r.get("dealer_repeats", False),
    }


def seating_cards(event: Event) -> list[dict]:
    """Each seated player's table and wind for every round seated so far, for printing."""
    seats = (
        GameSeat.objects.filter(game__season=event.season)
        .select_related("player", "game")
        .order_by("player__display_name", "game__match_day")
    )
    cards: dict[int, dict] = {}
    for s in seats:
        card = cards.setdefault(s.player_id, {"name": s.player.display_name, "rounds": {}})
        card["rounds"][s.game.match_day] = {"table": s.game.table, "wind": WINDS[s.seat]}
    numbers = list(event.round_set.order_by("number").values_list("number", flat=True))
    return [
        {"name": c["name"], "rounds": [(n, c["rounds"].get(n)) for n in numbers]}
        for c in sorted(cards.values(), key=lambda c: c["name"])
    ]


def mers_weight(event: Event):
    """The event's MERS weight as the EMA counts it (events.ema): its days, its players (at most
    three substitutes count), its nations, no qualification."""
    from .ema import mers_weight as weight

    regs = Registration.objects.filter(event=event, status=Registration.Status.CONFIRMED)
    players = regs.filter(substitute=False).count() + min(3, regs.filter(substitute=True).count())
    nations = regs.exclude(nationality="").values("nationality").distinct().count()
    return weight(days=(event.ends_on - event.starts_on).days + 1, players=players, nations=nations)


def ema_placed(event: Event) -> list[Placed]:
    """The ranked players as the EMA file lists them, each with the family and given name stored
    on the player (blank parts: events.ema proposes them from the display name)."""
    rows = event_standings(event)
    regs = {r.player_id: r for r in Registration.objects.filter(event=event)}
    parts = {
        pk: (display, family, given)
        for pk, display, family, given in Player.objects.filter(pk__in=[r.player for r in rows]).values_list(
            "pk", "display_name", "family_name", "given_name"
        )
    }
    return [
        Placed(
            position=r.rank,
            name=parts.get(r.player, ("", "", ""))[0],
            ema_number=regs[r.player].ema_number,
            nationality=regs[r.player].nationality,
            points=r.points,
            family_name=parts.get(r.player, ("", "", ""))[1],
            given_name=parts.get(r.player, ("", "", ""))[2],
        )
        for r in rows
        if r.player in regs
    ]


def disputed_calls(user) -> list[DeskCall]:
    """Disputed table results in the leagues where ``user`` referees (kyoku.desk)."""
    leagues = authz.leagues_where(user, authz.Need.REFEREE)
    if leagues == []:
        return []
    reports = TableReport.objects.filter(status=TableReport.Status.DISPUTED).select_related("game__season__event")
    if leagues is not None:
        reports = reports.filter(game__season__league_id__in=leagues)
    return [
        DeskCall(
            title=_("%(event)s: round %(round)s, table %(table)s disputes its result")
            % {"event": r.game.season.event.name, "round": r.game.match_day, "table": r.game.table},
            detail=r.dispute_note[:120],
            url=reverse("event-table", args=[r.game_id]),
            at=r.reported_at,
        )
        for r in reports.order_by("-reported_at")[:50]
    ]

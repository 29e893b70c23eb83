"""Tournament reads: standings, the board, seating cards, table views, exports."""

from __future__ import annotations

import collections
import threading
import time
from decimal import Decimal

from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from kyoku import authz
from kyoku.desk import DeskCall
from kyoku.labels import label
from league.models import Game, GameSeat, Penalty, Player
from league.names import Name

from . import clock as clocks
from . import last_hand as lh
from . import ranking
from .ema import Placed
from .models import CutDecision, Event, Registration, Round, TableReport, TableTimeUp

WINDS = ("E", "S", "W", "N")
BOARD_KEY = "events:board:{}"


def events_list(*, league=None):
    qs = Event.objects.select_related("league")
    # a league waiting for approval (or refused) is listed nowhere public
    return qs.filter(league=league) if league else qs.filter(league__approval="active")


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


def event_stages(event: Event) -> list[ranking.Stage]:
    """The stages after the qualifying rounds, in order, from the event's rounds (a semi-final over
    one or more rounds, then the final), each with its cut and how points are carried into it."""
    numbers: dict[str, list[int]] = {}
    for number, stage in event.round_set.exclude(stage=Round.Stage.QUALIFYING).values_list("number", "stage"):
        numbers.setdefault(stage, []).append(number)
    out = []
    if numbers.get(Round.Stage.SEMI_FINAL) and event.semi_final_cut:
        out.append(
            ranking.Stage(
                Round.Stage.SEMI_FINAL,
                event.semi_final_cut,
                event.semi_final_points,
                tuple(sorted(numbers[Round.Stage.SEMI_FINAL])),
            )
        )
    if numbers.get(Round.Stage.FINAL) and event.cut:
        out.append(
            ranking.Stage(Round.Stage.FINAL, event.cut, event.final_points, tuple(sorted(numbers[Round.Stage.FINAL])))
        )
    return out


def stage_seated(event: Event, stage: ranking.Stage) -> list[int]:
    """The players seated in a stage's first round (the stored fact of who went through the cut)."""
    return list(
        GameSeat.objects.filter(game__season=event.season, game__match_day=stage.rounds[0])
        .order_by("game__table", "seat")
        .values_list("player_id", flat=True)
    )


def cut_decision(event: Event, stage: str, tied: list[int]) -> CutDecision | None:
    """The director's latest decision of a tie at this stage's cut, if it is for these players."""
    decision = CutDecision.objects.filter(event=event, stage=stage).order_by("-at", "-pk").first()
    if decision is None or sorted(decision.tied) != sorted(tied):
        return None
    return decision


def final_seated(event: Event) -> bool:
    stages = event_stages(event)
    return bool(stages) and bool(stage_seated(event, stages[-1]))


def _decided_order(rows: list[ranking.Row], order: list[int]) -> list[ranking.Row]:
    """Rows with a decided tie listed in the decided order (ranks unchanged: the tie is real)."""
    place = {p: i for i, p in enumerate(order)}
    tied = [r for r in rows if r.player in place]
    if not tied:
        return rows
    tied.sort(key=lambda r: place[r.player])
    start = rows.index(next(r for r in rows if r.player in place))
    others = [r for r in rows if r.player not in place]
    return others[:start] + tied + others[start:]


def stage_rounds_complete(event: Event, numbers) -> bool:
    """Whether every round in ``numbers`` is seated and each of its tables has a result (a void
    table counts as done): only then is the order at the cut after them final."""
    numbers = list(numbers)
    if not numbers:
        return True
    games = Game.objects.filter(season=event.season, match_day__in=numbers).exclude(status=Game.Status.VOID)
    seated = set(games.values_list("match_day", flat=True).distinct())
    return seated == set(numbers) and not games.filter(result__isnull=True).exists()


def _stage_started(event: Event, first: Round | None) -> bool:
    return bool(
        first
        and (
            first.started_at
            or Game.objects.filter(season=event.season, match_day=first.number, result__isnull=False).exists()
        )
    )


def event_state(event: Event) -> dict:
    """The one derived state every view of an event reads (the cut on the desk and its API, the
    ranking and its API, the event page, the board, the results and the EMA file), recomputed from
    the results each time:

    - ``by_stage``: the order after each stage counted so far, (None, qualifying) first. A stage
      counts once seated, with the players seated in its first round; a stage whose seating a
      correction made stale and that has not started does not count (its seating is void until the
      director decides and seats it again), so the order is the one before it. A started stage is
      counted as seated (the director's to settle).
    - ``cuts``: each stage's cut (``cut_states``).
    - ``stale``: a cut whose seating is stale while the stage has not started (the EMA file waits)."""
    stages = event_stages(event)
    rows = qualifying_standings(event)
    by_stage: list[tuple[ranking.Stage | None, list[ranking.Row]]] = [(None, rows)]
    cuts: list[dict] = []
    before = list(range(1, event.rounds + 1))  # the rounds whose results make the order at the cut
    for stage in stages:
        rows = by_stage[-1][1]
        if not rows:
            break
        complete = stage_rounds_complete(event, before)
        tied, places = ranking.cut_tie(rows, stage.cut)
        decision = cut_decision(event, stage.name, tied) if tied else None
        try:
            expected: list[int] | None = ranking.entrants(rows, stage.cut, decision.order if decision else None)
        except ranking.CutUndecided:
            expected = None
        seated = stage_seated(event, stage)
        first = event.round_set.filter(number=stage.rounds[0]).first()
        started = _stage_started(event, first)
        stale = bool(seated) and (expected is None or sorted(expected) != sorted(seated))
        if expected is None and tied:  # undecided: those above the tie are through, the tied are open
            tie_rank = next(r.rank for r in rows if r.player == tied[0])
            through = [r.player for r in rows if r.rank < tie_rank]
        else:
            through = list(expected or [])
        open_ = set(tied) if expected is None else set()
        now_in = [p for p in through if seated and p not in seated]
        now_out = [p for p in seated if p not in through and p not in open_]
        cuts.append(
            {
                "stage": stage.name,
                "cut": stage.cut,
                "round": first,
                "tied_ids": list(tied),
                "places": places,
                "decision": decision,
                "decided_ids": list(decision.order[:places]) if decision else [],
                "complete": complete,
                "undecided": bool(tied) and decision is None and complete,
                "provisional": bool(tied) and not complete,  # a tie now, with results still to come
                "seated": bool(seated),
                "started": started,
                "stale": stale,
                "now_in_ids": now_in,
                "now_out_ids": now_out,
            }
        )
        if not seated or (stale and not started):
            if decision is not None:  # until the stage is (again) seated, the decided order shows
                by_stage[-1] = (by_stage[-1][0], _decided_order(rows, decision.order))
            break
        rows = ranking.stage_rank(
            rows, seated, _lines(event, stage.rounds), stage.points, stage.name, event.tiebreaks or []
        )
        by_stage.append((stage, rows))
        before = list(stage.rounds)
    who = names({p for c in cuts for p in c["tied_ids"] + c["now_in_ids"] + c["now_out_ids"]})
    for c in cuts:
        for key in ("tied", "decided", "now_in", "now_out"):
            c[key] = [{"player": p, "name": who.get(p, "")} for p in c[f"{key}_ids"]]
    return {
        "by_stage": by_stage,
        "cuts": cuts,
        "stale": any(c["stale"] and not c["started"] for c in cuts),
    }


def standings_by_stage(event: Event) -> list[tuple[ranking.Stage | None, list[ranking.Row]]]:
    """The order after each stage counted so far (``event_state``)."""
    return event_state(event)["by_stage"]


def event_standings(event: Event) -> list[ranking.Row]:
    """The event's order now: after each cut, the stage's players first (carried + stage points)."""
    return standings_by_stage(event)[-1][1]


def cut_states(event: Event) -> list[dict]:
    """Each stage's cut as the director sees it (``event_state``): the players tied at the cut and
    the decision (offered only once the results before the cut are complete), who the standings now
    send through, who is seated, and who a correction moved in and out since."""
    return event_state(event)["cuts"]


def cut_decisions(event: Event) -> list[dict]:
    """Every tie at a cut the director decided, for the results: who was tied, how it was decided
    and who went through."""
    decisions = list(CutDecision.objects.filter(event=event).order_by("at", "pk"))
    who = names({p for d in decisions for p in d.order})
    return [
        {
            "stage": d.stage,
            "method": d.method,
            "note": d.note,
            "at": d.at,
            "order": [who.get(p, "") for p in d.order],
        }
        for d in decisions
    ]


def team_standings(event: Event, rows: list[ranking.Row]) -> list[ranking.TeamRow]:
    if event.team_scoring == Event.TeamScoring.NONE:
        return []
    teams = dict(Registration.objects.filter(event=event).exclude(team="").values_list("player_id", "team"))
    return ranking.team_rank(rows, teams, event.team_scoring, event.team_best)


def written(player: Player) -> Name:
    """One player's name on a page of the active language (league.names.player_display_name)."""
    from league.names import player_name_for

    return player_name_for(player)


def names(player_ids) -> dict[int, Name]:
    """Each player's name on a page of the active language (league.names.player_display_name):
    the standings, results sheet, board and cut notes all use it."""
    from league.names import names_of

    return names_of(player_ids)


def _tie_figure(by: str, value) -> str:
    if value is None:
        return "—"
    if by == "places":
        return f"{value:.2f}"
    return str(value)


def tie_how(note: dict) -> str:
    """How a tie on points was broken, in words: "level on 60.0; first places: 3 to 1"."""
    words = {
        "firsts": _("level on %(points)s; first places: %(a)s to %(b)s"),
        "places": _("level on %(points)s; average place: %(a)s to %(b)s"),
        "best_game": _("level on %(points)s; best game: %(a)s to %(b)s"),
        "fewest_fourths": _("level on %(points)s; fourth places: %(a)s to %(b)s"),
        "before": _("level on %(points)s and on every tiebreak; rank before the stage: %(a)s to %(b)s"),
    }
    by = note["by"]
    return words[by] % {
        "points": note["points"],
        "a": _tie_figure(by, note["above_value"]),
        "b": _tie_figure(by, note["below_value"]),
    }


def tie_notes(rows: list[ranking.Row]) -> list[str]:
    """Each tie on points that the tiebreaks (or the rank before the stage) broke, in words, naming
    the two players: "Aoi Sato above Mei Lin: level on 60.0; first places: 3 to 1"."""
    notes = [r.tie_note for r in rows if r.tie_note]
    who = names({n["above"] for n in notes} | {n["below"] for n in notes})
    return [
        _("%(above)s above %(below)s: %(how)s")
        % {"above": who.get(n["above"], ""), "below": who.get(n["below"], ""), "how": tie_how(n)}
        for n in notes
    ]


def standings_rows(event: Event, rows: list[ranking.Row]) -> list[dict]:
    """Plain rows for pages and JSON: names, points as text-safe numbers. ``places`` counts every
    game played (stages included); ``stage_places`` a stage's player's places in that stage."""
    who = names(r.player for r in rows)
    return [
        {
            "rank": r.rank,
            "shared": r.shared,
            "player": r.player,
            "name": who.get(r.player, ""),
            "name_lang": getattr(who.get(r.player), "lang", ""),  # the name's language, for a lang attribute
            "points": r.points,
            "games": r.games,
            "places": r.places,
            "stage_places": r.stage_places,
            "tie_note": tie_how(r.tie_note) if r.tie_note else "",
            "penalty": r.penalty,
            "finalist": r.finalist,
            "carried": r.carried,
            "final_points": r.final_points,
            "withdrawn": r.withdrawn,
            "stage": r.stage,
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


def round_has_results(round_: Round) -> bool:
    return Game.objects.filter(season_id=round_.event.season_id, match_day=round_.number, result__isnull=False).exists()


def round_clock_state(round_: Round | None, now=None) -> dict | None:
    if round_ is None:
        return None
    state = clocks.clock_state(clocks.round_clock(round_), now or timezone.now())
    if state["state"] == clocks.WAITING and round_has_results(round_):
        state = {**state, "state": clocks.ENDED, "remaining": 0}  # played without the clock: over, not waiting
    return {
        **state,
        "round": round_.number,
        "stage": round_.stage,
        "hands_after_time": clocks.hands_left_after_time(round_.event.time_rule),
        "dealer_repeats": round_.event.dealer_repeats_after_time,
    }


TABLE_PLAYING, TABLE_PENDING, TABLE_DISPUTED, TABLE_DONE = "playing", "pending", "disputed", "done"
TABLE_WAITING = "waiting"  # seated, its round's clock not started: not playing yet


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
        elif round_.started_at is None:
            status = TABLE_WAITING
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
                        "name": name,
                        "name_lang": name.lang,  # the name's language (league.names)
                        "score": s.raw_score,
                        "points": s.points,
                        "place": s.place,
                    }
                    for s in seats
                    for name in (written(s.player),)  # once a seat: names cost most of a board's build
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
                {"name": name, "name_lang": name.lang, "score": s.raw_score, "points": s.points}
                for s in sorted(g.seats.all(), key=lambda s: s.seat)
                for name in (written(s.player),)
            ],
        }
        for g in games
    ]


def board(event: Event) -> dict:
    """Everything the big screen shows, JSON-ready (numbers as strings where they are decimals)."""
    round_ = current_round(event)
    state = event_state(event)
    rows = state["by_stage"][-1][1]
    tables = round_tables(round_) if round_ else []
    teams = team_standings(event, rows)
    who = names(p for t in teams for p in t.counted)
    last = tables_last_hand([t["game"] for t in tables], event) if tables else {}
    return {
        "event": {"id": event.pk, "name": event.name, "status": event.status, "rounds": event.rounds, "cut": event.cut},
        "version": event.board_version,
        "server_time": timezone.now().isoformat(),
        "clock": round_clock_state(round_),
        "tables": [
            {
                "table": t["table"],
                "status": t["status"],
                "players": [s["name"] for s in t["seats"]],
                "last_hand": str(last[t["game"].pk]["words"])
                if t["game"].pk in last and t["status"] == TABLE_PLAYING
                else None,
            }
            for t in tables
        ],
        "tiebreaks": tiebreak_words(event),
        "tie_notes": tie_notes(rows),
        "cuts": cuts_public(state["cuts"]),
        # the last stage counted (None: qualifying only): the board names it and splits its points
        "stage": board_stage(state["by_stage"][-1][0]),
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


def board_stage(stage: ranking.Stage | None) -> dict | None:
    """The stage the board's order is after, JSON-ready: its name, its cut, how points came in."""
    return None if stage is None else {"name": stage.name, "cut": stage.cut, "points": stage.points}


def cuts_public(cuts: list[dict]) -> list[dict]:
    """What anyone may read of each cut (JSON-ready): whether a correction made its seating stale,
    and who it moved in and out, by name."""
    return [
        {
            "stage": c["stage"],
            "stale": c["stale"],
            "started": c["started"],
            "undecided": c["undecided"],
            "now_in": [p["name"] for p in c["now_in"]],
            "now_out": [p["name"] for p in c["now_out"]],
        }
        for c in cuts
    ]


BOARD_BODY_KEY = "events:board-body:{}:{}:{}"


def board_at_version(event_id: int, version: int) -> dict | None:
    """The board for ``version``, built once per version and server (or once in all, with a shared
    cache) however many screens ask: keyed by the version, so it is never stale. The clock is
    added per request from the round's stored moments (``board_clock``), so it is always now."""
    key = BOARD_BODY_KEY.format(event_id, version, get_language())  # the names are the page language's
    here = cache.make_key(key)  # with the cache's prefix: a cache of its own is a memo of its own
    body = BOARD_BODIES.get(here)
    if body is not None:
        return body
    body = cache.get(key)
    if body is None and _cache_shared():
        body = _board_built_elsewhere(key)
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
                "played": round_has_results(round_),
                # every table still playing has its hand in play stored (or time is not up yet)
                "time_up_stored": not Game.objects.filter(
                    season=event.season, match_day=round_.number, result__isnull=True, time_up__isnull=True
                ).exists(),
            }
        )
        cache.set(key, body, 600)
    BOARD_BODIES.put(here, body)
    return body


class Bodies:
    """The process's last few built boards by key (a version's board never changes): a board's
    answer then neither fetches 55 KB from the shared cache nor unpickles its rows per request.
    Read-only for everyone who gets one."""

    def __init__(self, keep: int = 16) -> None:
        self.keep = keep
        self.lock = threading.Lock()
        self.bodies: collections.OrderedDict[str, dict] = collections.OrderedDict()

    def get(self, key: str) -> dict | None:
        with self.lock:
            return self.bodies.get(key)

    def clear(self) -> None:
        """Tests that roll back and number versions again (as they clear the cache)."""
        with self.lock:
            self.bodies.clear()

    def put(self, key: str, body: dict) -> None:
        with self.lock:
            self.bodies[key] = body
            while len(self.bodies) > self.keep:
                self.bodies.popitem(last=False)


BOARD_BODIES = Bodies()


def board_public(body: dict, now) -> dict:
    """What ``/api/events/<id>/board`` answers for a built board (``board_at_version``): the board
    without the clock's inputs, the clock as of ``now``, and the server's time."""
    data = {k: v for k, v in body.items() if k != "clock_round"}
    return {**data, "clock": board_clock(body, now), "server_time": now.isoformat()}


def board_now(event_id: int) -> dict | None:
    """The board as its API answers it now (its current version; None for no such event): what a
    live message to the big screens carries, so they need not all fetch it at once."""
    version = board_version(event_id)
    body = None if version is None else board_at_version(event_id, version)
    return None if body is None else board_public(body, timezone.now())


# What the big screen draws of each standings row (static/events.js drawStandings)
BOARD_SCREEN_ROW = ("rank", "shared", "name", "games", "points", "stage", "withdrawn", "carried", "final_points")


def board_screen(data: dict) -> dict:
    """The board's JSON as the big screen draws it: each standings row without the detail the API
    also gives (the player's id, places, tie notes, penalty). What a live message carries to every
    open screen: about half the bytes of the whole board."""
    return {**data, "standings": [{k: row[k] for k in BOARD_SCREEN_ROW} for row in data["standings"]]}


def _board_built_elsewhere(key: str, wait: float = 2.0) -> dict | None:
    """With a shared cache, one build per version for all the web processes: a new version reaches
    every process's streams at once, and each would build the same board. The first to claim the
    build builds it; the others wait for it in the cache (at most ``wait`` s, then build too)."""
    if cache.add(key + ":building", 1, timeout=int(wait) + 1):
        return None  # ours to build
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.02)
        body = cache.get(key)
        if body is not None:
            return body
    return None


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
    if state["state"] == clocks.WAITING and r.get("played"):
        state = {**state, "state": clocks.ENDED, "remaining": 0}
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
    from league.names import player_name_for

    cards: dict[int, dict] = {}
    for s in seats:
        p = s.player
        card = cards.setdefault(
            s.player_id,
            {
                "name": player_name_for(p),
                "sort": (p.family_name or p.display_name).casefold(),  # by family name, as a desk files cards
                "rounds": {},
            },
        )
        card["rounds"][s.game.match_day] = {"table": s.game.table, "wind": WINDS[s.seat]}
    from .stages import round_title

    # each round named by its stage ("Semi-final, round 1"), not by its number alone
    numbers = [
        (n, round_title(event, n, stage))
        for n, stage in event.round_set.order_by("number").values_list("number", "stage")
    ]
    return [
        {"name": c["name"], "rounds": [(title, c["rounds"].get(n)) for n, title in numbers]}
        for c in sorted(cards.values(), key=lambda c: (c["sort"], c["name"]))
    ]


def mers_counts(event: Event, rows: list[ranking.Row] | None = None) -> tuple[int, int]:
    """(players, nations) as the EMA counts a tournament: the players in its ranking, the very
    rows of the file (the N of the base rank 1000 × (N − position) / (N − 1), the "Players" the
    EMA's result pages print above the ranking); a substitute, who is not ranked, is not counted.
    Nations: the distinct nations among those ranked players."""
    rows = event_standings(event) if rows is None else rows
    ranked = {r.player for r in rows}
    nations = (
        Registration.objects.filter(event=event, player_id__in=ranked)
        .exclude(nationality="")
        .values("nationality")
        .distinct()
        .count()
    )
    return len(ranked), nations


def mers_weight(event: Event, rows: list[ranking.Row] | None = None):
    """The event's MERS weight as the EMA counts it (events.ema): its days, its ranked players
    (``mers_counts``), its nations, and whether players had to qualify."""
    from .ema import mers_weight as weight

    players, nations = mers_counts(event, rows)
    return weight(
        days=(event.ends_on - event.starts_on).days + 1,
        players=players,
        nations=nations,
        qualification=event.mers_qualification,
    )


def ema_tournament(event: Event, rows: list[ranking.Row] | None = None):
    """The EMA file's header block for ``event`` (counted over the same ranked rows as the file)."""
    from .ema import Tournament

    rows = event_standings(event) if rows is None else rows
    players, nations = mers_counts(event, rows)
    rules = event.season.rule_set
    return Tournament(
        name=event.name,
        ema_id=event.ema_id,
        city=event.city,
        country=event.country,
        starts_on=event.starts_on.isoformat(),
        ends_on=event.ends_on.isoformat(),
        days=(event.ends_on - event.starts_on).days + 1,
        players=players,
        nations=nations,
        qualification=event.mers_qualification,
        weight=mers_weight(event, rows),
        rules=rules_words(rules) if rules is not None else "",
    )


def ema_placed(event: Event, rows: list[ranking.Row] | None = None) -> list[Placed]:
    """The ranked players as the EMA file lists them, each with their family and given name in
    Latin script (league.names.latin_parts: the stored parts when Latin, else a split proposed from
    the name in Latin script, else blank; never native script: ``ema_names`` lists each guess and
    each blank for the director), a player who withdrew after playing marked."""
    rows = event_standings(event) if rows is None else rows
    regs = {r.player_id: r for r in Registration.objects.filter(event=event)}
    parts = _latin_parts([r.player for r in rows])
    return [
        Placed(
            position=r.rank,
            name=parts[r.player]["latin"],
            ema_number=regs[r.player].ema_number,
            nationality=regs[r.player].nationality,
            points=r.points,
            family_name=parts[r.player]["family_name"],
            given_name=parts[r.player]["given_name"],
            withdrawn=r.withdrawn,
        )
        for r in rows
        if r.player in regs and r.player in parts
    ]


def _latin_parts(player_ids) -> dict[int, dict]:
    from league.names import NAME_FIELDS, latin_parts, player_latin_name, player_name_for

    out = {}
    for row in Player.objects.filter(pk__in=list(player_ids)).values("pk", *NAME_FIELDS):
        family, given, source = latin_parts(row)
        out[row["pk"]] = {
            "pk": row["pk"],
            "name": player_name_for(row),
            "latin": player_latin_name(row),
            "family_name": family,
            "given_name": given,
            "source": source,
        }
    return out


def ema_names(event: Event, rows: list[ranking.Row] | None = None) -> list[dict]:
    """The ranked players whose names the EMA file cannot write as a person confirmed them in Latin
    script, most serious first: no name in Latin script at all (the file leaves the name blank),
    no Latin parts stored (the file writes a proposed split), Latin parts nobody confirmed. Each
    with the parts the file writes and its ``source`` (league.names: missing, proposed,
    unconfirmed)."""
    from league.names import LATIN_MISSING, LATIN_PROPOSED, LATIN_UNCONFIRMED

    rows = event_standings(event) if rows is None else rows
    order = {LATIN_MISSING: 0, LATIN_PROPOSED: 1, LATIN_UNCONFIRMED: 2}
    listed = [p for p in _latin_parts(r.player for r in rows).values() if p["source"] in order]
    return sorted(listed, key=lambda p: (order[p["source"]], str(p["name"]).casefold(), p["pk"]))


# The rule sets' names in words, as the EMA's result pages print them (in English: the file is the
# EMA's): the preset a tournament plays, with its version and the tournament's own changes named.
RULES_WORDS = {
    "ema": gettext_noop("EMA Riichi Competition Rules (2016)"),
    "wrc": gettext_noop("World Riichi Championship Rules (2022)"),
    "mleague": gettext_noop("M.League rules"),
    "tenhou": gettext_noop("Tenhou ranked rules"),
    "jpml": gettext_noop("JPML rules"),
    "mahjongsoul": gettext_noop("Mahjong Soul ranked rules"),
    "zung-jung": gettext_noop("Zung Jung"),
    "beijing": gettext_noop("Beijing rules"),
}


def rules_said(rules) -> str:
    """The same rules as :func:`rules_words`, in the reader's language, for a page (the file
    itself stays in English: the EMA reads it)."""
    if rules is None:
        return ""
    key = rules.preset if rules.preset in RULES_WORDS else rules.system
    words = _(RULES_WORDS[key]) if key in RULES_WORDS else rules.name
    if rules.overrides:
        return _("%(rules)s, with changes: %(name)s, version %(version)s") % {
            "rules": words,
            "name": rules.name,
            "version": rules.version,
        }
    return words


def rules_words(rules) -> str:
    """The EMA header's "Rules" value in words: "EMA Riichi Competition Rules (2016)"; a rule set
    with changes of its own adds its name and version ("…, with changes: Autumn rules, version 2")."""
    words = RULES_WORDS.get(rules.preset) or RULES_WORDS.get(rules.system) or rules.name
    if rules.overrides:
        return f"{words}, with changes: {rules.name}, version {rules.version}"
    return words


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


# ---------------------------------------------------------------- the last hand after time


def hand_name(position: lh.Position | None, number: int) -> str:
    """A hand in the table's words: "South 3" (with its counters: "South 3, 1 honba"), or "hand 9"
    where the hands keep no dealer."""
    from league.models import SEAT_NAMES

    if position is None:
        return _("hand %(n)s") % {"n": number}
    name = _("%(wind)s %(turn)s") % {"wind": SEAT_NAMES[position.wind], "turn": position.turn}
    if position.honba:
        name = _("%(hand)s, %(honba)s honba") % {"hand": name, "honba": position.honba}
    return name


def last_hand_words(state: lh.LastHand, position: lh.Position | None) -> str:
    name = hand_name(position, state.recorded + 1)
    if state.naming == "in_play_and_one_more":
        return _("Time is up: %(hand)s was in play; it and one more hand are played.") % {"hand": name}
    if state.naming == "last_next":
        return _("Time is up: %(hand)s is the last hand.") % {"hand": name}
    if state.naming == "dealer_repeats":
        return _("The dealer repeats after time: %(hand)s is played too, and the referee is told.") % {"hand": name}
    return _("Time is up and the last hand has been played: finish the game.")


def _system_of(rule_set) -> str:
    from scoring.engine import SettlementError, resolve_rules

    try:
        return resolve_rules(rule_set.spec)[0]
    except SettlementError:
        return ""


def tables_last_hand(games: list[Game], event: Event) -> dict[int, dict]:
    """{game id: {state, words, at}} for the tables whose time-up is stored (one query for the
    time-ups, one for their hands)."""
    from scoring.models import HandRecord

    ups = {t.game_id: t for t in TableTimeUp.objects.filter(game__in=games)}
    if not ups:
        return {}
    hands: dict[int, list] = {}
    for game_id, record, settlement in (
        HandRecord.objects.filter(game_id__in=list(ups))
        .order_by("game_id", "sequence")
        .values_list("game_id", "record", "settlement")
    ):
        hands.setdefault(game_id, []).append((record, settlement))
    system = _system_of(event.season.rule_set)
    out = {}
    for game_id, up in ups.items():
        recorded = hands.get(game_id, [])
        facts = [lh.hand_fact(system, r, st) for r, st in recorded]
        honba = (recorded[-1][1] or {}).get("honba_next", 0) if recorded and system == "riichi" else 0
        state = lh.last_hand(up.hand_in_play, up.hands_after_time, facts, event.dealer_repeats_after_time)
        out[game_id] = {
            "state": state,
            "words": last_hand_words(state, lh.position_next(facts, honba)),
            "at": up.at,
        }
    return out


def table_last_hand(game: Game) -> dict | None:
    event = Event.objects.filter(season_id=game.season_id).select_related("season__rule_set").first()
    if event is None:
        return None
    return tables_last_hand([game], event).get(game.pk)


def after_time_calls(user) -> list[DeskCall]:
    """Tables playing past their last hand because the dealer repeated after time (the event allows
    it; the referee is told), in the leagues where ``user`` referees (kyoku.desk)."""
    leagues = authz.leagues_where(user, authz.Need.REFEREE)
    if leagues == []:
        return []
    ups = TableTimeUp.objects.filter(game__result__isnull=True, round__event__dealer_repeats_after_time=True)
    if leagues is not None:
        ups = ups.filter(game__season__league_id__in=leagues)
    by_event: dict[int, list[TableTimeUp]] = {}
    for up in ups.select_related("game__season__event__season__rule_set", "round")[:200]:
        by_event.setdefault(up.game.season.event.pk, []).append(up)
    calls = []
    for group in by_event.values():  # two queries per event, not per table
        event = group[0].game.season.event
        info = tables_last_hand([up.game for up in group], event)
        for up in group:
            state = info[up.game_id]["state"] if up.game_id in info else None
            if state is None or not (state.recorded > state.last or state.extra):
                continue
            calls.append(
                DeskCall(
                    title=_("%(event)s: round %(round)s, table %(table)s plays past its last hand")
                    % {"event": event.name, "round": up.round.number, "table": up.game.table},
                    detail=str(info[up.game_id]["words"]),
                    url=reverse("event-table", args=[up.game_id]),
                    at=up.at,
                )
            )
    return calls


def planned_rounds_open(event: Event) -> list[int]:
    """Qualifying rounds of the plan (not seated by standings) that are seated but not started."""
    last_planned = event.rounds - event.seated_by_standings
    rounds = event.round_set.filter(stage=Round.Stage.QUALIFYING, number__lte=last_planned, started_at__isnull=True)
    seated = set(
        Game.objects.filter(season=event.season, match_day__in=[r.number for r in rounds]).values_list(
            "match_day", flat=True
        )
    )
    played = set(Game.objects.filter(season=event.season, result__isnull=False).values_list("match_day", flat=True))
    return sorted(n for n in seated if n not in played)


def seating_warnings(event: Event, game_id: int | None = None) -> list[dict]:
    """Seats still held, in rounds not over, by a player who withdrew or is marked absent: the
    desk re-seats the rounds not started; a table in play is the referee's to settle."""
    regs = {
        r.player_id: r
        for r in Registration.objects.filter(event=event).only("player_id", "status", "checked_in", "substitute")
    }
    ended = set(event.round_set.filter(ended_at__isnull=False).values_list("number", flat=True))
    seats = (
        GameSeat.objects.filter(game__season=event.season, game__result__isnull=True)
        .exclude(game__match_day__in=ended)
        .filter(**({"game_id": game_id} if game_id is not None else {}))  # one table's page: its seats only
        .select_related("player", "game")
        .order_by("game__match_day", "game__table", "seat")
    )
    out = []
    for s in seats:
        reg = regs.get(s.player_id)
        if reg is None:
            continue
        if reg.status == Registration.Status.WITHDRAWN:
            why = "withdrawn"
        elif not reg.checked_in:
            why = "absent"
        else:
            continue
        out.append(
            {
                "round": s.game.match_day,
                "table": s.game.table,
                "game": s.game_id,
                "name": written(s.player),
                "why": why,
            }
        )
    return out


def names_unconfirmed(event: Event) -> list[dict]:
    """The event's players (not withdrawn) whose family/given split no person has confirmed (no
    confirmation stored, or a part empty: league.names.split_confirmed): the EMA file writes them
    as guessed, so the desk lists them to check, with the parts the file writes."""
    from django.db.models import Q

    players = Player.objects.filter(
        pk__in=Registration.objects.filter(event=event)
        .exclude(status=Registration.Status.WITHDRAWN)
        .values("player_id"),
    ).filter(Q(name_confirmed_at__isnull=True) | Q(family_name="") | Q(given_name=""))
    parts = _latin_parts(players.values_list("pk", flat=True))
    return sorted(parts.values(), key=lambda p: (str(p["name"]).casefold(), p["pk"]))

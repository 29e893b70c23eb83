"""The event of issue 50, played through the app's services: 20 players, 3 qualifying rounds (each
seated by the standings, so the tables are known in advance), a semi-final of 8 over 2 rounds and a
final of 4, points carried in full, tiebreak 1 "most first places". After the semi-final two
players stand level on points for the 4th place, the last one into the final: Aoi Tanaka with 3
first places, Bo Lam with 1. The first tiebreak sends Aoi into the final."""

from __future__ import annotations

import datetime as dt

from events import selectors, services
from events.models import Event, Round
from league.models import Game, GameSeat, Player

A, B = "Aoi Tanaka", "Bo Lam"
X = ["Xia Wen", "Xander Holt", "Ximena Ruiz"]  # the three clear of everyone after the semi-final
# round 1 comes from the seating plan; the East seat of tables 1 to 5 then takes these names (and
# the others "Oda 01" …): each of X, A and B heads a table of its own, whatever the plan drew
HEADS = [*X, A, B]
PLAIN = [40000, 30000, 20000, 10000]  # +60.0, +10.0, −20.0, −50.0 (M-League: uma 30/10, oka 20)


def event_build(*, league, admin, rules) -> tuple[Event, dict[str, Player]]:
    event = services.event_create(
        league=league,
        name="Semi Open",
        slug="semi-open",
        starts_on=dt.date.today(),
        ends_on=dt.date.today(),
        rule_set=rules,
        capacity=20,
        rounds=3,
        round_minutes=60,
        seated_by_standings=2,
        semi_final_cut=8,
        semi_final_rounds=2,
        semi_final_points="carry",
        cut=4,
        final_points="carry",
        tiebreaks=["firsts"],
        ema_id="",
        city="Hong Kong",
        country="HKG",
        actor=admin,
    )
    made = []
    for i in range(20):
        made.append(Player.objects.create(display_name=f"Seat {i:02d}", membership_number=f"SO{i:03d}"))
        reg = services.registration_add(event=event, player=made[-1], actor=admin, nationality="HKG")
        services.checkin_set(registration=reg, present=True, actor=admin)
    services.event_status_set(event=event, status="running", actor=admin)
    services.seating_plan(event=event, actor=admin, time_limit=1)
    heads = [
        GameSeat.objects.get(game__season=event.season, game__match_day=1, game__table=t, seat=0).player_id
        for t in range(1, 6)
    ]
    others = iter(range(1, 16))
    players = {}
    for p in made:
        name = HEADS[heads.index(p.pk)] if p.pk in heads else f"Oda {next(others):02d}"
        given, family = name.split(" ")
        Player.objects.filter(pk=p.pk).update(display_name=name, family_name=family, given_name=given)
        players[name] = Player.objects.get(pk=p.pk)
    event.refresh_from_db()
    return event, players


def round_play(event: Event, number: int, admin, order, scores=None) -> None:
    """Seat round ``number`` (round 1 is seated by the plan; later rounds by the standings, the
    higher-placed player East), start its clock (ending the round before in the same step), and
    record each table: ``order(names)`` gives its players' names (East to North) best first,
    ``scores(names)`` the four scores in that order (PLAIN when None)."""
    round_ = Round.objects.get(event=event, number=number)
    if number > 1:
        services.seating_by_standings(round_=round_, actor=admin)
    services.round_end_and_start(round_=round_, actor=admin)
    for game in Game.objects.filter(season=event.season, match_day=number).order_by("table"):
        seats = list(GameSeat.objects.filter(game=game).order_by("seat").select_related("player"))
        names = [s.player.display_name for s in seats]
        ranked = order(names)
        chosen = (scores(ranked) if scores else None) or PLAIN
        by_name = dict(zip(ranked, chosen))
        services.table_result_enter(game=game, scores=[by_name[n] for n in names], actor=admin)


def seat_order(names: list[str]) -> list[str]:
    return list(names)


def first_second(first: str | None, second: str | None):
    """An order putting ``first`` first and ``second`` second where they sit, the rest by seat."""

    def order(names: list[str]) -> list[str]:
        out = [n for n in names if n not in (first, second)]
        if first in names:
            out.insert(0, first)
        if second in names:
            out.insert(1, second)
        return out

    return order


def spread(ranked: list[str]) -> list[int]:
    """PLAIN, the winner's margin varied by table (by the winner's name) so that few totals meet."""
    k = sum(ord(c) for c in ranked[0]) % 37
    return [40000 + 100 * k, 30000, 20000, 10000 - 100 * k]


def heads_first(names: list[str]) -> list[str]:
    return [n for n in names if n in HEADS] + [n for n in names if n not in HEADS]


def qualifying_play(event: Event, admin) -> None:
    """Rounds 1 to 3: A wins all three, B the first only (second after it)."""
    round_play(event, 1, admin, heads_first, spread)
    round_play(event, 2, admin, first_second(A, B), spread)
    round_play(event, 3, admin, first_second(A, B), spread)
    cut = selectors.cut_states(event)[0]
    if cut["undecided"]:  # a tie at the semi-final's cut elsewhere in the field: the director draws
        services.cut_decide(event=event, stage="semi_final", order=list(cut["tied_ids"]), method="lots", actor=admin)


def semi_play(event: Event, admin) -> None:
    """Rounds 4 and 5, the semi-final: A fourth twice, B second twice; the last round's scores leave
    them level, 4th and 5th, with three players above."""
    round_play(event, 4, admin, semi_order, lambda ranked: [60000, 21000, 18000, 1000])
    round_play(event, 5, admin, semi_order, semi_last(event, 5))


def final_play(event: Event, admin) -> None:
    """Round 6, the final of the four, seated by the cut; then the event is finished."""
    round_play(event, 6, admin, seat_order, spread)
    services.round_clock_set(round_=Round.objects.get(event=event, number=6), action="end", actor=admin)
    services.event_status_set(event=event, status="finished", actor=admin)
    event.refresh_from_db()


UMA = (500, 100, -100, -300)  # tenths of a point by place (M-League, the first's oka included)


def points_tenths(score: int, place: int) -> int:
    return (score - 30000) // 100 + UMA[place]


def fills(fixed: dict[int, int], step: int = 1000):
    """Four strictly descending scores summing to 100,000 (none below 0) with the scores ``fixed``
    at their places; the free ones in multiples of ``step`` (the last free one takes the rest)."""
    free = [i for i in range(4) if i not in fixed]
    rest = 100000 - sum(fixed.values())

    def ok(vec: list[int]) -> bool:
        return all(vec[i] > vec[i + 1] for i in range(3)) and vec[3] >= 0

    def walk(i: int, vec: list[int | None], left: int):
        if i == len(free) - 1:
            vec[free[i]] = left
            if ok(vec):  # type: ignore[arg-type]
                yield tuple(vec)
            return
        for value in range(0, left + 1, step):
            vec[free[i]] = value
            yield from walk(i + 1, vec, left - value)

    start: list[int | None] = [fixed.get(i) for i in range(4)]
    if not free:
        if ok(start):  # type: ignore[arg-type]
            yield tuple(start)
        return
    yield from walk(0, start, rest)


def semi_last_scores(totals: dict[str, int], tables: list[list[str]]) -> dict[str, int]:
    """Scores for the semi-final's last round (``tables``: each table's names, best first as they
    will place: B second, A fourth) so that A and B end level with exactly three players above
    them and nobody else on their points. ``totals`` in tenths of a point."""
    a_table = next(t for t in tables if A in t)
    b_table = next(t for t in tables if B in t)
    others = [t for t in tables if t is not a_table and t is not b_table]
    a_place, b_place = a_table.index(A), b_table.index(B)
    plain = (40000, 30000, 20000, 10000)

    def add(out: dict[str, int], table: list[str], vec) -> dict[str, int]:
        out = dict(out)
        for place, (name, score) in enumerate(zip(table, vec)):
            out[name] = out[name] + points_tenths(score, place)
        return out

    base = dict(totals)
    for t in others:
        base = add(base, t, plain)
    for sa in range(20000, 0, -100):
        # B level with A: totals[A] + pts(sa) == totals[B] + pts(sb)
        sb = sa + 100 * (totals[A] + UMA[a_place] - totals[B] - UMA[b_place])
        if not 0 <= sb <= 100000:
            continue
        if a_table is b_table:
            options = [(v, None) for v in fills({a_place: sa, b_place: sb})]
        else:
            options = [(v, w) for v in fills({a_place: sa}, 2000) for w in fills({b_place: sb}, 2000)]
        for v, w in options:
            end = add(base, a_table, v)
            if w is not None:
                end = add(end, b_table, w)
            level = end[A]
            above = [n for n, p in end.items() if p > level]
            if end[B] == level and len(above) == 3 and [n for n, p in end.items() if p == level] == [A, B]:
                out = dict(zip(a_table, v))
                if w is not None:
                    out.update(zip(b_table, w))
                for t in others:
                    out.update(zip(t, plain))
                return out
    raise AssertionError(f"no scores make A and B level 4th: {totals} {tables}")


def semi_order(names: list[str]) -> list[str]:
    """At a semi-final table: B second, A fourth, the others by seat (the standings' order)."""
    out = [n for n in names if n not in (A, B)]
    if B in names:
        out.insert(1, B)
    if A in names:
        out.append(A)
    return out


def semi_last(event: Event, number: int):
    """Scores for the semi-final's last round (``semi_last_scores``), computed once its tables are
    seated: a ``scores`` for ``round_play``."""
    solved: dict[str, int] = {}

    def scores(ranked: list[str]) -> list[int]:
        if not solved:
            rows = selectors.event_standings(event)
            who = selectors.names(r.player for r in rows)
            seated = set()
            tables = []
            for game in Game.objects.filter(season=event.season, match_day=number).order_by("table"):
                names = [s.player.display_name for s in GameSeat.objects.filter(game=game).order_by("seat")]
                tables.append(semi_order(names))
                seated |= set(names)
            totals = {who[r.player]: int(r.points * 10) for r in rows if who[r.player] in seated}
            solved.update(semi_last_scores(totals, tables))
        return [solved[n] for n in ranked]

    return scores

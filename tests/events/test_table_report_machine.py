"""Issue 34: a stateful property test of a table's result. Random sequences of report, confirm,
dispute, resend, desk entry, correction and clock actions, each by a random principal (the table's
phone, another table's phone, the seated player, a player at another table, an anonymous visitor,
the referee, the director, another league's admin), and after every step:

- a recorded result is a version all four seats confirmed (status confirmed) or the desk's entry
  (status resolved), never anything else;
- no version is lost or changed, and no seat's agreement with a version is ever lost (a resend
  included);
- a dispute ends only by a referee or the director;
- a principal that may not act changes nothing at all.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from events import services
from events.models import TableReport
from kyoku.models import League, LeagueRole
from kyoku.principals import TablePhone
from league.models import Game, GameResult, GameSeat
from tests.actors import make_role_user

from .conftest import SCORES

CHOICES = [SCORES, [40000, 40000, 12000, 8000], [50000, 30000, 12000, 8000]]
PRINCIPALS = ["phone", "other_phone", "seated", "elsewhere", "anonymous", "referee", "admin", "other_admin"]
TABLE_PRINCIPALS = {"phone", "seated"}
DESK = {"referee", "admin"}


def _snapshot(game: Game) -> dict:
    report = TableReport.objects.filter(game=game).first()
    result = GameResult.objects.filter(game=game).first()
    return {
        "status": report.status if report else None,
        "version": report.version if report else None,
        "versions": [
            (v.number, list(v.scores), v.deposits_left, list(v.confirmed_seats)) for v in report.versions.all()
        ]
        if report
        else [],
        "result": list(result.scores) if result else None,
    }


@pytest.mark.django_db(transaction=False)
def test_a_tables_result_is_what_four_seats_agreed_or_the_desk_entered(in_play, admin, referee, field):
    seated_seat = GameSeat.objects.filter(game__season=in_play.season, game__match_day=1, player__in=field[:4]).first()
    game = seated_seat.game
    other = Game.objects.filter(season=in_play.season, match_day=1).exclude(pk=game.pk).first()
    elsewhere_seat = (
        GameSeat.objects.filter(game__season=in_play.season, game__match_day=1, player__in=field[:4])
        .exclude(game=game)
        .first()
    )
    other_league = League.objects.create(name="Elsewhere", slug="elsewhere-machine")
    actors = {
        "phone": TablePhone(game_id=game.pk),
        "other_phone": TablePhone(game_id=other.pk),
        "seated": seated_seat.player.user,
        "elsewhere": elsewhere_seat.player.user if elsewhere_seat else AnonymousUser(),
        "anonymous": AnonymousUser(),
        "referee": referee,
        "admin": admin,
        "other_admin": make_role_user("machine-other-admin", other_league, LeagueRole.Role.ADMIN),
    }
    rounds = {r.number: r for r in in_play.round_set.all()}

    class TableReportMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.atomic = transaction.atomic()
            self.atomic.__enter__()  # each run starts from the same table, rolled back after
            self.desk_scores: list[int] | None = None
            self.before = _snapshot(game)

        def teardown(self) -> None:
            transaction.set_rollback(True)
            self.atomic.__exit__(None, None, None)

        def _act(self, who: str, allowed: bool, call) -> None:
            self.before = _snapshot(game)
            self.last = who
            try:
                with transaction.atomic():
                    call(actors[who])
            except PermissionDenied:
                assert not allowed, f"{who} was refused"
                assert _snapshot(game) == self.before, f"{who} was refused but something changed"
                return
            except ValidationError:
                assert _snapshot(game) == self.before, "a refused action changed something"
                return
            assert allowed, f"{who} acted where it may not"
            self._check_step()

        def _check_step(self) -> None:
            after = _snapshot(game)
            # nothing reported is lost or changed; no seat's agreement is lost
            old = {n: (s, d, set(c)) for n, s, d, c in self.before["versions"]}
            new = {n: (s, d, set(c)) for n, s, d, c in after["versions"]}
            for n, (scores, deposits, seats) in old.items():
                assert n in new and new[n][0] == scores and new[n][1] == deposits and seats <= new[n][2]
            if self.before["status"] == "disputed" and after["status"] != "disputed":
                assert self.last in DESK, "a dispute ended without the desk"
            if self.before["result"] is not None and after["result"] != self.before["result"]:
                assert self.last in DESK, "a recorded result changed without the desk"

        @invariant()
        def recorded_is_agreed_or_entered(self) -> None:
            now = _snapshot(game)
            if now["result"] is None:
                assert now["status"] in (None, "pending", "disputed")
                return
            current = next(v for v in now["versions"] if v[0] == now["version"])
            if now["status"] == "confirmed":
                assert now["result"] == current[1] and sorted(current[3]) == [0, 1, 2, 3]
            else:
                assert now["status"] == "resolved" and now["result"] == self.desk_scores == current[1]

        @rule(who=st.sampled_from(PRINCIPALS), seat=st.integers(0, 3), scores=st.sampled_from(CHOICES))
        def report(self, who, seat, scores):
            self._act(
                who,
                who in TABLE_PRINCIPALS,
                lambda a: services.table_report_submit(game=game, scores=scores, seat=seat, actor=a),
            )

        @rule(who=st.sampled_from(PRINCIPALS), seat=st.integers(0, 3), shift=st.sampled_from([0, 0, 0, -1, 1]))
        def confirm(self, who, seat, shift):
            version = (self.before["version"] or 1) + shift
            self._act(
                who,
                who in TABLE_PRINCIPALS,
                lambda a: services.table_report_confirm(game=game, seat=seat, version=version, actor=a),
            )

        @rule(who=st.sampled_from(PRINCIPALS), seat=st.integers(0, 3))
        def dispute(self, who, seat):
            self._act(
                who,
                who in TABLE_PRINCIPALS,
                lambda a: services.table_report_dispute(game=game, seat=seat, note="not so", actor=a),
            )

        @rule(who=st.sampled_from(PRINCIPALS))
        def resend(self, who):
            """The outbox sends the current version again as a report by its reporting seat."""
            now = _snapshot(game)
            if not now["versions"]:
                return
            number, scores, deposits, seats = now["versions"][0]
            self._act(
                who,
                who in TABLE_PRINCIPALS,
                lambda a: services.table_report_submit(
                    game=game, scores=scores, deposits_left=deposits, seat=seats[0] if seats else 0, actor=a
                ),
            )

        @rule(who=st.sampled_from(PRINCIPALS), scores=st.sampled_from(CHOICES))
        def desk_entry(self, who, scores):
            def enter(a):
                services.table_result_enter(game=game, scores=scores, actor=a)
                self.desk_scores = list(scores)

            self._act(who, who in DESK, enter)

        @rule(who=st.sampled_from(PRINCIPALS), number=st.integers(1, 3))
        def desk_records_a_version(self, who, number):
            def resolve(a):
                services.table_result_enter(game=game, version=number, actor=a)
                self.desk_scores = next(v[1] for v in _snapshot(game)["versions"] if v[0] == number)

            self._act(who, who in DESK, resolve)

        @rule(action=st.sampled_from(["pause", "resume", "extend"]))
        def clock(self, action):
            try:
                with transaction.atomic():
                    services.round_clock_set(round_=rounds[1], action=action, minutes=5, actor=admin)
            except ValidationError:
                pass

    run_state_machine_as_test(
        TableReportMachine,
        settings=settings(
            max_examples=30,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )

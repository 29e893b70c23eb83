"""kyoku.rows: the plain statements of the result path read and write rows exactly as the ORM
does (every field's value and type, on SQLite and PostgreSQL alike), and lock as it locks."""

from decimal import Decimal

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError
from django.forms.models import model_to_dict

from kyoku.models import AuditLog, League
from kyoku.principals import SYSTEM
from kyoku.rows import instance_insert, instance_lock, instance_update, instances_insert, instances_where, rows_update
from league import services
from league.locks import game_lock
from league.models import Game, GameResult, GameSeat, Standing
from ratings.models import PlayerRating


def fields_of(obj) -> dict:
    """Every stored field's value, with its type: 1 and Decimal('1.0') and True must not pass
    for one another."""
    return {f.attname: (getattr(obj, f.attname), type(getattr(obj, f.attname))) for f in obj._meta.concrete_fields}


@pytest.fixture
def finished(game, admin):
    services.game_result_record(game=game, scores=[42000, 28000, 18000, 12000], actor=admin)
    return game


@pytest.mark.django_db(transaction=True)
def test_a_locked_game_reads_as_the_orm_reads_it_with_its_season_and_rule_set(finished):
    with transaction.atomic():
        locked = game_lock(finished.pk)
    orm = Game.objects.select_related("season__rule_set").get(pk=finished.pk)
    assert fields_of(locked) == fields_of(orm)
    assert fields_of(locked.season) == fields_of(orm.season)
    assert fields_of(locked.season.rule_set) == fields_of(orm.season.rule_set)
    assert locked.season.rule_set.options == orm.season.rule_set.options  # JSON decoded, not text


def test_rows_by_a_column_read_as_the_orm_reads_them(finished, division_a, players):
    result = instances_where(GameResult, "game_id", finished.pk)
    assert [fields_of(r) for r in result] == [fields_of(GameResult.objects.get(game=finished))]
    assert isinstance(result[0].scores, list) and isinstance(result[0].entered_at.year, int)
    seats = instances_where(GameSeat, "game_id", finished.pk, order_by="seat")
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in GameSeat.objects.filter(game=finished)]
    assert isinstance(seats[0].points, Decimal)
    wanted = [p.pk for p in players[:2]]
    standings = instances_where(Standing, "division_id", division_a.pk, among=("player_id", wanted))
    orm = Standing.objects.filter(division=division_a, player_id__in=wanted)
    assert sorted(map(str, map(fields_of, standings))) == sorted(map(str, map(fields_of, orm)))
    assert instances_where(Standing, "division_id", division_a.pk, among=("player_id", [])) == []


def test_an_insert_applies_defaults_and_auto_now_add_and_reads_back_its_key(league):
    entry = AuditLog(action="test.insert", object_type="kyoku.league", object_id=str(league.pk), actor_label="x")
    instance_insert(entry)
    stored = AuditLog.objects.get(pk=entry.pk)
    assert stored.at is not None and stored.data == {} and model_to_dict(stored) == model_to_dict(entry)
    assert not entry._state.adding


def test_an_update_writes_only_its_fields_and_applies_auto_now(finished):
    result = GameResult.objects.get(game=finished)
    before = result.entered_at
    result.deposits_left, result.scores = 2, [1, 2, 3, 4]
    instance_update(result, ["deposits_left", "entered_at"])
    stored = GameResult.objects.get(pk=result.pk)
    assert stored.deposits_left == 2 and stored.entered_at > before
    assert stored.scores == [42000, 28000, 18000, 12000]  # not among the fields written


def test_many_inserted_at_once(league, players):
    instances_insert(
        [
            PlayerRating(league=league, player=p, mu=25.0 + i, sigma=8.0, ordinal=1.0, games=i)
            for i, p in enumerate(players[:3])
        ]
    )
    assert sorted(PlayerRating.objects.filter(league=league).values_list("games", "mu")) == [
        (0, 25.0),
        (1, 26.0),
        (2, 27.0),
    ]
    instances_insert([])  # nothing to insert: no statement


@pytest.mark.django_db(transaction=True)
def test_a_lock_is_taken_inside_a_transaction_only_and_a_row_gone_is_none(league):
    with pytest.raises(TransactionManagementError):
        instance_lock(League, league.pk)
    with pytest.raises(TransactionManagementError):
        game_lock(1)
    with transaction.atomic():
        assert fields_of(instance_lock(League, league.pk)) == fields_of(League.objects.get(pk=league.pk))
        assert instance_lock(League, league.pk + 1000) is None
        with pytest.raises(Game.DoesNotExist):
            game_lock(10**9)


def test_an_audit_entry_is_written_as_before(league):
    from kyoku.audit import audit_log_write

    entry = audit_log_write(actor=SYSTEM, action="test.audit", obj=league, data={"n": Decimal("1.5")})
    stored = AuditLog.objects.get(pk=entry.pk)
    assert (stored.league_id, stored.action, stored.data) == (league.pk, "test.audit", {"n": "1.5"})


def test_several_rows_updated_at_once_as_their_fields_prepare_them(finished, division_a):
    from django.utils import timezone

    rows = list(Standing.objects.filter(division=division_a).order_by("player_id"))
    at = timezone.now()
    rows_update(
        Standing,
        ("total_points", "games", "computed_at"),
        [(r.pk, (Decimal("12.3") + i, 7 + i, at)) for i, r in enumerate(rows[:3])],
    )
    stored = list(Standing.objects.filter(division=division_a).order_by("player_id"))
    assert [(s.total_points, s.games, s.computed_at) for s in stored[:3]] == [
        (Decimal("12.3") + i, 7 + i, at) for i in range(3)
    ]
    assert fields_of(stored[3]) == fields_of(rows[3])  # a row not listed is not written
    rows_update(Standing, ("games",), [])  # nothing to write: no statement


def test_json_written_as_given_text_when_prepared(finished):
    import json

    result = GameResult.objects.get(game=finished)
    rows_update(GameResult, ("places",), [(result.pk, (json.dumps([4, 3, 2, 1]),))], prepared=True)
    rows_update(GameResult, ("points",), [(result.pk, ([1.5, -1.5, 0, 0],))])
    stored = GameResult.objects.get(pk=result.pk)
    assert (stored.places, stored.points) == ([4, 3, 2, 1], [1.5, -1.5, 0, 0])


@pytest.mark.django_db(transaction=True)
def test_the_ratings_lock_on_a_league_leaves_its_other_writes_free(league):
    """While a ratings run holds the league's row (``instance_lock``, and the rebuild's own lock),
    a write elsewhere in the league, whose foreign key to it is checked (a result's statistics rows,
    here a role), does not wait for it. With ``FOR UPDATE`` it waited: every admin's result behind
    the previous result's ratings task."""
    import threading

    from django.contrib.auth import get_user_model
    from django.db import connection, connections

    from kyoku.models import LeagueRole

    if connection.vendor != "postgresql":
        pytest.skip("SQLite takes one write lock for the whole database: there is no row lock to test")
    held, release = threading.Event(), threading.Event()
    writes: list[LeagueRole] = []

    def ratings_run(lock) -> None:
        try:
            with transaction.atomic():
                lock()
                held.set()
                release.wait(10)
        finally:
            connections.close_all()

    for lock in (
        lambda: instance_lock(League, league.pk),
        lambda: League.objects.select_for_update(no_key=True).get(pk=league.pk),  # as league_ratings_rebuild
    ):
        held.clear(), release.clear()
        worker = threading.Thread(target=ratings_run, args=(lock,))
        worker.start()
        assert held.wait(10)
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")  # a wait would fail here, not hang
                user = get_user_model().objects.create_user(f"lock-{len(writes)}", password=None)
                writes.append(LeagueRole.objects.create(league=league, user=user, role=LeagueRole.Role.REFEREE))
        finally:
            release.set()
            worker.join()
    assert LeagueRole.objects.filter(league=league, role=LeagueRole.Role.REFEREE).count() == len(writes) == 2

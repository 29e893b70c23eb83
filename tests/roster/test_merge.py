"""Merging two duplicates: the preview in words, the conflicts refused or resolved, the
confirmation in one transaction, no row left pointing at the dropped player, the tombstone's
redirect, the audit, and derived figures equal to a full recompute from scratch."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from kyoku.models import AuditLog
from kyoku.principals import SYSTEM
from league import services
from league.models import Entry, LeagueMembership, Player, Standing
from league.services import merge
from ratings.services import league_ratings_rebuild
from stats.services import stats_recompute
from tests.actors import make_player_user, open_season
from tests.ratings.conftest import snapshot as ratings_snapshot
from tests.stats.test_incremental_equals_recompute import snapshot as stats_snapshot


def standings_snapshot():
    return sorted(
        tuple(str(v) for k, v in row.items() if k not in ("id", "computed_at")) for row in Standing.objects.values()
    )


def record(game, scores, actor, capture):
    with capture(execute=True):
        services.game_result_record(game=game, scores=scores, actor=actor)


@pytest.fixture
def drop(league, players):
    """Player 1 entered a second time under another number (a duplicate), a member of the league."""
    dup = Player.objects.create(display_name="P. One", membership_number="DUP-1", tenhou_id="one-online")
    return dup


@pytest.fixture
def history(league, rules, players, drop, season, admin, django_capture_on_commit_callbacks):
    """Season 1: the kept player (players[0]) plays in A. Season 2: the duplicate plays in their
    place, one game by result and one hand by hand (statistics from hands)."""
    from scoring import services as scoring
    from tests.riichi_game import ALL_READY, CHOMBO

    a1 = season.divisions.get(code="A")
    g1 = services.game_create(division=a1, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    record(g1, [45000, 30000, 15000, 10000], admin, django_capture_on_commit_callbacks)
    season2 = open_season(league, rules, [drop, *players[1:]], number=2)
    a2 = season2.divisions.get(code="A")
    g2 = services.game_create(division=a2, match_day=1, table=1, players=[drop, *players[1:4]], actor=SYSTEM)
    record(g2, [10000, 30000, 15000, 45000], admin, django_capture_on_commit_callbacks)
    g3 = services.game_create(
        division=a2, match_day=2, table=1, players=[players[3], drop, players[1], players[2]], actor=SYSTEM
    )
    with django_capture_on_commit_callbacks(execute=True):
        for rec in (CHOMBO, ALL_READY):
            scoring.hand_record_add(game=g3, record=rec, actor=admin)
        scoring.game_hands_finish(game=g3, actor=admin)
    services.penalty_assign(season=season2, player=drop, offence="slow_play", sanction="warning", actor=admin)
    return season2


def references(player):
    """Every row of every table that points at ``player`` (the tombstone's own link excluded)."""
    found = {}
    for fk in merge._relations():
        n = fk.model._default_manager.filter(**{fk.name: player}).count()
        if n:
            found[fk.model._meta.label_lower] = n
    return found


def test_preview_lists_moves_and_writes_nothing(league, admin, players, drop, history):
    before = references(drop)
    assert {"league.gameseat", "league.entry", "league.leaguemembership", "stats.playergamestats"} <= set(before)
    preview = merge.merge_preview(league=league, keep=players[0], drop=drop, actor=admin)
    assert preview.refusals == []
    lines = {line.label: line for line in preview.lines}
    assert lines["league.gameseat"].moves == 2
    assert lines["league.leaguemembership"].moves == 0 and lines["league.leaguemembership"].removed == 1
    assert "the kept player's stays" in " ".join(lines["league.leaguemembership"].words)
    assert lines["stats.playergamestats"].derived and "recomputed" in lines["stats.playergamestats"].words[0]
    assert any("Tenhou ID" in note for note in preview.notes)
    assert references(drop) == before
    assert not AuditLog.objects.filter(action="player.merge").exists()


def test_confirm_moves_everything_and_equals_a_full_recompute(league, admin, players, drop, history):
    keep = players[0]
    result = merge.merge_confirm(league=league, keep=keep, drop=drop, actor=admin)
    assert references(drop) == {}
    drop.refresh_from_db()
    keep.refresh_from_db()
    assert drop.merged_into == keep and not drop.active
    assert keep.tenhou_id == "one-online"  # a blank detail taken from the duplicate
    assert keep.seats.count() == 3 and keep.entries.count() == 2
    assert LeagueMembership.objects.filter(player=keep, league=league).count() == 1
    assert result["moved"]["league.gameseat"] == 2
    from ratings.models import PlayerRating

    assert PlayerRating.objects.get(league=league, player=keep).games == 3
    figures = (stats_snapshot(), ratings_snapshot(league), standings_snapshot())
    # from scratch
    stats_recompute(actor=SYSTEM)
    league_ratings_rebuild(league=league, actor=SYSTEM)
    for division in history.divisions.all():
        services.standings_recompute(division=division)
    assert (stats_snapshot(), ratings_snapshot(league), standings_snapshot()) == figures
    audit = AuditLog.objects.get(action="player.merge", league_id=league.pk)
    assert audit.data["kept"] == keep.pk and audit.data["dropped"] == drop.pk
    assert audit.data["moved"]["league.entry"] == 1


def test_both_in_the_same_game_is_refused(league, admin, players, drop, season):
    services.entry_create(division=season.divisions.get(code="A"), player=drop, actor=SYSTEM)
    services.game_create(
        division=season.divisions.get(code="A"),
        match_day=3,
        table=1,
        players=[players[0], drop, players[1], players[2]],
        actor=SYSTEM,
    )
    preview = merge.merge_preview(league=league, keep=players[0], drop=drop, actor=admin)
    assert any("seated in the same game" in r for r in preview.refusals)
    with pytest.raises(ValidationError):
        merge.merge_confirm(league=league, keep=players[0], drop=drop, actor=admin)
    assert Player.objects.get(pk=drop.pk).merged_into is None


def test_both_entered_in_one_season_keeps_one_entry(league, admin, players, drop, season):
    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    preview = merge.merge_preview(league=league, keep=players[0], drop=drop, actor=admin)
    assert preview.refusals == []
    entry_line = next(line for line in preview.lines if line.label == "league.entry")
    assert entry_line.removed == 1 and "the dropped player's is removed" in " ".join(entry_line.words)
    merge.merge_confirm(league=league, keep=players[0], drop=drop, actor=admin)
    assert list(Entry.objects.filter(season=season, player=players[0]).values_list("division__code", flat=True)) == [
        "A"
    ]
    assert references(drop) == {}


def test_both_with_a_login_is_refused_one_login_moves(league, admin, players, drop, season):
    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    make_player_user("keeper", players[0])
    login = make_player_user("dropper", drop)
    preview = merge.merge_preview(league=league, keep=players[0], drop=drop, actor=admin)
    assert any("Both players have a login" in r for r in preview.refusals)
    players[0].user = None
    players[0].save()
    merge.merge_confirm(league=league, keep=players[0], drop=drop, actor=admin)
    players[0].refresh_from_db()
    assert players[0].user == login


def test_only_an_admin_of_a_league_both_belong_to(league, admin, other_admin, players, stranger, drop, season):
    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    with pytest.raises(PermissionDenied):
        merge.merge_preview(league=league, keep=players[0], drop=stranger, actor=admin)
    with pytest.raises(PermissionDenied):
        merge.merge_preview(league=league, keep=players[0], drop=drop, actor=other_admin)


def test_merge_pages_and_the_tombstones_redirect(page, league, players, drop, season):
    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    url = f"/leagues/{league.slug}/members/merge/"
    assert page.get(url).status_code == 200
    shown = page.get(url, {"keep": players[0].pk, "drop": drop.pk})
    assert shown.status_code == 200 and 'value="confirm"' in shown.content.decode()
    assert page.get(url, {"keep": players[0].pk, "drop": players[0].pk}).status_code == 400
    response = page.post(url, {"action": "confirm", "keep": players[0].pk, "drop": drop.pk})
    assert response.status_code == 302
    assert Player.objects.get(pk=drop.pk).merged_into_id == players[0].pk
    redirect = Client().get(f"/players/{drop.pk}/")
    assert redirect.status_code == 302 and redirect["Location"] == f"/players/{players[0].pk}/"
    # merged already: a second merge is refused, nothing written
    assert page.post(url, {"action": "confirm", "keep": players[0].pk, "drop": drop.pk}).status_code == 400


def test_any_other_collision_is_refused_in_words(league, admin, players, drop, season):
    from matchdays.models import Reserve

    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    Reserve.objects.create(season=season, player=players[0])
    Reserve.objects.create(season=season, player=drop, order=1)
    preview = merge.merge_preview(league=league, keep=players[0], drop=drop, actor=admin)
    assert any(
        r.startswith("reserves: both players have a row for the same season") for r in preview.refusals
    ), preview.refusals
    with pytest.raises(ValidationError):
        merge.merge_confirm(league=league, keep=players[0], drop=drop, actor=admin)


def test_both_blocked_one_league_keeps_one_block(league, other_league, admin, players, drop, season):
    from league.models import InvitationBlock

    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    InvitationBlock.objects.create(player=players[0], league=other_league)
    InvitationBlock.objects.create(player=drop, league=other_league)
    merge.merge_confirm(league=league, keep=players[0], drop=drop, actor=admin)
    assert list(InvitationBlock.objects.values_list("player_id", flat=True)) == [players[0].pk]


def test_merge_picked_by_membership_numbers(page, league, players, drop, season):
    services.entry_create(division=season.divisions.get(code="B"), player=drop, actor=SYSTEM)
    url = f"/leagues/{league.slug}/members/merge/"
    shown = page.get(url, {"keep": players[0].pk, "drop_number": "DUP-1"})
    assert shown.status_code == 200 and shown.context["drop"] == drop
    shown = page.get(url, {"keep_number": "M001", "drop_number": "DUP-1"})
    assert shown.context["keep"] == players[0] and 'value="confirm"' in shown.content.decode()
    assert page.get(url, {"keep_number": "M001", "drop_number": "NOPE"}).status_code == 400
    assert 'name="drop_number"' in page.get(f"/leagues/{league.slug}/members/{players[0].pk}/").content.decode()

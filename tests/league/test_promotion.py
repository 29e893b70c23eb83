"""Season end: top N of B up, bottom N of A down, the rest retained; idempotent."""

from league import services
from league.models import Entry
from league.tasks import season_promote
from kyoku.principals import SYSTEM


def test_promotion_and_relegation(league, season, players, admin, mleague_rules):
    a, b = season.divisions.get(code="A"), season.divisions.get(code="B")
    ga = services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    gb = services.game_create(division=b, match_day=1, table=1, players=players[4:8], actor=SYSTEM)
    services.game_result_record(game=ga, scores=[43000, 30800, 16000, 10200], actor=admin)
    services.game_result_record(game=gb, scores=[43000, 30800, 16000, 10200], actor=admin)
    nxt = services.season_create(league=league, year=2026, number=2, rule_set=mleague_rules, actor=SYSTEM)
    summary = season_promote.delay(season.pk, nxt.pk).get()
    assert summary["created"] == 8
    placed = {e.player_id: (e.division.code, e.basis) for e in Entry.objects.filter(season=nxt)}
    # promotion_count 2 but divisions of 4: at most half of a division moves.
    assert placed[players[4].pk] == ("A", "promoted")
    assert placed[players[5].pk] == ("A", "promoted")
    assert placed[players[2].pk] == ("B", "relegated")
    assert placed[players[3].pk] == ("B", "relegated")
    assert placed[players[0].pk] == ("A", "retained")
    assert placed[players[7].pk] == ("B", "retained")
    again = season_promote.delay(season.pk, nxt.pk).get()
    assert again["created"] == 0
    assert Entry.objects.filter(season=nxt).count() == 8

"""Zung Jung and Beijing give their own figures: pattern points and patterns, fan and factors.
Figures worked by hand from the settlement contract's examples (shared/spec/settlement-contract.md)."""

import pytest

from kyoku.principals import SYSTEM
from league import services
from scoring import services as hands
from stats import selectors
from stats.models import PlayerGameStats
from tests.actors import open_season


def _game(league, players, preset, slug):
    rules = services.rule_set_create(name=preset, slug=slug, preset=preset, is_template=True, actor=SYSTEM)
    season = open_season(league, rules, players)
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


@pytest.mark.django_db
def test_zung_jung_value_and_patterns(league, players):
    game = _game(league, players, "zung-jung", "zj")
    # seat 3 discards to seat 0's 80-point hand: 25 + 25 + 25 shared, seat 3 pays the other 165
    hands.hand_record_add(
        game=game,
        record={"result": {"type": "discard", "winner": 0, "from": 3, "tile": "1m", "value": 80}},
        actor=SYSTEM,
    )
    # seat 1 self-draws all sequences + concealed + nine-tile straight = 5 + 5 + 40 = 50, 50 from each
    hands.hand_record_add(
        game=game,
        record={
            "result": {
                "type": "self_draw",
                "winner": 1,
                "hand": {"concealed": "123m456m789m234p5p", "melds": []},
                "tile": "5p",
            }
        },
        actor=SYSTEM,
    )
    w0 = PlayerGameStats.objects.get(game=game, player=players[0])
    assert (w0.wins, w0.won_points, w0.won_han, w0.yaku_wins) == (1, 240, 80, 0)
    d3 = PlayerGameStats.objects.get(game=game, player=players[3])
    assert (d3.deal_ins, d3.dealt_points) == (1, 190)
    w1 = PlayerGameStats.objects.get(game=game, player=players[1])
    assert (w1.self_draws, w1.won_points, w1.won_han) == (1, 150, 50)
    assert w1.yaku == {"all_sequences": 1, "concealed_hand": 1, "nine_tile_straight": 1}
    figures = selectors.player_figures(player=players[1], league=league, system="zung-jung")
    keys = [f["key"] for f in figures["table"]]
    assert "avg_won_value" in keys and "riichi_rate" not in keys and "avg_won_han" not in keys
    assert next(f for f in figures["table"] if f["key"] == "avg_won_value")["value"] == 50
    assert figures["yaku"][0]["label"]  # a pattern named in the reader's language


@pytest.mark.django_db
def test_beijing_fan_and_factors(league, players):
    game = _game(league, players, "beijing", "bj")
    # the dealer (seat 0) self-draws a 龍 with an open kong: 8 + 2 from each of three = 30; keeps the deal
    hands.hand_record_add(
        game=game,
        record={"result": {"type": "tsumo", "winner": 0, "factors": ["long"], "kongs": [{"type": "open"}]}},
        actor=SYSTEM,
    )
    row = PlayerGameStats.objects.get(game=game, player=players[0])
    assert (row.wins, row.self_draws, row.won_points, row.won_han, row.dealer_hands, row.dealer_kept) == (
        1,
        1,
        30,
        1,
        1,
        1,
    )
    assert row.yaku == {"long": 1}
    figures = selectors.player_figures(player=players[0], league=league, system="beijing")
    by_key = {f["key"]: f for f in figures["table"]}
    assert by_key["avg_won_fan"]["value"] == 1 and by_key["dealer_keep_rate"]["value"] == 1
    assert "riichi_rate" not in by_key

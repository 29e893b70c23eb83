"""The figures of the worked M-League game (tests/riichi_game.py), counted by hand from its five
hands (dealer, honba and sticks as tests/scoring_app/test_hands_riichi.py works them):

1. East 1, seat 1 riichi, draw, seats 0 and 1 ready: the dealer (0) keeps the deal.
2. East 1 1 honba: seat 3 rons seat 2, 3 han 30 fu = 3,900 (+300 honba, +1,000 stick): dealer 0 loses it.
3. East 2 (dealer 1): seat 1 riichi and tsumo 2 han 40 fu, dealer 1,300 all = 3,900: keeps the deal.
4. East 2 1 honba: seat 2 tsumo 1 han 30 fu = 300/500 = 1,100 (+300 honba): dealer 1 loses it.
5. East 3 (dealer 2): seat 3 riichi, draw, only seat 3 ready: dealer 2 loses it.
Final scores 23,800 / 27,800 / 18,400 / 29,000: places 3, 2, 4, 1."""

from kyoku.principals import SYSTEM
from scoring import services as hands
from stats.models import PlayerGameStats, PlayerStats
from tests.riichi_game import HANDS


def _play(game, upto=len(HANDS)):
    for record in HANDS[:upto]:
        hands.hand_record_add(game=game, record=record, actor=SYSTEM)


EXPECTED = {
    0: dict(hands=5, wins=0, deal_ins=0, riichi=0, draws_known=2, draws_tenpai=1, dealer_hands=2, dealer_kept=1),
    1: dict(
        hands=5,
        wins=1,
        self_draws=1,
        riichi=2,
        riichi_wins=1,
        won_points=3900,
        won_priced=1,
        won_han=2,
        won_fu_wins=1,
        won_fu=40,
        draws_known=2,
        draws_tenpai=1,
        dealer_hands=2,
        dealer_kept=1,
    ),
    2: dict(
        hands=5,
        wins=1,
        self_draws=1,
        won_points=1100,
        won_han=1,
        won_fu=30,
        deal_ins=1,
        dealt_points=3900,
        dealt_priced=1,
        dealt_han=3,
        draws_tenpai=0,
        dealer_hands=1,
        dealer_kept=0,
    ),
    3: dict(
        hands=5,
        wins=1,
        self_draws=0,
        won_points=3900,
        won_han=3,
        won_fu=30,
        riichi=1,
        riichi_wins=0,
        draws_tenpai=1,
        dealer_hands=0,
    ),
}


def test_hand_by_hand_figures_counted_by_hand(game, players):
    _play(game)
    hands.game_hands_finish(game=game, actor=SYSTEM)
    for seat, expected in EXPECTED.items():
        row = PlayerGameStats.objects.get(game=game, player=players[seat])
        assert {k: getattr(row, k) for k in expected} == expected, seat
        # nothing in these records says who called a tile or which yaku: absent, not zero
        assert row.calls_known == 0 and row.yaku_wins == 0 and row.dora_wins == 0
    places = {seat: PlayerGameStats.objects.get(game=game, player=players[seat]).place for seat in range(4)}
    assert places == {0: 3, 1: 2, 2: 4, 3: 1}
    season_row = PlayerStats.objects.get(player=players[3], season=game.season)
    assert (season_row.games, season_row.place_1, season_row.first_streak, season_row.biggest_points) == (1, 1, 1, 3900)
    league_row = PlayerStats.objects.get(player=players[1], season=None, league=game.season.league)
    assert (league_row.riichi, league_row.riichi_wins, league_row.wins) == (2, 1, 1)


def test_correction_and_deletion_follow(game, players):
    _play(game, 2)
    row = PlayerGameStats.objects.get(game=game, player=players[3])
    assert (row.wins, row.games) == (1, 0)  # counted from the hands before the game ends
    second = game.hands.get(sequence=2)
    # the ron corrected: seat 1 wins it from seat 2 instead
    hands.hand_record_correct(
        hand=second,
        record={"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}},
        actor=SYSTEM,
    )
    assert PlayerGameStats.objects.get(game=game, player=players[3]).wins == 0
    assert PlayerGameStats.objects.get(game=game, player=players[1]).wins == 1
    hands.hand_record_delete(hand=game.hands.get(sequence=2), actor=SYSTEM)
    assert PlayerStats.objects.get(player=players[1], season=game.season).wins == 0
    assert PlayerStats.objects.get(player=players[1], season=game.season).hands == 1


def test_a_hand_entered_as_tiles_names_its_yaku(game, players):
    """234m 456p 678s 22p 34s + 5s self-drawn after riichi: menzen tsumo, riichi, pinfu, tanyao
    (4 han 20 fu); the record says the yaku, not the calls of the other seats."""
    hands.hand_record_add(
        game=game,
        record={
            "riichi": [1],
            "result": {
                "type": "tsumo",
                "winner": {
                    "seat": 1,
                    "hand": {"concealed": "234m456p678s22p34s", "tile": "5s"},
                    "flags": {"riichi": True},
                },
            },
        },
        actor=SYSTEM,
    )
    row = PlayerGameStats.objects.get(game=game, player=players[1])
    assert row.yaku == {"menzen_tsumo": 1, "pinfu": 1, "riichi": 1, "tanyao": 1}
    assert (row.yaku_wins, row.won_han, row.won_fu, row.dora_wins) == (1, 4, 20, 0)


def test_a_game_made_void_or_deleted_leaves_the_figures(game, players):
    _play(game, 2)
    assert PlayerStats.objects.filter(player=players[3], season=game.season, wins=1).exists()
    game.status = "void"
    game.save()  # as Django admin saves a game: whole
    assert not PlayerGameStats.objects.filter(game=game).exists()
    assert not PlayerStats.objects.filter(player=players[3]).exists()
    game.status = "in_progress"
    game.save()
    assert PlayerStats.objects.get(player=players[3], season=game.season).wins == 1
    game.delete()
    assert not PlayerStats.objects.filter(player=players[3]).exists()

"""Achievements: each is a test on the stored figures, with its rule in words; one the records
cannot decide is shown as not countable, never as missed."""

from kyoku.principals import SYSTEM
from league import services
from stats.achievements import ACHIEVEMENTS, NO_HANDS, NOT_THIS_SYSTEM, achievements_of


def _counts(**given):
    counts = {"hands": 0, "games": 0, "wins": 0, "deal_ins": 0, "riichi": 0, "yakuman_wins": 0}
    counts.update({f"place_{i}": 0 for i in range(1, 5)}, first_streak=0, best_day_wins=0)
    counts.update(given)
    return counts


def _by_key(counts, system="riichi"):
    return {a["key"]: a for a in achievements_of(counts, system)}


def test_counted_milestones_are_reached_at_their_target_and_show_how_far_before():
    got = _by_key(_counts(games=9, place_1=9, first_streak=2))
    assert got["first_top"]["reached"] and not got["tops_10"]["reached"]
    assert (got["tops_10"]["value"], got["tops_10"]["target"]) == (9, 10)
    assert not got["top_streak_3"]["reached"]
    got = _by_key(_counts(games=10, place_1=10, first_streak=3))
    assert got["tops_10"]["reached"] and got["top_streak_3"]["reached"]
    assert not got["games_50"]["reached"] and _by_key(_counts(games=50))["games_50"]["reached"]
    assert _by_key(_counts(hands=40, wins=5, best_day_wins=5))["big_day"]["reached"]
    assert not _by_key(_counts(hands=40, wins=4, best_day_wins=4))["big_day"]["reached"]


def test_a_rate_counts_only_over_its_minimum_and_is_reached_at_or_below_its_target():
    # iron wall: one deal-in in ten hands or fewer, over 200 hands
    assert _by_key(_counts(hands=200, deal_ins=20))["iron_wall"]["reached"]
    assert not _by_key(_counts(hands=200, deal_ins=21))["iron_wall"]["reached"]
    short = _by_key(_counts(hands=199, deal_ins=0))["iron_wall"]
    assert not short["reached"] and (short["base_count"], short["minimum"]) == (199, 200)
    # never last: twenty games or more, no fourth place
    assert _by_key(_counts(games=20, place_1=20))["never_last"]["reached"]
    assert not _by_key(_counts(games=20, place_1=19, place_4=1))["never_last"]["reached"]
    assert not _by_key(_counts(games=19, place_1=19))["never_last"]["reached"]


def test_what_the_records_cannot_decide_is_absent_with_the_reason():
    # games entered by their final scores alone: no hand says who won what
    got = _by_key(_counts(games=3, place_1=1))
    for key in ("first_win", "wins_100", "big_day", "iron_wall", "riichi_100", "yakuman"):
        assert got[key]["absent_because"] == NO_HANDS and not got[key]["reached"] and got[key]["value"] is None
    assert got["first_top"]["reached"]
    # riichi milestones under another system
    got = _by_key(_counts(hands=50, wins=10, riichi=0), system="zung-jung")
    assert (
        got["riichi_100"]["absent_because"] == NOT_THIS_SYSTEM and got["yakuman"]["absent_because"] == NOT_THIS_SYSTEM
    )
    assert got["first_win"]["reached"]


def test_every_achievement_has_a_name_and_a_rule_in_each_language():
    from django.utils import translation

    keys = [a.key for a in ACHIEVEMENTS]
    assert len(keys) == len(set(keys))
    with translation.override("en"):
        english = {a.key: (str(a.name), str(a.rule)) for a in ACHIEVEMENTS}
    assert all(name and rule.endswith(".") for name, rule in english.values())
    for language in ("zh-hant", "ja"):
        with translation.override(language):
            for a in ACHIEVEMENTS:
                assert str(a.rule) != english[a.key][1] and str(a.rule).endswith("。"), (language, a.key)


def test_page_and_api_follow_the_figures(client, played, players):
    data = client.get(f"/api/players/{players[3].pk}/statistics/?league=test").json()
    got = {a["key"]: a for a in data["achievements"]}
    top = data["placements"][0]
    assert got["first_top"]["reached"] is (top > 0)
    assert got["first_win"]["reached"] is (data["counts"]["wins"] > 0)
    assert got["games_50"]["value"] == data["counts"]["games"] and not got["games_50"]["reached"]
    assert got["first_top"]["rule"] == "Finish a game in first place."
    html = client.get(f"/players/{players[3].pk}/statistics/?league=test").content.decode()
    assert 'id="achievements"' in html and 'id="achievement-first_top"' in html
    assert "Finish a game in first place." in html
    ja = client.get(f"/players/{players[3].pk}/statistics/?league=test", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "実績" in ja and "1 対局でトップ（1 着）を取る。" in ja


def test_a_corrected_result_takes_the_top_away(client, game, players, league):
    admin = SYSTEM
    services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    url = f"/api/players/{players[0].pk}/statistics/?league=test"
    got = {a["key"]: a for a in client.get(url).json()["achievements"]}
    assert got["first_top"]["reached"]
    assert got["first_win"]["absent_because"] == str(NO_HANDS)  # a result alone: no hands recorded
    services.game_result_record(game=game, scores=[10000, 30000, 15000, 45000], actor=admin, replace=True)
    got = {a["key"]: a for a in client.get(url).json()["achievements"]}
    assert not got["first_top"]["reached"] and got["first_top"]["value"] == 0

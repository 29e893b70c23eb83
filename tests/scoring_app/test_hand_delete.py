"""Deleting a hand entered by mistake: the later hands move up one number and are re-settled from
the position before it; a game finished from its hands stays finished, its result re-derived.
Service, API (guarded by the hand's id) and the scorekeeper's "undo" button.

The M-League game of test_hands_riichi without its hand 2 (seat 3's ron), worked by hand:

hand 1  as before: [+1500, +500, −1500, −1500]; dealer 0 repeats, honba 1, 1 stick on the table.
hand 2  (was 3) dealer 0, honba 1, 1 stick: seat 1 riichi, tsumo 2 han 40 fu as a non-dealer now:
        1,300 from the dealer, 700 from each other, + 100 honba each, − its stick, + 2 sticks.
        [−1400, +4000, −800, −800]; the dealer did not win → dealer 1, honba 0, no stick.
hand 3  (was 4) dealer 1: seat 2 tsumo 1 han 30 fu = 300 / 500 (dealer): [−300, −500, +1100, −300].
hand 4  (was 5) dealer 2: draw, seat 3 riichi and alone ready: [−1000, −1000, −1000, +2000], 1 stick left.
Running [26500, 25500, 23500, 23500] → [25100, 29500, 22700, 22700] → [24800, 29000, 23800, 22400]
→ [23800, 28000, 22800, 24400]. Finished: the stick to seat 1 (29,000); M-League (return 30,000,
uma 30/10, oka 20): seat 1 −1.0 + 30 + 20 = 49.0; seat 3 −5.6 + 10 = 4.4; seat 0 −6.2 − 10 = −16.2;
seat 2 −7.2 − 30 = −37.2.
"""

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from kyoku.models import AuditLog
from league.models import GameResult, Penalty
from scoring import services
from scoring.models import HandRecord
from tests.browser import chromium_page, login, needs_chromium

from .test_hands_riichi import HANDS, RUNNING

DELTAS_WITHOUT_2 = [
    [1500, 500, -1500, -1500],
    [-1400, 4000, -800, -800],
    [-300, -500, 1100, -300],
    [-1000, -1000, -1000, 2000],
]
RUNNING_WITHOUT_2 = [
    [26500, 25500, 23500, 23500],
    [25100, 29500, 22700, 22700],
    [24800, 29000, 23800, 22400],
    [23800, 28000, 22800, 24400],
]
STATES_WITHOUT_2 = [(0, 0, 0), (0, 1, 1), (1, 0, 0), (2, 0, 0)]


def enter(game, admin, records=HANDS):
    return [services.hand_record_add(game=game, record=r, actor=admin)[0] for r in records]


def stored(game):
    hands = HandRecord.objects.filter(game=game).order_by("sequence")
    return (
        [h.sequence for h in hands],
        [h.settlement["deltas"] for h in hands],
        [h.scores_after for h in hands],
        [(h.record["dealer"], h.record["honba"], h.record["deposits"]) for h in hands],
    )


def test_deleting_a_middle_hand_moves_and_resettles_the_later_ones(game, admin):
    hands = enter(game, admin)
    deleted = services.hand_record_delete(hand=hands[1], actor=admin)
    assert deleted == {"sequence": 2, "record": hands[1].record, "resettled": [2, 3, 4]}
    assert stored(game) == ([1, 2, 3, 4], DELTAS_WITHOUT_2, RUNNING_WITHOUT_2, STATES_WITHOUT_2)
    log = AuditLog.objects.get(action="hand.delete")
    assert log.data["sequence"] == 2 and log.data["deltas"] == [0, 0, -4200, 5200]
    # the next hand is number 5 again, and the game goes on from the new position
    hand, created = services.hand_record_add(game=game, record={"result": {"type": "draw", "tenpai": []}}, actor=admin)
    assert (hand.sequence, created, hand.record["dealer"], hand.record["deposits"]) == (5, True, 3, 1)


def test_the_same_game_entered_without_the_hand_agrees(game, admin, season, players):
    from .conftest import make_game

    other = make_game(season, players, table=2)
    enter(other, admin, HANDS[:1] + HANDS[2:])
    services.hand_record_delete(hand=enter(game, admin)[1], actor=admin)
    assert stored(game) == stored(other)


def test_deleting_the_last_hand_changes_nothing_else(game, admin):
    hands = enter(game, admin)
    assert services.hand_record_delete(hand=hands[-1], actor=admin)["resettled"] == []
    assert [h.scores_after for h in HandRecord.objects.filter(game=game).order_by("sequence")] == RUNNING[:4]


def test_a_finished_game_stays_finished_with_its_result_re_derived(game, admin):
    hands = enter(game, admin)
    services.game_hands_finish(game=game, actor=admin)
    services.hand_record_delete(hand=hands[1], actor=admin)
    result = GameResult.objects.get(game=game)
    assert (result.scores, result.deposits_left) == ([23800, 28000, 22800, 24400], 1)
    assert result.points == [-16.2, 49.0, -37.2, 4.4]
    assert HandRecord.objects.get(game=game, sequence=4).ends_game
    # deleting its final hand moves the end to the hand before
    services.hand_record_delete(hand=HandRecord.objects.get(game=game, sequence=4), actor=admin)
    assert HandRecord.objects.get(game=game, sequence=3).ends_game
    assert GameResult.objects.get(game=game).scores == RUNNING_WITHOUT_2[2]


def test_the_only_hand_of_a_finished_game_stays(game, admin):
    (hand,) = enter(game, admin, HANDS[:1])
    services.game_hands_finish(game=game, actor=admin)
    with pytest.raises(ValidationError) as caught:
        services.hand_record_delete(hand=hand, actor=admin)
    assert "hand" in caught.value.message_dict and HandRecord.objects.filter(game=game).count() == 1


def test_a_hand_deleted_already_is_a_conflict_not_the_next_one(game, admin):
    hands = enter(game, admin)
    services.hand_record_delete(hand=hands[1], actor=admin)
    with pytest.raises(services.HandConflict):
        services.hand_record_delete(hand=hands[1], actor=admin)
    assert HandRecord.objects.filter(game=game).count() == 4


def test_a_chombo_booked_from_a_later_hand_follows_its_new_number(game, admin):
    enter(game, admin, [HANDS[0], {"result": {"type": "chombo", "seat": 2}}, HANDS[1]])
    services.game_hands_finish(game=game, actor=admin)
    assert list(Penalty.objects.filter(game=game, cancelled_at__isnull=True).values_list("hand_number", flat=True)) == [
        2
    ]
    services.hand_record_delete(hand=HandRecord.objects.get(game=game, sequence=1), actor=admin)
    active = Penalty.objects.filter(game=game, cancelled_at__isnull=True)
    assert list(active.values_list("hand_number", flat=True)) == [1]
    assert Penalty.objects.filter(game=game).count() == 2  # the old booking kept, cancelled


# ---------------------------------------------------------------- API

HAND_URL = "/api/games/{}/hands/{}/"


def test_api_delete_needs_the_hand_id_and_a_repeat_hits_nothing(as_user, game, admin):
    hands = enter(game, admin)
    client = as_user(admin)
    url = HAND_URL.format(game.pk, 2)
    missing = client.delete(url)
    assert missing.status_code == 400 and "hand_id" in missing.json()["errors"]
    wrong = client.delete(f"{url}?hand_id={hands[2].pk}")
    assert wrong.status_code == 409 and "hand_id" in wrong.json()["errors"]
    ok = client.delete(f"{url}?hand_id={hands[1].pk}", HTTP_IDEMPOTENCY_KEY="undo-2")
    assert ok.status_code == 200
    assert (ok.json()["sequence"], ok.json()["resettled"]) == (2, [2, 3, 4])
    assert ok.json()["position"]["scores"] == RUNNING_WITHOUT_2[-1]
    replay = client.delete(f"{url}?hand_id={hands[1].pk}", HTTP_IDEMPOTENCY_KEY="undo-2")
    assert replay.json() == ok.json() and replay["Idempotent-Replayed"] == "true"
    again = client.delete(f"{url}?hand_id={hands[1].pk}")  # no key: hand 2 is now another hand
    assert again.status_code == 409
    assert HandRecord.objects.filter(game=game).count() == 4
    listed = client.get(f"/api/games/{game.pk}/hands/").json()["hands"]
    assert [h["id"] for h in listed] == [hands[0].pk, hands[2].pk, hands[3].pk, hands[4].pk]


@pytest.mark.parametrize("who", ["referee", "member", "outsider"])
def test_api_delete_is_for_league_admins(request, as_user, game, admin, who):
    hands = enter(game, admin)
    response = as_user(request.getfixturevalue(who)).delete(HAND_URL.format(game.pk, 1) + f"?hand_id={hands[0].pk}")
    assert response.status_code == 403 and HandRecord.objects.filter(game=game).count() == 5


# ---------------------------------------------------------------- the scorekeeper page


def undo(game, user, sequence, hand_id, lang="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    client.force_login(user)
    return client.post(f"/scoring/games/{game.pk}/hands/{sequence}/delete/", {"hand_id": hand_id}, follow=True)


@pytest.mark.parametrize("lang, says", [("en", "Hand 5 deleted."), ("zh-hant", "已刪除第 5 局。")])
def test_page_undoes_the_last_hand(game, admin, lang, says):
    hands = enter(game, admin)
    page = undo(game, admin, 5, hands[4].pk, lang).content.decode()
    assert says in page and HandRecord.objects.filter(game=game).count() == 4
    assert f'name="hand_id" value="{hands[3].pk}"' in page  # the undo button now names hand 4


def test_page_refuses_a_stale_undo(game, admin):
    hands = enter(game, admin)
    page = undo(game, admin, 5, hands[3].pk).content.decode()
    assert "nothing was deleted" in page and HandRecord.objects.filter(game=game).count() == 5


def test_page_undo_is_for_league_admins(game, admin, member):
    hands = enter(game, admin)
    assert undo(game, member, 5, hands[4].pk).status_code == 403
    assert HandRecord.objects.filter(game=game).count() == 5


@pytest.mark.browser
@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_undo_in_the_browser(live_server, game, admin):
    enter(game, admin, HANDS[:2])
    with chromium_page() as page:
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/scoring/games/{game.pk}/scorekeeper/")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#sk-undo button")
        page.wait_for_selector("text=Hand 2 deleted.")
        assert page.inner_text('#sk-scores tr[data-seat="3"] .sk-now-score') == "23,500"
    assert HandRecord.objects.filter(game=game).count() == 1

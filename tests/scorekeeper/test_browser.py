"""The scorekeeper in Debian's Chromium (Playwright): phone first (390×844 and 360 wide) and
desktop, English and Traditional Chinese; a hand entered with the network cut is kept on the
phone and stored exactly once when it returns; a conflict and an expired session are shown and
nothing is lost; a finished game's hand is corrected from the page.

Screenshots land in $SK_SHOTS (default /tmp/sk-shots) for a person to look at."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest

from kyoku.models import AuditLog, IdempotencyKey
from league.models import GameResult
from scoring.models import HandRecord
from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NARROW = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = Path(os.environ.get("SK_SHOTS", "/tmp/sk-shots"))
RON_2_FROM_3 = {"result": {"type": "ron", "from": 2, "winners": [{"seat": 1, "han": 3, "fu": 30}]}}


@contextmanager
def scorekeeper(live_server, game, *, size=PHONE, lang="en", query=""):
    errors = []
    with chromium_page() as page:
        page.set_viewport_size(size)
        page.set_extra_http_headers({"Accept-Language": lang})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, live_server, "admin", "admin-pw-123")
        page.goto(f"{live_server.url}/scoring/games/{game.pk}/scorekeeper/{query}")
        yield page
    assert errors == []


def tap(page, role, seat):
    page.click(f'.sk-group[data-role="{role}"] .sk-seat[data-seat="{seat}"]')


def enter_ron(page):
    """Seat 1 (Player 2) wins 3 han 30 fu on seat 2's (Player 3's) discard."""
    page.click('.sk-btn[data-type="ron"]')
    tap(page, "winners", 1)
    tap(page, "from", 2)
    page.select_option('.sk-value[data-seat="1"] select[name=han]', "3")
    page.select_option('.sk-value[data-seat="1"] select[name=fu]', "30")


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def bottom(page, selector) -> float:
    return page.evaluate(
        f"(() => {{ const r = document.querySelector('{selector}').getBoundingClientRect();"
        f" return r.bottom + window.scrollY; }})()"
    )


def outbox(page, game):
    return page.evaluate(f"JSON.parse(localStorage.getItem('kyoku.scorekeeper.{game.pk}.outbox') || '[]')")


# ---------------------------------------------------------------- phone first


@pytest.mark.parametrize(
    "lang, save_label, errors",
    [
        (
            "en",
            "Save hand 1",
            ("pick the player who discarded the winning tile", "the winner cannot win on their own discard"),
        ),
        ("zh-hant", "儲存第 1 局", ("請選擇放銃者", "和了者不能榮和自己打出的牌")),
    ],
)
def test_phone_after_ron_shows_only_what_it_needs(live_server, game, admin, lang, save_label, errors):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with scorekeeper(live_server, game, lang=lang) as page:
        page.screenshot(path=str(SHOTS / f"phone-{lang}-start.png"), full_page=True)
        assert page.is_hidden('.sk-group[data-role="winners"]') and page.is_hidden(".sk-value")
        page.click('.sk-btn[data-type="ron"]')
        for role in ("winners", "from", "riichi"):
            assert page.is_visible(f'.sk-group[data-role="{role}"]'), role
        for role in ("tenpai", "seat", "reason"):
            assert page.is_hidden(f'.sk-group[data-role="{role}"]'), role
            assert page.query_selector(f'.sk-group[data-role="{role}"]').bounding_box() is None, role
        assert all(page.is_hidden(f'.sk-value[data-seat="{s}"]') for s in range(4))
        # the engine's complaints arrive in the page's language
        page.wait_for_selector(f'#sk-message.error:text-is("{errors[0]}")')
        tap(page, "winners", 1)
        tap(page, "from", 1)
        page.wait_for_selector(f'#sk-message.error:text-is("{errors[1]}")')
        assert page.is_visible('.sk-value[data-seat="1"]')
        assert all(page.is_hidden(f'.sk-value[data-seat="{s}"]') for s in (0, 2, 3))
        tap(page, "from", 2)
        page.select_option('.sk-value[data-seat="1"] select[name=han]', "3")
        page.wait_for_selector("#sk-save:not([disabled])")
        # payments and running scores are on screen before Save
        assert "3,900" in page.inner_text("#sk-payments")
        assert page.inner_text('#sk-scores tr[data-seat="1"] .sk-after') == "28,900"
        assert page.inner_text("#sk-save") == save_label
        assert bottom(page, "#sk-save") <= 1.5 * PHONE["height"], bottom(page, "#sk-save")
        assert no_horizontal_scroll(page)
        # targets a thumb can hit: every seat button at least 44 px high
        heights = page.eval_on_selector_all(".sk-group:not([hidden]) .sk-seat", "bs => bs.map(b => b.offsetHeight)")
        assert heights and min(heights) >= 44
        page.screenshot(path=str(SHOTS / f"phone-{lang}-ron.png"), full_page=True)
        # a 5 han hand needs no fu: the fu picker goes away
        page.select_option('.sk-value[data-seat="1"] select[name=han]', "5")
        assert page.is_hidden('.sk-value[data-seat="1"] .sk-fu')
        page.set_viewport_size(NARROW)
        assert no_horizontal_scroll(page)
    assert HandRecord.objects.count() == 0


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_hands_so_far_fit_a_360_px_phone(live_server, finished, admin, lang):
    with scorekeeper(live_server, finished, size=NARROW, lang=lang) as page:
        north = page.query_selector("#sk-hands thead th:last-child").bounding_box()
        assert north["x"] + north["width"] <= NARROW["width"]
        last_cell = page.query_selector("#sk-hands tbody tr:last-child td:last-child")
        assert last_cell.inner_text() == "2000"  # hand 5: North's +2000 is on screen
        assert no_horizontal_scroll(page)
        page.screenshot(path=str(SHOTS / f"narrow-{lang}-finished.png"), full_page=True)


def test_desktop_enters_a_hand(live_server, game, admin):
    with scorekeeper(live_server, game, size=DESKTOP) as page:
        enter_ron(page)
        page.wait_for_selector("#sk-save:not([disabled])")
        assert page.is_hidden('.sk-group[data-role="tenpai"]') and no_horizontal_scroll(page)
        page.click("#sk-save")
        page.wait_for_selector('#scorekeeper[data-next="2"]')
    assert HandRecord.objects.get().settlement["deltas"] == [0, 3900, -3900, 0]


# ---------------------------------------------------------------- bad Wi-Fi


def test_hand_entered_offline_is_stored_once_when_back_online(live_server, game, admin):
    with scorekeeper(live_server, game) as page:
        page.context.set_offline(True)
        enter_ron(page)
        page.wait_for_selector("#sk-save:not([disabled])")
        assert "No connection" in page.inner_text("#sk-message")
        page.click("#sk-save")
        page.wait_for_selector("#sk-pending:not([hidden])")
        # the phone tries at once ("sending…"), fails offline, and keeps the hand waiting
        page.wait_for_selector("#sk-pending-list li.waiting")
        assert "Hand 1 · Ron: Player 2 — waiting for the connection" in page.inner_text("#sk-pending-list")
        assert page.inner_text("#sk-hand-title") == "Hand 2"  # the next hand comes after the one waiting
        assert HandRecord.objects.count() == 0
        [kept] = outbox(page, game)
        assert kept["sequence"] == 1 and kept["record"] == {"riichi": [], **RON_2_FROM_3}
        page.context.set_offline(False)  # the "online" event sends it
        page.wait_for_selector('#scorekeeper[data-next="2"]')
        assert outbox(page, game) == [] and page.is_hidden("#sk-pending")
    hand = HandRecord.objects.get()
    assert hand.sequence == 1 and hand.settlement["deltas"] == [0, 3900, -3900, 0]
    assert IdempotencyKey.objects.filter(key=kept["key"]).count() == 1
    assert AuditLog.objects.filter(action="hand.add").count() == 1


def test_lost_answer_is_retried_with_its_key_and_stored_once(live_server, game, admin):
    """The request reaches the server but the answer never comes back (Wi-Fi drops mid-way):
    the hand stays on the phone, the retry carries the same Idempotency-Key, the server replays."""
    answers = []

    def lose_the_answer(route):
        if route.request.method != "POST":
            return route.continue_()
        answers.append(route.fetch().status)  # the server stores the hand...
        route.abort("connectionfailed")  # ...and the phone never hears about it

    with scorekeeper(live_server, game) as page:
        url = f"**/api/games/{game.pk}/hands/"
        page.route(url, lose_the_answer)
        enter_ron(page)
        page.wait_for_selector("#sk-save:not([disabled])")
        page.click("#sk-save")
        page.wait_for_selector("#sk-pending-list li.waiting")
        assert answers == [201] and HandRecord.objects.count() == 1
        page.unroute(url)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        page.wait_for_selector('#scorekeeper[data-next="2"]')
        assert outbox(page, game) == []
    assert HandRecord.objects.count() == 1 and AuditLog.objects.filter(action="hand.add").count() == 1
    assert IdempotencyKey.objects.count() == 1


def test_conflict_is_shown_not_merged(live_server, game, admin):
    from scoring import services

    with scorekeeper(live_server, game, lang="zh-hant") as page:
        page.context.set_offline(True)
        enter_ron(page)
        page.wait_for_selector("#sk-save:not([disabled])")
        page.click("#sk-save")
        page.wait_for_selector("#sk-pending-list li.waiting")  # its offline try has failed
        # meanwhile another scorekeeper enters hand 1 differently
        services.hand_record_add(game=game, record={"result": {"type": "draw", "tenpai": [0]}}, actor=admin)
        page.context.set_offline(False)
        page.wait_for_selector("#sk-pending-list li.conflict")
        text = page.inner_text("#sk-pending-list")
        assert "未儲存" in text and "第1局已用不同的紀錄輸入" in text
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "phone-zh-hant-conflict.png"), full_page=True)
        assert [h["status"] for h in outbox(page, game)] == ["conflict"]
        page.reload()  # still shown after a reload, never sent again
        page.wait_for_selector("#sk-pending-list li.conflict")
        hand = HandRecord.objects.get()
        assert hand.record["result"]["type"] == "draw"
        page.once("dialog", lambda d: d.accept())
        page.click("#sk-pending-list .sk-discard")
        assert page.is_hidden("#sk-pending") and outbox(page, game) == []
    assert HandRecord.objects.count() == 1


def test_expired_session_keeps_the_hand_until_logged_in_again(live_server, game, admin):
    with scorekeeper(live_server, game) as page:
        page.context.set_offline(True)
        enter_ron(page)
        page.wait_for_selector("#sk-save:not([disabled])")
        page.click("#sk-save")
        page.wait_for_selector("#sk-pending-list li.waiting")  # its offline try has failed
        page.context.clear_cookies()  # the session ended while the phone was offline
        page.context.set_offline(False)
        page.wait_for_selector("#sk-pending-list li.login")
        assert "Your session has expired" in page.inner_text("#sk-pending-list")
        assert HandRecord.objects.count() == 0 and len(outbox(page, game)) == 1
        page.click("#sk-pending-list li.login a")
        page.fill("input[name=login]", "admin")  # the sign-in form (django-allauth)
        page.fill("input[name=password]", "admin-pw-123")
        page.click("form.card button[type=submit]")
        page.wait_for_selector('#scorekeeper[data-next="2"]')  # back on the scorekeeper, the hand sent
        assert outbox(page, game) == []
    assert HandRecord.objects.get().settlement["deltas"] == [0, 3900, -3900, 0]


# ---------------------------------------------------------------- correcting a finished game


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_correct_a_hand_of_a_finished_game(live_server, finished, admin, lang):
    with scorekeeper(live_server, finished, lang=lang) as page:
        assert page.query_selector("#sk-form") is None
        page.click('#sk-hands a[href="?correct=2"]')
        page.wait_for_selector('#scorekeeper[data-correct="2"]')
        # the stored record is on the controls: ron, Player 4 on Player 3's discard, 3 han 30 fu
        assert page.get_attribute('.sk-btn[data-type="ron"]', "aria-pressed") == "true"
        assert page.get_attribute('.sk-group[data-role="winners"] .sk-seat[data-seat="3"]', "aria-pressed") == "true"
        assert page.get_attribute('.sk-group[data-role="from"] .sk-seat[data-seat="2"]', "aria-pressed") == "true"
        assert page.input_value('.sk-value[data-seat="3"] select[name=han]') == "3"
        page.select_option('.sk-value[data-seat="3"] select[name=han]', "4")
        page.wait_for_selector("#sk-save:not([disabled])")
        assert (
            page.inner_text('#sk-scores tr[data-seat="3"] .sk-after') == "32,800"
        )  # 4 han 30 fu rounded up to mangan (M.League kiriage): 8,000 + 1,000 sticks
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"phone-{lang}-correct.png"), full_page=True)
        assert bottom(page, "#sk-save") <= 1.5 * PHONE["height"] and no_horizontal_scroll(page)
        page.click("#sk-save")
        page.wait_for_selector("#scorekeeper:not([data-correct])")
    # mangan 8,000 + one honba 300 (M.League rounds 4 han 30 fu up to mangan)
    assert HandRecord.objects.get(game=finished, sequence=2).settlement["deltas"] == [0, 0, -8300, 9300]
    result = GameResult.objects.get(game=finished)
    assert result.scores == [23800, 27800, 14300, 33100]
    assert [float(p) for p in result.points] == [-16.2, 7.8, -45.7, 54.1]


# ---------------------------------------------------------------- the game page, error pages


@pytest.mark.parametrize("lang, words", [("en", "3 han 30 fu"), ("zh-hant", "3番30符")])
def test_game_page_on_a_phone(live_server, finished, lang, words):
    errors = []
    with chromium_page() as page:
        page.set_viewport_size(PHONE)
        page.set_extra_http_headers({"Accept-Language": lang})
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live_server.url}/games/{finished.pk}/")
        assert words in page.inner_text('#game-hands li[data-sequence="2"]')
        assert no_horizontal_scroll(page)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"game-{lang}.png"), full_page=True)
        page.click("#game-division")
        assert page.url.endswith(f"/seasons/{finished.season_id}/divisions/A/")
        favicon = page.request.get(f"{live_server.url}/favicon.ico")
        assert favicon.status == 200 and favicon.headers["content-type"] == "image/x-icon"
        page.goto(f"{live_server.url}/games/987654/")
        assert page.is_visible("#error-page") and no_horizontal_scroll(page)
        color = page.eval_on_selector(".err-code", "e => getComputedStyle(e).color")
        assert color == "rgb(179, 38, 30)"  # styled: the accent red of kyoku.css
    assert errors == []


# ---------------------------------------------------------------- confirmation before damage


def test_undo_asks_first_and_the_page_breaks_no_csp_rule(live_server, game, admin):
    from scoring import services as scoring

    scoring.hand_record_add(game=game, record=RON_2_FROM_3, actor=admin)
    violations, asked = [], []
    with scorekeeper(live_server, game, size=PHONE) as page:
        page.on("console", lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None)
        page.reload()
        page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        page.click("#sk-undo button[type=submit]")
        page.wait_for_timeout(300)
        assert asked and "Delete hand 1?" in asked[0]
        assert HandRecord.objects.count() == 1, "a cancelled undo keeps the hand"
        page.once("dialog", lambda dialog: dialog.accept())
        with page.expect_navigation():
            page.click("#sk-undo button[type=submit]")
    assert HandRecord.objects.count() == 0
    assert violations == []

"""Issue 48, the keyboard alone: each flow in Debian's Chromium with no mouse event, only Tab,
Shift+Tab, Enter, Space, arrow keys and typing into the focused control (tests/keyboard/keys.py
checks at every stop that the focus shows and follows the page). The confirm dialogs the pages
open are the browser's own (``window.confirm``, modal: the page behind takes no focus); answering
one returns the focus to the control that opened it."""

from __future__ import annotations

import pytest

from league.models import GameResult
from tests.browser import chromium_page, needs_chromium
from tests.keyboard.keys import focused, sign_in, start, tab_to

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture
def page():
    errors: list[str] = []
    with chromium_page() as p:
        p.on("pageerror", lambda exc: errors.append(str(exc)))
        yield p
    assert errors == []


def active(page) -> str:
    return page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")


# ---------------------------------------------------------------- sign-in


def test_sign_in_by_keyboard_a_wrong_password_is_focused_and_announced(live_server, admin, page):
    page.set_viewport_size(PHONE)
    sign_in(page, live_server.url, "admin", "wrong-password")
    # the page comes back with the error summary focused and announced (role=alert)
    page.wait_for_selector(".error-summary")
    assert focused(page, ".error-summary[role=alert]"), active(page)
    assert "password" in page.inner_text(".error-summary").lower()
    # from the summary, Tab goes on into the form, in its order
    start(page)
    page.evaluate("() => { window.__kbPrev = document.activeElement; window.__kbPrevRect = {top: 0, bottom: 0}; }")
    tab_to(page, "input[name=login]")
    page.keyboard.press("Control+A")
    page.keyboard.type("admin")
    tab_to(page, "input[name=password]")
    page.keyboard.type("admin-pw-123")
    tab_to(page, "button[type=submit]")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.evaluate("() => !!document.querySelector('form[action$=\"/logout/\"]')")


# ---------------------------------------------------------------- result entry


def test_result_entry_by_keyboard(live_server, game, admin, page):
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server.url, "admin", "admin-pw-123")
    page.goto(f"{live_server.url}/games/{game.pk}/result/")
    for i, score in enumerate(["43000", "30800", "16000", "10200"]):
        tab_to(page, f"input[name=score_{i}]")
        page.keyboard.type(score)
    tab_to(page, "#save-result")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    result = GameResult.objects.get(game=game)
    assert result.scores == [43000, 30800, 16000, 10200]


# ---------------------------------------------------------------- the scorekeeper


def enter_ron(page) -> None:
    """Ron by keyboard: seat 1 (Player 2) wins 3 han 30 fu on seat 2's discard."""
    tab_to(page, '.sk-btn[data-type="ron"]')
    page.keyboard.press("Enter")
    assert page.get_attribute('.sk-btn[data-type="ron"]', "aria-pressed") == "true"
    tab_to(page, '.sk-group[data-role="winners"] .sk-seat[data-seat="1"]')
    page.keyboard.press("Space")
    tab_to(page, '.sk-group[data-role="from"] .sk-seat[data-seat="2"]')
    page.keyboard.press("Enter")
    tab_to(page, '.sk-value[data-seat="1"] select[name=han]')
    page.keyboard.type("3")  # a closed select picks the option its typed first letters name
    assert page.input_value('.sk-value[data-seat="1"] select[name=han]') == "3"
    page.wait_for_selector("#sk-save:not([disabled])")


def test_scorekeeper_enter_a_hand_and_undo_it_by_keyboard(live_server, game, admin, page):
    from scoring.models import HandRecord

    page.set_viewport_size(PHONE)
    sign_in(page, live_server.url, "admin", "admin-pw-123")
    page.goto(f"{live_server.url}/scoring/games/{game.pk}/scorekeeper/")
    enter_ron(page)
    assert "3,900" in page.inner_text("#sk-payments")
    # the payments are said in a polite live region, not only shown
    assert page.get_attribute("#sk-preview", "aria-live") == "polite"
    tab_to(page, "#sk-save")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector("#sk-undo button")
    assert HandRecord.objects.filter(game=game).count() == 1
    # Undo asks first; answering "cancel" keeps the hand and the focus on the Undo button
    start(page)
    tab_to(page, "#sk-undo button")
    page.once("dialog", lambda d: d.dismiss())
    page.keyboard.press("Enter")
    assert focused(page, "#sk-undo button"), active(page)
    assert HandRecord.objects.filter(game=game).count() == 1
    page.once("dialog", lambda d: d.accept())
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert HandRecord.objects.filter(game=game).count() == 0


# ---------------------------------------------------------------- a tournament: the table phone and the desk


def _tournament(*, checked_in: bool):
    """A four-player, one-round tournament of the test league run by ``director`` (an admin of
    it); its players are users u0..u3 (seat order once seated). ``checked_in``: registered,
    checked in, running, seated and round 1 started; otherwise only registered."""
    import datetime as dt

    from django.utils import timezone

    from events import services
    from events.models import Round
    from kyoku.models import League, LeagueRole
    from kyoku.principals import SYSTEM
    from league import services as league_services
    from league.models import Player
    from tests.actors import make_player_user, make_role_user

    league = League.objects.create(name="Keys League", slug="keys", promotion_count=1)
    director = make_role_user("director", league, LeagueRole.Role.ADMIN)
    rules = league_services.rule_set_create(
        name="M-League", slug="mleague-k", preset="mleague", is_template=True, actor=SYSTEM
    )
    players = [Player.objects.create(display_name=f"Keys {c}", membership_number=f"K{c}") for c in "ABCD"]
    event = services.event_create(
        league=league,
        name="Keys Open",
        slug="keys-open",
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate(),
        rule_set=rules,
        capacity=4,
        rounds=1,
        round_minutes=60,
        cut=0,
        actor=director,
    )
    regs = [services.registration_add(event=event, player=p, actor=director) for p in players]
    if checked_in:
        for r in regs:
            services.checkin_set(registration=r, present=True, actor=director)
        services.event_status_set(event=event, status="running", actor=director)
        services.seating_plan(event=event, actor=director, time_limit=1)
        services.round_clock_set(
            round_=Round.objects.get(event=event, number=1),
            action="start",
            actor=director,
            now=timezone.now() - dt.timedelta(minutes=20),
        )
        table = event.season.games.get(match_day=1, table=1)
        for s in table.seats.select_related("player"):
            make_player_user(f"u{s.seat}", s.player)
        return event, table
    return event, None


def _phone(page, size=PHONE):
    context = page.context.browser.new_context(viewport=size)
    p = context.new_page()
    p.set_default_timeout(15000)
    return p


def test_table_phone_report_confirm_and_dispute_by_keyboard(live_server, page):
    from events.models import TableReport

    event, table = _tournament(checked_in=True)
    url = f"{live_server.url}/events/tables/{table.pk}/"
    # East reports the final scores
    east = _phone(page)
    sign_in(east, live_server.url, "u0", "u0-pw-123", next_url=f"/events/tables/{table.pk}/")
    east.goto(url)
    # the round clock is a timer whose state changes are announced, not its every second
    assert east.get_attribute("#round-clock .ev-clock-time", "role") == "timer"
    assert east.get_attribute("#round-clock .ev-clock-label", "aria-live") == "polite"
    for i, score in enumerate(["48000", "32000", "12000", "8000"]):
        tab_to(east, f"#report-form input[name=score_{i}]")
        east.keyboard.type(score)
    tab_to(east, "#report-form button")
    with east.expect_response(lambda r: "/api/events/tables/" in r.url and r.request.method == "POST"):
        east.keyboard.press("Enter")
    east.wait_for_selector("#table-report")
    east.context.close()
    assert TableReport.objects.get(game=table).scores == [48000, 32000, 12000, 8000]
    # South confirms
    south = _phone(page)
    sign_in(south, live_server.url, "u1", "u1-pw-123", next_url=f"/events/tables/{table.pk}/")
    south.goto(url)
    tab_to(south, "button.confirm")
    with south.expect_response(lambda r: "/api/events/tables/" in r.url and r.request.method == "POST"):
        south.keyboard.press("Enter")
    south.wait_for_load_state()
    south.context.close()
    assert sorted(TableReport.objects.get(game=table).confirmed_seats) == [0, 1]
    # West disputes, saying what is wrong
    west = _phone(page)
    sign_in(west, live_server.url, "u2", "u2-pw-123", next_url=f"/events/tables/{table.pk}/")
    west.goto(url)
    tab_to(west, ".ev-dispute input[name=note]")
    west.keyboard.type("North had 9,000")
    tab_to(west, ".ev-dispute button")
    with west.expect_response(lambda r: "/api/events/tables/" in r.url and r.request.method == "POST"):
        west.keyboard.press("Enter")
    west.wait_for_selector("#table-report")
    west.context.close()
    report = TableReport.objects.get(game=table)
    assert report.status == "disputed" and report.dispute_note == "North had 9,000"


def test_desk_check_in_seat_and_start_the_clock_by_keyboard(live_server, page):
    from events.models import Registration, Round

    event, _ = _tournament(checked_in=False)
    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server.url, "director", "director-pw-123")
    desk = f"{live_server.url}/events/{event.pk}/desk/"
    page.goto(desk)
    for n in range(4):
        start(page)
        tab_to(page, '#desk-registrations input[value="checkin"] ~ button')
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert Registration.objects.filter(event=event, checked_in=True).count() == n + 1
    start(page)
    tab_to(page, 'form:has(input[name=action][value="running"]) button')
    with page.expect_navigation():
        page.keyboard.press("Enter")
    start(page)
    tab_to(page, 'form:has(input[name=action][value="plan"]) button')
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert event.season.games.filter(match_day=1).count() == 1
    start(page)
    tab_to(page, 'tr[data-round="1"] form:has(input[name=action][value="start"]) button')
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert Round.objects.get(event=event, number=1).started_at is not None
    page.wait_for_selector("#round-clock")


# ---------------------------------------------------------------- an incident's timeline (referee)


def choose(page, value: str, limit: int = 40) -> None:
    """Pick ``value`` in the focused <select> with the arrow keys (Home, then ArrowDown)."""
    page.keyboard.press("Home")
    for _ in range(limit):
        if page.evaluate("() => document.activeElement.value") == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{value!r} is not among the focused select's options")


def quick(page, seat: int, act: str) -> None:
    """A quick button of the timeline for ``seat``: back (Shift+Tab) to the acting seat, pick it,
    then on (Tab) to the button, Enter."""
    start(page)
    tab_to(page, "#quick-seat", back=True)
    choose(page, str(seat))
    start(page)
    tab_to(page, f'#quick button.quick[data-act="{act}"]')
    page.keyboard.press("Enter")


def test_incident_timeline_by_keyboard(live_server, game, referee, page):
    from referee.models import Incident

    page.set_viewport_size(DESKTOP)
    sign_in(page, live_server.url, "referee", "referee-pw-123")
    page.goto(f"{live_server.url}/referee/incidents/new/?game={game.pk}")
    tab_to(page, "input[name=hand_number]")
    page.keyboard.type("5")
    tab_to(page, "select[name=kind]")
    choose(page, "early_play")
    tab_to(page, "textarea[name=description]")
    page.keyboard.type("South played during the deal; North missed a pon")
    tab_to(page, "#quick-seat")
    # East discards, South draws and discards, North claims a short deal and was harmed by event 2
    for seat, act in [(0, "discard"), (1, "draw"), (1, "discard"), (3, "claim_deal_incomplete"), (3, "harm")]:
        quick(page, seat, act)
    rows = page.locator("#timeline tbody tr")
    assert rows.count() == 5
    # every control of a row is named by its column and the row's number, for a screen reader
    assert page.get_attribute("#timeline tbody tr:nth-child(5) .ev-by", "aria-label") == "By event # 4"
    start(page)
    tab_to(page, "#timeline tbody tr:nth-child(5) .ev-by")
    page.keyboard.type("2")
    # a row added by mistake: "Add a row" puts the focus in it; removing it leaves the focus in the table
    start(page)
    tab_to(page, "#add-row")
    page.keyboard.press("Enter")
    assert rows.count() == 6 and focused(page, "#timeline tbody tr:nth-child(6) .ev-seat"), active(page)
    start(page)
    tab_to(page, "#timeline tbody tr:nth-child(6) button.remove")
    page.keyboard.press("Enter")
    assert rows.count() == 5
    assert focused(page, "#timeline tbody tr:nth-child(5) button.remove"), active(page)
    start(page)
    tab_to(page, "#preview-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#preview .offences")
    assert "Early play that harmed another player" in page.inner_text("#preview")
    assert page.get_attribute("#preview", "aria-live") == "polite"
    assert not Incident.objects.exists()
    start(page)
    tab_to(page, "#save-button")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    incident = Incident.objects.get()
    assert incident.hand_number == 5
    assert incident.events[4] == {"t": 4000, "seat": 3, "act": "harm", "kind": "missed_call", "by": 2}


def settled(page, condition: str) -> None:
    """Wait for ``condition`` on a page that may reload itself meanwhile (then wait on the new one)."""
    from playwright.sync_api import Error

    for _ in range(5):
        try:
            page.wait_for_function(condition, timeout=30000)
            return
        except Error as exc:
            if "context was destroyed" not in str(exc) and "navigation" not in str(exc):
                raise
            page.wait_for_load_state()
    page.wait_for_function(condition, timeout=30000)


def test_scorekeeper_says_what_waits_on_the_phone(live_server, game, admin, page):
    """Offline, a hand saved by keyboard is kept on the phone, and the status region (always in
    the page, polite) says so; back online it is sent and stored once."""
    from scoring.models import HandRecord

    from tests.browser import back_online

    page.set_viewport_size(PHONE)
    sign_in(page, live_server.url, "admin", "admin-pw-123")
    page.goto(f"{live_server.url}/scoring/games/{game.pk}/scorekeeper/")
    assert page.get_attribute("#sk-outbox-status", "role") == "status"
    assert page.inner_text("#sk-outbox-status") == ""
    enter_ron(page)
    page.context.set_offline(True)
    tab_to(page, "#sk-save")
    page.keyboard.press("Enter")
    settled(
        page,
        "() => { const t = document.getElementById('sk-outbox-status').textContent;"
        " return t.includes('Hand 1') && t.includes('waiting for the connection'); }",
    )
    assert HandRecord.objects.filter(game=game).count() == 0
    back_online(page)
    # the phone sends it and reloads. Wait in the browser, not on the database: on SQLite the test
    # shares one in-memory database with the live server, and a read while it writes the hand fails
    # with "table is locked".
    settled(
        page,
        f"() => localStorage.getItem('kyoku.scorekeeper.{game.pk}.outbox') === null"
        " && !document.getElementById('sk-outbox-status').textContent.includes('Hand 1')",
    )
    page.wait_for_load_state()
    assert HandRecord.objects.filter(game=game).count() == 1

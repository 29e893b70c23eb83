"""In a real browser (Debian's Chromium through Playwright): a referee builds an incident's
timeline with the quick buttons, previews the ruling, saves, confirms, and the ruling and its
penalty are stored."""

import pytest

from league.models import Penalty
from referee.models import Incident, Ruling
from tests.browser import chromium_page, login, needs_chromium

pytestmark = [pytest.mark.browser, needs_chromium, pytest.mark.django_db(transaction=True)]


def quick(page, seat, label):
    page.select_option("#quick-seat", str(seat))
    page.click(f"#quick button.quick:text-is('{label}')")


def test_referee_builds_previews_saves_and_confirms(live_server, game, referee):
    errors = []
    with chromium_page() as page:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, live_server, "referee", "referee-pw-123")
        page.goto(f"{live_server.url}/referee/incidents/new/?game={game.pk}")
        page.select_option("select[name=kind]", "early_play")
        page.fill("input[name=hand_number]", "5")
        page.fill("textarea[name=description]", "South played during the deal; North missed a pon")
        page.fill("textarea[name=private_notes]", "browser-private")
        # Seed 003, incident 1 with harm: East discards, South draws and discards, North claims a
        # short deal, and North missed a call on South's discard (event 2).
        quick(page, 0, "Discard")
        quick(page, 1, "Draw")
        quick(page, 1, "Discard")
        quick(page, 3, "Claim deal incomplete")
        quick(page, 3, "Harm")
        rows = page.locator("#timeline tbody tr")
        assert rows.count() == 5
        rows.nth(4).locator(".ev-by").fill("2")
        assert [rows.nth(i).locator(".ev-t").input_value() for i in range(5)] == ["0", "1000", "2000", "3000", "4000"]

        page.click("#preview-button")
        page.wait_for_selector("#preview .offences")
        preview = page.inner_text("#preview")
        assert "Early play that harmed another player" in preview and "early_play_harm" not in preview
        assert "Deal" in preview  # the procedure phase by its name (kyoku/labels.py), not the code DEAL
        # seats named by this hand's wind and player, as the stored ruling will name them
        assert "North (Player 4)" in page.inner_text("#preview .corrections")
        assert not Incident.objects.exists()  # the preview stores nothing

        page.click("#save-button")
        page.wait_for_selector("#proposed-ruling")
        incident = Incident.objects.get()
        assert page.url.endswith(f"/referee/incidents/{incident.pk}/")
        assert incident.events[4] == {"t": 4000, "seat": 3, "act": "harm", "kind": "missed_call", "by": 2}
        assert incident.private_notes == "browser-private" and incident.hand_number == 5

        page.click("#confirm-button")
        page.wait_for_selector(".stored-ruling")
        assert "yellow" in page.inner_text(".stored-ruling .penalties").lower()
    assert not errors, errors
    ruling = Ruling.objects.get(incident=incident)
    assert ruling.decision == "accepted" and ruling.referee.username == "referee"
    penalty = Penalty.objects.get(ruling=ruling)
    assert (penalty.player, penalty.offence, penalty.sanction) == (
        game.seats.get(seat=1).player,
        "early_play_harm",
        "yellow_card",
    )
    assert Incident.objects.get().status == "ruled"


# a Japanese page names each player in native script (league.names: one name per person)
JA = {
    "winds": ["西家", "北家", "東家", "南家"],
    "north": "北家(選手2)",
    "south": "南家(選手4)",
    "may_correct": "北家(選手2): 訂正できる",
    "claim": "北家(選手2)は配牌手順中の3000ミリ秒に少牌を申し出た",
}
EN = {
    "winds": ["West", "North", "East", "South"],
    "north": "North (Player 2)",
    "south": "South (Player 4)",
    "may_correct": "North (Player 2): may correct",
    "claim": "North (Player 2) claimed a short deal",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_choosing_the_dealer_renames_every_seat_as_the_ruling_does(live_server, game, referee, lang):
    """Issue 20: with seat 2 dealing, seat 1 is North and seat 3 South (turn order, dealer East) on
    the seat table, the timeline builder, the preview, the stored ruling and its forms alike."""
    errors = []
    with chromium_page() as page:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, live_server, "referee", "referee-pw-123")
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        w = JA if lang == "ja" else EN
        page.goto(f"{live_server.url}/referee/incidents/new/?game={game.pk}")
        page.select_option("select[name=kind]", "deal_error")
        page.select_option("select[name=dealer]", "2")
        winds = [page.inner_text(f'#seats tr[data-seat="{s}"] .wind') for s in range(4)]
        assert winds == w["winds"]
        assert page.locator('#quick-seat option[value="1"]').inner_text() == w["north"]
        for seat, act in ((2, "discard"), (3, "draw"), (3, "discard"), (1, "claim_deal_incomplete")):
            page.select_option("#quick-seat", str(seat))
            page.click(f"#quick button.quick[data-act='{act}']")
        assert page.locator("#timeline tbody tr").nth(3).locator(".ev-seat option:checked").inner_text() == w["north"]
        page.click("#preview-button")
        page.wait_for_selector("#preview .offences")
        assert w["may_correct"] in page.inner_text("#preview .corrections")
        explanation = page.inner_text("#preview .explanation")
        assert w["claim"] in explanation and "events[" not in explanation
        assert w["south"] in explanation  # seat 3 acted early

        page.click("#save-button")
        page.wait_for_selector("#proposed-ruling")
        incident = Incident.objects.get()
        assert incident.dealer == 2
        assert w["claim"] in page.inner_text("#proposed-ruling .explanation")
        labels = page.locator("#decide-form label").all_inner_texts()
        assert any(w["north"] in t for t in labels) and any(w["south"] in t for t in labels)
        assert page.locator('select[name=extra-0-seat] option[value="3"]').inner_text() == w["south"]
    assert not errors, errors


def test_the_printable_ruling_prints_to_pdf_naming_seats_as_the_page_does(live_server, game, referee, tl):
    """The printable ruling in Japanese: on paper (print media) the site's navigation goes, the
    seats keep this hand's wind and player (seat 2 dealing: seat 1 is North), and Chromium prints it
    to a PDF."""
    from referee import services

    incident = services.incident_log(
        game=game,
        hand_number=3,
        dealer=2,
        kind="deal_error",
        reporter=referee,
        events=[
            tl.ev(0, 2, "discard"),
            tl.ev(900, 3, "draw"),
            tl.ev(2000, 3, "discard"),
            tl.ev(2600, 1, "claim_deal_incomplete", kind="long"),
        ],
    )
    services.ruling_decide(incident=incident, referee=referee, accept=True)
    errors = []
    with chromium_page() as page:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        login(page, live_server, "referee", "referee-pw-123")
        page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
        page.goto(f"{live_server.url}/referee/incidents/{incident.pk}/")
        page.click("#print-link")
        page.wait_for_selector("#ruling-print")
        page.emulate_media(media="print")
        assert not page.locator("header").first.is_visible()
        text = page.inner_text("#ruling-print")
        assert "北家(選手2)は配牌手順中の2600ミリ秒に多牌を申し出た" in text
        assert "南家(選手4)" in text and "南家(選手2)" not in text and "events[" not in text
        assert page.inner_text('#seats tr[data-seat="1"] .wind') == "北家"
        assert page.pdf()[:4] == b"%PDF"
    assert not errors, errors

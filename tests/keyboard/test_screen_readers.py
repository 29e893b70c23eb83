"""Screen readers (issue 48): every form field named; the charts with a text alternative and a
table of their figures; the standings' sort order said on the sorted column."""

from __future__ import annotations

import pytest
from django.test import Client

from kyoku.principals import SYSTEM
from tests.keyboard.dom import Node, parse

pytestmark = pytest.mark.django_db

CONTROLS = ("input", "select", "textarea")
UNNAMED_TYPES = {"hidden", "submit", "button", "reset", "image"}


def unlabelled(doc: Node) -> list[str]:
    """The form controls a screen reader could not name: no <label for>, no wrapping <label>, no
    aria-label or aria-labelledby (to an element on the page); and every aria-describedby names
    an element on the page."""
    labelled_ids = {lab.get("for") for lab in doc.find_all("label") if lab.get("for")}
    missing = []
    for n in doc.iter():
        if n.tag not in CONTROLS or n.get("type", "").lower() in UNNAMED_TYPES:
            continue
        for ref in (n.get("aria-describedby") or "").split():
            assert doc.by_id(ref) is not None, f"<{n.tag} name={n.get('name')}> describedby #{ref}: not on the page"
        if n.get("aria-label", "").strip():
            continue
        if n.get("aria-labelledby") and all(doc.by_id(i) for i in n["aria-labelledby"].split()):
            continue
        if n.get("id") and n["id"] in labelled_ids:
            continue
        if any(a.tag == "label" for a in n.ancestors()):
            continue
        missing.append(f"<{n.tag} name={n.get('name')!r} id={n.get('id')!r}>")
    return missing


@pytest.fixture
def played(game):
    from scoring import services as hands
    from tests.riichi_game import HANDS

    for record in HANDS:
        hands.hand_record_add(game=game, record=record, actor=SYSTEM)
    hands.game_hands_finish(game=game, actor=SYSTEM)
    return game


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_every_field_of_the_flows_pages_has_a_label(game, admin, referee):
    admin_client, referee_client = client_of(admin), client_of(referee)
    pages = {
        "sign-in": Client().get("/accounts/login/"),
        "result entry": admin_client.get(f"/games/{game.pk}/result/"),
        "scorekeeper": admin_client.get(f"/scoring/games/{game.pk}/scorekeeper/"),
        "new incident": referee_client.get(f"/referee/incidents/new/?game={game.pk}"),
        "season rules": admin_client.get(f"/scoring/seasons/{game.season.pk}/rules/"),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert unlabelled(parse(response.content)) == [], name


def test_a_bad_answer_keeps_every_field_named_and_described(game, admin):
    """With errors on the page, each aria-describedby still points at words that are there."""
    response = client_of(admin).post(
        f"/games/{game.pk}/result/", {"score_0": "x", "score_1": "", "score_2": "1", "score_3": "1"}
    )
    doc = parse(response.content)
    assert unlabelled(doc) == []
    assert len(doc.find_all("input", aria_invalid="true")) >= 2


def test_the_statistics_charts_have_words_and_a_table_of_their_figures(played, players, league):
    from stats import selectors

    player = players[1]
    figures = selectors.player_figures(player=player, league=league)["charts"]
    doc = parse(Client().get(f"/players/{player.pk}/statistics/?league=test").content)

    places = doc.by_id("places-chart")
    assert places["role"] == "img"
    rows = [[td.text() for td in tr.find_all("td")] for tr in doc.by_id("places-figures").find("tbody").find_all("tr")]
    assert [int(r[1]) for r in rows] == figures["places"] and sum(figures["places"]) == 1
    assert [r[0] for r in rows] == ["1st", "2nd", "3rd", "4th"]
    # the chart's name says the same figures
    assert places["aria-label"] == "Placement distribution: " + ", ".join(f"{r[0]} {r[1]}" for r in rows)

    running = doc.by_id("running-chart")
    rows = [[td.text() for td in tr.find_all("td")] for tr in doc.by_id("running-figures").find("tbody").find_all("tr")]
    assert [float(r[1]) for r in rows] == [round(v, 1) for v in figures["running"]]
    assert running["role"] == "img"
    assert running["aria-label"] == f"Running total of league points: {rows[-1][1]} after {len(rows)} games"

    rates = doc.by_id("rates-chart")
    rows = [[td.text() for td in tr.find_all("td")] for tr in doc.by_id("rates-figures").find("tbody").find_all("tr")]
    assert [(float(r[1].rstrip("%")), float(r[2].rstrip("%"))) for r in rows] == [
        (round(w * 100, 1), round(d * 100, 1)) for w, d in figures["rates"]
    ]
    assert rates["role"] == "img" and rows[-1][1] in rates["aria-label"] and rows[-1][2] in rates["aria-label"]
    # the tables sit in a <details> right after their chart: closed, one Tab away
    for box in ("places-figures", "running-figures", "rates-figures"):
        assert doc.by_id(box).tag == "details" and doc.by_id(box).find("summary").text()


@pytest.mark.parametrize(
    "sort, header, order",
    [
        ("", "#", "ascending"),
        ("points", "Points", "descending"),
        ("average", "Avg. place", "ascending"),
        ("name", "Player", "ascending"),
        ("-points", "Points", "descending"),
    ],
)
def test_the_standings_say_which_column_they_are_sorted_by(played, season, sort, header, order):
    url = f"/seasons/{season.pk}/divisions/A/" + (f"?sort={sort}" if sort else "")
    doc = parse(Client().get(url).content)
    sorted_headers = [th for th in doc.by_id("standings").find("thead").find_all("th") if th.get("aria-sort")]
    assert len(sorted_headers) == 1
    assert sorted_headers[0]["aria-sort"] == order
    assert sorted_headers[0].find("a").text() == header

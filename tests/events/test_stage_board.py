"""Issue 50 §1 and §3: after a cut the board names the stage and splits its players' points into
carried and stage (as the results page does); the event's summary names every stage; cards and
signs name a stage's rounds by the stage; the board after the event ended says it is over and
shows the final ranking. Played on the issue's event (tests/stages_browser/scenario.py): A and B
level 4th and 5th after the semi-final, 3 first places to 1."""

import csv
import io
from decimal import Decimal as D

import pytest
from django.test import Client
from django.utils import translation

from events import selectors, services
from events.models import Round
from events.stages import event_summary, round_title
from tests.stages_browser.scenario import A, B, event_build, final_play, qualifying_play, semi_play


def _client(user=None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def after_semi(league, admin, rules):
    event, players = event_build(league=league, admin=admin, rules=rules)
    qualifying_play(event, admin)
    semi_play(event, admin)
    event.refresh_from_db()
    return event, players


def test_the_issue_case_level_after_the_semi_the_first_tiebreak_sends_a_through(after_semi, admin):
    event, players = after_semi
    rows = selectors.event_standings(event)
    at = {r.player: r for r in rows}
    a, b = at[players[A].pk], at[players[B].pk]
    assert a.points == b.points and (a.rank, b.rank) == (4, 5)
    assert (a.places[0], b.places[0]) == (3, 1) and a.games == b.games == 5
    assert b.tie_note["by"] == "firsts" and (b.tie_note["above_value"], b.tie_note["below_value"]) == (3, 1)
    # the final's cut: the top four, A among them, B not
    services.seating_by_standings(round_=Round.objects.get(event=event, number=6), actor=admin)
    seated = set(selectors.stage_seated(event, selectors.event_stages(event)[-1]))
    assert players[A].pk in seated and players[B].pk not in seated and len(seated) == 4


def test_the_board_names_the_stage_and_splits_carried_and_stage_points(after_semi):
    event, players = after_semi
    body = _client().get(f"/api/events/{event.pk}/board").json()
    assert body["stage"] == {"name": "semi_final", "cut": 8, "points": "carry"}
    rows = {r["name"]: r for r in body["standings"]}
    a = rows[A]
    assert D(a["carried"]) + D(a["final_points"]) == D(a["points"]) and a["stage"] == "semi_final"
    assert rows[A]["points"] == rows[B]["points"] and rows[A]["rank"] == 4 and rows[B]["rank"] == 5
    qualifying_only = [r for r in body["standings"] if not r["stage"]]
    assert len(qualifying_only) == 12 and all(r["carried"] is None for r in qualifying_only)
    page = _client().get(f"/events/{event.pk}/board/").content.decode()
    head = page[page.index('id="board-standings"') : page.index("</thead>")]
    assert "Carried" in head and "Stage" in head and " hidden" not in head
    line = page[page.index('id="board-stage"') : page.index("</p>", page.index('id="board-stage"'))]
    assert "With the semi-final: its 8 players rank by the points carried into it" in line
    assert "hidden" not in line.split(">")[0]
    # A's row: carried and the semi-final's points beside the total, the stage named
    a_row = page[page.index(f"<td>{A}") : page.index("</tr>", page.index(f"<td>{A}"))]
    assert "· semi-final" in a_row
    cells = [D(c.split("<")[0].replace("−", "-").lstrip("+")) for c in a_row.split('<td class="num">')[1:]]
    assert cells == [5, D(a["carried"]), D(a["final_points"]), D(a["points"])]
    assert cells[1] + cells[2] == cells[3] and cells[2] < 0  # 4th twice in the semi-final
    assert "level on 86.1; first places: 3 to 1" in page or "first places: 3 to 1" in page


def test_before_any_cut_the_board_has_no_stage_columns(league, admin, rules):
    event, _players = event_build(league=league, admin=admin, rules=rules)
    body = _client().get(f"/api/events/{event.pk}/board").json()
    assert body["stage"] is None
    page = _client().get(f"/events/{event.pk}/board/").content.decode()
    head = page[page.index('id="board-standings"') : page.index("</thead>")]
    assert head.count(" hidden>") == 2  # carried and stage, kept for the script, not shown
    assert 'id="board-stage" class="ev-board-stage" hidden' in page


def test_the_summary_names_every_stage(league, admin, rules):
    event, _players = event_build(league=league, admin=admin, rules=rules)
    words = "3 rounds of 60 minutes · semi-final of 8 over 2 rounds (carried in full) · final table of the top 4 (carried in full)"
    assert " · ".join(event_summary(event)) == words
    assert words in _client().get(f"/events/{event.pk}/").content.decode()
    with translation.override("ja"):
        assert event_summary(event)[1] == "8人で準決勝・2回戦 (全額持ち越し)"
    event.semi_final_cut, event.semi_final_rounds = 8, 1
    assert event_summary(event)[1] == "semi-final of 8 over 1 round (carried in full)"


def test_cards_and_signs_name_the_stage_rounds(after_semi, admin):
    event, players = after_semi
    assert [round_title(event, n, s) for n, s in event.round_set.order_by("number").values_list("number", "stage")] == [
        "Round 1",
        "Round 2",
        "Round 3",
        "Semi-final, round 1",
        "Semi-final, round 2",
        "Final",
    ]
    cards = selectors.seating_cards(event)
    a_card = next(c for c in cards if c["name"] == A)
    assert [title for title, _place in a_card["rounds"]][3:] == ["Semi-final, round 1", "Semi-final, round 2", "Final"]
    page = _client().get(f"/events/{event.pk}/cards/").content.decode()
    assert "<td>Semi-final, round 1</td>" in page and "<td>Semi-final, round 2</td>" in page
    assert "<tr><td>4</td>" not in page and "<tr><td>5</td>" not in page  # no stage round by its bare number
    signs = _client(admin).get(f"/events/{event.pk}/signs/").content.decode()
    assert signs.count("Semi-final, round 1</p>") == 2 and signs.count("Semi-final, round 2</p>") == 2
    with translation.override("zh-hant"):
        assert round_title(event, 4, "semi_final") == "準決賽第 1 輪"


def test_after_the_event_the_board_says_it_is_over_and_shows_the_final_ranking(after_semi, admin):
    event, players = after_semi
    final_play(event, admin)
    page = _client().get(f"/events/{event.pk}/board/").content.decode()
    assert 'id="board-over" class="ev-board-over">The event is over.</p>' in page
    assert '<div id="board-clock" hidden>' in page  # no "Final · Round over · 1:30:00"
    assert '<span id="board-title">Final ranking</span>' in page
    body = _client().get(f"/api/events/{event.pk}/board").json()
    assert body["event"]["status"] == "finished" and body["stage"]["name"] == "final"
    finalists = [r["name"] for r in body["standings"] if r["stage"] == "final"]
    assert len(finalists) == 4 and A in finalists and B not in finalists
    assert next(r for r in body["standings"] if r["name"] == B)["rank"] == 5
    # the results page, the ranking API and the EMA file agree; the results still say why B is 5th
    results = _client().get(f"/events/{event.pk}/results/").content.decode()
    assert f"{A} above {B}: level on " in results and "; first places: 3 to 1" in results
    ranking = _client().get(f"/api/events/{event.pk}/ranking").json()
    b_row = next(r for r in ranking if r["player"] == players[B].pk)
    a_row = next(r for r in ranking if r["player"] == players[A].pk)
    assert b_row["rank"] == 5 and a_row["rank"] <= 4 and a_row["games"] == 6 and a_row["places"][0] >= 3
    ema = _client(admin).get(f"/events/{event.pk}/ema.csv").content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(ema)))
    body_rows = lines[[r[:1] for r in lines].index(["Position"]) + 1 :]
    position = {(r[1], r[2]): int(r[0]) for r in body_rows}
    assert position[("Lam", "Bo")] == 5 and position[("Tanaka", "Aoi")] == a_row["rank"]
    assert len(body_rows) == 20 and [int(r[0]) for r in body_rows][:5] == [1, 2, 3, 4, 5]


def test_the_clock_names_the_semi_final_round_it_counts(after_semi):
    """The round clock (board, event page) names a stage's round as the other pages do: the
    semi-final's second round is "Semi-final, round 2", not "Semi-final" as its first."""
    import re

    event, _players = after_semi
    for path in (f"/events/{event.pk}/board/", f"/events/{event.pk}/"):
        html = _client().get(path).content.decode()
        label = re.search(r'<span class="ev-clock-round">([^<]*)</span>', html)
        assert label is not None and label.group(1) == "Semi-final, round 2", (path, label)
    with translation.override("ja"):
        assert (
            round_title(event, 5, Round.Stage.SEMI_FINAL)
            in _client().get(f"/events/{event.pk}/board/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        )

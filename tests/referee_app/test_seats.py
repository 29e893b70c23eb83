"""The one seat-naming function (issue 20): seat number + dealer → this hand's wind and the player,
in the reader's language, the same on the forms, the explanation and the API.

The expected winds are the rules' (ruling contract: seats 0..3 in turn order, ``dealer`` is East
this hand): with seat 2 dealing, seat 3 is South, seat 0 West and seat 1 North.
"""

import json

import pytest
from django.utils import translation

from referee.forms import IncidentForm, seat_choices
from referee.seats import explanation_lines, seat_label, seat_rows

NAMES = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di"}


@pytest.mark.parametrize(
    "lang,expected",
    [
        ("en", ["West (Ann)", "North (Bo)", "East (Cy)", "South (Di)"]),
        ("zh", ["西家(Ann)", "北家(Bo)", "東家(Cy)", "南家(Di)"]),
        ("ja", ["西家(Ann)", "北家(Bo)", "東家(Cy)", "南家(Di)"]),
    ],
)
def test_seat_label_with_seat_2_dealing(lang, expected):
    assert [seat_label(s, dealer=2, names=NAMES, lang=lang) for s in range(4)] == expected


def test_seat_label_follows_the_active_language():
    with translation.override("zh-hant"):
        assert seat_label(1, dealer=0, names=NAMES) == "南家(Bo)"
    with translation.override("ja"):
        assert seat_rows(dealer=1, names=NAMES)[0] == {
            "seat": 0,
            "wind": "north",
            "wind_name": "北家",
            "player_name": "Ann",
            "label": "北家(Ann)",
        }


@pytest.mark.django_db
def test_forms_and_explanation_name_a_seat_alike(game, tl):
    """The issue's reproduction: dealer seat 2; the forms used to say "1 · South" while the ruling
    said North. Now the choice, the explanation and the seat table all say North for seat 1."""
    from referee.engine import rule

    seats = list(game.seats.select_related("player"))
    names = {s.seat: s.player.display_name for s in seats}
    with translation.override("en"):
        assert dict(seat_choices(seats, 2))[1] == "North (Player 2)"
    ruling = rule(
        {
            "rules": "wrc",
            "dealer": 2,
            "events": [
                tl.ev(0, 2, "discard"),
                tl.ev(900, 3, "draw"),
                tl.ev(2000, 3, "discard"),
                tl.ev(2600, 1, "claim_deal_incomplete", kind="long"),
            ],
        }
    )
    lines = [ln["text"] for ln in explanation_lines(ruling, dealer=2, names=names, lang="en")]
    assert lines[-1].startswith("North (Player 2) claimed a long deal at 2600 ms")
    assert any(ln.startswith("South (Player 4) drew at 900 ms") for ln in lines)
    # the dealer is chosen by seat and player, never by a wind that would suggest another seat's
    with translation.override("en"):
        form = IncidentForm(seats=seats)
        assert [str(label) for _, label in form.fields["dealer"].choices][2] == "Seat 2 · Player 3"


@pytest.mark.django_db
def test_preview_names_the_games_players(as_user, referee, game, tl):
    api = as_user(referee)
    record = {
        "rules": "wrc",
        "dealer": 2,
        "events": [
            tl.ev(0, 2, "discard"),
            tl.ev(900, 3, "draw"),
            tl.ev(2000, 3, "discard"),
            tl.ev(2600, 1, "claim_deal_incomplete", kind="long"),
        ],
    }
    r = api.post(
        f"/api/rulings/preview?game={game.pk}",
        json.dumps(record),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert r.status_code == 200
    body = r.json()
    assert body["language"] == "ja"
    assert [s["label"] for s in body["seats"]] == [
        "西家(選手1)",  # a Japanese page names each player in native script (league.names)
        "北家(選手2)",
        "東家(選手3)",
        "南家(選手4)",
    ]
    assert body["explanation_text"][-1].startswith("北家(選手2)は配牌手順中の2600ミリ秒に多牌を申し出た")
    # without a game: the engine's own output, unchanged (the ruling contract)
    plain = api.post("/api/rulings/preview", json.dumps(record), content_type="application/json").json()
    assert "explanation_text" not in plain and plain["explanation"][-1].startswith("Seat 1 (North)")
    bad = api.post("/api/rulings/preview?game=abc", json.dumps(record), content_type="application/json")
    assert bad.status_code == 400 and "game" in bad.content.decode()

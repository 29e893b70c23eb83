"""The statistics page, leaderboard, records, their API and downloads: public reads of the stored
figures; an absent figure is "—" with its reason, never a number."""

import pytest

from kyoku.principals import SYSTEM
from scoring import services as hands
from tests.riichi_game import HANDS


def test_player_page_shows_figures_charts_and_absent_reasons(client, played, players):
    r = client.get(f"/players/{players[1].pk}/statistics/?league=test")
    assert r.status_code == 200
    html = r.content.decode()
    assert 'id="places-chart"' in html and 'id="running-chart"' in html and 'id="rates-chart"' in html
    assert "20.0%" in html  # win rate 1 / 5
    assert "the stored records do not say" in html  # open hands: no record says it


def test_api_and_csv(client, played, players, league):
    data = client.get(f"/api/players/{players[1].pk}/statistics/?league=test").json()
    figures = {f["key"]: f for f in data["figures"]}
    assert figures["win_rate"]["value"] == pytest.approx(0.2)
    assert figures["riichi_win_rate"]["value"] == pytest.approx(0.5)
    assert figures["open_hand_rate"]["value"] is None and figures["open_hand_rate"]["absent_because"]
    assert figures["average_place"]["value"] == 2
    # the league's average: three wins in the four players' twenty hands
    assert figures["win_rate"]["league_average"] == pytest.approx(3 / 20)
    board = client.get("/api/leagues/test/statistics/?rate=win_rate&min=5").json()
    # three players won one hand of five, level, then by name; player 1 won none
    assert [(row["player"]["id"], row["value"]) for row in board["results"]] == [
        (players[1].pk, 0.2),
        (players[2].pk, 0.2),
        (players[3].pk, 0.2),
        (players[0].pk, 0.0),
    ]
    assert client.get("/api/leagues/test/statistics/?rate=win_rate&min=6").json()["results"] == []
    places = client.get("/api/leagues/test/statistics/?rate=average_place&min=1").json()["results"]
    assert [row["player"]["id"] for row in places] == [players[3].pk, players[1].pk, players[0].pk, players[2].pk]
    csv = client.get("/leagues/test/statistics.csv?rate=deal_in_rate&min=1").content.decode()
    assert csv.splitlines()[0].lstrip("\ufeff") == "rank,player,value,numerator,denominator,hands,games"
    assert client.get(f"/players/{players[1].pk}/statistics.csv").status_code == 200
    records = client.get("/api/leagues/test/records/").json()
    assert records["biggest_hands"][0]["points"] == 3900
    assert client.get("/leagues/test/records/").status_code == 200
    assert client.get("/leagues/test/statistics/?rate=riichi_rate&min=0").status_code == 200


def test_a_board_nobody_reaches_says_how_far_the_players_are_and_offers_a_lower_minimum(client, played):
    # five hands each: the default minimum (100 hands) shows nobody
    html = client.get("/leagues/test/statistics/?rate=win_rate&season=&min=100").content.decode()
    assert "No player has reached the minimum yet." in html
    assert "The most hands any player has is 5" in html
    assert 'href="?rate=win_rate&amp;season=&amp;min=0"' in html  # 5 is under every minimum but 0
    shown = client.get("/leagues/test/statistics/?rate=win_rate&season=&min=0").content.decode()
    assert "No player has reached the minimum yet." not in shown and 'id="board-reach"' not in shown
    # a rate over games counts games: one game each
    assert (
        "The most games any player has is 1"
        in client.get("/leagues/test/statistics/?rate=average_place").content.decode()
    )


def test_an_empty_league_offers_no_lower_minimum(client, league):
    html = client.get(f"/leagues/{league.slug}/statistics/").content.decode()
    assert "No player has reached the minimum yet." in html and 'id="board-reach"' not in html


def test_the_cached_board_follows_each_hand_and_each_renamed_player_at_once(client, game, players, league):
    from league.models import Player

    url = "/api/leagues/test/statistics/?rate=win_rate&min=1"
    mine = f"/api/players/{players[1].pk}/statistics/?league=test"

    def hands_played() -> int:
        return next(f for f in client.get(mine).json()["figures"] if f["key"] == "win_rate")["denominator"]

    hands.hand_record_add(game=game, record=HANDS[0], actor=SYSTEM)
    first = client.get(url).json()["results"]
    assert client.get(url).json()["results"] == first  # read again: the same (from the cache)
    assert hands_played() == 1 and hands_played() == 1
    for record in HANDS[1:]:
        hands.hand_record_add(game=game, record=record, actor=SYSTEM)
    after = client.get(url).json()["results"]
    assert [r["value"] for r in after] == [0.2, 0.2, 0.2, 0.0]  # every hand counted, not the cached first
    assert hands_played() == 5
    Player.objects.filter(pk=players[1].pk).update(display_name="Renamed Player")
    names = [r["player"]["display_name"] for r in client.get(url).json()["results"]]
    assert "Renamed Player" in names

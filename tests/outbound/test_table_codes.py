"""Wrong table codes slow the guessers, not the room (issue 47 §2): no per-event lock anyone can
fill, an escalating wait per address, and the director's desk sees and frees a guesser."""

from __future__ import annotations

import pytest
from django.test import Client

from events import services
from events.services import code_guesses
from kyoku.models import AuditLog
from league.models import Game
from tests.actors import make_user
from tests.events.conftest import event, field, in_play, rules, running  # noqa: F401  (fixtures)


def _phone(address: str) -> Client:
    return Client(REMOTE_ADDR=address)


def _game(event_):
    return Game.objects.filter(season=event_.season, match_day=1).order_by("table").first()


def _try(client, event_, code):
    return client.post(f"/events/{event_.pk}/code/", {"code": code})


@pytest.fixture
def clock(monkeypatch):
    now = [1_900_000_000.0]
    monkeypatch.setattr(code_guesses, "_now", lambda: now[0])
    return now


def test_eleven_addresses_guessing_cannot_lock_out_a_new_phone(in_play, clock):  # noqa: F811
    for i in range(11):
        guesser = _phone(f"203.0.113.{i + 1}")
        answers = [_try(guesser, in_play, "WRNG22").status_code for _ in range(20)]
        # a guesser gets its free tries, then waits: its own code page answers 429
        assert answers[: code_guesses.FREE + 1] == [400] * (code_guesses.FREE + 1)
        assert set(answers[code_guesses.FREE + 1 :]) == {429}
    right = _try(_phone("198.51.100.7"), in_play, services.table_code(_game(in_play)))
    assert right.status_code == 302 and right["Location"] == f"/events/tables/{_game(in_play).pk}/"


def test_a_guesser_waits_longer_after_each_wrong_code_even_with_the_right_one(in_play, clock):  # noqa: F811
    guesser, right = _phone("203.0.113.9"), services.table_code(_game(in_play))
    for _ in range(code_guesses.FREE):
        assert _try(guesser, in_play, "WRNG22").status_code == 400
    assert _try(guesser, in_play, "WRNG22").status_code == 400  # the sixth: now it waits 2 s
    refused = _try(guesser, in_play, right)
    assert refused.status_code == 429 and refused["Retry-After"] == "3"
    clock[0] += 3
    assert _try(guesser, in_play, "WRNG22").status_code == 400  # the seventh: 4 s
    assert _try(guesser, in_play, right)["Retry-After"] == "5"
    clock[0] += 5
    assert _try(guesser, in_play, right).status_code == 302  # waited: its code is compared again
    # a right code does not wipe the count (a phone holding its own code would guess on for free)
    [row] = code_guesses.guessers(in_play)
    assert (row["guesser"], row["misses"]) == ("203.0.113.9", 7)
    assert [code_guesses.wait_after(n) for n in (1, 5, 6, 7, 8, 14, 15, 40)] == [0, 0, 2, 4, 8, 512, 900, 900]


def test_an_ipv6_guesser_is_counted_by_its_64(in_play, clock):  # noqa: F811
    for i in range(code_guesses.FREE + 1):
        assert _try(_phone(f"2001:db8:1:2::{i + 1:x}"), in_play, "WRNG22").status_code == 400
    assert _try(_phone("2001:db8:1:2:ffff::1"), in_play, "WRNG22").status_code == 429
    assert _try(_phone("2001:db8:1:3::1"), in_play, "WRNG22").status_code == 400  # another /64


def test_the_desk_sees_the_guessers_and_frees_one(in_play, admin, clock):  # noqa: F811
    venue = _phone("192.0.2.50")  # the venue's Wi-Fi: every phone there has this address
    for _ in range(code_guesses.FREE + 3):
        _try(venue, in_play, "WRNG22")
    assert _try(venue, in_play, services.table_code(_game(in_play))).status_code == 429
    desk = Client()
    desk.force_login(admin)
    page = desk.get(f"/events/{in_play.pk}/codes/").content.decode()
    assert "192.0.2.50" in page and "Free this address" in page
    freed = desk.post(f"/events/{in_play.pk}/codes/", {"action": "clear", "guesser": "192.0.2.50"}, follow=True)
    assert "192.0.2.50 may enter a table code again." in freed.content.decode()
    assert _try(venue, in_play, services.table_code(_game(in_play))).status_code == 302
    assert AuditLog.objects.filter(action="events.table_code_guesser_clear", data__guesser="192.0.2.50").count() == 1
    assert code_guesses.guessers(in_play) == []


def test_only_the_director_sees_the_guessers(in_play, clock):  # noqa: F811
    _try(_phone("192.0.2.50"), in_play, "WRNG22")
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(f"/events/{in_play.pk}/codes/").status_code == 403
    assert (
        stranger.post(f"/events/{in_play.pk}/codes/", {"action": "clear", "guesser": "192.0.2.50"}).status_code == 403
    )
    assert code_guesses.guessers(in_play)[0]["misses"] == 1

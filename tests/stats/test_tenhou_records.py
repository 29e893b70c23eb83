"""The genuine Tenhou records: the figures kept at import against a count made here by a separate
path, reading the mjlog XML directly (AGARI who/fromWho/yaku, REACH step 2, N calls,
RYUUKYOKU hai<n>), not through the importer or online.tenhou."""

import re
from pathlib import Path
from collections import Counter
from xml.etree import ElementTree

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from online.models import OnlineAccount
from stats.models import PlayerGameStats

FIXTURES = Path(__file__).resolve().parents[1] / "online" / "fixtures"


@pytest.fixture(autouse=True)
def _private_media(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = str(tmp_path / "private")


@pytest.fixture
def season(league, players):
    from kyoku.principals import SYSTEM
    from league import services
    from tests.actors import open_season

    rules = services.rule_set_create(name="Tenhou", slug="tenhou", preset="tenhou", is_template=True, actor=SYSTEM)
    return open_season(league, rules, players)


RECORDS = ["double-ron.mjlog", "2020052221gm-00a9-0000-6f0524c7.mjlog", "2016052515gm-00a9-0000-c4d72066.mjlog"]


def count_directly(data: bytes) -> list[Counter]:
    root = ElementTree.fromstring(data.decode())
    seats = [Counter() for _ in range(4)]
    hand_riichi: set = set()
    for el in root:
        if el.tag == "INIT":
            hand_riichi = set()
            for c in seats:
                c["hands"] += 1
        elif el.tag == "REACH" and el.get("step") == "2":
            hand_riichi.add(int(el.get("who")))
            seats[int(el.get("who"))]["riichi"] += 1
        elif el.tag == "AGARI":
            who, frm = int(el.get("who")), int(el.get("fromWho"))
            c = seats[who]
            c["wins"] += 1
            c["self_draws"] += who == frm
            c["riichi_wins"] += who in hand_riichi
            pairs = [int(x) for x in el.get("yaku", "").split(",") if x]
            c["dora"] += sum(h for y, h in zip(pairs[::2], pairs[1::2]) if y in (52, 53, 54))
        elif el.tag == "RYUUKYOKU":
            if el.get("type") is None:
                for s in range(4):
                    seats[s]["draws_known"] += 1
                    seats[s]["draws_tenpai"] += el.get(f"hai{s}") is not None
    return seats


def open_hands_directly(data: bytes) -> list[int]:
    root = ElementTree.fromstring(data.decode())
    out = [0, 0, 0, 0]
    opened: set = set()
    for el in list(root) + [ElementTree.Element("INIT")]:
        if el.tag == "INIT":
            for s in opened:
                out[s] += 1
            opened = set()
        elif el.tag == "N":
            m = int(el.get("m"))
            # chi (bit 2), pon (bit 3), added kan (bit 4), or a kan called from another seat
            if m & 0x1C or (not m & 0x20 and m & 0x3):
                opened.add(int(el.get("who")))
    return out


def deal_ins_directly(data: bytes) -> list[int]:
    """Deal-ins: discards won on (a double ron is one: the same hand, one discarder)."""
    text = data.decode()
    out = [0, 0, 0, 0]
    for hand in text.split("<INIT")[1:]:
        froms = {int(f) for w, f in re.findall(r'<AGARI[^>]*?who="(\d)" fromWho="(\d)"', hand) if w != f}
        for f in froms:
            out[f] += 1
    return out


@pytest.mark.parametrize("name", RECORDS)
def test_imported_figures_match_a_direct_count(name, game, players, admin, as_user):
    from online.tenhou import parse_record

    data = (FIXTURES / name).read_bytes()
    for p, n in zip(players, parse_record(data, name).names):
        OnlineAccount.objects.create(player=p, account_name=n)
    r = as_user(admin).post(
        f"/api/games/{game.pk}/import/", {"file": SimpleUploadedFile(name, data)}, format="multipart"
    )
    assert r.status_code == 201, r.json()
    direct = count_directly(data)
    opened = open_hands_directly(data)
    dealt = deal_ins_directly(data)
    for seat in range(4):
        row = PlayerGameStats.objects.get(game=game, player=players[seat])
        expected = direct[seat]
        assert row.hands == expected["hands"]
        assert (row.wins, row.self_draws, row.riichi, row.riichi_wins) == (
            expected["wins"],
            expected["self_draws"],
            expected["riichi"],
            expected["riichi_wins"],
        ), seat
        assert (row.draws_known, row.draws_tenpai) == (expected["draws_known"], expected["draws_tenpai"])
        assert row.dora == expected["dora"] and row.dora_wins == row.wins and row.yaku_wins == row.wins
        assert row.calls_known == row.hands and row.open_hands == opened[seat]
        assert row.deal_ins == dealt[seat]
        assert row.place is not None and row.games == 1

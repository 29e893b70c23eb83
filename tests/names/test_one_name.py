"""Issue 50 §2: one person, one name on every page of a language (league.names.player_display_name).

Player "Chan Tai Man" / 陳大文 (romanised parts Chan · Tai Man, confirmed) is read on every page and
export that shows players, in English, Traditional Chinese and Japanese: an English page names
him "Chan Tai Man" and never 陳大文, a Chinese or Japanese page 陳大文 and never "Chan Tai Man". The
EMA file writes his romanised parts in every language; the roster export keeps each name in its own
column (the record an import reads back)."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from events import ema, services
from events.models import Registration
from league.models import Game, LeagueMembership
from league.names import (
    FAMILY_FIRST,
    GIVEN_FIRST,
    LATIN_MISSING,
    LATIN_PROPOSED,
    latin_parts,
    name_language,
    player_display_name,
)
from league.services import player_name_confirm
from tests.events.conftest import event, field, rules, running  # noqa: F401  (fixtures)

LATIN, NATIVE = "Chan Tai Man", "陳大文"
LANGUAGES = {"en": (LATIN, NATIVE), "zh-hant": (NATIVE, LATIN), "ja": (NATIVE, LATIN)}
SCORES = [48000, 32000, 12000, 8000]


@pytest.fixture
def played(running, field, admin):
    """Round 1 played; field[1] is Chan Tai Man / 陳大文 (confirmed Latin parts), field[2] has only a
    native name (黃美玲, native parts), field[3] a Latin name and no parts (Wong Mei Ling)."""
    chan = field[1]
    chan.display_name, chan.native_name = LATIN, NATIVE
    chan.family_name, chan.given_name, chan.name_order = "Chan", "Tai Man", FAMILY_FIRST
    chan.save()
    player_name_confirm(player=chan, actor=admin)
    field[2].display_name, field[2].family_name, field[2].given_name = "黃美玲", "黃", "美玲"
    field[2].name_order = FAMILY_FIRST
    field[2].save()
    field[3].display_name = "Wong Mei Ling"
    field[3].save()
    Registration.objects.filter(event=running, player=chan).update(ema_number="20000042", nationality="HKG")
    for p in field[:4]:
        LeagueMembership.objects.get_or_create(league=running.league, player=p, defaults={"via": "admin"})
    for game in Game.objects.filter(season=running.season, match_day=1):
        services.table_result_enter(game=game, scores=SCORES, actor=admin)
    return running


def _client(user, language: str) -> Client:
    client = Client(headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client


def _pages(event, chan) -> dict[str, str]:
    """Every page that prints a player's name, with the path that reads it."""
    season = event.season
    division = season.divisions.get()
    game = Game.objects.filter(season=season, match_day=1, seats__player=chan).get()
    return {
        "standings": reverse("standings", args=[season.pk, division.code]),
        "player page": reverse("player", args=[chan.pk]),
        "game page": reverse("game", args=[game.pk]),
        "statistics": reverse("stats-player", args=[chan.pk]),
        "event page": reverse("event", args=[event.pk]),
        "event desk": reverse("event-desk", args=[event.pk]),
        "table": reverse("event-table", args=[game.pk]),
        "seating cards": reverse("event-cards", args=[event.pk]),
        "table signs": reverse("event-signs", args=[event.pk]),
        "results": reverse("event-results", args=[event.pk]),
        "big screen": reverse("event-board", args=[event.pk]),
        "standings export": reverse("standings-export", args=[season.pk, division.code, "csv"]),
        "results export": reverse("results-export", args=[season.pk, "csv"]),
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_names_the_player_once_in_the_rule_s_script(played, field, admin, language):
    shown, never = LANGUAGES[language]
    client = _client(admin, language)
    for page, path in _pages(played, field[1]).items():
        response = client.get(path)
        assert response.status_code == 200, (page, response.status_code)
        body = response.content.decode("utf-8")
        assert shown in body, (language, page)
        assert never not in body, (language, page)

    board = client.get(f"/api/events/{played.pk}/board").json()
    names = {row["name"] for row in board["standings"]}
    assert shown in names and never not in names
    ranking = client.get(f"/api/events/{played.pk}/ranking").json()
    assert shown in {row["name"] for row in ranking} and never not in {row["name"] for row in ranking}


def test_a_name_in_another_script_than_the_page_carries_its_language(played, field, admin):
    en = _client(admin, "en").get(reverse("event-results", args=[played.pk])).content.decode()
    ja = _client(admin, "ja").get(reverse("event-results", args=[played.pk])).content.decode()
    zh = _client(admin, "zh-hant").get(reverse("event-results", args=[played.pk])).content.decode()
    # 黃美玲 has no Latin name: an English page prints it marked as Chinese
    assert '<span lang="zh-Hant">黃美玲</span>' in en
    assert f">{LATIN}<" in en or f">{LATIN} " in en or f"{LATIN}</" in en  # the page's own script: no span
    assert f'<span lang="zh-Hant">{NATIVE}</span>' in ja  # a Chinese name on a Japanese page
    assert f'<span lang="zh-Hant">{NATIVE}</span>' not in zh and NATIVE in zh
    assert '<span lang="en">Ev Player 00</span>' in zh  # a Latin name on a Chinese page


def test_the_board_answers_each_language_its_own_names(played, field):
    """The board's body is cached per version: the names are the language's, so is its ETag."""
    en, zh = Client(headers={"accept-language": "en"}), Client(headers={"accept-language": "zh-hant"})
    first = en.get(f"/api/events/{played.pk}/board")
    second = zh.get(f"/api/events/{played.pk}/board")
    assert first["ETag"] != second["ETag"]
    assert LATIN in {r["name"] for r in first.json()["standings"]}
    assert NATIVE in {r["name"] for r in second.json()["standings"]}
    again = zh.get(f"/api/events/{played.pk}/board", headers={"if-none-match": first["ETag"]})
    assert again.status_code == 200  # an English ETag is no Chinese board's


def _ema_rows(client, event) -> list[list[str]]:
    text = client.get(reverse("event-ema", args=[event.pk])).content.decode("utf-8")[1:]
    rows = list(csv.reader(io.StringIO(text)))
    return rows[rows.index(list(ema.COLUMNS)) + 1 :]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_ema_file_writes_romanised_parts_only_in_every_language(played, field, admin, language):
    rows = _ema_rows(_client(admin, language), played)
    by_number = {row[3]: row for row in rows}
    assert by_number["20000042"][1:5] == ["Chan", "Tai Man", "20000042", "HKG"]
    cells = [cell for row in rows for cell in row[1:3]]
    assert not any(name_language(cell) != "en" for cell in cells if cell), "never native script"
    assert "Wong" in cells and "Mei Ling" in cells  # proposed from the Latin name (listed on the page)
    assert "黃" not in "".join(cells) and "陳" not in "".join(cells)


def test_the_export_page_lists_players_without_romanised_parts_with_a_link_to_fix_each(played, field, admin):
    page = _client(admin, "en").get(reverse("event-ema-page", args=[played.pk])).content.decode()
    member = reverse("member", args=[played.league.slug, field[2].pk])
    assert f'id="ema-name-{field[2].pk}" class="ema-{LATIN_MISSING}"' in page and member in page
    assert f'id="ema-name-{field[3].pk}" class="ema-{LATIN_PROPOSED}"' in page
    assert f'id="ema-name-{field[1].pk}"' not in page  # confirmed romanised parts: nothing to check
    assert "Rules: M.League rules" in page
    desk = _client(admin, "en").get(reverse("event-desk", args=[played.pk])).content.decode()
    assert reverse("event-ema-page", args=[played.pk]) in desk
    assert "<td>20000042</td><td>HKG</td>" in desk  # the nationality in a column of its own


def test_the_roster_export_keeps_each_name_in_its_column(played, field, admin):
    for language in LANGUAGES:
        text = _client(admin, language).get(reverse("members-export", args=[played.league.slug, "csv"]))
        rows = list(csv.DictReader(io.StringIO(text.content.decode("utf-8").lstrip("\ufeff"))))
        chan = next(r for r in rows if LATIN in r.values())
        assert NATIVE in chan.values() and len([v for v in chan.values() if v in (LATIN, NATIVE)]) == 2


@pytest.mark.parametrize(
    "player, en, zh",
    [
        ({"display_name": LATIN, "native_name": NATIVE}, LATIN, NATIVE),
        (
            {"display_name": NATIVE, "family_name": "Chan", "given_name": "Tai Man", "name_order": FAMILY_FIRST},
            LATIN,
            NATIVE,
        ),
        ({"display_name": LATIN, "family_name": "陳", "given_name": "大文", "name_order": FAMILY_FIRST}, LATIN, NATIVE),
        ({"display_name": "黃美玲"}, "黃美玲", "黃美玲"),
        ({"display_name": "Alex Fontaine"}, "Alex Fontaine", "Alex Fontaine"),
        ({"display_name": "María José", "native_name": "瑪麗亞"}, "María José", "瑪麗亞"),
    ],
)
def test_the_rule(player, en, zh):
    assert player_display_name(player, "en") == en
    assert player_display_name(player, "zh-hant") == zh == player_display_name(player, "ja")


@pytest.mark.parametrize(
    "name, hint, lang",
    [
        ("陳大文", "Chan Tai Man", "zh-Hant"),
        ("佐藤春樹", "Sato Haruki", "ja"),
        ("鈴木蓮", "Suzuki Ren", "ja"),
        ("邱凱欣", "Yau Hoi Yan", "zh-Hant"),
        ("さくら", "", "ja"),
        ("김민준", "", "ko"),
        ("Chan Tai Man", "", "en"),
    ],
)
def test_a_name_s_language(name, hint, lang):
    assert name_language(name, hint) == lang


def test_latin_parts_never_native():
    confirmed = {"display_name": LATIN, "family_name": "Chan", "given_name": "Tai Man", "name_confirmed_at": 1}
    assert latin_parts(confirmed) == ("Chan", "Tai Man", "confirmed")
    native_parts = {"display_name": LATIN, "family_name": "陳", "given_name": "大文", "name_confirmed_at": 1}
    assert latin_parts(native_parts) == ("Chan", "Tai Man", "proposed")
    assert latin_parts({"display_name": NATIVE, "family_name": "陳", "given_name": "大文"}) == ("", "", "missing")
    only_family = {"display_name": "Mika", "family_name": "Mika", "given_name": "", "name_confirmed_at": 1}
    assert latin_parts(only_family)[2] == "unconfirmed"  # an empty part is never confirmed
    assert GIVEN_FIRST  # the order's constant is the module's

"""Codes shown as words in every language: platforms (tenhou, mahjongsoul), rule presets (wrc,
mleague), the note a season's copy of a template carries, and the audit log's actions
(season.rules_revise) and object types (league.qualificationapplication)."""

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation

from kyoku.labels import LABELS, audit_action_label, label
from league import services
from league.models import QualificationTier

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("lang,words", [("en", "Rules revised"), ("ja", "ルール改訂"), ("zh-hant", "規則已修訂")])
def test_an_audit_action_in_words(lang, words):
    with translation.override(lang):
        assert audit_action_label("season.rules_revise") == words


@pytest.mark.parametrize(
    "lang,words", [("en", "Qualification application"), ("ja", "参加資格申請"), ("zh-hant", "參賽資格申請")]
)
def test_an_audit_object_type_in_words(lang, words):
    with translation.override(lang):
        assert label("league.qualificationapplication", "audit_object") == words


def test_site_admin_actions_are_worded_from_their_parts():
    with translation.override("en"):
        assert audit_action_label("admin.game.change") == "In the site admin: Game changed"
        assert audit_action_label("admin.qualificationapplication.delete") == (
            "In the site admin: Qualification application deleted"
        )
        assert audit_action_label("ratings.games_recomputed") == "Ratings recomputed"
        assert audit_action_label("odd.new_code") == "Odd new code"  # humanised, never the raw code


def test_every_audit_action_the_code_writes_has_words():
    written = set()
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", "tests", "bench"}:
            continue
        text = path.read_text(encoding="utf-8")
        if "audit_log_write" in text:
            written |= set(re.findall(r'action="([a-z_]+\.[a-z_.]+)"', text))
            written |= {
                m
                for pair in re.findall(r'action="([a-z_]+\.[a-z_]+)" if .+? else "([a-z_]+\.[a-z_]+)"', text)
                for m in pair
            }
    assert written, "no audit actions found"
    assert sorted(written - set(LABELS["audit_action"])) == []


@pytest.mark.parametrize("lang,platform", [("en", "Mahjong Soul"), ("ja", "雀魂"), ("zh-hant", "雀魂")])
def test_platforms_in_words(lang, platform):
    with translation.override(lang):
        assert label("mahjongsoul", "platform") == platform and label("tenhou", "platform") in ("Tenhou", "天鳳")


def page(url: str, user=None, lang: str = "en") -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200
    return html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def applied(season, players, member):
    tier = QualificationTier.objects.create(
        league=season.league,
        code="MS",
        description="Mahjong Soul",
        division_code="A",
        effective_year=2020,
        validity="yearly",
        requirements={},
    )
    return services.application_submit(
        player=players[0],
        season=season,
        tier=tier,
        actor=member,
        evidence={"platform": "mahjongsoul", "account_id": "12345"},
    )


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", ("Application submitted", "Qualification application #")),
        ("ja", ("申請を提出", "参加資格申請 #")),
        ("zh-hant", ("已提交申請", "參賽資格申請 #")),
    ],
)
def test_audit_page_shows_words(applied, season, admin, lang, words):
    text = page(f"/seasons/{season.pk}/audit/", admin, lang)
    for w in words:
        assert w in text
    assert "application.submit" not in text and "league.qualificationapplication" not in text
    assert "season.create" not in text


def test_review_queue_names_the_platform(applied, admin):
    text = page("/review/applications/", admin)
    assert "Mahjong Soul 12345" in text and "mahjongsoul" not in text


@pytest.mark.parametrize(
    "lang,preset,copied",
    [
        ("en", "M.League preset", "Copied from the league's M.League template"),
        ("ja", "プリセットはMリーグルール", "リーグのMリーグルールテンプレートから複製"),
        ("zh-hant", "以M.League 規則為預設", "複製自聯賽的M.League 規則範本"),
    ],
)
def test_season_rules_page_names_the_preset(season, lang, preset, copied):
    text = page(f"/scoring/seasons/{season.pk}/rules/", lang=lang)
    assert preset in text and copied in text
    assert "mleague" not in text and "copied from" not in text


def test_rules_tables_name_the_presets():
    text = page("/scoring/rules/")
    for name in ("WRC", "EMA", "M.League", "Tenhou", "JPML"):
        assert f" {name} " in text
    assert not re.search(r"\b(wrc|mleague|jpml)\b", text)

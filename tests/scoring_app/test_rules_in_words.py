"""Rule options in words: the rules tables page and the presets API show every option's label,
meaning, value in words and source (never a Python repr such as ``None`` or ``{'mode': ...}``);
a league admin revises a riichi season through a typed form, previewed before it is saved."""

import re

import pytest
from django.test import Client

from league.models import GameResult
from scoring.engine.riichi import OPTION_DOCS, PRESETS

LANGS = ["en", "zh-hant"]
REPRS = re.compile(r"\{'|\bNone\b|\bTrue\b|\bFalse\b|\[\d+, ")


def visible(html: str) -> str:
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    html = re.sub(r"(?s)<[^>]+>", " ", html)
    return html


def client_for(user=None, lang="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=lang)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "Kiriage mangan",
                "20,000 points off the final score",
                "+15 / +5 / −5 / −15",
                "not used",
                "worldriichi.org",
                "unconfirmed",
            ],
        ),
        ("zh-hant", ["切上滿貫", "終局點數扣 20,000 點", "+15 / +5 / −5 / −15", "不採用", "worldriichi.org", "未證實"]),
    ],
)
def test_rules_page_shows_options_in_words_with_sources(db, lang, words):
    page = client_for(lang=lang).get("/scoring/rules/").content.decode()
    riichi = re.search(r'(?s)<table class="grid" id="riichi-options">.*?</table>', page).group(0)
    text = visible(riichi)
    for w in words:
        assert w in text, w
    assert not REPRS.search(text), REPRS.search(text).group(0)
    # the option tables of the other systems show values in words too
    for table in re.findall(r'(?s)<table class="grid options">.*?</table>', page):
        values = re.findall(r"(?s)<td>([^<]*)</td></tr>", table)
        assert values and not any(REPRS.search(v) for v in values), values
    # every option of the engine has its row
    assert all(f'id="option-{option}"' in page for option in OPTION_DOCS)


def test_presets_api_lists_every_option_of_every_preset_in_words(db):
    data = client_for(lang="zh-hant").get("/api/rules/riichi/presets/").json()
    assert set(data["presets"]) == set(PRESETS)
    rows = {row["option"]: row for row in data["options"]}
    assert set(rows) == set(OPTION_DOCS)
    kiriage = {cell["preset"]: cell for cell in rows["kiriage"]["values"]}
    assert kiriage["wrc"]["value"] is True and kiriage["wrc"]["words"] == "是"
    assert "worldriichi.org" in kiriage["wrc"]["source"]
    abortive = {cell["preset"]: cell for cell in rows["abortive_draws"]["values"]}
    assert abortive["mleague"]["value"] == [] and "途中流局なし" in abortive["mleague"]["source"]
    assert rows["final_rounding"]["label"] == "終局點數進位"


def test_typed_form_previews_then_saves_a_revision(finished, season, admin):
    client = client_for(admin)
    page = client.get(f"/scoring/seasons/{season.pk}/rules/").content.decode()
    assert 'name="kiriage"' in page and 'name="uma"' in page and 'name="chombo_mode"' in page
    form = _form_data(page)
    form.update({"uma": "20 / 10 / -10 / -20", "honba_points": "1500", "notes": "AGM 2026"})
    preview = client.post(f"/scoring/seasons/{season.pk}/rules/", {**form, "preview": "1"})
    assert preview.status_code == 200
    shown = preview.context["preview"]
    assert {c["label"] for c in shown["changes"]} == {"Uma", "Value of a honba"}
    assert shown["hands_resettled"] and shown["hands"] == 5 and shown["results"] == 1
    season.refresh_from_db()
    assert season.rule_set.version == 1  # a preview stores nothing
    saved = client.post(f"/scoring/seasons/{season.pk}/rules/", {**form, "save": "1"})
    assert saved.status_code == 302
    season.refresh_from_db()
    assert season.rule_set.version == 2
    assert season.rule_set.overrides == {"uma": [20, 10, -10, -20], "honba_points": 1500}
    assert GameResult.objects.get(game=finished).points == [-16.6, 7.4, -31.6, 40.8]


def test_an_uma_only_preview_says_no_hand_is_resettled(finished, season, admin):
    client = client_for(admin)
    form = _form_data(client.get(f"/scoring/seasons/{season.pk}/rules/").content.decode())
    form["uma"] = "20 / 10 / -10 / -20"
    shown = client.post(f"/scoring/seasons/{season.pk}/rules/", {**form, "preview": "1"}).context["preview"]
    assert not shown["hands_resettled"] and shown["hands"] == 0 and shown["results"] == 1


@pytest.mark.parametrize(
    "field, value", [("uma", "15 / 5 / -5"), ("uma", "a / b / c / d"), ("honba_points", "250"), ("renhou", "double")]
)
def test_a_bad_value_names_its_field_and_stores_nothing(season, admin, field, value):
    client = client_for(admin)
    form = _form_data(client.get(f"/scoring/seasons/{season.pk}/rules/").content.decode())
    form[field] = value
    response = client.post(f"/scoring/seasons/{season.pk}/rules/", {**form, "save": "1"})
    assert response.status_code == 200
    assert field in response.context["form"].errors
    season.refresh_from_db()
    assert season.rule_set.version == 1


def test_it_validates_ownership(season, outsider, referee, member):
    for user in (outsider, referee, member, None):
        response = client_for(user).post(f"/scoring/seasons/{season.pk}/rules/", {"kiriage": "on", "save": "1"})
        assert response.status_code == 403
    season.refresh_from_db()
    assert season.rule_set.version == 1


def _form_data(page: str) -> dict:
    """The typed form's current values, as a browser would submit them."""
    form = re.search(r'(?s)<form method="post" id="rules-form".*?</form>', page).group(0)
    data: dict = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or 'type="submit"' in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        kind = re.search(r'type="([^"]+)"', tag)
        if kind and kind.group(1) == "checkbox":
            if "checked" in tag:
                data.setdefault(name.group(1), []).append(value.group(1) if value else "on")
            continue
        data[name.group(1)] = value.group(1) if value else ""
    for name, body in re.findall(r'(?s)<select name="([^"]+)"[^>]*>(.*?)</select>', form):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = chosen.group(1) if chosen else ""
    for name, body in re.findall(r'(?s)<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', form):
        data[name] = body.strip()
    return {
        k: (v[0] if isinstance(v, list) and len(v) == 1 and k not in ("abortive_draws", "pao") else v)
        for k, v in data.items()
    }

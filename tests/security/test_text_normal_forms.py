"""Names in one normal form (kyoku.text): NFC, trimmed, inner whitespace one space; control,
bidi and invisible characters refused naming the field. Players' names (every save), online
account names (service and API) and qualification account ids."""

from __future__ import annotations

import unicodedata

import pytest
from django.core.exceptions import ValidationError
from rest_framework import serializers
from rest_framework.test import APIClient

from kyoku.text import NameFormField, NameSerializerField, name_clean
from league.models import Player
from tests.actors import make_player_user

BAD = {
    "right-to-left override": "Chan\u202eTai",
    "left-to-right embedding": "Chan\u202aTai",
    "first-strong isolate": "Chan\u2068Tai\u2069",
    "right-to-left mark": "Chan\u200fTai",
    "Arabic letter mark": "Chan\u061cTai",
    "zero-width space": "Chan\u200bTai",
    "zero-width joiner": "Chan\u200dTai",
    "word joiner": "Chan\u2060Tai",
    "byte order mark": "\ufeffChan",
    "NUL": "Chan\x00Tai",
    "bell": "Chan\x07",
    "tab inside": "Chan\tTai",
    "newline inside": "Chan\nTai",
    "line separator": "Chan\u2028Tai",
    "Hangul filler": "\u3164",
    "lone surrogate": "Chan\ud800",
}


@pytest.mark.parametrize("value", list(BAD.values()), ids=list(BAD))
def test_invisible_and_control_characters_are_refused(value):
    with pytest.raises(ValidationError) as err:
        name_clean(value, field="display_name", max_length=80)
    (error,) = err.value.error_dict["display_name"]
    assert error.code == "name_control"
    assert "U+" in error.messages[0]


def test_the_normal_form():
    decomposed = "Ame\u0301lie"  # e + combining acute
    assert name_clean(decomposed, field="f", max_length=80) == unicodedata.normalize("NFC", decomposed)
    assert name_clean(decomposed, field="f", max_length=80) == "Amélie"
    assert name_clean("  Chan   Tai\u00a0Man \n", field="f", max_length=80) == "Chan Tai Man"
    assert name_clean("山田\u3000太郎", field="f", max_length=80) == "山田 太郎"
    assert name_clean("", field="team", max_length=60, required=False) == ""
    for code, value in (("name_required", "   "), ("name_invalid", 12), ("name_too_long", "x" * 61)):
        with pytest.raises(ValidationError) as err:
            name_clean(value, field="team", max_length=60)
        assert err.value.error_dict["team"][0].code == code


def test_the_form_and_serializer_fields():
    assert NameFormField(max_length=20).clean(" Chan  Tai ") == "Chan Tai"
    with pytest.raises(ValidationError) as err:
        NameFormField(max_length=20).clean("Chan\u202eTai")
    assert err.value.error_list[0].code == "name_control"

    class S(serializers.Serializer):
        team = NameSerializerField(max_length=60, allow_blank=True)

    ok = S(data={"team": " Red  Dragons "})
    assert ok.is_valid() and ok.validated_data["team"] == "Red Dragons"
    bad = S(data={"team": "Red\u200bDragons"})
    assert not bad.is_valid() and bad.errors["team"][0].code == "name_control"


def test_a_player_is_saved_in_the_normal_form_or_not_at_all(db):
    player = Player.objects.create(display_name=" Chan  Tai\u00a0Man ", native_name="陳大文 ", membership_number="N1")
    player.refresh_from_db()
    assert (player.display_name, player.native_name) == ("Chan Tai Man", "陳大文")
    for field in ("display_name", "native_name", "tenhou_id", "mahjong_soul_id"):
        other = Player(display_name="Ok", membership_number=f"N-{field}")
        setattr(other, field, "evil\u202egnp.exe")
        with pytest.raises(ValidationError) as err:
            other.save()
        assert field in err.value.error_dict
    assert not Player.objects.filter(membership_number__startswith="N-").exists()


def test_the_admin_form_names_the_field(db, django_user_model):
    from django.test import Client

    staff = django_user_model.objects.create_superuser("root", password="root-pw-123")
    client = Client()
    client.force_login(staff)
    response = client.post(
        "/admin/league/player/add/",
        {"display_name": "Chan\u200bTai", "native_name": "", "membership_number": "A1", "active": "on"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "U+200B" in response.content.decode()
    assert not Player.objects.filter(membership_number="A1").exists()


@pytest.fixture
def owner(db):
    player = Player.objects.create(display_name="Account Owner", membership_number="AO1")
    return player, make_player_user("account-owner", player)


def test_an_online_account_name_is_refused_with_a_bidi_override(owner):
    player, user = owner
    api = APIClient()
    api.force_authenticate(user)
    url = f"/api/players/{player.pk}/accounts/"
    response = api.post(url, {"account_name": "ASAPIN\u202e"}, format="json")
    assert response.status_code == 400, response.content
    assert "account_name" in response.json()["errors"]
    assert not player.online_accounts.exists()
    ok = api.post(url, {"account_name": "  ASA\u3000PIN "}, format="json")
    assert ok.status_code == 201 and ok.json()["account_name"] == "ASA PIN"


def test_the_service_holds_for_every_entry_path(owner):
    from online import services

    player, user = owner
    with pytest.raises(ValidationError) as err:
        services.account_link(player=player, account_name="ASA\u200bPIN", actor=user)
    assert err.value.error_dict["account_name"][0].code == "name_control"
    account = services.account_link(player=player, account_name="Ame\u0301lie", actor=user)
    assert account.account_name == "Amélie"
    # a record's decomposed name finds the account stored in the normal form
    from online.selectors import players_by_account

    assert players_by_account(["Ame\u0301lie"]) == {"Ame\u0301lie": player}
    services.account_unlink(player=player, account_name="Ame\u0301lie ", actor=user)
    assert not player.online_accounts.exists()


def test_a_qualification_account_id_is_in_the_normal_form():
    from league.qualification import clean_evidence

    class Season:
        year, ordinal, status = 2026, 1, "open"

    class Tier:
        requirements: dict = {}

    with pytest.raises(ValidationError) as err:
        clean_evidence(tier=Tier(), evidence={"account_id": "ASA\u202ePIN"}, season=Season())
    assert "account_id" in err.value.error_dict

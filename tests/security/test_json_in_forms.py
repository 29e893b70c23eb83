"""One safe JSON reading for every JSON value a request carries, whatever its content type: deep
nesting, NaN and lone surrogates in a form-encoded or multipart field answer 400 naming the field
(they once answered 500 with a RecursionError), exactly as the same value in a JSON body does."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league import services
from tests.actors import open_season
from kyoku.principals import SYSTEM

DEEP = "[" * 50_000 + "]" * 50_000


@pytest.fixture
def game(league, players):
    rules = services.rule_set_create(name="Tenhou", slug="tenhou", preset="tenhou", is_template=True, actor=SYSTEM)
    season = open_season(league, rules, players)
    return services.game_create(
        division=season.divisions.get(code="A"), match_day=1, table=1, players=players[:4], actor=SYSTEM
    )


@pytest.mark.parametrize("value", [DEEP, '{"a": NaN}', '{"a": "\\ud800"}', "{not json"])
def test_multipart_mapping_is_400_naming_it(game, admin, value):
    api = APIClient()
    api.force_authenticate(admin)
    body = {"file": SimpleUploadedFile("x.mjlog", b"<mjloggm/>"), "mapping": value}
    r = api.post(f"/api/games/{game.pk}/import/", body, format="multipart")
    assert r.status_code == 400
    assert "mapping" in r.json()["errors"]


def test_incident_form_refuses_deep_json_in_its_timeline():
    from referee.forms import IncidentForm

    form = IncidentForm(data={"dealer": "0", "kind": "conduct", "events": DEEP})
    assert not form.is_valid() and "events" in form.errors


def test_serializer_field_reads_form_text_and_body_values_alike():
    from rest_framework import serializers

    from kyoku.parsers import SafeJSONField

    class Probe(serializers.Serializer):
        events = SafeJSONField()

    for value in ({"events": ["x"] * 3}, {"events": {"a": float("nan")}}):
        probe = Probe(data=value)
        assert probe.is_valid() is (value["events"] == ["x"] * 3)
        if not probe.is_valid():
            assert "events" in probe.errors


def test_scorekeeper_record_form_refuses_deep_json(client, game, admin):
    from scoring.forms import HandRecordForm

    form = HandRecordForm(data={"record": DEEP})
    assert not form.is_valid() and "record" in form.errors

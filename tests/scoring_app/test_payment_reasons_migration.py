"""Migration 0007 on stored hands: settlements written before payment reasons gain them, byte for
byte as the engine writes them now, with their digest; a season re-settle then changes nothing."""

import importlib

from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from scoring import display, services
from scoring.engine.replay import derived_digest, encode
from scoring.models import HandRecord

MIGRATION = importlib.import_module("scoring.migrations.0007_payment_reasons")


def _strip(settlement):
    for line in [*settlement.get("payments", ()), *settlement.get("penalties", ())]:
        line.pop("reason", None)
    return settlement


def test_stored_settlements_gain_reasons(finished, admin):
    fresh = {h.id: h.settlement for h in HandRecord.objects.all()}
    assert any(h["payments"] for h in fresh.values())
    for hand in HandRecord.objects.all():  # as stored before reasons (the digest guard clears the digest)
        HandRecord.objects.filter(pk=hand.pk).update(settlement=_strip(hand.settlement))
    assert all(
        display.settlement_display(h.settlement, ["a", "b", "c", "d"])["payments"] == []
        or all(p["why"] == "" for p in display.settlement_display(h.settlement, ["a", "b", "c", "d"])["payments"])
        for h in HandRecord.objects.all()
    )

    # the models as the migration sees them (the historical state before it)
    historical = MigrationLoader(connection).project_state(("scoring", "0006_hand_derived_json")).apps
    MIGRATION.forward(historical, None)

    for hand in HandRecord.objects.all():
        assert hand.settlement == fresh[hand.id]
        assert hand.derived_digest == derived_digest(encode(hand.settlement), encode(hand.scores_after))
        with translation.override("ja"):
            shown = display.settlement_display(hand.settlement, ["a", "b", "c", "d"])
        assert all(p["why"] for p in shown["payments"] + shown["penalties"])
    season = finished.season
    assert services.season_hands_resettle(season=season, actor=admin)["hands_changed"] == 0

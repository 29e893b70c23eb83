"""An open season under Tenhou's rules; ``game`` seats players 1-4 in seat order. Raw records
are private files: PRIVATE_MEDIA_ROOT points at a temporary folder."""

from pathlib import Path

import pytest

from league import services
from tests.actors import open_season
from kyoku.principals import SYSTEM

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _private_media(settings, tmp_path):
    settings.PRIVATE_MEDIA_ROOT = str(tmp_path / "private")


@pytest.fixture
def tenhou_rules(db):
    return services.rule_set_create(name="Tenhou", slug="tenhou", preset="tenhou", is_template=True, actor=SYSTEM)


@pytest.fixture
def season(league, tenhou_rules, players):
    return open_season(league, tenhou_rules, players)


@pytest.fixture
def fixture_bytes():
    return lambda name: (FIXTURES / name).read_bytes()

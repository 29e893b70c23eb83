"""The referee app's actors and timelines (tests/referee_app/conftest.py), plus a logged incident."""

import pytest

from referee import services
from tests.referee_app.conftest import (  # noqa: F401  (fixtures)
    bystander,
    played,
    referee2,
    season,
    tl,
    wrc_rules,
)


@pytest.fixture
def logged(game, referee, tl):
    """Seed 003 incident 1 where South's early discard made North miss a call: South is penalised."""
    return services.incident_log(
        game=game,
        hand_number=2,
        dealer=0,
        kind="early_play",
        events=tl.harmful(),
        description="South discarded during the deal",
        reporter=referee,
    )

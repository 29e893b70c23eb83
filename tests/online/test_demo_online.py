"""On the demo as ./scripts/serve loads it: every genuine record imports into its game of the
Tenhou Online League with every hand agreeing, mapping the names on the way as the page does; a
game of the Hong Kong league (WRC rules, 30,000 start) refuses the same record in words."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from league.models import Game, GameResult
from online.demo import GAMES
from online.tenhou import parse_record
from scoring.models import HandRecord

from .conftest import FIXTURES


@pytest.fixture
def demo(demo_committed):
    """The demo with the work it queues for the commit done (tests/conftest.py)."""


def test_every_fixture_imports_into_the_demo_online_league(demo, django_capture_on_commit_callbacks):
    from django.contrib.auth import get_user_model

    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username="admin"))
    for table, (name, _seats) in enumerate(GAMES, start=1):
        game = Game.objects.get(season__league__slug="tol", table=table)
        data = (FIXTURES / name).read_bytes()
        record = parse_record(data, name)
        seated = [s.player_id for s in game.seats.order_by("seat")]
        mapping = {n: seated[i] for i, n in enumerate(record.names)}
        with django_capture_on_commit_callbacks(execute=True):
            r = api.post(
                f"/api/games/{game.pk}/import/",
                {"file": SimpleUploadedFile(name, data), "mapping": __import__("json").dumps(mapping)},
                format="multipart",
            )
        assert r.status_code == 201, (name, r.json())
        assert r.json()["agreed"] is True
        assert HandRecord.objects.filter(game=game).count() == len(record.hands)
        assert GameResult.objects.get(game=game).scores == record.final_scores
        assert [float(s.points) for s in game.seats.order_by("seat")] == record.final_points


def test_demo_wrc_game_refuses_in_words(demo):
    from django.contrib.auth import get_user_model

    api = APIClient()
    api.force_authenticate(get_user_model().objects.get(username="admin"))
    game = Game.objects.filter(season__league__slug="hkrl", result__isnull=True, status="scheduled").first()
    name = GAMES[3][0]
    r = api.post(
        f"/api/games/{game.pk}/import/",
        {"file": SimpleUploadedFile(name, (FIXTURES / name).read_bytes())},
        format="multipart",
    )
    assert r.status_code == 400
    assert "30,000" in r.json()["errors"]["file"][0]

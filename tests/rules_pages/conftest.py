"""The riichi season and its finished hand-by-hand game of tests/scoring_app, reused here."""

from tests.scoring_app.conftest import finished, season  # noqa: F401

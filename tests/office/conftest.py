"""The league tests' season (A: players 1-4, B: 5-8) reused for the office."""

from tests.league.conftest import mleague_rules, season  # noqa: F401

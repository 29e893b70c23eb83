"""Rating arithmetic: openskill's Plackett-Luce model (Weng & Lin 2011), no Django.

A game is one "match" of four one-player teams ranked by their league places; equal places
are passed as equal ranks, which the model treats as a tie. The displayed rating is the
model's ordinal, mu - 3 sigma: a cautious estimate that starts at 0 for a new player and
rises as results make the estimate surer.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # library defaults: mu 25, sigma 25/3, beta sigma/2, tau mu/300
START = (MODEL.mu, MODEL.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def rate_game(before: list[tuple[float, float]], places: list[int]) -> list[tuple[float, float]]:
    """``before``: each player's (mu, sigma) in seat order; ``places``: their places (1 best,
    ties equal). Returns each player's (mu, sigma) after the game, in the same order."""
    if len(before) != len(places) or len(before) < 2:
        raise ValueError("a rated game needs two or more players and one place each")
    teams = [[MODEL.create_rating([mu, sigma])] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]

"""Ratings for the demo data (called after seed_demo has stored its results)."""

from kyoku.models import League
from kyoku.principals import System

from .services import league_ratings_rebuild


def demo_seed(stdout=None) -> dict:
    summaries = {}
    for league in League.objects.order_by("slug"):
        summaries[league.slug] = league_ratings_rebuild(league=league, actor=System("command:seed_demo"))
        if stdout is not None:
            s = summaries[league.slug]
            stdout.write(f"ratings: {league.slug}: {s['games']} games, {s['players']} players\n")
    return summaries

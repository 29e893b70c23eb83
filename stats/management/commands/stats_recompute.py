"""Rebuild every statistic from the hands and results: ``manage.py stats_recompute [--league slug]``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from kyoku.models import League
from kyoku.principals import System
from stats.services import stats_recompute


class Command(BaseCommand):
    help = "Rebuild the statistics (per game, season and league) from the stored hands and results."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--league", help="one league's slug (default: every league)")

    def handle(self, *args: Any, **options: Any) -> None:
        league = None
        if options.get("league"):
            league = League.objects.filter(slug=options["league"]).first()
            if league is None:
                raise CommandError(f"no league {options['league']!r}")
        done = stats_recompute(actor=System("command:stats_recompute"), league=league)
        self.stdout.write(
            f"{done['games']} games, {done['rows']} player-game rows, {done['scopes']} season and league rows"
        )

from django.core.management.base import BaseCommand, CommandError

from kyoku.models import League
from kyoku.principals import System
from ratings.reconcile import derived_reconcile


class Command(BaseCommand):
    help = (
        "Find derived rows (seat settlements, standings, season page summaries, ratings) left stale by a lost task and repair "
        "them from the stored results; a second run finds nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("--league", metavar="SLUG", help="only this league (default: every league)")

    def handle(self, *args, league=None, **options):
        leagues = League.objects.order_by("slug")
        if league:
            leagues = leagues.filter(slug=league)
            if not leagues.exists():
                raise CommandError(f"no league with slug {league!r}")
        for slug, done in derived_reconcile(leagues=leagues, actor=System("command:derived_reconcile")).items():
            rated = done["ratings"]
            ratings = f"replayed {rated['games']} games from {rated['from']}" if rated else "up to date"
            self.stdout.write(
                f"{slug}: {done['seats']} seats repaired, {done['standings']} divisions' standings "
                f"recomputed, {done['summaries']} divisions' summaries recounted, ratings {ratings}"
            )

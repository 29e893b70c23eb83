from django.core.management.base import BaseCommand, CommandError

from kyoku.models import League
from kyoku.principals import System
from ratings.services import league_ratings_rebuild


class Command(BaseCommand):
    help = "Recompute every player's rating from scratch from the league's finished games."

    def add_arguments(self, parser):
        parser.add_argument("--league", metavar="SLUG", help="only this league (default: every league)")

    def handle(self, *args, league=None, **options):
        leagues = League.objects.order_by("slug")
        if league:
            leagues = leagues.filter(slug=league)
            if not leagues.exists():
                raise CommandError(f"no league with slug {league!r}")
        for item in leagues:
            summary = league_ratings_rebuild(league=item, actor=System("command:ratings_recompute"))
            self.stdout.write(f"{item.slug}: {summary['games']} games, {summary['players']} players rated")

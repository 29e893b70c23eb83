"""``python manage.py resettle_season SEASON`` re-settles every stored hand of a season under its
rule set and brings results and standings up to date (after an engine fix, or to audit). With
``--overrides JSON`` it first gives the season a new version of its rule set. Prints a summary
and the seconds spent in each phase."""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league.forms import service_error_lines
from kyoku.principals import System
from league.models import Season
from scoring import services


class Command(BaseCommand):
    help = "Re-settle every hand of a season (optionally under revised rules) and recompute results and standings."

    def add_arguments(self, parser):
        parser.add_argument("season", type=int, help="the season's id")
        parser.add_argument(
            "--overrides",
            help="revise the season's rules first: options to change, as a JSON "
            "object, merged over the season's current overrides (null "
            "removes one, going back to the preset's value)",
        )
        parser.add_argument("--notes", default="", help="why the rules change (with --overrides)")
        parser.add_argument("--workers", type=int, default=None, help="engine processes (default: CPU cores)")

    def handle(self, *args, season, overrides, notes, workers, **options):
        season = Season.objects.filter(pk=season).first()
        if season is None:
            raise CommandError("season: no season with this id")
        actor = System("command:resettle_season")
        try:
            if overrides is not None:
                merged = overrides_merge(season.rule_set.overrides, _json(overrides))
                summary = services.season_rules_revise(season=season, overrides=merged, notes=notes, actor=actor)
                summary["overrides"] = merged
            else:
                timings: dict = {}
                summary = services.season_hands_resettle(season=season, workers=workers, timings=timings, actor=actor)
                summary["seconds"] = {phase: round(t, 3) for phase, t in timings.items()}
        except ValidationError as exc:
            raise CommandError("; ".join(service_error_lines(exc))) from None
        self.stdout.write(json.dumps(summary, ensure_ascii=False))


def overrides_merge(current: dict, change) -> dict:
    """The season's overrides with ``change`` applied: a key set to null goes back to the preset."""
    if not isinstance(change, dict):
        raise CommandError("overrides: a JSON object of options")
    merged = {**(current or {}), **change}
    return {key: value for key, value in merged.items() if value is not None}


def _json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"overrides: not JSON ({exc.msg})") from None

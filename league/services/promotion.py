"""Season end: every entry carried into the next season, promoted, relegated or retained."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kyoku.principals import Actor

from .. import notices
from ..models import Entry, Season
from .common import standings_refresh, audit_log_write
from .summary import division_summary_entrants


@transaction.atomic
def season_promote(*, season: Season, next_season: Season, actor: Actor) -> dict:
    """Carry every entry of ``season`` into ``next_season``: top N of each lower division up,
    bottom N of each upper division down, the rest retained. Idempotent: entries that
    already exist in the next season are left as they are."""
    from ..standings import promotion_plan

    season = Season.objects.select_for_update().get(pk=season.pk)
    if next_season.ordinal <= season.ordinal:
        raise ValidationError({"next_season": [gettext("must come after the season being closed")]})
    plan = promotion_plan(season=season, count=season.league.promotion_count)
    targets = {d.code: d for d in next_season.divisions.all()}
    already = set(Entry.objects.filter(season=next_season).values_list("player_id", flat=True))
    created = []
    for player_id, code, basis in plan:
        if player_id in already:
            continue
        if code not in targets:
            raise ValidationError({"next_season": [gettext("has no division %(code)s") % {"code": code}]})
        created.append(Entry(season=next_season, division=targets[code], player_id=player_id, basis=basis))
    Entry.objects.bulk_create(created)
    for division in targets.values():
        arrivals = [e.player_id for e in created if e.division is division]
        if arrivals:
            standings_refresh(division.pk, arrivals)
            division_summary_entrants(division_id=division.pk)
    if season.promoted_at is None:
        season.promoted_at = timezone.now()
        season.save(update_fields=["promoted_at"])
    summary = {
        "created": len(created),
        "skipped": len(plan) - len(created),
        "promoted": [p for p, _, b in plan if b == Entry.Basis.PROMOTED],
        "relegated": [p for p, _, b in plan if b == Entry.Basis.RELEGATED],
    }
    audit_log_write(actor=actor, action="season.promote", obj=season, data={"next_season": next_season.pk, **summary})
    notices.season_promoted(season=season, next_season=next_season, actor=actor)
    return summary

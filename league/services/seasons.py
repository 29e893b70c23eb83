"""Seasons (each with its own copy of the rule set) and their divisions, the season status, and
the entries of players into a division."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from kyoku.principals import Actor

from .. import notices
from ..models import Division, DivisionSummary, Entry, League, Player, QualificationApplication, RuleSet, Season
from .common import standings_refresh, audit_log_write
from .memberships import membership_require
from .summary import division_summary_entrants

DEFAULT_DIVISIONS = (("A", "A Division", "甲組"), ("B", "B Division", "乙組"))


@transaction.atomic
def season_create(
    *,
    league: League,
    year: int,
    number: int,
    rule_set: RuleSet,
    starts_on=None,
    ends_on=None,
    divisions=DEFAULT_DIVISIONS,
    actor: Actor,
    kind: str = Season.Kind.LEAGUE,
    rules_name: str = "",
    rules_slug: str = "",
    label: str = "",
) -> Season:
    """Create a season with its own copy of the rule set, so later edits of the template
    never change the meaning of this season's results. An event's season (``kind="event"``) is
    not one of the league's numbered seasons: it names its own copy of the rules."""
    if not 1 <= int(number) <= 4:
        raise ValidationError({"number": [gettext("a season number is 1 to 4")]})
    if (
        kind == Season.Kind.LEAGUE
        and Season.objects.filter(league=league, year=year, number=number, kind=Season.Kind.LEAGUE).exists()
    ):
        raise ValidationError(
            {
                "number": [
                    gettext("%(year)s S%(number)s already exists in this league") % {"year": year, "number": number}
                ]
            }
        )
    if starts_on and ends_on and ends_on < starts_on:
        raise ValidationError({"ends_on": [gettext("ends before it starts")]})
    season_rules = RuleSet.objects.create(
        name=rules_name or f"{league.name} {year} S{number}",
        slug=rules_slug or f"{league.slug}-{year}-s{number}",
        version=1,
        system=rule_set.system,
        preset=rule_set.preset,
        overrides=dict(rule_set.overrides),
        options=dict(rule_set.options),
        notes=f"copied from {rule_set}",
    )
    season = Season.objects.create(
        league=league,
        year=year,
        number=number,
        rule_set=season_rules,
        starts_on=starts_on,
        ends_on=ends_on,
        kind=kind,
        label=label,
    )
    for order, (code, name, name_zh) in enumerate(divisions):
        division = Division.objects.create(season=season, code=code, name=name, name_zh=name_zh, order=order)
        DivisionSummary.objects.create(division=division, season=season)
    audit_log_write(actor=actor, action="season.create", obj=season, data={"rule_set": str(rule_set)})
    return season


@transaction.atomic
def season_status_set(*, season: Season, status: str, actor: Actor) -> Season:
    if status not in Season.Status.values:
        raise ValidationError({"status": [gettext("unknown status %(status)s") % {"status": repr(status)}]})
    old = season.status
    season.status = status
    season.save(update_fields=["status"])
    audit_log_write(actor=actor, action="season.status", obj=season, data={"from": old, "to": status})
    notices.season_opened(season=season, was=old, actor=actor)
    return season


@transaction.atomic
def entry_create(
    *,
    division: Division,
    player: Player,
    basis: str = Entry.Basis.OPEN,
    application: QualificationApplication | None = None,
    actor: Actor,
) -> Entry:
    """Enter ``player`` in ``division``. Only a member of the season's league is entered, or a player
    this act makes one (their own registration, a player new to every league entered by the
    league's admin, the system): anyone else is refused (``InvitationRequired``) and is invited
    instead (``office.entry_add``), so no caller enters a player of another league without the
    player's consent (league.services.memberships)."""
    if Entry.objects.filter(season=division.season, player=player).exists():
        raise ValidationError(
            {
                "player": [
                    gettext("%(player)s already has an entry in %(season)s")
                    % {"player": player, "season": division.season}
                ]
            }
        )
    membership_require(league=division.season.league, player=player, actor=actor)
    entry = Entry.objects.create(
        season=division.season, division=division, player=player, basis=basis, application=application
    )
    audit_log_write(actor=actor, action="entry.create", obj=entry, data={"division": division.code, "basis": basis})
    standings_refresh(division.pk, [player.pk])  # an entrant is listed (last, no games) from the start
    division_summary_entrants(division_id=division.pk)
    return entry

"""The event itself: created with its own season and rounds, and taken from registration to running to finished."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor
from kyoku.text import name_clean
from league import services as league_services
from league.models import Game, Season, RuleSet

from .. import ranking
from ..ema import nationality_check
from ..models import Event, Round
from .common import EVENT_DIVISION, authorize, event_board_bump, fail

MAX_PLAYERS = 400


@transaction.atomic
def event_create(
    *,
    league,
    name: str,
    slug: str,
    starts_on: dt.date,
    ends_on: dt.date,
    rule_set: RuleSet,
    venue: str = "",
    capacity: int = 40,
    rounds: int = 6,
    round_minutes: int = 90,
    cut: int = 4,
    final_points: str = Event.FinalPoints.CARRY,
    semi_final_cut: int = 0,
    semi_final_rounds: int = 1,
    semi_final_points: str = Event.FinalPoints.CARRY,
    time_rule: str = Event.TimeRule.FINISH_HAND,
    dealer_repeats_after_time: bool = False,
    seated_by_standings: int = 0,
    tiebreaks: list | None = None,
    team_scoring: str = Event.TeamScoring.NONE,
    team_best: int = 3,
    leftover: str = Event.Leftover.SUBSTITUTES,
    round_starts: list | None = None,
    ema_id: str = "",
    city: str = "",
    country: str = "",
    mers_qualification: bool = False,
    actor: Actor,
) -> Event:
    """An event with its own season (the games' home) and its rounds: the qualifying rounds, then
    the semi-final's rounds when it has one (its top ``semi_final_cut``), then the final's round
    when the event has a cut."""
    authorize(actor, league, authz.Need.DIRECTOR)
    name = name_clean(name, field="name", max_length=120)  # NFC; no control, bidi or zero-width
    venue = name_clean(venue, field="venue", max_length=120, required=False)
    city = name_clean(city, field="city", max_length=80, required=False)
    ema_id = name_clean(ema_id, field="ema_id", max_length=20, required=False)
    try:
        country = nationality_check(country)
    except ValueError:
        raise fail("country", _("An ISO 3166 code of three letters, e.g. HKG."), "country_invalid") from None
    if ends_on < starts_on:
        raise fail("ends_on", _("The event ends before it starts."), "ends_before_start")
    if (ends_on - starts_on).days > 6:
        raise fail("ends_on", _("An event lasts at most a week."), "event_too_long")
    if not 1 <= rounds <= 30:
        raise fail("rounds", _("From 1 to 30 rounds."), "rounds_range")
    if not 10 <= round_minutes <= 300:
        raise fail("round_minutes", _("From 10 to 300 minutes."), "minutes_range")
    if not 4 <= capacity <= MAX_PLAYERS:
        raise fail("capacity", _("From 4 to %(max)s places."), "capacity_range", max=MAX_PLAYERS)
    if cut % 4 or cut < 0 or cut > capacity:
        raise fail("cut", _("The final seats a multiple of four players (0: no final)."), "cut_multiple")
    if semi_final_cut:
        if semi_final_cut % 4 or semi_final_cut > capacity or not cut or semi_final_cut <= cut:
            raise fail(
                "semi_final_cut",
                _("The semi-final seats a multiple of four players, more than the final and no more than the places."),
                "semi_final_cut",
            )
        if not 1 <= semi_final_rounds <= 4:
            raise fail("semi_final_rounds", _("From 1 to 4 semi-final rounds."), "semi_final_rounds_range")
    for field, rule in (("final_points", final_points), ("semi_final_points", semi_final_points)):
        if rule not in Event.FinalPoints.values:
            raise fail(field, _("Carried in full, at half, or reset to zero."), "points_rule")
    if seated_by_standings > rounds:
        raise fail("seated_by_standings", _("No more than the qualifying rounds."), "too_many_rounds")
    try:
        tiebreaks = ranking.tiebreaks_check(list(tiebreaks if tiebreaks is not None else ["firsts", "best_game"]))
    except (ValueError, TypeError):
        raise fail(
            "tiebreaks",
            _("Tiebreaks: distinct names among %(names)s."),
            "tiebreak_unknown",
            names=", ".join(ranking.TIEBREAKS),
        ) from None
    if Event.objects.filter(league=league, slug=slug).exists():
        raise fail("slug", _("This league already has an event with this short name."), "slug_taken")
    season = league_services.season_create(
        league=league,
        year=starts_on.year,
        number=(starts_on.month - 1) // 3 + 1,
        rule_set=rule_set,
        starts_on=starts_on,
        ends_on=ends_on,
        divisions=(EVENT_DIVISION,),
        kind=Season.Kind.EVENT,
        rules_name=f"{league.name} · {name}",
        rules_slug=f"{league.slug}-event-{slug}",
        label=name,
        actor=actor,
    )
    league_services.season_status_set(season=season, status=Season.Status.OPEN, actor=actor)
    event = Event.objects.create(
        league=league,
        season=season,
        name=name,
        slug=slug,
        venue=venue,
        starts_on=starts_on,
        ends_on=ends_on,
        capacity=capacity,
        rounds=rounds,
        round_minutes=round_minutes,
        cut=cut,
        final_points=final_points,
        semi_final_cut=semi_final_cut,
        semi_final_rounds=semi_final_rounds if semi_final_cut else 1,
        semi_final_points=semi_final_points,
        time_rule=time_rule,
        dealer_repeats_after_time=dealer_repeats_after_time,
        seated_by_standings=seated_by_standings,
        tiebreaks=tiebreaks,
        team_scoring=team_scoring,
        team_best=team_best,
        leftover=leftover,
        ema_id=ema_id,
        city=city,
        country=country,
        mers_qualification=bool(mers_qualification),
    )
    starts = list(round_starts or [])
    for number in range(1, rounds + 1):
        Round.objects.create(
            event=event,
            number=number,
            minutes=round_minutes,
            scheduled_at=starts[number - 1] if number <= len(starts) else None,
        )
    stages = [Round.Stage.SEMI_FINAL] * (semi_final_rounds if semi_final_cut else 0) + [Round.Stage.FINAL] * bool(cut)
    for number, stage in enumerate(stages, start=rounds + 1):
        Round.objects.create(
            event=event,
            number=number,
            stage=stage,
            minutes=round_minutes,
            scheduled_at=starts[number - 1] if number <= len(starts) else None,
        )
    audit_log_write(
        actor=actor,
        action="event.create",
        obj=event,
        data={"name": name, "rounds": rounds, "cut": cut, "semi_final_cut": semi_final_cut, "capacity": capacity},
    )
    return event


@transaction.atomic
def event_status_set(*, event: Event, status: str, actor: Actor) -> Event:
    """Registration → running (check-in closes registration) → finished (the results stand: the
    event's season closes, so no result changes any more)."""
    authorize(actor, event, authz.Need.DIRECTOR)
    event = Event.objects.select_for_update().get(pk=event.pk)
    order: list[str] = [Event.Status.REGISTRATION, Event.Status.RUNNING, Event.Status.FINISHED]
    if status not in order or order.index(status) != order.index(event.status) + 1:
        raise fail("status", _("An event goes from registration to running to finished."), "status_order")
    if status == Event.Status.FINISHED:
        pending = Game.objects.filter(season=event.season, result__isnull=True).exclude(status=Game.Status.VOID)
        if pending.exists():
            raise fail("status", _("%(n)s tables have no result yet."), "results_missing", n=pending.count())
        league_services.season_status_set(season=event.season, status=Season.Status.CLOSED, actor=actor)
    was = event.status
    event.status = status
    event.save(update_fields=["status"])
    audit_log_write(actor=actor, action="event.status", obj=event, data={"from": was, "to": status})
    event_board_bump(event.pk)
    return event

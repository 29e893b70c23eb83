"""An event's stages in words: a round's title by its stage ("Semi-final, round 1"), the event's
summary naming every stage, and the round still open when the director starts the next one (which
tables have no result yet)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from league.models import Game

from .models import Event, Round


def round_title(event: Event, number: int, stage: str) -> str:
    """A round as people name it: "Round 3", "Semi-final, round 1" (the stage's own count), "Final";
    a semi-final of one round is "Semi-final"."""
    if stage == Round.Stage.FINAL:
        return _("Final")
    if stage == Round.Stage.SEMI_FINAL:
        if event.semi_final_rounds > 1:
            return _("Semi-final, round %(n)s") % {"n": number - event.rounds}
        return _("Semi-final")
    return _("Round %(n)s") % {"n": number}


def round_title_of(round_: Round) -> str:
    return round_title(round_.event, round_.number, round_.stage)


def stage_points_words(rule: str) -> str:
    return str(Event.FinalPoints(rule).label).lower() if rule in Event.FinalPoints.values else ""


def event_summary(event: Event) -> list[str]:
    """The event's format, each part in words: "3 rounds of 60 minutes", "semi-final of 8 over
    2 rounds (carried in full)", "final table of the top 4 (carried in full)"."""
    parts = [_("%(rounds)s rounds of %(minutes)s minutes") % {"rounds": event.rounds, "minutes": event.round_minutes}]
    if event.semi_final_cut:
        semi = ngettext(
            "semi-final of %(cut)s over %(n)s round",
            "semi-final of %(cut)s over %(n)s rounds",
            event.semi_final_rounds,
        ) % {"cut": event.semi_final_cut, "n": event.semi_final_rounds}
        parts.append(f"{semi} ({stage_points_words(event.semi_final_points)})")
    if event.cut:
        final = _("final table of the top %(cut)s") % {"cut": event.cut}
        parts.append(f"{final} ({stage_points_words(event.final_points)})")
    return parts


def round_open_other(round_: Round) -> Round | None:
    """Another round of the event whose clock runs (started, not ended), if any."""
    return (
        Round.objects.filter(event=round_.event_id, started_at__isnull=False, ended_at__isnull=True)
        .exclude(pk=round_.pk)
        .order_by("number")
        .first()
    )


def round_tables_unrecorded(round_: Round) -> list[int]:
    """The numbers of a round's tables with no result yet (a void table counts as done)."""
    return list(
        Game.objects.filter(season_id=round_.event.season_id, match_day=round_.number, result__isnull=True)
        .exclude(status=Game.Status.VOID)
        .order_by("table")
        .values_list("table", flat=True)
    )


def round_start_offer(round_: Round) -> dict | None:
    """When ``round_`` waits right after a round still open: that round, and the tables it has not
    recorded (none: the desk offers to end it and start this one in one step)."""
    open_ = round_open_other(round_)
    if open_ is None or round_.number != open_.number + 1:  # offered on the round that follows it
        return None
    return {"open": open_, "unrecorded": round_tables_unrecorded(open_)}


def board_words(event: Event) -> dict[str, str]:
    """The words the big screen's script writes, in the reader's language (the board's JSON keeps
    codes: the same body serves every language)."""
    from kyoku.labels import label

    words = {s: str(label(s, "table_status")) for s in ("playing", "pending", "disputed", "done", "waiting")}
    words.update(
        {
            "table": _("Table"),
            "round": _("Round"),
            "final": _("Final"),
            "semi_final": _("Semi-final"),
            "page": _("Page"),
            "withdrawn": pgettext("ranking", "withdrawn"),
            "standings": _("Standings"),
            "final_ranking": _("Final ranking"),
            # %(x)s placeholders are filled by the script
            "round_n": _("Round %(n)s"),
            "semi_round_n": _("Semi-final, round %(n)s"),
            "stage_line": board_words_line(),
            "news_result": _("New result: %(round)s, table %(table)s."),
            "news_round": _("%(round)s has started."),
            "news_over": _("The event is over: the final ranking is shown."),
        }
    )
    words.update(
        {
            "rounds": str(event.rounds),
            "semi_rounds": str(event.semi_final_rounds),
            "has_semi": "1" if event.semi_final_cut else "0",
        }
    )
    words["stage_final"] = pgettext("event stage", "final")
    words["stage_semi_final"] = pgettext("event stage", "semi-final")
    return {k: str(v) for k, v in words.items()}


def board_stage_line(stage: dict | None) -> str:
    """The line above the board's standings once a stage counts (``board_words``' stage_line)."""
    if not stage:
        return ""
    name = (
        pgettext("event stage", "final")
        if stage["name"] == Round.Stage.FINAL
        else pgettext("event stage", "semi-final")
    )
    return board_words_line() % {"stage": name, "cut": stage["cut"]}


def board_words_line() -> str:
    return _(
        "With the %(stage)s: its %(cut)s players rank by the points carried into it plus the "
        "stage's points; everyone else keeps their place before it."
    )


def round_title_by_number(event: Event, number: int) -> str:
    """``round_title`` from the number alone: qualifying rounds first, then the semi-final's, then
    the final (as event_create numbers them)."""
    semi = event.semi_final_rounds if event.semi_final_cut else 0
    if number <= event.rounds:
        return round_title(event, number, Round.Stage.QUALIFYING)
    if number <= event.rounds + semi:
        return round_title(event, number, Round.Stage.SEMI_FINAL)
    return round_title(event, number, Round.Stage.FINAL)

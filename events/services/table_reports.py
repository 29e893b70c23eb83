"""A table's report of its final scores: the one state machine of a table's own result.

    (none) ──report──▶ PENDING v1 ──confirm(v1) × 4 seats──▶ CONFIRMED (the result is recorded)
                         │  ▲ the same report again: that seat agrees (nothing is reset)
                         │
                         ├──dispute──────────────▶ DISPUTED ──desk──▶ RESOLVED (recorded)
                         └──a different report──▶ DISPUTED (a new version, both kept)

    any state ──desk (a referee or the director)──▶ RESOLVED (recorded; a correction replaces)

- Who acts for a seat: the phone holding the table's code acts for all four, a seated player for
  their own seat (``tables.seats_for``); the desk is a referee or admin of the event's league.
- A table acts only while its round is in play (``tables.round_in_play``); the desk at any time
  until the event is finished.
- A confirmation names the version it agrees with; a stale one is refused (409, with words), so a
  seat never agrees to scores it did not see.
- Nothing is replaced silently: a second, different report while one is pending or disputed is a
  new version and a dispute, which calls a referee (the desk's calls); every version is kept with
  the seats that agreed with it.
- A dispute ends only at the desk (``table_result_enter``), audited, the dispute and the versions
  kept.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import live
from kyoku import authz
from kyoku.audit import audit_log_write
from kyoku.principals import Actor, System, actor_label
from league import services as league_services
from league.models import Game

from .. import notices
from ..models import Event, TableReport, TableReportVersion
from .common import authorize, conflict, event_board_bump, fail
from .tables import event_of, round_in_play_require, seats_for

NOTE_MAX = 2000


def game_open_require(game: Game) -> None:
    if game.status == Game.Status.VOID:
        raise fail("game", _("This game is void."), "game_void")
    if event_of(game).status == Event.Status.FINISHED:
        raise conflict("game", _("The event is over."), "event_finished")


def _seat_require(game: Game, actor: Actor, seat: int) -> None:
    """The acting principal must be this table's (403 otherwise), and act for a seat it holds."""
    authorize(actor, game, authz.Need.TABLE)
    if seat not in seats_for(game, actor):
        raise fail("seat", _("You may act only for your own seat at this table."), "not_your_seat")


def recorded_refuse(report: TableReport | None, game: Game, field: str = "report") -> None:
    """A table whose result is recorded takes nothing more from the table (409): the desk corrects."""
    if hasattr(game, "result") or (
        report and report.status in (TableReport.Status.CONFIRMED, TableReport.Status.RESOLVED)
    ):
        raise conflict(
            field, _("This table's result is already recorded: ask a referee to correct it."), "result_recorded"
        )


def _by(actor: Actor) -> dict:
    return {"by": authz.acting_user(actor), "by_label": actor_label(actor)}


def _version_add(
    report: TableReport, scores: list[int], deposits_left: int, seat: int | None, actor: Actor
) -> TableReportVersion:
    number = (report.versions.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    return TableReportVersion.objects.create(
        report=report,
        number=number,
        scores=scores,
        deposits_left=deposits_left,
        seat=seat,
        confirmed_seats=[seat] if seat is not None else [],
        **_by(actor),
    )


def _current_set(report: TableReport, version: TableReportVersion) -> None:
    report.version, report.scores, report.deposits_left = version.number, version.scores, version.deposits_left
    report.confirmed_seats = list(version.confirmed_seats)


def _same(version: TableReportVersion, scores: list[int], deposits_left: int) -> bool:
    return list(version.scores) == list(scores) and version.deposits_left == deposits_left


def _record(report: TableReport, game: Game) -> None:
    """All four seats agree: the table's agreement stands for the director's entry. The result is
    written by the system on the table's behalf (the audit names who confirmed)."""
    report.status = TableReport.Status.CONFIRMED
    league_services.game_result_record(
        game=game,
        scores=report.scores,
        deposits_left=report.deposits_left,
        actor=System(f"table report: game {game.pk} v{report.version}"),
    )
    notices.result_recorded(game=game, scores=report.scores, actor=System(f"table report: game {game.pk}"))


@transaction.atomic
def table_report_submit(
    *, game: Game, scores, deposits_left: int = 0, seat: int, actor: Actor
) -> tuple[TableReport, bool]:
    """A seat reports the table's final scores. Returns (report, changed): the first report opens
    version 1; the same scores again count as that seat's agreement; different scores while a
    report is pending or disputed open a new version and a dispute (a referee is called)."""
    game = Game.objects.select_for_update().select_related("season").get(pk=game.pk)
    game_open_require(game)
    _seat_require(game, actor, seat)
    round_in_play_require(game)
    report = TableReport.objects.select_for_update().filter(game=game).first()
    recorded_refuse(report, game)
    scores = league_services.game_scores_check(game=game, scores=scores, deposits_left=deposits_left)
    if report is None:
        report = TableReport(game=game, scores=scores, deposits_left=deposits_left, reported_by=_by(actor)["by"])
        report.save()
        _current_set(report, _version_add(report, scores, deposits_left, seat, actor))
        report.save()
        audit_log_write(
            actor=actor,
            action="event.table_report",
            obj=report,
            data={"version": report.version, "scores": scores, "deposits_left": deposits_left, "seat": seat},
        )
        notices.report_waiting(report=report, game=game, seat=seat, actor=actor)
        event_board_bump(event_of(game).pk)
        _table_tell(game, report, "report")
        return report, True
    versions = list(report.versions.select_for_update())
    same = next((v for v in versions if _same(v, scores, deposits_left)), None)
    if same is not None:
        return _agree(report, same, seat, actor, game), False
    version = _version_add(report, scores, deposits_left, seat, actor)
    was = report.status
    _current_set(report, version)
    if report.status == TableReport.Status.PENDING:
        report.status, report.disputed_seat, report.disputed_at = TableReport.Status.DISPUTED, seat, timezone.now()
        report.dispute_note = _("Seat %(seat)s reported different scores (version %(n)s).") % {
            "seat": seat,
            "n": version.number,
        }
    report.save()
    audit_log_write(
        actor=actor,
        action="event.table_report_differs",
        obj=report,
        data={"version": version.number, "scores": scores, "deposits_left": deposits_left, "seat": seat, "from": was},
    )
    notices.report_disputed(report=report, game=game, actor=actor)
    event_board_bump(event_of(game).pk)
    _table_tell(game, report, "report")
    return report, True


def _agree(report: TableReport, version: TableReportVersion, seat: int, actor: Actor, game: Game) -> TableReport:
    """A seat reports scores already reported: it agrees with that version (and, while the report
    is pending on that version, this counts as its confirmation)."""
    if seat in version.confirmed_seats:
        return report  # a resend: nothing changes
    version.confirmed_seats = sorted({*version.confirmed_seats, seat})
    version.save(update_fields=["confirmed_seats"])
    if version.number == report.version:
        report.confirmed_seats = list(version.confirmed_seats)
    audit_log_write(
        actor=actor, action="event.table_confirm", obj=report, data={"seat": seat, "version": version.number}
    )
    if report.status == TableReport.Status.PENDING and len(report.confirmed_seats) == 4:
        _record(report, game)
    report.save()
    if report.status == TableReport.Status.CONFIRMED:
        event_board_bump(event_of(game).pk)
    _table_tell(game, report, "confirm")
    return report


def _table_tell(game: Game, report: TableReport, kind: str) -> None:
    """The table's phones hear of the change once it is committed (live): a report, a seat's
    confirmation, a dispute, the desk's answer."""
    live.publish_on_commit(live.table_topic(game.pk), report.version, kind)


def _seat_acts_on_report(game: Game, seat: int, actor: Actor) -> tuple[Game, TableReport]:
    """What a seat's confirmation and dispute both need first: the game locked and open, the
    principal acting for that seat, the round in play, a report not yet recorded."""
    game = Game.objects.select_for_update().select_related("season").get(pk=game.pk)
    game_open_require(game)
    _seat_require(game, actor, seat)
    round_in_play_require(game)
    report = TableReport.objects.select_for_update().filter(game=game).first()
    if report is None:
        raise fail("report", _("Nothing has been reported at this table yet."), "no_report")
    recorded_refuse(report, game)
    return game, report


@transaction.atomic
def table_report_confirm(*, game: Game, seat: int, version: int, actor: Actor) -> TableReport:
    """A seat agrees with version ``version`` of the report; when all four agree with the current
    version the result is recorded."""
    game, report = _seat_acts_on_report(game, seat, actor)
    if report.status == TableReport.Status.DISPUTED:
        raise conflict("report", _("This report is disputed: a referee decides."), "report_disputed")
    if version != report.version:
        raise conflict(
            "version",
            _("The report has changed (it is now version %(now)s): read it again before confirming."),
            "report_stale",
            now=report.version,
        )
    current = report.versions.select_for_update().get(number=report.version)
    return _agree(report, current, seat, actor, game)


@transaction.atomic
def table_report_dispute(*, game: Game, seat: int, note: str = "", actor: Actor) -> TableReport:
    """A seat disagrees with the pending report: it waits for a referee (the desk's calls)."""
    game, report = _seat_acts_on_report(game, seat, actor)
    if len(note or "") > NOTE_MAX:
        raise fail("note", _("At most 2,000 characters."), "note_too_long")
    if report.status == TableReport.Status.DISPUTED:
        raise conflict("report", _("This report is already disputed: a referee is on the way."), "report_disputed")
    report.status, report.disputed_seat, report.disputed_at = TableReport.Status.DISPUTED, seat, timezone.now()
    report.dispute_note = note or ""
    report.save()
    audit_log_write(
        actor=actor,
        action="event.table_dispute",
        obj=report,
        data={"seat": seat, "note": note, "version": report.version},
    )
    notices.report_disputed(report=report, game=game, actor=actor)
    event_board_bump(event_of(game).pk)
    _table_tell(game, report, "dispute")
    return report


@transaction.atomic
def table_result_enter(
    *, game: Game, scores=None, deposits_left: int = 0, version: int | None = None, actor: Actor
) -> TableReport:
    """A referee or the director enters (or corrects) a table's result, or records one of the
    versions the table reported (``version``): recorded at once, ending any report or dispute. The
    dispute and every version are kept."""
    authorize(actor, game, authz.Need.DESK)
    game = Game.objects.select_for_update().select_related("season").get(pk=game.pk)
    game_open_require(game)
    report = TableReport.objects.select_for_update().filter(game=game).first()
    if version is not None:
        chosen = report.versions.filter(number=version).first() if report else None
        if chosen is None:
            raise fail("version", _("This table reported no version %(n)s."), "no_such_version", n=version)
        scores, deposits_left = list(chosen.scores), chosen.deposits_left
    if scores is None:
        raise fail("scores", _("Four final scores, East to North."), "scores_missing")
    scores = league_services.game_scores_check(game=game, scores=scores, deposits_left=deposits_left)
    league_services.game_result_record(
        game=game,
        scores=scores,
        deposits_left=deposits_left,
        actor=System(f"event desk: game {game.pk}"),  # the desk's authority was checked above
        replace=True,
    )
    was = report.status if report else None
    if report is None:
        report = TableReport(game=game, scores=scores, deposits_left=deposits_left)
        report.save()
    chosen_version = next((v for v in report.versions.all() if _same(v, scores, deposits_left)), None)
    if chosen_version is None:
        chosen_version = _version_add(report, scores, deposits_left, None, actor)
    _current_set(report, chosen_version)
    report.status = TableReport.Status.RESOLVED
    report.resolved_by, report.resolved_at = authz.acting_user(actor), timezone.now()
    report.save()
    audit_log_write(
        actor=actor,
        action="event.table_result",
        obj=report,
        data={"scores": scores, "deposits_left": deposits_left, "version": chosen_version.number, "from": was},
    )
    notices.result_recorded(game=game, scores=scores, actor=actor)
    event_board_bump(event_of(game).pk)
    _table_tell(game, report, "result")
    return report


def report_data(report: TableReport) -> dict:
    """What the API answers about a report (its current version and who agreed)."""
    return {
        "game": report.game_id,
        "status": report.status,
        "version": report.version,
        "scores": report.scores,
        "deposits_left": report.deposits_left,
        "confirmed_seats": report.confirmed_seats,
        "disputed_seat": report.disputed_seat,
    }

"""A roster sheet's rows against the league's roster: each row's outcome (new, an update of a
member and which fields change, unchanged, or an error in words), and the confirmed rows written.

Bulk reads: one query for every membership number of the file, one for this league's memberships
of those players; a file of 10,000 rows is previewed in a few seconds (bench/roster_import.py).

A blank cell leaves the stored value as it is (a sheet that does not keep a column never clears
it); the "joined" column is read (an Excel date becomes an ISO date) and shown, never written: a
membership's date is the day it was recorded."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from kyoku import authz
from kyoku.models import AuditLog, League
from kyoku.principals import actor_label

from .models import LeagueMembership, Player
from .names import name_written, split_after_edit
from .roster_sheet import TEXT_FIELDS, Cell, Sheet, cell_date, cell_text

FIELD_LABELS = {
    "membership_number": gettext_noop("membership number"),
    "display_name": gettext_noop("display name"),
    "native_name": gettext_noop("native name"),
    "family_name": gettext_noop("family name"),
    "given_name": gettext_noop("given name"),
    "name_order": gettext_noop("name order"),
    "email": gettext_noop("email"),
    "tenhou_id": gettext_noop("Tenhou"),
    "mahjong_soul_id": gettext_noop("Mahjong Soul"),
    "joined": gettext_noop("joined"),
}
PLAYER_COLUMNS = (
    "display_name",
    "native_name",
    "family_name",
    "given_name",
    "name_order",
    "tenhou_id",
    "mahjong_soul_id",
)


def _label(field: str) -> str:
    return _(FIELD_LABELS[field])


def _row_values(sheet: Sheet, cells: list[Cell]) -> tuple[dict[str, str], list[str]]:
    """The row's cells by field as text (blank cells left out), and the cells' own errors."""
    values: dict[str, str] = {}
    errors: list[str] = []
    for field, index in sheet.columns.items():
        cell = cells[index] if index < len(cells) else Cell("", "empty")
        if cell.kind == "empty":
            continue
        if cell.kind == "formula":
            errors.append(_("%(column)s: a formula in the cell; type the value itself") % {"column": _label(field)})
        elif field == "joined":
            values[field] = cell_date(cell)
        elif cell.kind == "date":
            errors.append(_("%(column)s: a date where a name or number should be") % {"column": _label(field)})
        elif cell.kind == "bool":
            errors.append(_("%(column)s: TRUE or FALSE where a name or number should be") % {"column": _label(field)})
        else:
            values[field] = cell_text(cell)
    return values, errors


def _clean(values: dict[str, str], errors: list[str]) -> dict[str, str]:
    from .services.roster import member_values_clean

    given = {k: v for k, v in values.items() if k in TEXT_FIELDS}
    try:
        clean = member_values_clean(given, partial=True)
    except ValidationError as exc:
        for field, messages in exc.message_dict.items():
            for message in messages:
                errors.append(f"{_label(field) if field in FIELD_LABELS else field}: {message}")
        return {}
    if "joined" in values:
        clean["joined"] = values["joined"]
    return clean


def rows_classify(*, league: League, sheet: Sheet) -> list[dict[str, Any]]:
    """Each row: {"line", "outcome" (new | update | unchanged | error), "values", "changes",
    "errors", "player"}."""
    rows: list[dict[str, Any]] = []
    for line, cells in sheet.rows:
        values, errors = _row_values(sheet, cells)
        clean = _clean(values, errors) if not errors else {}
        if not errors and not clean.get("membership_number"):
            errors.append(_("membership number: give a number"))
        if not errors and not any(clean.get(f) for f in ("display_name", "family_name", "given_name")):
            errors.append(_("name: missing"))
        shown = clean or {k: v[:80] for k, v in values.items()}
        rows.append(
            {
                "line": line,
                "outcome": "error" if errors else "",
                "values": shown,
                "changes": {},
                "errors": errors,
                "player": None,
            }
        )
    _duplicates_mark(rows)
    _roster_compare(league, rows)
    return rows


def _duplicates_mark(rows: list[dict[str, Any]]) -> None:
    lines: dict[str, list[int]] = {}
    for row in rows:
        number = row["values"].get("membership_number")
        if number:
            lines.setdefault(number, []).append(row["line"])
    for row in rows:
        seen = lines.get(row["values"].get("membership_number", ""), [])
        if len(seen) > 1:
            row["errors"].append(
                _("membership number %(number)s is on rows %(rows)s of the file")
                % {"number": row["values"]["membership_number"], "rows": ", ".join(map(str, seen))}
            )
            row["outcome"] = "error"


def _current(league: League, numbers: list[str]) -> tuple[dict[str, dict[str, Any]], dict[int, str]]:
    """Players by number (one query) and this league's contact emails by player (one query)."""
    players = {
        p["membership_number"]: p
        for p in Player.objects.filter(membership_number__in=numbers).values("pk", "membership_number", *PLAYER_COLUMNS)
    }
    members = dict(
        LeagueMembership.objects.filter(league=league, player_id__in=[p["pk"] for p in players.values()]).values_list(
            "player_id", "contact_email"
        )
    )
    return players, members


def _roster_compare(league: League, rows: list[dict[str, Any]]) -> None:
    from .services.roster import order_default

    numbers = [r["values"]["membership_number"] for r in rows if r["outcome"] != "error"]
    players, members = _current(league, numbers)
    for row in rows:
        if row["outcome"] == "error":
            continue
        values = row["values"]
        player = players.get(values["membership_number"])
        if player is None:
            row["outcome"] = "new"
            if not values.get("name_order") and (values.get("family_name") or values.get("given_name")):
                values["name_order"] = order_default(values.get("family_name", ""), values.get("given_name", ""))
            if not values.get("display_name"):
                written = name_written(
                    "", values.get("family_name", ""), values.get("given_name", ""), values.get("name_order", "")
                )
                values["display_name"] = written[:80]
            continue
        if player["pk"] not in members:
            row["outcome"] = "error"
            row["errors"].append(_("membership number: this number is already used"))
            continue
        row["player"] = player["pk"]
        stored = {**player, "email": members[player["pk"]]}
        row["changes"] = {
            f: [stored[f], v]
            for f, v in values.items()
            if f in stored and f != "membership_number" and v and v != stored[f]
        }
        row["outcome"] = "update" if row["changes"] else "unchanged"


def rows_apply(*, league: League, rows: list[dict[str, Any]], actor: Any) -> dict[str, int]:
    """Write the previewed rows (in the caller's transaction): refused when any row's outcome would
    now be different (the roster changed since the preview)."""
    again = [dict(r, outcome="", errors=[], changes={}) for r in rows]
    _roster_compare(league, again)
    if any(a["outcome"] != r["outcome"] or a["changes"] != r["changes"] for a, r in zip(again, rows)):
        raise ValidationError(
            {"import": [_("The roster changed since this preview: preview the file again. Nothing was written.")]}
        )
    with transaction.atomic():
        created = _new_write(league, [r for r in rows if r["outcome"] == "new"], actor)
        updated = _updates_write(league, [r for r in rows if r["outcome"] == "update"], actor)
    _import_audit(actor, league, created, updated)
    return {"new": len(created), "update": len(updated), "unchanged": sum(r["outcome"] == "unchanged" for r in rows)}


def _new_write(league: League, rows: list[dict[str, Any]], actor: Any) -> list[int]:
    fields = (*PLAYER_COLUMNS, "membership_number")
    players = [Player(**{f: r["values"][f] for f in fields if r["values"].get(f)}) for r in rows]
    for p in players:
        p.names_clean()  # bulk_create passes no save(): the names are already clean; be sure
    Player.objects.bulk_create(players, batch_size=1000)
    by_number = dict(
        Player.objects.filter(membership_number__in=[r["values"]["membership_number"] for r in rows]).values_list(
            "membership_number", "pk"
        )
    )
    user = authz.acting_user(actor)
    LeagueMembership.objects.bulk_create(
        [
            LeagueMembership(
                league=league,
                player_id=by_number[r["values"]["membership_number"]],
                via=LeagueMembership.Via.ADMIN,
                created_by=user,
                contact_email=r["values"].get("email", ""),
            )
            for r in rows
        ],
        batch_size=1000,
    )
    return list(by_number.values())


def _updates_write(league: League, rows: list[dict[str, Any]], actor: Any) -> list[int]:
    by_pk = Player.objects.in_bulk([r["player"] for r in rows])
    emails = {r["player"]: r["changes"]["email"][1] for r in rows if "email" in r["changes"]}
    changed_players, fields = [], set()
    now = timezone.now()
    for row in rows:
        player = by_pk[row["player"]]
        player_fields = [f for f in row["changes"] if f != "email"]
        for f in player_fields:
            setattr(player, f, row["changes"][f][1])
        if player_fields:
            _confirmation_follow(player, player_fields, actor, now)
            changed_players.append(player)
            fields |= set(player_fields) | {"name_confirmed_at", "name_confirmed_by"}
    names = sorted(fields)
    attnames = [Player._meta.get_field(f).attname for f in names]
    _rows_write(Player, names, [(p.pk, [getattr(p, a) for a in attnames]) for p in changed_players])
    _standings_follow([p.pk for p in changed_players])
    members = LeagueMembership.objects.filter(league=league, player_id__in=list(emails)).values_list("pk", "player_id")
    _rows_write(LeagueMembership, ["contact_email"], [(pk, [emails[player_id]]) for pk, player_id in members])
    return [r["player"] for r in rows]


def _standings_follow(player_ids: list[int]) -> None:
    """As a player's save does (league.apps: ``player_standings_touch``): the divisions where the
    renamed players stand are re-ranked (the name breaks ties) and their version moves."""
    from .models import Division, Standing
    from .services.standings_writes import standings_update

    by_division: dict[int, list[int]] = {}
    rows = Standing.objects.filter(player_id__in=player_ids).order_by().values_list("division_id", "player_id")
    for division_id, player_id in rows:
        by_division.setdefault(division_id, []).append(player_id)
    for division_id, ids in sorted(by_division.items()):
        standings_update(division=Division(pk=division_id), player_ids=ids)


def _rows_write(model: Any, names: list[str], rows: list[tuple[int, list[Any]]]) -> None:
    """Plain UPDATEs (kyoku.rows; no model signal listens to these fields), a thousand rows a time:
    the ORM's bulk_update builds a CASE per field and row and takes seconds for thousands."""
    from kyoku.rows import rows_update

    for i in range(0, len(rows), 1000):
        rows_update(model, names, rows[i : i + 1000])


def _confirmation_follow(player: Player, changed: list[str], actor: Any, now: Any) -> None:
    """As ``player_name_edited``: new parts are the importer's confirmation; a new name alone
    leaves a split nobody checked."""
    after = split_after_edit(changed, player.family_name, player.given_name)
    if after == "confirm":
        player.name_confirmed_at, player.name_confirmed_by = now, authz.acting_user(actor)
    elif after == "unconfirm":
        player.name_confirmed_at, player.name_confirmed_by = None, None


def _import_audit(actor: Any, league: League, created: list[int], updated: list[int]) -> None:
    """The import in the league's log (the players made and changed); an update of a player who is
    also a member elsewhere is in that league's log too."""
    AuditLog.objects.create(
        actor=authz.acting_user(actor),
        actor_label=actor_label(actor),
        action="roster.import_rows",
        object_type="kyoku.league",
        object_id=str(league.pk),
        data={"created": created, "updated": updated},
        league_id=league.pk,
    )
    others = LeagueMembership.objects.filter(player_id__in=updated).exclude(league=league)
    for league_id, player_id in others.values_list("league_id", "player_id"):
        AuditLog.objects.create(
            actor=authz.acting_user(actor),
            actor_label=actor_label(actor),
            action="roster.edit",
            object_type="league.player",
            object_id=str(player_id),
            data={"league": league.pk, "import": True},
            league_id=league_id,
        )

"""A league's roster, kept by its admins: add a member, edit one, archive and restore, and a whole
roster read from the sheet the league keeps (previewed, then confirmed: all rows or none).

The consent rule of ``league.services.memberships`` holds here too. A number that belongs to no
player makes a new player, a member of this league. A number that belongs to a player who has
joined no league makes them a member (the record was made for a league to claim). A number that
belongs to a member of another league adds nobody: the admin is told "this number is already
used" (never whose), and may invite that player into one of the league's divisions; the player
joins when they accept. An edit changes a player every league of theirs sees, so it is audited in
each of those leagues; only an admin of a league the player belongs to may make it. A member is
archived, never deleted: results keep their player."""

from __future__ import annotations

import datetime as dt
import hashlib
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, gettext_noop

from kyoku import authz
from kyoku.models import AuditLog, League
from kyoku.principals import System, actor_label, actor_require
from kyoku.text import email_clean, name_clean

from ..models import Division, LeagueInvitation, LeagueMembership, NameOrder, Player, RosterImport
from ..names import name_written
from .memberships import Via, consent_via, invitation_create, membership_grant
from .players import player_name_edited

PLAYER_FIELDS = (
    "display_name",
    "native_name",
    "family_name",
    "given_name",
    "name_order",
    "membership_number",
    "tenhou_id",
    "mahjong_soul_id",
)
MEMBER_FIELDS = (*PLAYER_FIELDS, "email")
# a sheet's ways of writing the name order (the export writes the stored value)
ORDER_WORDS = {
    "family first": NameOrder.FAMILY_FIRST,
    "姓先": NameOrder.FAMILY_FIRST,
    "姓在前": NameOrder.FAMILY_FIRST,
    "姓が先": NameOrder.FAMILY_FIRST,
    "given first": NameOrder.GIVEN_FIRST,
    "名先": NameOrder.GIVEN_FIRST,
    "名在前": NameOrder.GIVEN_FIRST,
    "名が先": NameOrder.GIVEN_FIRST,
}
NUMBER_USED = gettext_noop("this number is already used")


# ---------------------------------------------------------------- values


def _number_clean(value: object) -> str:
    number = name_clean(value, field="membership_number", max_length=20, required=False)
    if not number:
        raise ValidationError({"membership_number": [_("give a number")]})
    return number


def _email_clean(value: object) -> str:
    return email_clean(value, field="email", required=False)


def order_default(family: str, given: str) -> str:
    """The order a name's parts are written in when nobody said: family first for a name in
    Chinese, Japanese or Korean script (陳 大文 is 陳大文), given first otherwise."""
    letters = [ch for ch in family + given if not ch.isspace()]
    east = ("CJK", "HIRAGANA", "KATAKANA", "HANGUL")
    if letters and all(unicodedata.name(ch, "").startswith(east) for ch in letters):
        return NameOrder.FAMILY_FIRST
    return NameOrder.GIVEN_FIRST


def member_values_clean(values: dict[str, Any], *, partial: bool = False) -> dict[str, str]:
    """The member's fields in their normal form, or ValidationError naming every field refused.
    ``partial``: only the fields given are checked (an import row, an API PATCH)."""
    clean: dict[str, str] = {}
    errors: dict[str, list[Any]] = {}
    for name in MEMBER_FIELDS:
        if partial and name not in values:
            continue
        raw = values.get(name, "")
        try:
            if name == "membership_number":
                clean[name] = _number_clean(raw)
            elif name == "email":
                clean[name] = _email_clean(raw)
            elif name == "name_order":
                order = ORDER_WORDS.get(" ".join(str(raw).casefold().replace("_", " ").split()), raw)
                order = order or order_default(str(values.get("family_name", "")), str(values.get("given_name", "")))
                if order not in NameOrder.values:
                    raise ValidationError({name: [_("family name first or given name first")]})
                clean[name] = order
            else:
                max_length, required = Player.NAME_FIELDS[name]
                clean[name] = name_clean(raw, field=name, max_length=max_length, required=False)
        except ValidationError as exc:
            for field, messages in exc.message_dict.items():
                errors.setdefault(field, []).extend(messages)
    if not partial or "display_name" in values:
        if not clean.get("display_name"):
            written = name_written(
                "", clean.get("family_name", ""), clean.get("given_name", ""), clean.get("name_order", "")
            )
            if written:
                clean["display_name"] = written[:80]
            elif "display_name" not in errors:
                errors["display_name"] = [_("give a name")]
    if errors:
        raise ValidationError(errors)
    return clean


def _number_free(number: str, player: Player | None = None) -> None:
    taken = Player.objects.filter(membership_number=number)
    if player is not None:
        taken = taken.exclude(pk=player.pk)
    if taken.exists():
        raise ValidationError({"membership_number": [_(NUMBER_USED)]})


def _audit_everywhere(*, actor: Any, action: str, player: Player, data: dict[str, Any]) -> None:
    """One audit row in every league the player belongs to: a change one league makes to a player
    is in the log of every league that sees that player."""
    actor_require(actor)
    for league_id in sorted(authz.player_leagues(player)) or [None]:
        AuditLog.objects.create(
            actor=authz.acting_user(actor),
            actor_label=actor_label(actor),
            action=action,
            object_type=player._meta.label_lower,
            object_id=str(player.pk),
            data=data,
            league_id=league_id,
        )


# ---------------------------------------------------------------- add, edit, archive


@dataclass(frozen=True)
class Added:
    membership: LeagueMembership | None = None
    invitation: LeagueInvitation | None = None
    created: bool = False  # a new player was made


@transaction.atomic
def member_add(*, league: League, values: dict[str, Any], actor: Any, division: Division | None = None) -> Added:
    """Add a member: a new player, or the player holding the number when the consent rule allows
    (see the module's docstring); an invitation into ``division`` otherwise."""
    authz.authorize(actor, league, authz.Need.ADMIN)
    number = _number_clean(values.get("membership_number", ""))
    existing = Player.objects.select_for_update().filter(membership_number=number).first()
    if existing is None:
        clean = member_values_clean(values)
        email = clean.pop("email", "")
        player = Player.objects.create(**clean)
        membership = membership_grant(league=league, player=player, via=Via.ADMIN, actor=actor)
        _contact_set(membership, email)
        _audit_everywhere(actor=actor, action="roster.add", player=player, data={"new": True})
        return Added(membership=membership, created=True)
    return _existing_add(league=league, player=existing, values=values, actor=actor, division=division)


def _existing_add(
    *, league: League, player: Player, values: dict[str, Any], actor: Any, division: Division | None
) -> Added:
    current = LeagueMembership.objects.filter(league=league, player=player).first()
    if current is not None:
        if current.archived_at is not None:
            raise ValidationError(
                {"membership_number": [_("%(player)s is an archived member: restore them.") % {"player": player}]}
            )
        raise ValidationError({"membership_number": [_("%(player)s is already a member.") % {"player": player}]})
    via = consent_via(league=league, player=player, actor=actor, own=Via.ADMIN)
    if via and player.merged_into_id is None:
        membership = membership_grant(league=league, player=player, via=via, actor=actor)
        _contact_set(membership, _email_clean(values.get("email", "")))
        _audit_everywhere(actor=actor, action="roster.add", player=player, data={"new": False})
        return Added(membership=membership)
    if division is None or player.merged_into_id is not None:
        raise ValidationError(
            {
                "membership_number": [
                    _(
                        "This number is already used by a player who has not joined this league. Choose a "
                        "division to invite them: they join when they accept."
                    )
                ]
            }
        )
    if division.season.league_id != league.pk:
        raise ValidationError({"division": [_("not a division of this league")]})
    return Added(invitation=invitation_create(division=division, player=player, actor=actor))


def _contact_set(membership: LeagueMembership, email: str) -> None:
    if email != membership.contact_email:
        membership.contact_email = email
        membership.save(update_fields=["contact_email"])


def _edit_authorize(actor: Any, membership: LeagueMembership) -> None:
    authz.authorize(actor, membership, authz.Need.ADMIN)
    if not authz.player_private_visible(actor, membership.player) and not isinstance(actor, System):
        raise PermissionDenied(_("Only an admin of a league the player belongs to may edit them."))


@transaction.atomic
def member_edit(*, membership: LeagueMembership, values: dict[str, Any], actor: Any) -> list[str]:
    """Change a member's names, number, online ids and contact email (only the fields given).
    Returns the fields changed; audited in every league of the player."""
    membership = LeagueMembership.objects.select_for_update().select_related("player").get(pk=membership.pk)
    _edit_authorize(actor, membership)
    player = membership.player
    clean = member_values_clean(values, partial=True)
    if "membership_number" in clean and clean["membership_number"] != player.membership_number:
        _number_free(clean["membership_number"], player)
    changes: dict[str, list[str]] = {}
    for name, value in clean.items():
        before = membership.contact_email if name == "email" else getattr(player, name)
        if value != before:
            changes[name] = [before, value]
    player_fields = [f for f in changes if f != "email"]
    if player_fields:
        for name in player_fields:
            setattr(player, name, clean[name])
        player.save(update_fields=player_fields)
        player_name_edited(player=player, actor=actor, changed=player_fields)
    if "email" in changes:
        _contact_set(membership, clean["email"])
    if changes:
        _audit_everywhere(
            actor=actor, action="roster.edit", player=player, data={"league": membership.league_id, "changes": changes}
        )
    return list(changes)


@transaction.atomic
def member_archive(*, membership: LeagueMembership, actor: Any) -> LeagueMembership:
    """The member has left: hidden from the roster, their results and history kept."""
    authz.authorize(actor, membership, authz.Need.ADMIN)
    if membership.archived_at is None:
        membership.archived_at = timezone.now()
        membership.save(update_fields=["archived_at"])
        _membership_audit(actor, "roster.archive", membership)
    return membership


@transaction.atomic
def member_restore(*, membership: LeagueMembership, actor: Any) -> LeagueMembership:
    authz.authorize(actor, membership, authz.Need.ADMIN)
    if membership.archived_at is not None:
        membership.archived_at = None
        membership.save(update_fields=["archived_at"])
        _membership_audit(actor, "roster.restore", membership)
    return membership


def _membership_audit(actor: Any, action: str, membership: LeagueMembership) -> None:
    from kyoku.audit import audit_log_write

    audit_log_write(actor=actor, action=action, obj=membership, data={"player": membership.player_id})


# ---------------------------------------------------------------- import


def import_limits() -> tuple[int, int]:
    """(bytes, rows) a roster file may hold (settings ROSTER_IMPORT_MAX_BYTES, _MAX_ROWS)."""
    return (
        int(getattr(settings, "ROSTER_IMPORT_MAX_BYTES", 5 * 1024 * 1024)),
        int(getattr(settings, "ROSTER_IMPORT_MAX_ROWS", 10_000)),
    )


@transaction.atomic
def roster_import_preview(*, league: League, data: bytes, filename: str, actor: Any) -> RosterImport:
    """Read the sheet and tell each row's outcome; nothing of it is written to the roster (the
    preview itself is stored, for the confirmation). ValidationError({"file": …}) when the file
    as a whole cannot be read."""
    from ..roster_import import rows_classify
    from ..roster_sheet import SheetError, sheet_read

    authz.authorize(actor, league, authz.Need.ADMIN)
    max_bytes, max_rows = import_limits()
    if len(data) > max_bytes:
        raise ValidationError(
            {"file": [_("The file is larger than %(n)s MB.") % {"n": round(max_bytes / 1024 / 1024, 1)}]}
        )
    try:
        sheet = sheet_read(data, max_rows=max_rows)
    except SheetError as exc:
        raise ValidationError({"file": [str(exc)]}) from None
    rows = rows_classify(league=league, sheet=sheet)
    # previews nobody confirmed within a day are forgotten (each holds a whole sheet)
    stale = timezone.now() - dt.timedelta(days=1)
    RosterImport.objects.filter(league=league, confirmed_at__isnull=True, created_at__lt=stale).delete()
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["outcome"]] = counts.get(row["outcome"], 0) + 1
    rows.sort(key=lambda r: (r["outcome"] != "error", r["line"]))
    preview = RosterImport.objects.create(
        league=league,
        created_by=authz.acting_user(actor),
        filename=filename[:200],
        sha256=hashlib.sha256(data).hexdigest(),
        rows=rows,
        summary={"counts": counts, "ignored": sheet.ignored, "columns": sorted(sheet.columns), "rows": len(rows)},
    )
    from kyoku.audit import audit_log_write

    audit_log_write(
        actor=actor, action="roster.import_preview", obj=preview, data={"counts": counts, "sha256": preview.sha256}
    )
    return preview


@transaction.atomic
def roster_import_confirm(*, preview: RosterImport, actor: Any) -> dict[str, int]:
    """Write every row of the preview, or none: refused while a row has an error, once confirmed,
    or when the roster changed since the preview in a way that changes a row's outcome."""
    from ..roster_import import rows_apply

    preview = RosterImport.objects.select_for_update().get(pk=preview.pk)
    authz.authorize(actor, preview, authz.Need.ADMIN)
    if preview.confirmed_at is not None:
        raise ValidationError({"import": [_("This import has already been confirmed.")]})
    if any(row["outcome"] == "error" for row in preview.rows):
        raise ValidationError(
            {"import": [_("Some rows have errors: correct the file and preview it again. Nothing was written.")]}
        )
    counts = rows_apply(league=preview.league, rows=preview.rows, actor=actor)
    preview.confirmed_at = timezone.now()
    preview.save(update_fields=["confirmed_at"])
    from kyoku.audit import audit_log_write

    audit_log_write(actor=actor, action="roster.import", obj=preview, data={"counts": counts, "sha256": preview.sha256})
    return counts

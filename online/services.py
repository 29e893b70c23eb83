"""Writes of the online app: importing a Tenhou record into a league game, accounts, evidence."""

from __future__ import annotations

import hashlib
import io
import secrets
import zipfile

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.translation import gettext as _

from kyoku.audit import audit_log_write
from kyoku.authz import Need
from league.services import actor_authorize as authorize
from league.models import Game, Player, QualificationApplication
from scoring import services as hand_services
from scoring.models import HandRecord

from . import selectors
from .models import EvidenceCheck, EvidenceRecord, GameImport, OnlineAccount
from .tenhou import TenhouError, TenhouGame, game_check, parse_record
from .tenhou.parse import MAX_BYTES

MAX_EVIDENCE_FILES = 200
MAX_ARCHIVE_BYTES = 20_000_000
MAX_REASON = 2000


def tenhou_message(exc: TenhouError) -> str:
    """A parser error in the reader's language (the parser's codes are stable)."""
    messages = {
        "sanma": _("Three-player records are not league games: only four-player Tenhou records can be imported."),
        "length": _("Only hanchan (east-south) and east-only games can be imported; the record does not say "
                    "which it is."),
        "too_large": _("The file is too large to be a Tenhou game record (at most %(limit)s bytes).")
        % {"limit": MAX_BYTES},
        "empty": _("The record has no hands."),
    }
    return messages.get(exc.code, _("Not a Tenhou game record (mjlog XML or tenhou.net/6 JSON): %(detail)s")
                        % {"detail": str(exc)})


def record_read(data: bytes, filename: str = "", field: str = "file") -> TenhouGame:
    try:
        return parse_record(data, filename)
    except TenhouError as exc:
        raise ValidationError({field: [tenhou_message(exc)]}) from None


def _store(prefix: str, data: bytes, ext: str) -> str:
    from kyoku.uploads import private_storage

    return private_storage.save(f"{prefix}/{secrets.token_hex(16)}.{ext}", ContentFile(data))


# ---------------------------------------------------------------- accounts


@transaction.atomic
def account_link(*, player: Player, account_name: str, actor, platform: str = "tenhou") -> OnlineAccount:
    """Record that ``player`` plays online as ``account_name`` (audited)."""
    name = (account_name or "").strip()
    if not name or len(name) > 40:
        raise ValidationError({"account_name": [_("give the account name (at most 40 characters)")]})
    existing = OnlineAccount.objects.filter(platform=platform, account_name=name).first()
    if existing and existing.player_id != player.pk:
        raise ValidationError({"account_name": [_("%(name)s is already the account of %(player)s")
                                                % {"name": name, "player": existing.player}]})
    if existing:
        return existing
    account = OnlineAccount.objects.create(player=player, platform=platform, account_name=name)
    audit_log_write(actor=actor, action="online_account.link", obj=account,
                    data={"player": player.pk, "platform": platform, "account_name": name})
    return account


# ---------------------------------------------------------------- import


def import_plan(*, game: Game, record: TenhouGame, mapping: dict | None = None) -> dict:
    """What an import would do, without writing: seat → player (or None when unknown), the
    problems with the mapping, and the hand-by-hand check under the season's rules."""
    seats = {s.seat: s.player for s in game.seats.select_related("player")}
    known = selectors.players_by_account(record.names)
    mapping = mapping or {}
    players, unknown, problems = [], [], []
    for seat, name in enumerate(record.names):
        chosen = mapping.get(name) or known.get(name)
        players.append(chosen)
        if chosen is None:
            unknown.append(name)
        elif seats.get(seat) is None or seats[seat].pk != chosen.pk:
            problems.append(_("%(name)s sat in seat %(seat)s of the record, where this game has %(player)s")
                            % {"name": name, "seat": seat + 1, "player": seats.get(seat) or "-"})
    rule_set = game.season.rule_set
    check = game_check(record, rules=rule_set.spec, compare_points=rule_set.preset == "tenhou")
    return {"players": players, "unknown": unknown, "problems": problems, "check": check,
            "seats": [seats.get(i) for i in range(4)]}


@transaction.atomic
def game_import(*, game: Game, data: bytes, actor, filename: str = "", mapping: dict | None = None,
                override_reason: str = "") -> GameImport:
    """Import a Tenhou record as the hands of ``game``. Nothing is stored unless every hand and
    the final scores agree with the record, or an admin overrides with a reason."""
    authorize(actor, game, Need.ADMIN)
    record = record_read(data, filename)
    if game.season.rule_set.system != "riichi":
        raise ValidationError({"game": [_("only a riichi game can take a Tenhou record")]})
    if HandRecord.objects.filter(game=game).exists():
        raise ValidationError({"game": [_("this game already has hands; delete them before importing a record")]})
    if game.status in (Game.Status.FINISHED, Game.Status.VOID) or hasattr(game, "result"):
        raise ValidationError({"game": [_("this game already has a result")]})
    override_reason = (override_reason or "").strip()
    if len(override_reason) > MAX_REASON:
        raise ValidationError({"override_reason": [_("at most %(n)s characters") % {"n": MAX_REASON}]})
    plan = import_plan(game=game, record=record, mapping=mapping)
    if plan["unknown"]:
        raise ValidationError({"mapping": [_("unknown Tenhou names: %(names)s; choose the player of each")
                                           % {"names": ", ".join(plan["unknown"])}]})
    if plan["problems"]:
        raise ValidationError({"mapping": plan["problems"]})
    check = plan["check"]
    if not check["ok"]:
        if not override_reason:
            bad = [h["label"] for h in check["hands"] if not h["ok"]]
            raise ValidationError({"hands": [_("the record and the engine disagree on: %(hands)s")
                                             % {"hands": ", ".join(bad) or _("the final scores")}]})
        authorize(actor, game, Need.ADMIN)
    for name in record.names:
        if mapping and name in mapping:
            account_link(player=mapping[name], account_name=name, actor=actor)
    for row in check["hands"]:
        hand_services.hand_record_add(game=game, record=_stored(row["record"]), actor=actor)
    hand_services.game_hands_finish(game=game, actor=actor)
    digest = hashlib.sha256(data).hexdigest()
    imported = GameImport.objects.create(
        game=game, raw=_store("tenhou", data, "json" if record.format == "tenhou6" else "mjlog"), sha256=digest,
        format=record.format, log_id=record.log_id, names=record.names, comparison=check, agreed=check["ok"],
        override_reason=override_reason, imported_by=actor if getattr(actor, "is_authenticated", False) else None)
    audit_log_write(actor=actor, action="game.import_override" if not check["ok"] else "game.import", obj=imported,
                    data={"game": game.pk, "sha256": digest, "log_id": record.log_id, "hands": len(record.hands),
                          "agreed": check["ok"], "reason": override_reason})
    return imported


def _stored(record: dict) -> dict:
    # The hand service derives dealer, honba and deposits itself; give it the hand alone.
    return {k: v for k, v in record.items() if k not in ("dealer", "honba", "deposits")}


# ---------------------------------------------------------------- qualification evidence


def evidence_files(uploads) -> list[tuple[str, bytes]]:
    """(name, bytes) of each uploaded record; a zip archive is opened (records inside only)."""
    out = []
    for upload in uploads:
        if upload.size > MAX_ARCHIVE_BYTES:
            raise ValidationError({"records": [_("%(name)s is too large") % {"name": upload.name[:80]}]})
        data = upload.read()
        if data[:4] == b"PK\x03\x04":
            out.extend(_unzipped(data, upload.name))
        else:
            out.append((upload.name, data))
        if len(out) > MAX_EVIDENCE_FILES:
            raise ValidationError({"records": [_("at most %(n)s records at once") % {"n": MAX_EVIDENCE_FILES}]})
    return out


def _unzipped(data: bytes, name: str) -> list[tuple[str, bytes]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
        if len(infos) > MAX_EVIDENCE_FILES or sum(i.file_size for i in infos) > MAX_ARCHIVE_BYTES:
            raise ValidationError({"records": [_("%(name)s holds too much") % {"name": name[:80]}]})
        return [(i.filename.rsplit("/", 1)[-1], archive.read(i)) for i in infos]
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError):
        raise ValidationError({"records": [_("%(name)s is not a readable zip archive") % {"name": name[:80]}]}) \
            from None


@transaction.atomic
def evidence_attach(*, application: QualificationApplication, files: list[tuple[str, bytes]], actor) -> list:
    """Read and store the records; all or nothing (a bad file names itself)."""
    authorize(actor, application, Need.OWNER)
    if application.status != QualificationApplication.Status.PENDING:
        raise ValidationError({"records": [_("the application is already decided")]})
    if not files:
        raise ValidationError({"records": [_("choose one or more Tenhou records")]})
    rows = []
    for name, data in files:
        try:
            record = parse_record(data, name)
        except TenhouError as exc:
            raise ValidationError({"records": [f"{name[:80]}: {tenhou_message(exc)}"]}) from None
        digest = hashlib.sha256(data).hexdigest()
        if EvidenceRecord.objects.filter(application=application, sha256=digest).exists():
            continue
        rows.append(EvidenceRecord.objects.create(
            application=application, raw=_store("tenhou-evidence", data,
                                                "json" if record.format == "tenhou6" else "mjlog"),
            sha256=digest, filename=name[:200], log_id=record.log_id[:60], names=record.names,
            room=record.room or "", hanchan=record.hanchan, played_on=record.played_on))
    audit_log_write(actor=actor, action="application.records_attach", obj=application,
                    data={"added": [r.sha256 for r in rows]})
    return rows


def evidence_snapshot_store(application: QualificationApplication) -> EvidenceCheck | None:
    """Freeze what the records proved at the decision (called when the status leaves pending)."""
    if not application.online_records.exists() or EvidenceCheck.objects.filter(application=application).exists():
        return None
    return EvidenceCheck.objects.create(application=application,
                                        snapshot=selectors.evidence_summary(application=application))

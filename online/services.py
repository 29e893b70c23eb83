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
from django.core.exceptions import PermissionDenied

from kyoku.authz import Need, acting_user, player_leagues, player_private_visible
from kyoku.text import name_clean, name_normal
from kyoku.principals import Actor, System, actor_label, actor_require
from kyoku.models import AuditLog
from league.services import actor_authorize as authorize
from league.models import Game, Player, QualificationApplication
from league.services import game_result_record
from scoring.engine.errors import SettlementError
from scoring.engine.riichi import resolve as resolve_rules
from scoring import services as hand_services
from scoring.models import HandRecord

from . import selectors
from .models import EvidenceCheck, EvidenceRecord, GameImport, OnlineAccount, RecordFingerprint, account_fold
from .tenhou import TenhouError, TenhouGame, game_check, parse_record
from .tenhou.check import record_rules
from .tenhou.parse import MAX_BYTES, PARSE_FAULTS

MAX_EVIDENCE_FILES = 200
MAX_RECORDS_PER_APPLICATION = 500  # a year of Phoenix games is rarely more than a few hundred
MAX_ARCHIVE_BYTES = 20_000_000
MAX_REASON = 2000


def tenhou_message(exc: TenhouError) -> str:
    """A parser error in the reader's language (the parser's codes are stable)."""
    messages = {
        "sanma": _("Three-player records are not league games: only four-player Tenhou records can be imported."),
        "length": _(
            "Only hanchan (east-south) and east-only games can be imported; the record does not say " "which it is."
        ),
        "too_large": _("The file is too large to be a Tenhou game record (at most %(limit)s bytes).")
        % {"limit": MAX_BYTES},
        "empty": _("The record has no hands."),
        "too_many_hands": _("The record has %(n)s hands; a game has at most %(limit)s.")
        % {"n": exc.params.get("n"), "limit": exc.params.get("limit")},
        "name": _("A player's name in the record is too long or holds characters that are not text (seat %(seat)s).")
        % {"seat": exc.params.get("seat")},
        "impossible": _("The record holds figures no real game can have (%(detail)s).")
        % {"detail": exc.params.get("where", _("the final scores"))},
    }
    refused = _refusal_words(exc)
    if refused:
        return refused
    return messages.get(
        exc.code, _("Not a Tenhou game record (mjlog XML or tenhou.net/6 JSON): %(detail)s") % {"detail": str(exc)}
    )


def hand_words(round_: int, honba: int) -> str:
    """ "East 1, 0 honba" in the reader's language (the check's own label is English)."""
    wind = (_("East"), _("South"), _("West"), _("North"))[round_ // 4 % 4]
    return _("%(wind)s %(n)s, %(honba)s honba") % {"wind": wind, "n": round_ % 4 + 1, "honba": honba}


def _refusal_words(exc: TenhouError) -> str:
    """A record refused because it is wrong (names, tiles, yaku, payments, length), in words that
    name what is wrong; "" for the other codes."""
    p = exc.params
    where = hand_words(p["round"], p["honba"]) if "round" in p and "honba" in p else ""
    if exc.code == "names":
        return _("The record names %(n)s players; a league game has four.") % {"n": p.get("n")}
    if exc.code == "tile":
        return _(
            "Hand %(hand)s of the record holds %(tile)s, which is no tile (tiles are written 11–19, 21–29, "
            "31–39, 41–47, and 51–53 for red fives)."
        ) % {"hand": p.get("hand"), "tile": p.get("tile")}
    if exc.code == "yaku":
        return _(
            "%(hand)s: the record names the yaku %(text)s, whose han cannot be read (a yaku is written as "
            "its name and its han, e.g. 立直(1飜))."
        ) % {"hand": where, "text": p.get("text")}
    if exc.code == "yaku_han":
        return _("%(hand)s: the record's yaku add up to %(han)s han, but the hand is scored %(points)s.") % {
            "hand": where,
            "han": p.get("han"),
            "points": p.get("points"),
        }
    if exc.code == "deltas":
        return _("%(hand)s: the record pays %(paid)s, but the players' scores move by %(moved)s.") % {
            "hand": where,
            "paid": p.get("paid"),
            "moved": p.get("moved"),
        }
    if exc.code == "length_label":
        return _(
            "The record is labelled an east-only game (東), but it goes on into %(hand)s after a player "
            "reached 30,000 points: the label and the hands disagree."
        ) % {"hand": where}
    return ""


def record_read(data: bytes, filename: str = "", field: str = "file") -> TenhouGame:
    try:
        return parse_record(data, filename)
    except TenhouError as exc:
        raise ValidationError({field: [tenhou_message(exc)]}) from None


def _store(prefix: str, data: bytes, ext: str) -> str:
    from kyoku.uploads import get_private_storage

    return get_private_storage().save(f"{prefix}/{secrets.token_hex(16)}.{ext}", ContentFile(data))


# ---------------------------------------------------------------- accounts


ACCOUNT_PLATFORMS = ("tenhou", "mahjongsoul")


def account_change_authorize(actor: Actor, player: Player) -> None:
    """Who may link or unlink a player's online names: the player, or an admin of a league the
    player belongs to; the system (a command: the operator's own act) may too."""
    actor_require(actor)
    if isinstance(actor, System):
        return
    if not player_private_visible(actor, player):
        raise PermissionDenied(
            _("Only the player or an admin of the player's league may change their online accounts.")
        )


def _account_audit(*, actor: Actor, action: str, account: OnlineAccount, player: Player) -> None:
    """One audit row in every league the player belongs to: a link made in one league never changes
    what another league sees without that league's log saying so."""
    data = {"player": player.pk, "platform": account.platform, "account_name": account.account_name}
    leagues: list = sorted(player_leagues(player))
    for league_id in leagues or [None]:
        AuditLog.objects.create(
            actor=acting_user(actor),
            actor_label=actor_label(actor),
            action=action,
            object_type=account._meta.label_lower,
            object_id=str(account.pk),
            data=data,
            league_id=league_id,
        )


@transaction.atomic
def account_link(*, player: Player, account_name: str, actor: Actor, platform: str = "tenhou") -> OnlineAccount:
    """Record that ``player`` plays online as ``account_name`` (audited in each of the player's leagues).
    A name another player already holds is refused: a link never moves silently."""
    account_change_authorize(actor, player)
    if platform not in ACCOUNT_PLATFORMS:
        raise ValidationError({"platform": [_("unknown platform")]})
    # NFC, trimmed, no control, bidi or invisible characters (kyoku.text): one name, one account
    name = name_clean(account_name, field="account_name", max_length=40)
    # one account per folded name (NFKC, case): Tenhou_01 and ｔｅｎｈｏｕ＿０１ are tenhou_01
    existing = (
        OnlineAccount.objects.select_for_update().filter(platform=platform, account_key=account_fold(name)).first()
    )
    if existing and existing.player_id != player.pk:
        # whose it is stays the other player's business: the words name nobody
        words = _("this account name is already linked to another player")
        raise ValidationError({"account_name": ValidationError(words, code="account_taken")})
    if existing:
        return existing
    account = OnlineAccount.objects.create(player=player, platform=platform, account_name=name)
    _account_audit(actor=actor, action="online_account.link", account=account, player=player)
    return account


@transaction.atomic
def account_unlink(*, player: Player, account_name: str, actor: Actor, platform: str = "tenhou") -> None:
    """Remove one of the player's online names (audited in each of the player's leagues)."""
    account_change_authorize(actor, player)
    name = name_normal(account_name) if isinstance(account_name, str) else ""
    account = OnlineAccount.objects.filter(player=player, platform=platform, account_key=account_fold(name)).first()
    if account is None:
        raise ValidationError(
            {
                "account_name": [
                    _("%(player)s has no account %(name)s") % {"player": player, "name": str(account_name)[:40]}
                ]
            }
        )
    _account_audit(actor=actor, action="online_account.unlink", account=account, player=player)
    account.delete()


# ---------------------------------------------------------------- import


KEEP_CHOICES = ("hands", "result")


def record_fit(*, game: Game, record: TenhouGame) -> list[str]:
    """Why the record cannot be a game of this season, in words (empty when it can be): the season's
    rules must start every player on the record's points and play the record's length, or neither
    its hands nor its final scores mean what they meant online."""
    rule_set = game.season.rule_set
    if rule_set.system != "riichi":
        return [
            _("only a riichi season can take a Tenhou record; this season plays %(system)s")
            % {"system": rule_set.get_system_display() if hasattr(rule_set, "get_system_display") else rule_set.system}
        ]
    options = resolve_rules(rule_set.spec)
    problems = []
    start = record.hands[0].start
    if any(points != options["start_points"] for points in start):
        problems.append(
            _(
                "the record starts each player on %(record)s points, this season's rules on %(season)s: "
                "it cannot be a game of this season"
            )
            % {"record": f"{start[0]:,}", "season": f"{options['start_points']:,}"}
        )
    record_length = "hanchan" if record.hanchan else "tonpuusen"
    if record_length != options["game_length"]:
        problems.append(
            _("the record is an east-only game and this season plays hanchan")
            if record_length == "tonpuusen"
            else _("the record is a hanchan and this season plays east-only games")
        )
    return problems


def import_plan(*, game: Game, record: TenhouGame, mapping: dict | None = None) -> dict:
    """What an import would do, without writing: seat → player (or None when unknown), the
    problems with the mapping, why the record cannot be a game of this season (``fit``), the
    hand-by-hand check under the rules the record was played under (Tenhou's: is the record sound?)
    and, where the season's rules differ, the same hands settled under the season's (``season_check``:
    can the league keep the hands?)."""
    seats = {s.seat: s.player for s in game.seats.select_related("player")}
    known = selectors.players_by_account(record.names, record.platform, record.account_ids)
    mapping = mapping or {}
    players, unknown, problems = [], [], []
    for seat, name in enumerate(record.names):
        chosen = mapping.get(name) or known.get(name)
        players.append(chosen)
        if chosen is None:
            unknown.append(name)
        elif seats.get(seat) is None or seats[seat].pk != chosen.pk:
            problems.append(
                _("%(name)s sat in seat %(seat)s of the record, where this game has %(player)s")
                % {"name": name, "seat": seat + 1, "player": seats.get(seat) or "-"}
            )
    rule_set = game.season.rule_set
    check = game_check(record)
    fit = record_fit(game=game, record=record)
    season_check = None
    if not fit:
        season_check = (
            check
            if rule_set.spec == record_rules(record)
            else game_check(record, rules=rule_set.spec, compare_points=False)
        )
    return {
        "players": players,
        "unknown": unknown,
        "problems": problems,
        "check": check,
        "fit": fit,
        "season_check": season_check,
        "seats": [seats.get(i) for i in range(4)],
    }


@transaction.atomic
def game_import(
    *,
    game: Game,
    data: bytes,
    actor: Actor,
    filename: str = "",
    mapping: dict | None = None,
    override_reason: str = "",
    keep: str = "hands",
) -> GameImport:
    """Import a Tenhou record into ``game``. The record is first settled under the rules it was
    played under (Tenhou's); what the league keeps is ``keep``: ``"hands"`` (every hand, settled
    again under the season's rules, and the result they give) or ``"result"`` (the final scores
    only, scored by the season's uma and oka). Nothing is stored unless the record agrees with
    itself and, to keep the hands, with the season's rules, or an admin overrides with a reason; a
    record that cannot be a game of this season (start points, length) is refused."""
    authorize(actor, game, Need.ADMIN)
    if keep not in KEEP_CHOICES:
        raise ValidationError({"keep": [_("keep the hands or the result")]})
    record = record_read(data, filename)
    fit = record_fit(game=game, record=record)
    if fit:
        raise ValidationError({"file": fit}, code="record_not_this_season")
    if HandRecord.objects.filter(game=game).exists():
        raise ValidationError({"game": [_("this game already has hands; delete them before importing a record")]})
    if game.status in (Game.Status.FINISHED, Game.Status.VOID) or hasattr(game, "result"):
        raise ValidationError({"game": [_("this game already has a result")]})
    override_reason = (override_reason or "").strip()
    if len(override_reason) > MAX_REASON:
        raise ValidationError({"override_reason": [_("at most %(n)s characters") % {"n": MAX_REASON}]})
    plan = import_plan(game=game, record=record, mapping=mapping)
    if plan["unknown"]:
        unknown = (
            _("unknown Mahjong Soul names: %(names)s; choose the player of each")
            if record.platform == "mahjongsoul"
            else _("unknown Tenhou names: %(names)s; choose the player of each")
        )
        raise ValidationError({"mapping": [unknown % {"names": ", ".join(plan["unknown"])}]})
    if plan["problems"]:
        raise ValidationError({"mapping": plan["problems"]})
    check = plan["check"] if keep == "result" else _both(plan["check"], plan["season_check"])
    if not check["ok"] and not override_reason:
        raise ValidationError({"hands": [_disagreement(plan, keep)]})
    for name in record.names:
        if mapping and name in mapping:
            account_link(player=mapping[name], account_name=name, actor=actor, platform=record.platform)
    try:
        if keep == "hands":
            for row in plan["season_check"]["hands"]:
                hand_services.hand_record_add(game=game, record=_stored(row["record"]), actor=actor)
            hand_services.game_hands_finish(game=game, actor=actor)
            _details_keep(game=game, data=data, filename=filename, actor=actor)
        else:
            final = plan["check"]["final"]
            game_result_record(
                game=game, scores=final["scores_settled"], deposits_left=final["deposits_left"], actor=actor
            )
    except SettlementError as exc:
        # an overridden record the season's rules cannot settle: said, never a 500
        raise ValidationError(
            {"hands": [_("the season's rules cannot settle this record: %(detail)s") % {"detail": exc}]}
        ) from None
    digest = hashlib.sha256(data).hexdigest()
    imported = GameImport.objects.create(
        game=game,
        raw=_store("tenhou", data, "json" if record.format == "tenhou6" else "mjlog"),
        sha256=digest,
        format=record.format,
        log_id=record.log_id,
        names=record.names,
        comparison=check,
        agreed=check["ok"],
        override_reason=override_reason,
        imported_by=acting_user(actor),
    )
    audit_log_write(
        actor=actor,
        action="game.import_override" if not check["ok"] else "game.import",
        obj=imported,
        data={
            "game": game.pk,
            "sha256": digest,
            "log_id": record.log_id,
            "hands": len(record.hands),
            "agreed": check["ok"],
            "reason": override_reason,
            "kept": keep,
        },
    )
    return imported


def _details_keep(*, game: Game, data: bytes, filename: str, actor: Actor) -> None:
    """What the record says of each hand beyond its settlement (yaku, dora, calls, riichi
    turns), kept with the hands for the statistics (stats.models.HandDetail)."""
    from stats.services import hand_details_store

    from .tenhou.details import record_details

    try:
        details = record_details(data, filename)
    except (TenhouError, *PARSE_FAULTS):
        return  # the hands stand; the figures these details give stay absent for this game
    hand_details_store(game=game, details=details, source="tenhou", actor=actor)


def _both(record_check: dict, season_check: dict) -> dict:
    """Keeping the hands needs the record sound under Tenhou's rules and the same under the season's."""
    return {**season_check, "ok": record_check["ok"] and season_check["ok"]}


def _disagreement(plan: dict, keep: str) -> str:
    """Which hands disagree, and with what: the record with itself, or the season's rules with it."""
    own = [h["label"] for h in plan["check"]["hands"] if not h["ok"]]
    if not plan["check"]["ok"]:
        return _("the record disagrees with Tenhou's own rules on: %(hands)s") % {
            "hands": ", ".join(own) or _("the final scores")
        }
    season = [h["label"] for h in plan["season_check"]["hands"] if not h["ok"]]
    return _(
        "under this season's rules these hands settle differently: %(hands)s; keep the result only, " "or give a reason"
    ) % {"hands": ", ".join(season) or _("the final scores")}


def _stored(record: dict) -> dict:
    # The hand service derives dealer, honba and deposits itself; give it the hand alone.
    return {k: v for k, v in record.items() if k not in ("dealer", "honba", "deposits")}


# ---------------------------------------------------------------- qualification evidence


def evidence_files(uploads) -> list[tuple[str, bytes]]:
    """(name, bytes) of each uploaded record; a zip archive is opened (records inside only)."""
    out, total = [], 0
    for upload in uploads:
        if upload.size > MAX_ARCHIVE_BYTES:
            raise ValidationError({"records": [_("%(name)s is too large") % {"name": upload.name[:80]}]})
        data = upload.read()
        if data[:4] == b"PK\x03\x04":
            out.extend(_unzipped(data, upload.name, budget=MAX_ARCHIVE_BYTES - total))
        else:
            out.append((upload.name, data))
        # one budget for the whole request: many small archives cannot add up to gigabytes
        total = sum(len(d) for _n, d in out)
        if total > MAX_ARCHIVE_BYTES:
            raise ValidationError(
                {"records": [_("the records of one upload hold more than %(n)s bytes") % {"n": MAX_ARCHIVE_BYTES}]}
            )
        if len(out) > MAX_EVIDENCE_FILES:
            raise ValidationError({"records": [_("at most %(n)s records at once") % {"n": MAX_EVIDENCE_FILES}]})
    return out


def _unzipped(data: bytes, name: str, budget: int = MAX_ARCHIVE_BYTES) -> list[tuple[str, bytes]]:
    """The records inside a zip archive, within ``budget`` bytes in all (what the request has left).
    An entry is read with a cap, so a size its header understates cannot inflate past the budget."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        infos = [i for i in archive.infolist() if not i.is_dir()]
        if (
            len(infos) > MAX_EVIDENCE_FILES
            or sum(i.file_size for i in infos) > budget
            or any(i.file_size > MAX_BYTES for i in infos)
        ):
            raise ValidationError({"records": [_("%(name)s holds too much") % {"name": name[:80]}]})
        out = []
        for info in infos:
            with archive.open(info) as entry:
                content = entry.read(MAX_BYTES + 1)
            if len(content) > MAX_BYTES:
                raise ValidationError({"records": [_("%(name)s holds too much") % {"name": name[:80]}]})
            out.append((info.filename.rsplit("/", 1)[-1], content))
        return out
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError):
        raise ValidationError(
            {"records": [_("%(name)s is not a readable zip archive") % {"name": name[:80]}]}
        ) from None


@transaction.atomic
def evidence_attach(*, application: QualificationApplication, files: list[tuple[str, bytes]], actor: Actor) -> list:
    """Read and store the records; all or nothing (a bad file names itself)."""
    authorize(actor, application, Need.OWNER)
    if application.status != QualificationApplication.Status.PENDING:
        raise ValidationError({"records": [_("the application is already decided")]})
    if not files:
        raise ValidationError({"records": [_("choose one or more Tenhou or Mahjong Soul records")]})
    # per applicant, not only per upload: uploads one after another cannot grow without bound
    if application.online_records.count() + len(files) > MAX_RECORDS_PER_APPLICATION:
        raise ValidationError(
            {"records": [_("an application holds at most %(n)s records") % {"n": MAX_RECORDS_PER_APPLICATION}]}
        )
    rows = []
    for name, data in files:
        try:
            record = parse_record(data, name)
        except TenhouError as exc:
            raise ValidationError({"records": [f"{name[:80]}: {tenhou_message(exc)}"]}) from None
        digest = hashlib.sha256(data).hexdigest()
        keys = record.fingerprints()
        # the same game already attached to this application (same file, or the same game by its
        # content under another name or with bytes changed) adds nothing
        if (
            EvidenceRecord.objects.filter(application=application, sha256=digest).exists()
            or RecordFingerprint.objects.filter(record__application=application, key__in=keys).exists()
        ):
            continue
        row = EvidenceRecord.objects.create(
            application=application,
            raw=_store("tenhou-evidence", data, "json" if record.format == "tenhou6" else "mjlog"),
            sha256=digest,
            filename=name[:200],
            log_id=record.log_id[:60],
            names=record.names,
            room=record.room or "",
            hanchan=record.hanchan,
            played_on=record.played_on,
            platform=record.platform,
            ranks=record.ranks,
            account_ids=record.account_ids,
        )
        RecordFingerprint.objects.bulk_create([RecordFingerprint(record=row, key=k) for k in keys])
        rows.append(row)
    audit_log_write(
        actor=actor, action="application.records_attach", obj=application, data={"added": [r.sha256 for r in rows]}
    )
    return rows


def evidence_snapshot_store(application: QualificationApplication) -> EvidenceCheck | None:
    """Freeze what the records proved at the decision (called when the status leaves pending)."""
    if not application.online_records.exists() or EvidenceCheck.objects.filter(application=application).exists():
        return None
    return EvidenceCheck.objects.create(
        application=application, snapshot=selectors.evidence_summary(application=application)
    )

"""Reads of the online app."""

from __future__ import annotations

from collections import Counter

from kyoku.text import name_normal
from league.models import Player
from league.qualification import RANKS, ROOMS

from .models import OnlineAccount, RecordFingerprint, account_fold


# the Player field holding each platform's name or id, beside the linked accounts
PLAYER_ID_FIELD = {"tenhou": "tenhou_id", "mahjongsoul": "mahjong_soul_id"}


def players_by_account(names, platform: str = "tenhou", account_ids=None) -> dict:
    """Record name → Player, from linked accounts first, then the player's own field for the
    platform (Tenhou ID, Mahjong Soul ID). Names are stored in their normal form (kyoku.text), so a
    record's name is looked up in it too. A Mahjong Soul record also carries each seat's account id
    (``account_ids``, in seat order with ``names``): a player linked or registered by that id is
    found under the seat's name, whatever nickname the account played under."""
    normal = {name_normal(n): n for n in names if isinstance(n, str) and n}
    by_id = {
        str(i): n for i, n in zip(account_ids or [], names) if isinstance(n, str) and n and isinstance(i, str) and i
    }
    keys = list(normal) + [i for i in by_id if i not in normal]
    folded = {account_fold(k): (by_id.get(k) or normal[k]) for k in reversed(keys)}  # a name before an id
    found: dict = {}
    for a in OnlineAccount.objects.filter(platform=platform, account_key__in=list(folded)).select_related("player"):
        found.setdefault(folded[a.account_key], a.player)
    id_field = PLAYER_ID_FIELD.get(platform, "tenhou_id")
    for p in Player.objects.filter(**{f"{id_field}__in": keys}):
        value = getattr(p, id_field)
        found.setdefault(by_id.get(value) or normal[value], p)
    return found


def account_names(player, platform: str = "tenhou") -> list[str]:
    names = list(OnlineAccount.objects.filter(player=player, platform=platform).values_list("account_name", flat=True))
    own = getattr(player, PLAYER_ID_FIELD.get(platform, "tenhou_id"))
    if own and own not in names:
        names.append(own)
    return names


# the public page of a game, for a reviewer's spot check
PUBLIC_LOG = {"tenhou": "https://tenhou.net/0/?log={}", "mahjongsoul": "https://game.mahjongsoul.com/?paipu={}"}
TOP_ROOM = {"tenhou": "phoenix", "mahjongsoul": "throne"}


def evidence_summary(*, application) -> dict:
    """What the attached records prove for the applicant's account in the evidence year, on the
    application's platform (Tenhou's by default): games per room, and for Mahjong Soul the highest
    rank the records show the account at (the tier's ``min_rank``)."""
    platform = application.platform if application.platform in ROOMS else "tenhou"
    own = getattr(application.player, PLAYER_ID_FIELD[platform]) or ""
    account = application.account_id or own
    accounts = set(account_names(application.player, platform)) | ({account} if account else set())
    folded = {account_fold(a) for a in accounts}  # one account whatever its case or width (account_link)
    year = application.evidence_year
    records = list(application.online_records.all())
    fingerprint_owners: dict[str, list[int]] = {}
    for key, record_id in RecordFingerprint.objects.filter(record__application=application).values_list(
        "key", "record_id"
    ):
        fingerprint_owners.setdefault(key, []).append(record_id)
    rows, per_room, counted = [], Counter[str](), 0
    requirement = next(
        (a for a in application.tier.requirements.get("accounts", []) if a.get("platform") == platform), None
    )
    min_room = (requirement or {}).get("min_room", TOP_ROOM[platform])
    order = ROOMS[platform]
    rank_order = RANKS[platform]
    best_rank = ""
    # the same game (by content: wall seed or a hand's deal) attached by another player's
    # application, in any league: shown to the reviewer only (the page decides)
    others: dict[int, str] = {}
    for key, other in (
        RecordFingerprint.objects.filter(
            key__in=RecordFingerprint.objects.filter(record__application=application).values("key")
        )
        .exclude(record__application__player=application.player)
        .values_list("key", "record__application__player__display_name")
    ):
        for mine in fingerprint_owners.get(key, ()):
            others.setdefault(mine, other)
    for r in records:
        seats = [s for s in range(len(r.names)) if account_fold(r.names[s]) in folded]
        seats += [s for s, i in enumerate(r.account_ids or []) if i and account_fold(i) in folded and s not in seats]
        is_player = bool(seats) and r.platform == platform
        in_year = r.played_on is not None and r.played_on.year == year
        counts = is_player and in_year and r.room in order and order.index(r.room) >= order.index(min_room)
        rank = next((r.ranks[s] for s in seats if s < len(r.ranks or []) and r.ranks[s]), "") if is_player else ""
        if rank in rank_order and (not best_rank or rank_order.index(rank) > rank_order.index(best_rank)):
            best_rank = rank
        if is_player and in_year:
            per_room[r.room or "unknown"] += 1
        counted += counts
        rows.append(
            {
                "id": r.pk,
                "file": r.filename,
                "log_id": r.log_id,
                "names": r.names,
                "room": r.room,
                "hanchan": r.hanchan,
                "played_on": r.played_on.isoformat() if r.played_on else None,
                "platform": r.platform,
                "rank": rank,
                "account": is_player,
                "in_year": in_year,
                "counts": bool(counts),
                "used_by_other": others.get(r.pk),
                "date_verified": False,  # the date comes from the file name, which the applicant chose
                "public_log": PUBLIC_LOG.get(r.platform, PUBLIC_LOG["tenhou"]).format(r.log_id) if r.log_id else None,
            }
        )
    needed = (requirement or {}).get("min_games_in_year")
    min_rank = (requirement or {}).get("min_rank", "")
    return {
        "platform": platform,
        "accounts": sorted(accounts),
        "year": year,
        "min_room": min_room,
        "rank": best_rank,
        "min_rank": min_rank,
        "rank_meets": bool(min_rank)
        and best_rank in rank_order
        and min_rank in rank_order
        and rank_order.index(best_rank) >= rank_order.index(min_rank),
        "needed": needed,
        "counted": counted,
        "per_room": dict(per_room),
        "meets": needed is not None and counted >= needed,
        "records": rows,
    }

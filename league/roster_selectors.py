"""Reads for a league's roster (its members' page, the export): search and pages.

The search compares folded text (NFKC, then case-folded: "ＣＨＡＮ", "chan" and "Chan" are one,
and so are full-width digits in a membership number) over every name a member is known by: the
display name, the name in its native script, the family and given names, the membership number,
the online ids (the player's own fields and their linked online accounts) and the league's contact
email. SQLite and PostgreSQL fold case differently (and neither does NFKC), so the league's
members are read as plain values, one query, and matched here: a roster of thousands is a few
hundred kilobytes, and only the page shown is read in full."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet

from kyoku.models import League

from .models import LeagueMembership, Player

PER_PAGE = 50
SEARCHED = (
    "player__display_name",
    "player__native_name",
    "player__family_name",
    "player__given_name",
    "player__membership_number",
    "player__tenhou_id",
    "player__mahjong_soul_id",
    "contact_email",
)
SHOWN = ("active", "archived", "all")


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


@dataclass(frozen=True)
class RosterQuery:
    q: str = ""
    shown: str = "active"  # active | archived | all

    @classmethod
    def of(cls, params: Any) -> RosterQuery:
        shown = params.get("shown", "active")
        return cls(q=str(params.get("q", ""))[:100], shown=shown if shown in SHOWN else "active")


def members_of(league: League, shown: str = "active") -> QuerySet[LeagueMembership]:
    qs = LeagueMembership.objects.filter(league=league)
    if shown == "active":
        qs = qs.filter(archived_at__isnull=True)
    elif shown == "archived":
        qs = qs.filter(archived_at__isnull=False)
    return qs


def _matching_ids(league: League, query: RosterQuery) -> list[int]:
    """The memberships whose folded names hold every folded word of the query, in roster order."""
    words = fold(query.q).split()
    rows = list(
        members_of(league, query.shown)
        .order_by("player__display_name", "player_id")
        .values_list("pk", "player_id", *SEARCHED)
    )
    accounts: dict[int, list[str]] = {}
    # the linked online accounts (the online app's rows), read through the player's reverse
    # relation: the league layer imports no app above it
    linked = members_of(league, query.shown).filter(player__online_accounts__isnull=False)
    for player_id, name in linked.values_list("player_id", "player__online_accounts__account_name"):
        accounts.setdefault(player_id, []).append(name)
    found = []
    for pk, player_id, *texts in rows:
        haystack = fold(" \u0001 ".join([*(t or "" for t in texts), *accounts.get(player_id, [])]))
        if all(word in haystack for word in words):
            found.append(pk)
    return found


def roster_page(*, league: League, query: RosterQuery, page: Any = 1) -> Page:
    """One page of the league's members (memberships with their players), found by ``query``."""
    base = members_of(league, query.shown).select_related("player")
    if query.q.strip():
        ids = _matching_ids(league, query)
        paginator = Paginator(ids, PER_PAGE)
        current = paginator.get_page(page)
        by_pk = base.in_bulk(list(current.object_list))
        current.object_list = [by_pk[pk] for pk in current.object_list if pk in by_pk]
        return current
    return Paginator(base.order_by("player__display_name", "player_id"), PER_PAGE).get_page(page)


def roster_counts(*, league: League) -> dict[str, int]:
    qs = LeagueMembership.objects.filter(league=league)
    return {
        "active": qs.filter(archived_at__isnull=True).count(),
        "archived": qs.filter(archived_at__isnull=False).count(),
    }


def member_for(*, league: League, player_id: int) -> LeagueMembership | None:
    """The league's membership of ``player_id`` (archived included), or None."""
    return LeagueMembership.objects.select_related("player").filter(league=league, player_id=player_id).first()


def roster_rows(*, league: League) -> list[dict[str, Any]]:
    """The active members as the export writes them (the columns the import reads)."""
    rows = []
    for m in members_of(league).select_related("player").order_by("player__display_name", "player_id"):
        p: Player = m.player
        rows.append(
            {
                "membership_number": p.membership_number,
                "display_name": p.display_name,
                "native_name": p.native_name,
                "family_name": p.family_name,
                "given_name": p.given_name,
                "name_order": p.name_order,
                "email": m.contact_email,
                "tenhou_id": p.tenhou_id,
                "mahjong_soul_id": p.mahjong_soul_id,
                "joined": m.created_at.date().isoformat(),
            }
        )
    return rows

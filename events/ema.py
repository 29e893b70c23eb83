"""The final ranking as the European Mahjong Association's ranking (MERS) takes it (pure).

What MERS needs from a certified tournament is each player's final position, identified by their
EMA number and nation; it then rates every player from 1,000 (first) to 0 (last) by position,
linearly: ``base = 1000 * (N - position) / (N - 1)`` (players sharing a position share the figure).
Sources: the EMA's ranking overview (mahjong-europe.org/ranking/RankingOverview.html, "MERS") and
its description in riichi.wiki ("European Mahjong Association": a rating from 0 to 1000, 0 for last
place and 1000 for first). EMA numbers are eight digits, the first two the member association's
number (e.g. 04 France, 11 United Kingdom); nations are ISO 3166 alpha-3 codes.

The layout of the file (one row per ranked player: position, family name, given name, EMA number,
nation, tournament points, MERS base points) is this project's reading of the EMA's published
result tables; the EMA's own submission template was not available to check it against."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal

EMA_NUMBER = re.compile(r"\d{8}")
NATION = re.compile(r"[A-Z]{3}")
COLUMNS = ("Position", "Last name", "First name", "EMA number", "Nationality", "Points", "MERS base")


@dataclass(frozen=True)
class Placed:
    position: int
    name: str
    ema_number: str
    nationality: str
    points: Decimal


def ema_number_check(value: str) -> str:
    value = (value or "").strip()
    if value and not EMA_NUMBER.fullmatch(value):
        raise ValueError("ema_number: eight digits, the first two the member association's number")
    return value


def nationality_check(value: str) -> str:
    value = (value or "").strip().upper()
    if value and not NATION.fullmatch(value):
        raise ValueError("nationality: an ISO 3166 alpha-3 code, e.g. HKG, JPN, FRA")
    return value


def name_split(name: str) -> tuple[str, str]:
    """(last, first) of a name written "Given Family" (the league's display names are written
    that way); a single word is a family name."""
    parts = name.strip().split()
    if len(parts) <= 1:
        return name.strip(), ""
    return parts[-1], " ".join(parts[:-1])


def mers_base(position: int, players: int) -> Decimal:
    if players <= 1:
        return Decimal("1000")
    return (Decimal(1000) * (players - position) / (players - 1)).quantize(Decimal("1"))


def ema_rows(placed: list[Placed]) -> list[list[str]]:
    n = len(placed)
    rows = []
    for p in placed:
        last, first = name_split(p.name)
        rows.append([str(p.position), last, first, p.ema_number, p.nationality, f"{p.points:.1f}",
                     str(mers_base(p.position, n))])
    return rows


def ema_csv(placed: list[Placed]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows(ema_rows(placed))
    return out.getvalue()

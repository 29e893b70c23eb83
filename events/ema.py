"""The final ranking as the European Mahjong Association's ranking (MERS) takes it (pure).

What MERS needs from a certified tournament is each player's final position, identified by their
EMA number and nation; it then rates every player from 1,000 (first) to 0 (last) by position:
"the number of players you have beaten (players − position), divided by (players − 1), times
1000", whole points (the EMA's own example: 75th of 100 gets 252, so the figure is cut, not
rounded). The tournament's weight is the sum of four parts: days (1, 2, 3), players (over 40:
+0.5, over 80: +1), nations (6 to 9: +0.5, 10 or more: +1) and a qualification (+1). Sources: the
EMA's "Basics for ranking system" (mahjong-europe.org/ranking/Basicsranking.html, update of the
General Assembly of 25 May 2017, in force from 2018) and its ranking overview
(mahjong-europe.org/ranking/RankingOverview.html). EMA numbers are eight digits, the first two the member association's
number (e.g. 04 France, 11 United Kingdom); nations are ISO 3166 alpha-3 codes.

The layout of the file (one row per ranked player: position, family name, given name, EMA number,
nation, tournament points, MERS base points, withdrawn) is this project's reading of the EMA's
published result tables; the EMA's own submission template was not available to check it against
(searched again for issue 47). Those pages (mahjong-europe.org/ranking/Tournament/TR_RCR_<n>.html,
as a public scraper of them reads them: github.com/ldekerg/European-Mahjong,
scripts/importers/ema.py) print "Players" above the ranking, one row per ranked player, and the EMA
number as eight digits with its leading zeros (04160092): the CSV writes it so, and ``ema_xlsx``
types it as text so a spreadsheet keeps the zero. "Players" here is the number of ranked rows. Neither
ranking page (checked again for issue 35) names the columns of a result: they rate a player by
position, EMA number and country only. That the name goes in two columns, family ("last") name then
given ("first") name, is inferred from the EMA's published rankings and result tables, which list
players that way; so the names are taken from the player's stored parts (league.names), not guessed
from the display name. The EMA's lists are in Latin script, so the file writes the romanised parts
only, never native script (league.names.latin_parts; the export page lists every player whose
parts are guessed or missing). The "Rules" row names the rule set in words
(events.selectors.rules_words), not its code. Every text cell is made spreadsheet-safe
(kyoku.csv_cells, OWASP "CSV Injection")."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from kyoku.csv_cells import csv_cell
from league.names import is_latin, name_parts_propose

EMA_NUMBER = re.compile(r"[0-9]{8}")  # ASCII only: \d would take Arabic-Indic and fullwidth digits
NATION = re.compile(r"[A-Z]{3}")  # a literal range: ASCII letters only
COLUMNS = ("Position", "Last name", "First name", "EMA number", "Nationality", "Points", "MERS base", "Withdrawn")
TEXT_COLUMNS = {1, 2, 3, 4, 7}  # names, the EMA number (eight digits, leading zeros kept), nation, mark


@dataclass(frozen=True)
class Placed:
    position: int
    name: str
    ema_number: str
    nationality: str
    points: Decimal
    family_name: str = ""  # the player's stored parts (league.names); blank: proposed from the name
    given_name: str = ""
    withdrawn: bool = False  # left the event after playing: ranked with the games played, marked


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


def name_split(name: str, family: str = "", given: str = "") -> tuple[str, str]:
    """(last, first) in Latin script: the family and given names given when either is set;
    otherwise the split ``league.names.name_parts_propose`` proposes for ``name`` ("Tai Man Chan"
    → Chan, Tai Man; "Chan Tai Man" → Chan, Tai Man). A single word is a family name. A part not
    in Latin script is left blank: the EMA's lists are Latin ("陳大文" → "", "")."""
    if not (family.strip() or given.strip()):
        family, given, _order = name_parts_propose(name)
    return tuple(part.strip() if is_latin(part) else "" for part in (family, given))  # type: ignore[return-value]


def mers_base(position: int, players: int) -> Decimal:
    """A player's MERS base rank for a position among ``players`` (whole points, cut)."""
    if players <= 1:
        return Decimal("1000")
    return Decimal(1000 * (players - position) // (players - 1))


def mers_weight(*, days: int, players: int, nations: int, qualification: bool = False) -> Decimal:
    """The tournament's MERS weight (EMA, "Basics for ranking system", 2017 update)."""
    weight = Decimal(min(max(days, 1), 3))
    weight += Decimal("1") if players > 80 else Decimal("0.5") if players > 40 else Decimal("0")
    weight += Decimal("1") if nations >= 10 else Decimal("0.5") if nations >= 6 else Decimal("0")
    return weight + (Decimal("1") if qualification else Decimal("0"))


def ema_rows(placed: list[Placed]) -> list[list[str]]:
    n = len(placed)
    rows = []
    for p in placed:
        last, first = name_split(p.name, p.family_name, p.given_name)
        rows.append(
            [
                str(p.position),
                last,
                first,
                p.ema_number,
                p.nationality,
                f"{p.points:.1f}",
                str(mers_base(p.position, n)),
                "withdrawn" if p.withdrawn else "",
            ]
        )
    return rows


@dataclass(frozen=True)
class Tournament:
    """The tournament's header block: what the EMA's result pages print above the ranking."""

    name: str
    ema_id: str
    city: str
    country: str
    starts_on: str  # ISO dates
    ends_on: str
    days: int
    players: int
    nations: int
    qualification: bool
    weight: Decimal
    rules: str


def ema_header(t: Tournament) -> list[list[str]]:
    """(label, value) rows above the ranking, then an empty row. The EMA publishes each certified
    tournament's result with its name, place and country, date, number of players and MERS weight
    and the rules played; the labels and their order here are this project's reading of those
    pages (no submission template is published), the weight's parts as "Basics for ranking system"
    defines them (days, players, nations, qualification)."""
    return [
        ["Tournament", t.name],
        ["EMA tournament id", t.ema_id],
        ["City", t.city],
        ["Country", t.country],
        ["Dates", t.starts_on if t.starts_on == t.ends_on else f"{t.starts_on} / {t.ends_on}"],
        ["Days", str(t.days)],
        ["Players", str(t.players)],
        ["Nations", str(t.nations)],
        ["Qualification", "yes" if t.qualification else "no"],
        ["MERS weight", f"{t.weight:.1f}"],
        ["Rules", t.rules],
        [],
    ]


def ema_csv(placed: list[Placed], tournament: Tournament | None = None) -> str:
    """The file's text, every cell through ``kyoku.csv_cells.csv_cell`` (a name that begins like a
    formula, ``=HYPERLINK(…)``, ``@SUM(…)``, ``+1…``, is written with a leading quote; the points,
    negative ones included, stay numbers). The byte-order mark that lets a spreadsheet read the CJK
    names as UTF-8 is the download's (``EMA_BOM``, events.views.event_ema), not the text's."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if tournament is not None:
        writer.writerows([csv_cell(cell) for cell in row] for row in ema_header(tournament))
    writer.writerow(COLUMNS)
    writer.writerows([csv_cell(cell) for cell in row] for row in ema_rows(placed))
    return out.getvalue()


def ema_xlsx(placed: list[Placed], tournament: Tournament | None = None) -> bytes:
    """The same sheet as ``ema_csv`` as an Excel workbook, for whoever opens the file in a
    spreadsheet: the EMA number, the names and the nation are text cells (format ``@``), so
    ``04000024`` keeps its leading zero and a name like ``=HYPERLINK(…)`` is shown exactly as
    written, never evaluated and with no guard quote; position, points and the MERS base are
    numbers."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "EMA"
    rows = (ema_header(tournament) if tournament is not None else []) + [list(COLUMNS)]
    for row in rows:
        sheet.append([None] * len(row))
        for column, value in enumerate(row, start=1):
            _text_cell(sheet.cell(row=sheet.max_row, column=column), value)
    for values in ema_rows(placed):
        sheet.append([None] * len(values))
        r = sheet.max_row
        for column, value in enumerate(values):
            cell = sheet.cell(row=r, column=column + 1)
            if column in TEXT_COLUMNS:
                _text_cell(cell, value)
            elif column == 5:
                cell.value, cell.number_format = Decimal(value), "0.0"
            else:
                cell.value = int(value)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _text_cell(cell: Any, value: str) -> None:
    """A cell typed as text whatever it holds (openpyxl would read a leading "=" as a formula)."""
    cell.value = value
    cell.data_type = "s"
    cell.number_format = "@"


EMA_BOM = "\ufeff"  # UTF-8's byte-order mark: spreadsheets then read the file as UTF-8

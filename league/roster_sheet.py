"""A league's roster sheet read from CSV or XLSX (no database): which column is which, and each
cell as the text it stands for, or the reason it cannot be read.

- XLSX is read with openpyxl (``read_only=True`` streams the rows; ``data_only=False`` keeps a
  formula a formula, so it is refused rather than its cached result taken for typed data).
- CSV must be UTF-8 (a byte-order mark is dropped): a sheet saved in a legacy encoding (Big5,
  Shift_JIS, cp950) is refused with words asking for "CSV UTF-8", because guessing between those
  encodings turns one name into another without any error (a wrong player is worse than a refusal).
  The delimiter is sniffed among comma, semicolon and tab.
- Headers are matched case-insensitively after NFKC (full-width letters, spaces) against aliases in
  English, Chinese and Japanese (``ALIASES``); columns nobody reads are listed, not refused.
- A cell the export guarded against formula injection (``kyoku.csv_cells``: a leading ``'`` before
  = + - @) is read back without the guard, so an export re-imports unchanged; an unguarded CSV cell
  starting with ``=`` is a formula and refused.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from kyoku.csv_cells import FORMULA_STARTS

# field → aliases (compared after ``header_key``)
ALIASES: dict[str, tuple[str, ...]] = {
    "membership_number": (
        "membership number",
        "membership no",
        "membership no.",
        "member number",
        "member no",
        "member no.",
        "member id",
        "number",
        "no.",
        "會員編號",
        "会员编号",
        "會員號碼",
        "會員號",
        "編號",
        "会員番号",
        "会員no",
        "会員id",
    ),
    "display_name": ("display name", "name", "player", "姓名", "名稱", "氏名", "名前", "表示名"),
    "native_name": ("native name", "name in native script", "中文名", "中文姓名", "本名", "漢字", "原文姓名"),
    "family_name": ("family name", "surname", "last name", "姓"),
    "given_name": ("given name", "first name", "forename", "名"),
    "name_order": ("name order", "姓名順序", "氏名の順"),
    "email": (
        "email",
        "e-mail",
        "email address",
        "contact email",
        "電郵",
        "電郵地址",
        "電子郵件",
        "メール",
        "メールアドレス",
    ),
    "tenhou_id": ("tenhou", "tenhou id", "天鳳", "天凤", "天鳳id"),
    "mahjong_soul_id": ("mahjong soul", "mahjong soul id", "majsoul", "雀魂", "雀魂id"),
    "joined": ("joined", "joined on", "member since", "入會日期", "入会日", "加入日期"),
}
TEXT_FIELDS = tuple(f for f in ALIASES if f != "joined")


def header_key(text: str) -> str:
    """A header as compared: NFKC, case-folded, spaces folded, trailing colons dropped."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("_", " ")
    return " ".join(folded.split()).rstrip(":").strip()


ALIAS_FIELD = {header_key(alias): f for f, aliases in ALIASES.items() for alias in (f, *aliases)}


class SheetError(ValueError):
    """The file as a whole cannot be read as a roster (words for the admin)."""


@dataclass(frozen=True)
class Cell:
    value: Any
    kind: str  # text | number | date | formula | bool | empty


@dataclass
class Sheet:
    headers: list[str]
    rows: list[tuple[int, list[Cell]]]  # (line number as the admin sees it, cells)
    columns: dict[str, int] = field(default_factory=dict)  # field → column index
    ignored: list[str] = field(default_factory=list)


EMPTY = Cell("", "empty")


def _kind_of(data: bytes) -> str:
    """ "xlsx", "csv", or SheetError for anything else (sniffed from the content, not the name)."""
    if data.startswith(b"PK\x03\x04"):
        return "xlsx"
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise SheetError(_("This is an old Excel file (.xls): save it as .xlsx or as CSV UTF-8."))
    if b"\x00" in data[:8192]:
        raise SheetError(_("This file is not a spreadsheet: send a CSV or an XLSX file."))
    try:
        import puremagic

        kinds = {m.extension for m in puremagic.magic_string(data[:8192])}
    except Exception:  # puremagic finds nothing in plain text
        kinds = set()
    if kinds & {".pdf", ".png", ".jpg", ".gif", ".zip", ".gz", ".exe", ".doc", ".webp"}:
        raise SheetError(_("This file is not a spreadsheet: send a CSV or an XLSX file."))
    return "csv"


def sheet_read(data: bytes, *, max_rows: int) -> Sheet:
    """The sheet's header row and data rows (blank rows left out), or SheetError."""
    if not data or not data.strip():
        raise SheetError(_("The file is empty."))
    kind = _kind_of(data)
    headers, rows = _xlsx_rows(data, max_rows) if kind == "xlsx" else _csv_rows(data, max_rows)
    sheet = Sheet(headers=headers, rows=rows)
    _columns_match(sheet)
    return sheet


def _columns_match(sheet: Sheet) -> None:
    for index, header in enumerate(sheet.headers):
        name = ALIAS_FIELD.get(header_key(header))
        if name is None or name in sheet.columns:
            if header.strip():
                sheet.ignored.append(header.strip())
            continue
        sheet.columns[name] = index
    if "membership_number" not in sheet.columns:
        raise SheetError(_("No membership number column: name one column “membership number” (會員編號, 会員番号)."))
    if not {"display_name", "family_name", "given_name"} & set(sheet.columns):
        raise SheetError(_("No name column: name one column “name” (姓名, 氏名) or “family name” and “given name”."))


def _too_many(max_rows: int) -> SheetError:
    return SheetError(_("The file has more than %(n)s rows: split it.") % {"n": f"{max_rows:,}"})


def _csv_rows(data: bytes, max_rows: int) -> tuple[list[str], list[tuple[int, list[Cell]]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SheetError(
            _("The file is not UTF-8 text. In Excel choose “Save as” → “CSV UTF-8”, " "or send the .xlsx file itself.")
        ) from None
    try:
        dialect: Any = csv.Sniffer().sniff(text[:8192], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    headers: list[str] | None = None
    rows: list[tuple[int, list[Cell]]] = []
    try:
        for values in reader:
            if headers is None:
                if any(v.strip() for v in values):
                    headers = values
                continue
            if not any(v.strip() for v in values):
                continue
            if len(rows) >= max_rows:
                raise _too_many(max_rows)
            rows.append((reader.line_num, [_csv_cell(v) for v in values]))
    except csv.Error as exc:
        raise SheetError(_("The CSV file cannot be read: %(detail)s") % {"detail": str(exc)}) from None
    if headers is None:
        raise SheetError(_("The file is empty."))
    return headers, rows


def _csv_cell(text: str) -> Cell:
    if not text.strip():
        return EMPTY
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return Cell(text[1:], "text")  # guarded by the export (kyoku.csv_cells)
    if text.lstrip().startswith(("=", "\uff1d")):
        return Cell(text, "formula")
    return Cell(text, "text")


def _xlsx_rows(data: bytes, max_rows: int) -> tuple[list[str], list[tuple[int, list[Cell]]]]:
    import zipfile

    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=False)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError, TypeError):
        raise SheetError(_("This file is not a spreadsheet: send a CSV or an XLSX file.")) from None
    try:
        sheet = book.worksheets[0]
        headers: list[str] | None = None
        rows: list[tuple[int, list[Cell]]] = []
        for number, cells in enumerate(sheet.iter_rows(), start=1):
            number = next((c.row for c in cells if getattr(c, "row", None)), number)  # the sheet's own row
            values = [_xlsx_cell(c) for c in cells]
            if headers is None:
                if any(v.kind != "empty" for v in values):
                    headers = [str(v.value) if v.kind != "empty" else "" for v in values]
                continue
            if all(v.kind == "empty" for v in values):
                continue
            if len(rows) >= max_rows:
                raise _too_many(max_rows)
            rows.append((number, values))
    finally:
        book.close()
    if headers is None:
        raise SheetError(_("The file is empty."))
    return headers, rows


def _xlsx_cell(cell: Any) -> Cell:
    value = getattr(cell, "value", None)
    kind = getattr(cell, "data_type", "n")
    if value is None or (isinstance(value, str) and not value.strip()):
        return EMPTY
    if kind == "f" or type(value).__name__ in ("ArrayFormula", "DataTableFormula"):
        return Cell(str(value), "formula")
    if isinstance(value, bool):
        return Cell(value, "bool")
    if isinstance(value, (dt.datetime, dt.date, dt.time, dt.timedelta)):
        return Cell(value, "date")
    if isinstance(value, (int, float)):
        return Cell(value, "number")
    return _csv_cell(str(value)) if str(value).startswith("'") else Cell(str(value), "text")


def cell_text(cell: Cell) -> str:
    """A text or number cell as text: an Excel number 123.0 is "123" (a membership number typed
    without a leading apostrophe); a text cell "00123" keeps its zeros."""
    if cell.kind == "number":
        value = cell.value
        if isinstance(value, float) and value.is_integer():
            return str(int(value))
        return str(value)
    return "" if cell.kind == "empty" else str(cell.value)


def cell_date(cell: Cell) -> str:
    """A "joined" cell as an ISO date, or "" when it holds none we can read."""
    value = cell.value
    if cell.kind == "date":
        return (value.date() if isinstance(value, dt.datetime) else value).isoformat() if hasattr(value, "year") else ""
    if cell.kind == "text":
        try:
            return dt.date.fromisoformat(str(value).strip()[:10]).isoformat()
        except ValueError:
            return ""
    return ""

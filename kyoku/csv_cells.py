"""Spreadsheet-safe CSV cells (OWASP, "CSV Injection"): a text cell that begins with a character a
spreadsheet reads as the start of a formula is prefixed with a single quote, so a player named
``=HYPERLINK(...)`` is shown as that text and never evaluated. Numbers stay numbers: a league
point of ``-20.0`` must remain a value a spreadsheet can add up."""

import re
from decimal import Decimal

# = + - @ start formulas in Excel, LibreOffice and Google Sheets; tab and carriage return can hide
# one after a separator; the full-width forms are folded to ASCII by some spreadsheets (NFKC).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?\Z")


def csv_cell(value: object) -> object:
    """The value as it may be written to a CSV cell."""
    if value is None or isinstance(value, (bool, int, float, Decimal)):
        return value
    text = str(value)
    if text.startswith(FORMULA_STARTS) and not PLAIN_NUMBER.match(text):
        return "'" + text
    return text


def csv_row(row: dict[str, object]) -> dict[str, object]:
    """Every cell of a row made spreadsheet-safe."""
    return {key: csv_cell(value) for key, value in row.items()}

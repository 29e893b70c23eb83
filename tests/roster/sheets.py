"""Roster sheets built for the tests: CSV bytes and XLSX workbooks (openpyxl)."""

import datetime as dt
import io

from django.core.files.uploadedfile import SimpleUploadedFile


def csv_bytes(rows, *, bom=False, delimiter=",", encoding="utf-8"):
    import csv

    out = io.StringIO()
    csv.writer(out, delimiter=delimiter).writerows(rows)
    data = out.getvalue().encode(encoding)
    return (b"\xef\xbb\xbf" if bom else b"") + data


def xlsx_bytes(rows):
    """Each value written as given: a str starting with "=" is a formula, a date a date cell, a
    number a number cell."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    for row in sheet.iter_rows():
        for cell in row:
            if isinstance(cell.value, (dt.date, dt.datetime)):
                cell.number_format = "yyyy-mm-dd"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def upload(data, name="roster.csv"):
    return SimpleUploadedFile(name, data)

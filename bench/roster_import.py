"""Benchmark: a roster sheet of 10,000 rows previewed and confirmed (league.services.roster).

    .venv/bin/python bench/roster_import.py [--rows 10000] [--members 5000]

In a test database of its own: a league holding MEMBERS members, and a sheet (CSV and XLSX) of
ROWS rows, half of them those members (a quarter with a changed name), half new players. Prints
the time to preview each file (read, check every cell, one query for every number of the file)
and to confirm the CSV's preview (every row written in one transaction).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "0")  # as in production (DEBUG on keeps every query's SQL in memory)
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz")
os.environ.setdefault("ALLOWED_HOSTS", "testserver")


def sheet_rows(args) -> list[list[str]]:
    rows = [["Membership number", "Name", "Native name", "Email", "Tenhou", "Joined"]]
    for i in range(args.rows):
        known = i < min(args.members, args.rows // 2)
        name = f"Member {i}" if not known or i % 4 else f"Member {i} (renamed)"
        rows.append([f"R{i:06d}", name, f"會員{i}", f"m{i}@example.org", f"t{i}" if i % 3 else "", "2024-01-01"])
    return rows


def csv_data(rows) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def xlsx_data(rows) -> bytes:
    from openpyxl import Workbook

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Members")
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def run(args) -> None:
    from kyoku.models import League
    from kyoku.principals import System
    from league.models import LeagueMembership, Player
    from league.services import roster

    actor = System("command:bench")
    league = League.objects.create(name="Bench", slug="bench")
    players = Player.objects.bulk_create(
        Player(display_name=f"Member {i}", native_name=f"會員{i}", membership_number=f"R{i:06d}")
        for i in range(args.members)
    )
    LeagueMembership.objects.bulk_create(LeagueMembership(league=league, player=p, via="system") for p in players)
    rows = sheet_rows(args)
    for kind, data in (("xlsx", xlsx_data(rows)), ("csv", csv_data(rows))):
        t = time.perf_counter()
        preview = roster.roster_import_preview(league=league, data=data, filename=f"bench.{kind}", actor=actor)
        took = time.perf_counter() - t
        print(
            f"preview {kind}: {len(data) / 1024:.0f} KB, {len(preview.rows)} rows {preview.summary['counts']}: {took:.2f} s"
        )
    t = time.perf_counter()
    counts = roster.roster_import_confirm(preview=preview, actor=actor)
    print(f"confirm: {counts}: {time.perf_counter() - t:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--members", type=int, default=5_000)
    args = parser.parse_args()

    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False
    from django.test.utils import setup_databases, teardown_databases

    old = setup_databases(verbosity=0, interactive=False)
    try:
        run(args)
    finally:
        teardown_databases(old, verbosity=0)


if __name__ == "__main__":
    main()

"""``python manage.py settle FILE`` (``-`` = standard input): one hand record or a JSON list of
them → one settlement or a list in the same order, as JSON on standard output. An invalid record
gets ``{"error": "field: message"}`` in its place and the exit status is 1; the others are settled.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.engine import SettlementError, settle, settle_many


def settle_document(data) -> tuple[object, bool]:
    """(output, all valid) for one record or a list of records."""
    if isinstance(data, list):
        out = settle_many(data)
        return out, not any(isinstance(o, dict) and "error" in o and len(o) == 1 for o in out)
    try:
        return settle(data), True
    except SettlementError as exc:
        return {"error": str(exc)}, False


class Command(BaseCommand):
    help = "Settle hand records (settlement contract): FILE holds one record or a list; '-' reads stdin."

    def add_arguments(self, parser):
        parser.add_argument("file", help="JSON file with one record or a list of records; '-' for stdin")
        parser.add_argument("--indent", type=int, default=None, help="pretty-print with this indent")

    def handle(self, *args, file, indent, **options):
        data = self._read(file)
        out, ok = settle_document(data)
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=indent))
        if not ok:
            sys.stdout.flush()
            raise SystemExit(1)

    def _read(self, file):
        try:
            if file == "-":
                return json.load(sys.stdin)
            with open(file, encoding="utf-8") as fh:
                return json.load(fh)
        except OSError as exc:
            raise CommandError(f"{file}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{file}: not JSON ({exc})") from None

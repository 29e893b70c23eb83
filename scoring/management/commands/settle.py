"""``python manage.py settle FILE`` (``-`` = standard input): one hand record or a JSON list of
them → one settlement or a list in the same order, as JSON on standard output. An invalid record
gets ``{"error": "field: message"}`` in its place and the exit status is 1; the others are settled.
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from scoring.services import settle_document


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

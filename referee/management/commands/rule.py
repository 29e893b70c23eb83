"""``python manage.py rule FILE`` (``-`` = stdin): incident record(s) → ruling(s) as JSON.

One record gives one ruling; a JSON list gives a list in the same order. An invalid record is
answered with ``{"error": "field: message"}`` in its place, and the command exits non-zero.
Example input: ``docs/examples/incident.json``.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from referee.engine import RulingError, rule, rule_many


class Command(BaseCommand):
    help = "Rule on incident records (a JSON object or list) from FILE or - (stdin); print the ruling(s) as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON file with one incident record or a list of them; - for stdin")
        parser.add_argument("--indent", type=int, default=2, help="JSON indentation (0: one line)")

    def handle(self, *args, file, indent, **options):
        try:
            if file == "-":
                text = sys.stdin.read()
            else:
                with open(file, encoding="utf-8") as fh:
                    text = fh.read()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror or exc}") from None
        out: dict | list[dict]
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            out, failed = {"error": f"json: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}"}, 1
        else:
            if isinstance(data, list):
                out = rule_many(data)
                failed = sum(1 for r in out if "error" in r)
            else:
                try:
                    out, failed = rule(data), 0
                except RulingError as exc:
                    out, failed = {"error": str(exc)}, 1
        self.stdout.write(json.dumps(out, ensure_ascii=False, indent=indent or None))
        if failed:
            raise CommandError(f"{failed} invalid record{'s' if failed != 1 else ''}", returncode=2)

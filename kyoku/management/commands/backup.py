"""manage.py backup FILE.zip — every row and private file, restorable with ``restore``."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from kyoku.backup import backup_write


class Command(BaseCommand):
    help = "Write a backup zip: all league data (natural keys) and the private evidence files."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the zip to write")

    def handle(self, *args: Any, **options: Any) -> None:
        counts = backup_write(options["file"])
        self.stdout.write(f"backup written to {options['file']}: {counts['objects']} objects, {counts['files']} files")

"""manage.py restore FILE.zip — into an empty, migrated database (``manage.py migrate`` first)."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from kyoku.backup import backup_restore


class Command(BaseCommand):
    help = "Restore a backup zip made by 'manage.py backup' into an empty, migrated database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the zip to read")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            counts = backup_restore(options["file"])
        except (ValueError, KeyError) as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"restored {counts['objects']} objects and {counts['files']} files")

"""manage.py backup FILE.zip — every row and private file, restorable with ``restore``."""

from django.core.management.base import BaseCommand

from kyoku.backup import backup_write


class Command(BaseCommand):
    help = "Write a backup zip: all league data (natural keys) and the private evidence files."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the zip to write")

    def handle(self, *args, **options):
        counts = backup_write(options["file"])
        self.stdout.write(f"backup written to {options['file']}: {counts['objects']} objects, {counts['files']} files")

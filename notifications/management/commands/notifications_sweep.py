from typing import Any

from django.core.management.base import BaseCommand

from notifications.tasks import deliveries_sweep


class Command(BaseCommand):
    help = "Send the notifications that are due and not sent (what Celery beat does every minute)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(str(deliveries_sweep()))

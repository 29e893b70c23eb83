from typing import Any

from django.core.management.base import BaseCommand

from kyoku.principals import System
from notifications.reminders import reminders_scan


class Command(BaseCommand):
    help = (
        "Tell each seated player of a round or match day starting within NOTIFY_START_REMINDER_MINUTES "
        "(what Celery beat does every minute; run it from cron with the dev server or in-process tasks)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(str(reminders_scan(actor=System("command:notifications_remind"))))

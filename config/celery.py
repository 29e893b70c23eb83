"""Celery app. Without REDIS_URL tasks run in-process (eager), see settings."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kyoku")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# What a lost task left stale (a killed worker, a broker that was down) is found and repaired
# from the stored results every few minutes: nothing waits for a task that never ran.
RECONCILE_EVERY = float(os.environ.get("RECONCILE_EVERY", 600))


@app.on_after_configure.connect
def schedule_reconciliation(sender: Celery, **kwargs) -> None:
    sender.add_periodic_task(
        RECONCILE_EVERY, sender.signature("ratings.tasks.derived_reconcile"), name="derived-reconcile"
    )

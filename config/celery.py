"""Celery app. Without REDIS_URL tasks run in-process (eager), see settings."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("kyoku")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

"""A decided application keeps a snapshot of what its records proved (no edit of the league app)."""

from django.db.models.signals import post_save


def _application_saved(sender, instance, update_fields=None, **kwargs):
    if update_fields is not None and "status" not in update_fields:
        return
    if instance.status != "pending":
        from .services import evidence_snapshot_store

        evidence_snapshot_store(instance)


def connect():
    from league.models import QualificationApplication

    post_save.connect(_application_saved, sender=QualificationApplication, dispatch_uid="online_evidence_snapshot")

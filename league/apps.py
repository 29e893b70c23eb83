from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self):
        from django.db.models.signals import post_save

        from notifications.reminders import scan_register

        from .models import Player
        from .services.reminders import match_days_starting_tell

        post_save.connect(_player_saved, sender=Player, dispatch_uid="league.player_saved")
        scan_register("league.match_days", match_days_starting_tell)  # "your match day starts in N minutes"


def _player_saved(sender, instance, created, raw=False, **kwargs):
    # whatever path saved the player (Django admin, an import): their standings show the change
    if created or raw:  # a new player has no standings; loaddata (raw) restores derived rows as stored
        return
    from . import services

    services.player_standings_touch(player_id=instance.pk)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = _("League")

    def ready(self):
        from django.db.models.signals import post_save

        from .models import Player

        post_save.connect(_player_saved, sender=Player, dispatch_uid="league.player_saved")


def _player_saved(sender, instance, created, raw=False, **kwargs):
    # whatever path saved the player (Django admin, an import): their standings show the change
    if created or raw:  # a new player has no standings; loaddata (raw) restores derived rows as stored
        return
    from . import services

    services.player_standings_touch(player_id=instance.pk)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchdaysConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matchdays"
    verbose_name = _("Match days")

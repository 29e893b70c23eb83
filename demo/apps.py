from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DemoConfig(AppConfig):
    """The demo data (``manage.py seed_demo``): at the top, above every app whose data it loads."""

    name = "demo"
    verbose_name = _("Demo")

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from kyoku.desk import desk_provider
        from kyoku.principals import phone_resolver
        from notifications.reminders import scan_register

        from .selectors import after_time_calls, disputed_calls
        from .services.reminders import rounds_starting_tell
        from .services.tables import table_phone_for

        desk_provider(disputed_calls)
        desk_provider(after_time_calls)  # a table past its last hand: the dealer repeated after time
        scan_register("events.rounds", rounds_starting_tell)  # "your round starts in N minutes"
        phone_resolver(table_phone_for)  # a browser holding a table's code is that table's phone

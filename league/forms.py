from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import QualificationTier, Season
from .names import player_display_name


class GameResultForm(forms.Form):
    """Four scores in seat order; the view passes the game so labels show the players."""

    deposits_left = forms.IntegerField(label=_("Riichi sticks left on the table"), min_value=0, max_value=20, initial=0)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        for seat in game.seats.all():
            self.fields[f"score_{seat.seat}"] = forms.IntegerField(
                label=f"{seat.seat_name} · {player_display_name(seat.player)}",
                min_value=-10_000_000,
                max_value=10_000_000,
                widget=forms.NumberInput(attrs={"class": "score", "data-seat": seat.seat, "step": 100}),
            )
        self.order_fields([f"score_{i}" for i in range(4)] + ["deposits_left"])

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{i}"] for i in range(4)]


class SeasonChoiceField(forms.ModelChoiceField):
    """A season named with its league: two leagues' "2026 S2" are different seasons."""

    def label_from_instance(self, obj: Season) -> str:
        return f"{obj.league.display_name} · {obj}"


class TierChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: QualificationTier) -> str:
        return f"{obj.league.display_name} · {obj.code}: {obj.description}"


class ApplicationForm(forms.Form):
    season = SeasonChoiceField(
        queryset=Season.objects.filter(status="open")  # a draft season is not open for registration yet
        .select_related("league")
        .order_by("league__name", "-year", "-number"),
        label=_("Season"),
    )
    tier = TierChoiceField(
        queryset=QualificationTier.objects.filter(active=True)
        .select_related("league")
        .order_by("league__name", "code"),
        label=_("Tier"),
    )
    platform = forms.ChoiceField(
        label=_("Platform"),
        required=False,
        choices=[
            ("", "—"),
            ("tenhou", _("Tenhou")),
            ("mahjongsoul", _("Mahjong Soul")),
            ("league", _("League record")),
        ],
    )
    account_id = forms.CharField(label=_("Account ID"), required=False)
    rank = forms.CharField(label=_("Rank"), required=False, help_text=_("e.g. 7-dan, celestial"))
    rating = forms.IntegerField(label=_("Rating"), required=False, min_value=0)
    games_in_year = forms.IntegerField(label=_("Games this year"), required=False, min_value=0)
    room = forms.CharField(label=_("Room"), required=False, help_text=_("e.g. phoenix, throne"))
    evidence_year = forms.IntegerField(label=_("Year of the evidence"), required=False)
    proof = forms.FileField(label=_("Proof (screenshot)"), required=False)
    note = forms.CharField(label=_("Note"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def evidence(self) -> dict:
        keys = ["platform", "account_id", "rank", "rating", "games_in_year", "room", "evidence_year", "note"]
        return {k: self.cleaned_data[k] for k in keys if self.cleaned_data.get(k) not in (None, "")}


class AuditFilterForm(forms.Form):
    action = forms.CharField(
        label=_("Action"), required=False, max_length=60, help_text=_("e.g. game_result, hand, penalty, admin")
    )
    object_type = forms.CharField(label=_("Object type"), required=False, max_length=40)
    actor = forms.CharField(label=_("By (username)"), required=False, max_length=150)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


class DecisionForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), required=False, widget=forms.TextInput())


def service_error_lines(exc: ValidationError) -> list[str]:
    """A service's ValidationError as lines ``field: message`` (the message alone when no field)."""
    return [
        f"{field}: {msg}" if field and field != "__all__" else msg
        for field, msgs in getattr(exc, "message_dict", {"": exc.messages}).items()
        for msg in msgs
    ]


def service_errors_to_messages(request, exc: ValidationError) -> None:
    """A service's ValidationError as error messages on the next page, one per line: the message
    alone (it is a sentence in the reader's language; the field's code, e.g. ``player``, is English
    and stays for the API and the logs)."""
    for msgs in getattr(exc, "message_dict", {"": exc.messages}).values():
        for msg in msgs:
            messages.error(request, msg)


def service_errors_to_form(form, exc: ValidationError) -> None:
    """Attach a service's ValidationError to the form fields it names (``scores[2]`` → ``score_2``);
    errors on fields the form does not have become non-field errors that keep the field's path (a
    record's ``events[3].kind`` or an option's name says where in what was entered the error is)."""
    for field, msgs in getattr(exc, "message_dict", {"__all__": exc.messages}).items():
        name = field.replace("scores[", "score_").rstrip("]")
        target = name if name in form.fields else None
        for msg in msgs:
            form.add_error(target, msg if target else f"{field}: {msg}")


class DecidedFilterForm(forms.Form):
    """Filters of the review history: decided applications by status, tier code and decision date."""

    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("Any")), ("approved", _("Approved")), ("rejected", _("Rejected"))],
    )
    tier = forms.CharField(label=_("Tier"), required=False, max_length=40)
    since = forms.DateField(label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}))


class OfficeEntryForm(forms.Form):
    """Add an entry: a division of this season and a player without an entry in it."""

    division = forms.ModelChoiceField(label=_("Division"), queryset=None)
    player = forms.ModelChoiceField(label=_("Player"), queryset=None)

    def __init__(self, *args, season, **kwargs):
        from .models import Entry, Player

        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = season.divisions.all()
        entered = Entry.objects.filter(season=season).values_list("player_id", flat=True)
        self.fields["player"].queryset = Player.objects.exclude(pk__in=entered).order_by("display_name")


class OfficeGameForm(forms.Form):
    """A game of one division: match day, table and the four entrants East, South, West, North."""

    division = forms.ModelChoiceField(label=_("Division"), queryset=None)
    match_day = forms.IntegerField(label=_("Match day"), min_value=1, max_value=99)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=99)
    east = forms.ModelChoiceField(label=_("East"), queryset=None)
    south = forms.ModelChoiceField(label=_("South"), queryset=None)
    west = forms.ModelChoiceField(label=_("West"), queryset=None)
    north = forms.ModelChoiceField(label=_("North"), queryset=None)

    def __init__(self, *args, season, **kwargs):
        from .models import Player

        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = season.divisions.all()
        entrants = Player.objects.filter(entries__season=season).order_by("display_name")
        for seat in ("east", "south", "west", "north"):
            self.fields[seat].queryset = entrants


class NextSeasonForm(forms.Form):
    """The next season's dates (proposed from the season before: the office fills them in)."""

    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        if data.get("starts_on") and data.get("ends_on") and data["ends_on"] < data["starts_on"]:
            self.add_error("ends_on", _("ends before it starts"))
        return data

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Attendance, MatchDay
from .services import MAX_SEED
from league.names import player_display_name


class GenerateForm(forms.Form):
    seed = forms.IntegerField(label=_("Seed"), min_value=0, max_value=MAX_SEED, initial=0)


class SwapForm(forms.Form):
    player_a = forms.TypedChoiceField(label=_("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=_("swap with"), coerce=int)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class AttendanceForm(forms.Form):
    status = forms.ChoiceField(label=_("Attendance"), choices=Attendance.Status.choices)
    player = forms.IntegerField(required=False, min_value=1, max_value=2**31 - 1, widget=forms.HiddenInput)


class SubstituteForm(forms.Form):
    player_out = forms.TypedChoiceField(label=_("Withdrawn player"), coerce=int)
    player_in = forms.TypedChoiceField(label=_("Substitute from the reserve list"), coerce=int)

    def __init__(self, *args, seated=(), reserves=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_out"].choices = seated
        self.fields["player_in"].choices = reserves


class AttendanceRosterForm(forms.Form):
    """Every entered player's attendance on one form: a ``status-<player id>`` choice each."""

    def __init__(self, *args, entries=(), current=None, **kwargs):
        super().__init__(*args, **kwargs)
        current = current or {}
        for entry in entries:
            self.fields[f"status-{entry.player_id}"] = forms.ChoiceField(
                label=player_display_name(entry.player),
                choices=Attendance.Status.choices,
                initial=current.get(entry.player_id, Attendance.Status.ATTENDING),
            )

    def statuses(self) -> dict[int, str]:
        return {int(name.split("-", 1)[1]): value for name, value in self.cleaned_data.items()}


class MatchDayCreateForm(forms.Form):
    division = forms.ModelChoiceField(label=_("Division"), queryset=None)
    number = forms.IntegerField(
        label=_("Match day"),
        min_value=1,
        max_value=999,
        required=False,
        help_text=_("Empty: the next number in the division."),
    )
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(label=_("Start time"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    venue = forms.CharField(label=_("Venue"), max_length=120, required=False)
    leftover = forms.ChoiceField(
        label=_("Players beyond full tables"), choices=MatchDay.Leftover.choices, initial=MatchDay.Leftover.BYE
    )

    def __init__(self, *args, season=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["division"].queryset = season.divisions.order_by("order")
        self.fields["division"].label_from_instance = lambda d: d.display_name

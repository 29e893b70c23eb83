from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Attendance
from .services import MAX_SEED


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

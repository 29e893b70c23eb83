import json

from django import forms
from django.utils.translation import gettext_lazy as _

from league.models import SEAT_NAMES

KIND_CHOICES = [
    ("deal_error", _("Dealing error (short or long hand)")),
    ("early_play", _("Play during the deal")),
    ("reaction_time", _("Call or declaration outside reaction time")),
    ("head_bump", _("Head bump / several win declarations")),
    ("false_win", _("False win")),
    ("call_dispute", _("Call priority dispute")),
    ("conduct", _("Conduct")),
    ("other", _("Other")),
]


def _json_field(value, label, *, kind=(list,), required=True):
    if value in (None, "") and not required:
        return None
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        raise forms.ValidationError(_("%(label)s: not valid JSON") % {"label": label}) from None
    if not isinstance(data, kind):
        raise forms.ValidationError(_("%(label)s: wrong shape") % {"label": label})
    return data


class IncidentForm(forms.Form):
    hand_number = forms.IntegerField(label=_("Hand number"), required=False, min_value=0)
    dealer = forms.TypedChoiceField(label=_("Dealer (East this hand)"), coerce=int, initial=0,
                                    choices=[(i, name) for i, name in enumerate(SEAT_NAMES)])
    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES)
    description = forms.CharField(label=_("What happened (public)"), required=False,
                                  widget=forms.Textarea(attrs={"rows": 3}))
    private_notes = forms.CharField(label=_("Private notes (referees only)"), required=False,
                                    widget=forms.Textarea(attrs={"rows": 2}))
    events = forms.CharField(widget=forms.HiddenInput, initial="[]")

    def clean_events(self):
        return _json_field(self.cleaned_data["events"], _("Timeline"))


class RulingDecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, initial="accept", choices=[
        ("accept", _("Accept the proposed ruling")), ("override", _("Override it"))])
    override = forms.CharField(label=_("Override (JSON: the fields that change)"), required=False,
                               widget=forms.Textarea(attrs={"rows": 3, "placeholder": '{"winners": [2], "penalties": []}'}))
    override_reason = forms.CharField(label=_("Reason for the override"), required=False,
                                      widget=forms.Textarea(attrs={"rows": 2}))
    extra_penalties = forms.CharField(label=_("Further penalties (JSON)"), required=False,
                                      widget=forms.TextInput(attrs={"placeholder": '[{"seat": 1, "offence": "slow_play"}]'}))

    def clean_override(self):
        return _json_field(self.cleaned_data["override"], _("Override"), kind=(dict,), required=False)

    def clean_extra_penalties(self):
        return _json_field(self.cleaned_data["extra_penalties"], _("Further penalties"), required=False)


class AppealForm(forms.Form):
    reason = forms.CharField(label=_("Why should the ruling change?"), widget=forms.Textarea(attrs={"rows": 3}))


class AppealDecisionForm(forms.Form):
    decision = forms.ChoiceField(label=_("Decision"), widget=forms.RadioSelect, initial="uphold", choices=[
        ("uphold", _("Uphold the ruling")), ("reverse", _("Change the ruling"))])
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))
    new_final = forms.CharField(label=_("New ruling (JSON: the fields that change; empty: no penalties)"),
                                required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def clean_new_final(self):
        return _json_field(self.cleaned_data["new_final"], _("New ruling"), kind=(dict,), required=False)

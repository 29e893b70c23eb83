from django import forms
from django.utils.translation import gettext_lazy as _


class HandRecordForm(forms.Form):
    """The scorekeeper's fallback: a hand record typed as JSON (any field of the contract, tiles too)."""

    record = forms.JSONField(label=_("Hand record (JSON, without rules)"),
                             widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))
    sequence = forms.IntegerField(label=_("Hand number"), min_value=1, required=False)

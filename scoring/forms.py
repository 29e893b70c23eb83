from django import forms
from django.utils.translation import gettext_lazy as _


class HandRecordForm(forms.Form):
    """The scorekeeper's fallback: a hand record typed as JSON (any field of the contract, tiles too)."""

    record = forms.JSONField(label=_("Hand record (JSON, without rules)"),
                             widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}))
    sequence = forms.IntegerField(label=_("Hand number"), min_value=1, required=False)


class SeasonRulesForm(forms.Form):
    """A new version of a season's rule set: its options that differ from the preset, in full."""

    overrides = forms.JSONField(label=_("Options that differ from the preset (JSON)"),
                                widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}))
    notes = forms.CharField(label=_("Why the rules change"), required=False,
                            widget=forms.TextInput(attrs={"maxlength": 500}))

    def clean_overrides(self):
        value = self.cleaned_data["overrides"]
        if not isinstance(value, dict):
            raise forms.ValidationError(_("Give a JSON object of option: value, e.g. {\"kiriage\": true}."))
        return value

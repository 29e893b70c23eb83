from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from kyoku.errors import engine_error_words
from kyoku.parsers import SafeJSONFormField


class HandRecordForm(forms.Form):
    """The scorekeeper's fallback: a hand record typed as JSON (any field of the contract, tiles too)."""

    record = SafeJSONFormField(
        label=_("Hand record (JSON, without rules)"), widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"})
    )
    sequence = forms.IntegerField(label=_("Hand number"), min_value=1, required=False)


class SeasonRulesForm(forms.Form):
    """A new version of a season's rule set: its options that differ from the preset, in full."""

    overrides = SafeJSONFormField(
        label=_("Options that differ from the preset (JSON)"),
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    notes = forms.CharField(
        label=_("Why the rules change"), required=False, widget=forms.TextInput(attrs={"maxlength": 500})
    )

    def clean_overrides(self):
        value = self.cleaned_data["overrides"]
        if not isinstance(value, dict):
            raise forms.ValidationError(_('Give a JSON object of option: value, e.g. {"kiriage": true}.'))
        return value


class RiichiRulesForm(forms.Form):
    """A new version of a riichi season's rules, one typed field per option of the preset (generated
    from the engine's option data: booleans as checkboxes, fixed sets as choices in words, uma as
    four numbers), with help text in the reader's language. ``overrides`` (after ``is_valid``) are
    the options that differ from the preset, checked by the engine."""

    notes = forms.CharField(
        label=_("Why the rules change"), required=False, widget=forms.TextInput(attrs={"maxlength": 500})
    )

    def __init__(self, *args, preset: str, current: dict, **kwargs):
        super().__init__(*args, **kwargs)
        from scoring.engine.riichi import OPTION_DOCS, PRESETS
        from scoring.engine.riichi.presets import OPTION_CHOICES
        from scoring.option_words import option_label, option_meaning, value_words

        self.preset = preset
        self.base = PRESETS[preset]
        for option, english in OPTION_DOCS.items():
            value = current.get(option, self.base.get(option))
            label, help_text = option_label(option), option_meaning(option, english)
            preset_word = _("Preset:")
            help_text = f"{help_text} {preset_word} {value_words(option, self.base.get(option))}"
            if option == "chombo":
                self.fields["chombo_mode"] = forms.ChoiceField(
                    label=label,
                    help_text=help_text,
                    initial=value.get("mode"),
                    choices=[
                        ("deduction", _("points off the final score")),
                        ("reverse_mangan", _("reverse mangan (paid to each other player)")),
                    ],
                )
                self.fields["chombo_points"] = forms.IntegerField(
                    label=_("Chombo points off the final score"),
                    required=False,
                    min_value=100,
                    max_value=1_000_000,
                    step_size=100,
                    initial=value.get("points"),
                )
                continue
            field = self._field(option, value, OPTION_CHOICES.get(option), value_words)
            field.label, field.help_text = label, help_text
            self.fields[option] = field
        self.fields["notes"] = self.fields.pop("notes")

    @staticmethod
    def _field(option, value, choices, value_words):
        if choices and isinstance(value, list):
            return forms.MultipleChoiceField(
                required=False,
                initial=value,
                widget=forms.CheckboxSelectMultiple,
                choices=[(c, value_words(option, c)) for c in choices],
            )
        if choices:
            return forms.TypedChoiceField(
                initial=value,
                coerce=type(choices[0]),  # type: ignore[arg-type]  # a type is a callable
                choices=[(c, value_words(option, c)) for c in choices],
            )
        if isinstance(value, bool):
            return forms.BooleanField(required=False, initial=value)
        if option in ("uma", "uma_tonpuusen"):
            return forms.CharField(
                required=option == "uma", max_length=60, initial=" / ".join(f"{v:g}" for v in value) if value else ""
            )
        if option == "uma_by_floaters":
            return SafeJSONFormField(required=False, initial=value, widget=forms.Textarea(attrs={"rows": 2}))
        if isinstance(value, float) or option == "oka":
            return forms.DecimalField(initial=value, min_value=0, max_value=1000, decimal_places=3)
        return forms.IntegerField(initial=value, min_value=0, max_value=10_000_000)

    def clean(self):
        cleaned = cast(dict, super().clean())  # a Form's clean gives cleaned_data
        if self.errors:
            return cleaned
        from scoring.engine.errors import SettlementError
        from scoring.engine.riichi import OPTION_DOCS, resolve

        options = {}
        for option in OPTION_DOCS:
            if option == "chombo":
                mode = cleaned.get("chombo_mode")
                options[option] = (
                    {"mode": "deduction", "points": cleaned.get("chombo_points") or 20000}
                    if mode == "deduction"
                    else {"mode": mode}
                )
                continue
            try:
                options[option] = self._value(option, cleaned.get(option))
            except ValueError:
                self.add_error(option, _("Give four numbers from 1st to 4th place, e.g. 15 / 5 / -5 / -15."))
        if self.errors:
            return cleaned
        overrides = {k: v for k, v in options.items() if v != self.base.get(k)}
        try:
            resolve({"preset": self.preset, **overrides})
        except SettlementError as exc:
            named = exc.field.split(".")[1] if exc.field.startswith("rules.") else None
            self.add_error(named if named in self.fields else None, engine_error_words(exc))
        self.overrides = overrides
        return cleaned

    def _value(self, option, value):
        if option in ("uma", "uma_tonpuusen"):
            if not value:
                return None
            numbers = [float(part) for part in value.replace(",", "/").split("/") if part.strip()]
            if len(numbers) != 4:
                raise ValueError(option)
            return [int(n) if n == int(n) else n for n in numbers]
        if option == "oka":
            return int(value) if value == int(value) else float(value)
        if isinstance(self.base.get(option), list) and value is not None:
            return list(value)
        return value

"""Forms of a league's front door: starting one (the league, its rules, its first season and
divisions), its settings, a role invitation, a superuser's refusal. They parse; the services
(league.services.leagues, kyoku.roles) decide, naming the field they refuse."""

from __future__ import annotations

import zoneinfo
from typing import Any

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from kyoku.models import LeagueRole
from kyoku.parsers import SafeJSONFormField

DIVISION_ROWS = 6
DEFAULT_DIVISIONS = (("A", "A Division", "甲組"), ("B", "B Division", "乙組"))


def preset_names() -> list[str]:
    """Every preset of every rule system (the engines'), riichi's first in the rules tables' order."""
    from importlib import import_module

    from scoring.engine import SYSTEMS

    names: list[str] = []
    for module in SYSTEMS.values():
        names += [n for n in import_module(module).PRESETS if n not in names]
    return names


def preset_system(preset: str) -> str | None:
    from importlib import import_module

    from scoring.engine import SYSTEMS

    for system, module in SYSTEMS.items():
        if preset in import_module(module).PRESETS:
            return system
    return None


REGIONS = ("Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Europe", "Indian", "Pacific")


def _time_zones() -> list[tuple[str, str]]:
    """The zones of a region ("Asia/Hong_Kong"), not the old aliases ("Hongkong", "US/Pacific")."""
    return [(z, z) for z in sorted(zoneinfo.available_timezones()) if z.split("/")[0] in REGIONS and "/" in z]


class LeagueFieldsForm(forms.Form):
    """What a league's settings and its start share."""

    name = forms.CharField(label=_("Name"), max_length=120)
    name_zh = forms.CharField(label=_("Chinese name"), max_length=120, required=False)
    languages = forms.MultipleChoiceField(
        label=_("Languages"), choices=settings.LANGUAGES, widget=forms.CheckboxSelectMultiple
    )
    time_zone = forms.ChoiceField(label=_("Time zone"), choices=_time_zones, initial="Asia/Hong_Kong")
    promotion_count = forms.IntegerField(
        label=_("Players promoted / relegated per season"), min_value=0, max_value=20, initial=2
    )


class LeagueStartForm(LeagueFieldsForm):
    slug = forms.SlugField(
        label=_("Address"),
        max_length=40,
        help_text=_("The league's address: /leagues/<address>/ (lowercase letters, digits, hyphens)."),
    )
    preset = forms.CharField(widget=forms.HiddenInput)
    overrides = SafeJSONFormField(
        label=_("Options that differ from the preset (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    season_year = forms.IntegerField(label=_("Year"), min_value=2000, max_value=2100)
    season_number = forms.IntegerField(label=_("Season number"), min_value=1, max_value=4, initial=1)
    season_label = forms.CharField(label=_("Season name (optional)"), max_length=120, required=False)
    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["season_year"].initial = timezone.localdate().year
        self.fields["languages"].initial = [code for code, _name in settings.LANGUAGES]
        self.order_fields(["name", "name_zh", "slug", "languages", "time_zone", "promotion_count"])
        for i in range(DIVISION_ROWS):
            code, name, name_zh = DEFAULT_DIVISIONS[i] if i < len(DEFAULT_DIVISIONS) else ("", "", "")
            self.fields[f"division_{i}_code"] = forms.CharField(
                label=_("Code"), max_length=4, required=False, initial=code, widget=forms.TextInput(attrs={"size": 4})
            )
            self.fields[f"division_{i}_name"] = forms.CharField(
                label=_("Name"), max_length=40, required=False, initial=name, widget=forms.TextInput(attrs={"size": 14})
            )
            self.fields[f"division_{i}_name_zh"] = forms.CharField(
                label=_("Chinese name"),
                max_length=40,
                required=False,
                initial=name_zh,
                widget=forms.TextInput(attrs={"size": 14}),
            )

    def clean_overrides(self) -> dict | None:
        value = self.cleaned_data.get("overrides")
        if value in (None, ""):
            return None
        if not isinstance(value, dict):
            raise forms.ValidationError(_('Give a JSON object of option: value, e.g. {"kiriage": true}.'))
        return value

    def division_rows(self) -> list[tuple[str, str, str]]:
        rows = []
        for i in range(DIVISION_ROWS):
            code = (self.cleaned_data.get(f"division_{i}_code") or "").strip()
            name = (self.cleaned_data.get(f"division_{i}_name") or "").strip()
            name_zh = (self.cleaned_data.get(f"division_{i}_name_zh") or "").strip()
            if code or name or name_zh:
                rows.append((code, name, name_zh))
        return rows

    def division_fields(self) -> list[tuple[Any, Any, Any]]:
        return [
            (self[f"division_{i}_code"], self[f"division_{i}_name"], self[f"division_{i}_name_zh"])
            for i in range(DIVISION_ROWS)
        ]

    def league_fields(self) -> list[Any]:
        return [self[n] for n in ("name", "name_zh", "slug", "languages", "time_zone", "promotion_count")]

    def season_fields(self) -> list[Any]:
        return [self[n] for n in ("season_year", "season_number", "season_label", "starts_on", "ends_on")]


class RoleInviteForm(forms.Form):
    email = forms.EmailField(label=_("Email"))
    role = forms.ChoiceField(label=_("Role"), choices=LeagueRole.Role.choices, initial=LeagueRole.Role.REFEREE)


class LeagueRefuseForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 2}))

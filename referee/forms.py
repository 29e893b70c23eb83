import re
from typing import Any, cast

from django import forms

from kyoku.parsers import json_text_load
from kyoku.safe_json import UnsafeJSON
from django.utils.translation import gettext_lazy as _

from kyoku.labels import LABELS, choices, offence_label

from .seats import seat_label
from league.names import player_display_name

KIND_CHOICES = list(LABELS["incident_kind"].items())


def _json_field(value, label, *, kind=(list,), required=True):
    if value in (None, "") and not required:
        return None
    try:
        data = json_text_load(value, str(label))
    except UnsafeJSON:
        raise forms.ValidationError(_("%(label)s: not valid JSON") % {"label": label}) from None
    if not isinstance(data, kind):
        raise forms.ValidationError(_("%(label)s: wrong shape") % {"label": label})
    return data


class IncidentForm(forms.Form):
    hand_number = forms.IntegerField(label=_("Hand number"), required=False, min_value=0)
    # chosen by seat and player, never by a wind: the wind of every seat follows from this choice
    dealer = forms.TypedChoiceField(
        label=_("Dealer (East this hand)"), coerce=int, initial=0, choices=[(i, str(i)) for i in range(4)]
    )
    kind = forms.ChoiceField(label=_("Kind"), choices=KIND_CHOICES)
    description = forms.CharField(
        label=_("What happened (public)"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    private_notes = forms.CharField(
        label=_("Private notes (referees only)"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )
    events = forms.CharField(widget=forms.HiddenInput, initial="[]")

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        names = {s.seat: player_display_name(s.player) for s in seats}
        self.fields["dealer"].choices = [  # type: ignore[attr-defined]  # a ChoiceField; the stubs say Field
            (i, _("Seat %(n)d · %(name)s") % {"n": i, "name": names[i]} if i in names else str(i)) for i in range(4)
        ]

    def clean_events(self):
        return _json_field(self.cleaned_data["events"], _("Timeline"))


def seat_choices(seats, dealer: int = 0) -> list[tuple[int, str]]:
    """A game's seats as ``(seat, "South (Bob)")``: this hand's wind (``dealer`` is East) and the
    player, named as the ruling names them (``seats``: GameSeat rows)."""
    names = {s.seat: player_display_name(s.player) for s in seats}
    return [(s.seat, seat_label(s.seat, dealer=dealer, names=names)) for s in seats]


def offence_choices(catalogue: dict) -> list[tuple[str, str]]:
    """The catalogue's offences by display name (the code stays the submitted value)."""
    rows = [(code, offence_label(code, catalogue)) for code in catalogue.get("offences", {})]
    return sorted(rows, key=lambda r: str(r[1]))


class PenaltyForm(forms.Form):
    """One penalty or card: who and which offence of the league's catalogue (chosen by name)."""

    seat = forms.TypedChoiceField(label=_("Player"), coerce=int, required=False, empty_value=None)
    offence = forms.ChoiceField(label=_("Offence"), required=False)
    note = forms.CharField(label=_("Note"), required=False, max_length=500)

    def __init__(self, *args, seats=(), catalogue=None, dealer: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = [("", "—")] + seat_choices(seats, dealer)  # type: ignore[attr-defined]  # a ChoiceField; the stubs say Field
        self.fields["offence"].choices = [("", "—")] + offence_choices(catalogue or {"offences": {}})  # type: ignore[attr-defined]  # a ChoiceField; the stubs say Field
        # a row of the table: each field is named by its column's header (templates/referee/_penalty_table.html,
        # whose header ids carry the formset's prefix: "extra" of "extra-0")
        group = (self.prefix or "").rsplit("-", 1)[0]
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("aria-labelledby", f"{group}-col-{name}")

    def clean(self):
        v = cast(dict, super().clean())  # a Form's clean gives cleaned_data
        if (v.get("seat") is None) != (not v.get("offence")):
            raise forms.ValidationError(_("Choose both the player and the offence, or neither."))
        return v


class BasePenaltyFormSet(forms.BaseFormSet):
    def __init__(self, *args, seats=(), catalogue=None, dealer: int = 0, **kwargs):
        self.seats, self.catalogue, self.dealer = list(seats), catalogue, dealer
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {
            **super().get_form_kwargs(index),
            "seats": self.seats,
            "catalogue": self.catalogue,
            "dealer": self.dealer,
        }

    @property
    def empty_form(self):
        form = self.form(
            auto_id=self.auto_id,
            prefix=self.add_prefix("__prefix__"),
            empty_permitted=True,
            use_required_attribute=False,
            seats=self.seats,
            catalogue=self.catalogue,
            dealer=self.dealer,
        )
        self.add_fields(form, None)
        return form

    def penalties(self) -> list[dict]:
        """The filled rows as the service's ``[{"seat", "offence", "note"}]``."""
        return [
            {
                "seat": f.cleaned_data["seat"],
                "offence": f.cleaned_data["offence"],
                "note": f.cleaned_data.get("note", ""),
            }
            for f in self.forms
            if f.cleaned_data and f.cleaned_data.get("offence")
        ]


PenaltyFormSet = forms.formset_factory(PenaltyForm, formset=BasePenaltyFormSet, extra=1, max_num=12, validate_max=True)


class RulingDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"),
        widget=forms.RadioSelect,
        initial="accept",
        choices=[("accept", _("Accept the proposed ruling")), ("override", _("Override it"))],
    )
    override_winners = forms.TypedMultipleChoiceField(
        label=_("Winners (override)"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Who wins the hand under your ruling; none: no one."),
    )
    override_drop_penalties = forms.BooleanField(
        label=_("Withdraw the penalties the proposed ruling names"), required=False
    )
    override_reason = forms.CharField(
        label=_("Reason for the override"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, seats=(), proposed=None, dealer: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["override_winners"].choices = seat_choices(seats, dealer)  # type: ignore[attr-defined]  # a ChoiceField; the stubs say Field
        if proposed:
            self.fields["override_winners"].initial = list(proposed.get("winners") or [])

    def override(self, proposed: dict | None) -> dict | None:
        """The fields of the ruling the referee changes (the service's ``override``)."""
        v = self.cleaned_data
        if v["decision"] == "accept":
            return None
        out = {"winners": list(v["override_winners"])}
        if v["override_drop_penalties"]:
            out["penalties"] = []
        return out


class AppealForm(forms.Form):
    reason = forms.CharField(label=_("Why should the ruling change?"), widget=forms.Textarea(attrs={"rows": 3}))


class AppealDecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"),
        widget=forms.RadioSelect,
        initial="uphold",
        choices=[("uphold", _("Uphold the ruling")), ("reverse", _("Change the ruling"))],
    )
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))
    new_winners = forms.TypedMultipleChoiceField(
        label=_("Winners under the new ruling"), coerce=int, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, seats=(), current=None, dealer: int = 0, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["new_winners"].choices = seat_choices(seats, dealer)  # type: ignore[attr-defined]  # a ChoiceField; the stubs say Field
        if current:
            self.fields["new_winners"].initial = list(current.get("winners") or [])

    def new_final(self, penalties: list[dict]) -> dict | None:
        """A changed ruling: the winners chosen and the penalties of the table (none: no penalties)."""
        if self.cleaned_data["decision"] == "uphold":
            return None
        return {
            "winners": list(self.cleaned_data["new_winners"]),
            "penalties": [{"seat": p["seat"], "offence": p["offence"], "clauses": []} for p in penalties],
        }


# ---------------------------------------------------------------- the penalty catalogue as a table

CODE_RE = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


class CatalogueHeadForm(forms.Form):
    version = forms.CharField(
        label=_("Catalogue version"), max_length=40, help_text=_("Recorded with every sanction, e.g. 2026.1")
    )


class CatalogueRowForm(forms.Form):
    code = forms.CharField(
        label=_("Code"), max_length=40, help_text=_("Lower-case letters, digits and _; rulings name the offence by it")
    )
    description = forms.CharField(label=_("Name (English)"), max_length=200)
    description_zh = forms.CharField(label=_("Name (繁體中文)"), max_length=200, required=False)
    # a blank first choice: an untouched "Add a row" line is left out, not refused
    sanction = forms.ChoiceField(label=_("Sanction"), choices=[("", "—")] + choices("sanction"))
    points = forms.IntegerField(label=_("Points (table points)"), required=False, min_value=0, max_value=1_000_000)
    clauses = forms.CharField(
        label=_("Clauses"), max_length=100, required=False, help_text=_("Comma-separated, e.g. 2, 3")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # a row of the table: each field is named by its column's header (templates/referee/catalogue.html)
        for name, field in self.fields.items():
            field.widget.attrs.setdefault("aria-labelledby", f"catalogue-col-{name}")

    def clean_code(self):
        code = self.cleaned_data["code"].strip()
        if not CODE_RE.match(code):
            raise forms.ValidationError(_("Use lower-case letters, digits and _ (starting with a letter)."))
        return code

    def clean_clauses(self):
        parts = [c.strip() for c in self.cleaned_data["clauses"].split(",") if c.strip()]
        if any(not re.fullmatch(r"[0-9A-Za-z.]{1,12}", c) for c in parts):
            raise forms.ValidationError(_("Clause ids are numbers like 1.3, separated by commas."))
        return parts


class BaseCatalogueFormSet(forms.BaseFormSet):
    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        if "DELETE" in form.fields:
            form.fields["DELETE"].widget.attrs.setdefault("aria-labelledby", "catalogue-col-DELETE")

    def clean(self):
        if any(self.errors):
            return
        seen = set()
        for form in self.forms:
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            code = form.cleaned_data["code"]
            if code in seen:
                raise forms.ValidationError(_("The code %(code)s is used twice.") % {"code": code})
            seen.add(code)

    def offences(self) -> dict:
        out = {}
        for form in self.forms:
            v = form.cleaned_data
            if not v or v.get("DELETE"):
                continue
            entry = {"sanction": v["sanction"], "clauses": v["clauses"], "description": v["description"]}
            if v.get("description_zh"):
                entry["description_zh"] = v["description_zh"]
            if v.get("points") is not None:
                entry["points"] = v["points"]
            out[v["code"]] = entry
        return out


CatalogueFormSet = forms.formset_factory(
    CatalogueRowForm, formset=BaseCatalogueFormSet, extra=1, can_delete=True, max_num=60, validate_max=True
)


def catalogue_initial(data: dict) -> list[dict]:
    return [
        {
            "code": code,
            "description": e.get("description", ""),
            "description_zh": e.get("description_zh", ""),
            "sanction": e.get("sanction"),
            "points": e.get("points"),
            "clauses": ", ".join(e.get("clauses", [])),
        }
        for code, e in (data.get("offences") or {}).items()
    ]

"""The tiers page's form: a tier's requirements as typed fields with words (platform, lowest
rank, lowest room, lowest rating, games in the year, proof), turned into the requirements JSON
league.qualification reads; never a raw JSON box."""

from __future__ import annotations

from typing import Any, Callable

from django import forms
from django.utils.translation import gettext_lazy as _

from kyoku.labels import label, rank_label

from .models import QualificationTier
from .qualification import RANKS, ROOMS

ALTERNATIVES = 3  # account alternatives offered on the page (any one suffices)
ACCOUNT_FIELDS = ("platform", "min_rank", "min_room", "min_rating", "min_games_in_year")


def _grouped(table: dict[str, list[str]], words: Callable[[str], str]) -> list:
    """Choices grouped by platform: a rank or room is chosen, in words, under its platform's name."""
    return [("", "—")] + [(label(p, "platform"), [(v, words(v)) for v in values]) for p, values in table.items()]


def _room(room: str) -> str:
    return label(room, "room")


class TierForm(forms.Form):
    code = forms.CharField(label=_("Code"), max_length=8, help_text=_("Short, e.g. 1A; unique in the league."))
    description = forms.CharField(label=_("Description"), max_length=200)
    description_zh = forms.CharField(label=_("Chinese description"), max_length=200, required=False)
    division_code = forms.CharField(label=_("Admits to division"), max_length=4, initial="A")
    effective_year = forms.IntegerField(label=_("In force from year"), min_value=2000, max_value=2100)
    effective_number = forms.TypedChoiceField(
        label=_("In force from season"), coerce=int, choices=[(n, str(n)) for n in range(1, 5)], initial=1
    )
    validity = forms.ChoiceField(label=_("Validity"), choices=QualificationTier.Validity.choices)
    proof_required = forms.BooleanField(
        label=_("A proof file is required (a screenshot of the account and its games)"), required=False
    )

    def __init__(
        self, *args: Any, division_codes: list[str] | None = None, rows: int = ALTERNATIVES, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.rows = max(rows, ALTERNATIVES)  # a tier with more alternatives than the page offers keeps them all
        self.used: list[int] = []  # the rows given, in the order of the requirements' accounts
        if division_codes:
            self.fields["division_code"].help_text = _("This league's divisions: %(codes)s") % {
                "codes": ", ".join(division_codes)
            }
        platforms = [("", _("— none —"))] + [(p, label(p, "platform")) for p in RANKS]
        for i in range(self.rows):
            n = i + 1
            self.fields[f"alt{i}_platform"] = forms.ChoiceField(
                label=_("Account %(n)s: platform") % {"n": n}, choices=platforms, required=False
            )
            self.fields[f"alt{i}_min_rank"] = forms.ChoiceField(
                label=_("Lowest rank"), choices=_grouped(RANKS, rank_label), required=False
            )
            self.fields[f"alt{i}_min_room"] = forms.ChoiceField(
                label=_("Games in this room or above"), choices=_grouped(ROOMS, _room), required=False
            )
            self.fields[f"alt{i}_min_rating"] = forms.IntegerField(
                label=_("Lowest rating"), min_value=0, max_value=10_000, required=False
            )
            self.fields[f"alt{i}_min_games_in_year"] = forms.IntegerField(
                label=_("Games in the year, at least"), min_value=0, max_value=100_000, required=False
            )

    def alternatives(self) -> list[list[forms.BoundField]]:
        """The account alternatives' fields, one row each (for the template)."""
        return [[self[f"alt{i}_{key}"] for key in ACCOUNT_FIELDS] for i in range(self.rows)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for i in range(self.rows):
            given = [k for k in ACCOUNT_FIELDS[1:] if data.get(f"alt{i}_{k}") not in (None, "")]
            if given and not data.get(f"alt{i}_platform"):
                self.add_error(f"alt{i}_platform", _("Choose the platform these requirements are for."))
        return data

    def service_fields(self) -> dict[str, Any]:
        """The fields as league.services.tiers takes them: requirements as its JSON."""
        d = self.cleaned_data
        accounts = []
        self.used = []
        for i in range(self.rows):
            if not d.get(f"alt{i}_platform"):
                continue
            self.used.append(i)
            alt = {k: d[f"alt{i}_{k}"] for k in ACCOUNT_FIELDS if d.get(f"alt{i}_{k}") not in (None, "")}
            accounts.append(alt)
        requirements: dict[str, Any] = {"proof_required": bool(d.get("proof_required"))}
        if accounts:
            requirements["accounts"] = accounts
        keys = ("code", "description", "description_zh", "division_code", "effective_year", "effective_number")
        return {**{k: d.get(k) for k in keys}, "validity": d.get("validity"), "requirements": requirements}

    @classmethod
    def initial_of(cls, tier: QualificationTier) -> dict[str, Any]:
        """A tier's stored fields as the form's initial values."""
        initial: dict[str, Any] = {
            k: getattr(tier, k)
            for k in ("code", "description", "description_zh", "division_code", "effective_year", "effective_number")
        }
        initial["validity"] = tier.validity
        initial["proof_required"] = bool(tier.requirements.get("proof_required"))
        for i, alt in enumerate(tier.requirements.get("accounts", [])):
            for key in ACCOUNT_FIELDS:
                if key in alt:
                    initial[f"alt{i}_{key}"] = alt[key]
        return initial

    def service_errors(self, exc: Any) -> None:
        """A service's errors on the fields they name (``requirements.accounts[1].min_rank`` → the
        second account's lowest rank)."""
        import re

        for field, msgs in getattr(exc, "message_dict", {"__all__": exc.messages}).items():
            found = re.match(r"requirements\.accounts\[(\d+)\](?:\.(\w+))?$", field)
            if found:
                j = int(found.group(1))
                row = self.used[j] if j < len(self.used) else j
                name = f"alt{row}_{found.group(2) or 'platform'}"
            elif field == "requirements.proof_required":
                name = "proof_required"
            else:
                name = field
            for msg in msgs:
                self.add_error(name if name in self.fields else None, msg)


def tier_words(tier: QualificationTier) -> list[str]:
    """A tier's requirements in words, one line per account alternative, then the proof."""
    lines = []
    for alt in tier.requirements.get("accounts", []):
        parts = [label(str(alt.get("platform")), "platform")]
        if "min_rank" in alt:
            parts.append(_("rank %(rank)s or above") % {"rank": rank_label(alt["min_rank"])})
        if "min_room" in alt:
            parts.append(_("games in the %(room)s or above") % {"room": _room(alt["min_room"])})
        if "min_rating" in alt:
            parts.append(_("rating %(n)s or above") % {"n": alt["min_rating"]})
        if "min_games_in_year" in alt:
            parts.append(_("at least %(n)s games in the year") % {"n": alt["min_games_in_year"]})
        lines.append(" · ".join(str(p) for p in parts))
    if not lines:
        lines.append(str(_("No online account needed: an admin judges the application.")))
    if tier.requirements.get("proof_required"):
        lines.append(str(_("A proof file is required.")))
    return lines

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kyoku.labels import LABELS, label
from kyoku.models import League
from league.models import RuleSet, Season

from . import ranking
from .models import Event

TIEBREAK_SLOTS = 4  # as many as ranking.TIEBREAKS
DEFAULT_TIEBREAKS = ("firsts", "best_game")
SEMI_FINAL_DEFAULTS = {"semi_final_cut": 0, "semi_final_rounds": 1, "semi_final_points": Event.FinalPoints.CARRY}


def tiebreak_choices() -> list[tuple[str, object]]:
    return [("", "—")] + [(name, LABELS["tiebreak"][name]) for name in ranking.TIEBREAKS]


class RuleSetChoiceField(forms.ModelChoiceField):
    """A template named by its preset in the reader's language (its stored name is the admin's);
    a league season's rules also by their name (the league and season)."""

    def label_from_instance(self, obj) -> str:
        words = f"{label(obj.preset, 'preset')} · v{obj.version}"
        return words if obj.is_template else f"{words} · {obj.name}"


class EventForm(forms.ModelForm):
    league = forms.ModelChoiceField(queryset=League.objects.none(), label=_("League"))
    rule_set = RuleSetChoiceField(
        queryset=RuleSet.objects.filter(is_template=True).order_by("preset", "-version"), label=_("Rules")
    )

    class Meta:
        model = Event
        fields = [
            "league",
            "name",
            "slug",
            "venue",
            "starts_on",
            "ends_on",
            "capacity",
            "rounds",
            "round_minutes",
            "seated_by_standings",
            "semi_final_cut",
            "semi_final_rounds",
            "semi_final_points",
            "cut",
            "final_points",
            "time_rule",
            "dealer_repeats_after_time",
            "team_scoring",
            "team_best",
            "leftover",
            "ema_id",
            "city",
            "country",
            "mers_qualification",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, leagues=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["league"].queryset = (  # type: ignore[attr-defined]  # a ModelChoiceField; stubs say Field
            leagues if leagues is not None else League.objects.none()
        )
        if leagues is not None:  # a league started in the app has no template: its seasons' rules serve
            league_rules = Q(seasons__league__in=leagues, seasons__kind=Season.Kind.LEAGUE)
            self.fields["rule_set"].queryset = (  # type: ignore[attr-defined]
                RuleSet.objects.filter(Q(is_template=True) | league_rules).distinct().order_by("preset", "-version")
            )
        for i in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=_("Tiebreak %(n)s") % {"n": i + 1},
                choices=tiebreak_choices(),
                required=False,
                initial=DEFAULT_TIEBREAKS[i] if i < len(DEFAULT_TIEBREAKS) else "",
                help_text=_("Players level on points are separated by these, in order.") if i == 0 else "",
            )
        for name in SEMI_FINAL_DEFAULTS:  # an event without a semi-final leaves them empty
            self.fields[name].required = False
        self.order_fields(["league", "name", "slug", "rule_set"])

    def clean(self):
        data = super().clean() or {}
        chosen = [data.get(f"tiebreak_{i + 1}") or "" for i in range(TIEBREAK_SLOTS)]
        names = [n for n in chosen if n]
        if len(set(names)) != len(names):
            self.add_error("tiebreak_1", _("Each tiebreak at most once."))
        data["tiebreaks"] = names
        for name, default in SEMI_FINAL_DEFAULTS.items():
            if data.get(name) in (None, ""):
                data[name] = default
        return data

    def validate_unique(self) -> None:  # the service checks the short name, with its own words
        return None


class RegistrationForm(forms.Form):
    membership_number = forms.CharField(label=_("Membership number"), max_length=20)
    team = forms.CharField(label=_("Team"), max_length=60, required=False)
    ema_number = forms.CharField(label=_("EMA number"), max_length=8, required=False)
    nationality = forms.CharField(
        label=_("Nationality"), max_length=3, required=False, help_text=_("ISO 3166 code of three letters, e.g. HKG")
    )
    substitute = forms.BooleanField(label=_("Substitute (fills a seat, not ranked)"), required=False)


class SelfRegistrationForm(forms.Form):
    team = forms.CharField(label=_("Team"), max_length=60, required=False)
    ema_number = forms.CharField(label=_("EMA number"), max_length=8, required=False)
    nationality = forms.CharField(
        label=_("Nationality"), max_length=3, required=False, help_text=_("ISO 3166 code of three letters, e.g. HKG")
    )


class TableScoresForm(forms.Form):
    """Four final scores in seat order and the sticks left; labels name the players."""

    deposits_left = forms.IntegerField(label=_("Riichi sticks left on the table"), min_value=0, max_value=20, initial=0)

    def __init__(self, *args, seats=(), **kwargs):
        super().__init__(*args, **kwargs)
        for s in seats:
            self.fields[f"score_{s['seat']}"] = forms.IntegerField(
                label=f"{s['wind_word']} · {s['name']}",
                min_value=-10_000_000,
                max_value=10_000_000,
                widget=forms.NumberInput(attrs={"step": 100, "inputmode": "numeric"}),
            )
        self.order_fields([f"score_{i}" for i in range(4)] + ["deposits_left"])

    def scores(self) -> list[int]:
        return [self.cleaned_data[f"score_{i}"] for i in range(4)]

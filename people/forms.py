from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from kyoku.models import League
from league.models import NameOrder, Player


class InvitationForm(forms.Form):
    """An admin names a member with no account and the address the link goes to."""

    player: forms.ModelChoiceField = forms.ModelChoiceField(
        label=_("Member"), queryset=Player.objects.none(), empty_label=None
    )
    email = forms.CharField(label=_("Email"), max_length=254)

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players  # type: ignore[attr-defined]


class DecisionForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class LinkRequestForm(forms.Form):
    league = forms.ModelChoiceField(label=_("League"), queryset=League.objects.order_by("name"))
    membership_number = forms.CharField(label=_("Membership number"), max_length=20)


class OwnPlayerForm(forms.Form):
    family_name = forms.CharField(label=_("Family name"), max_length=80, required=False)
    given_name = forms.CharField(label=_("Given name"), max_length=80, required=False)
    native_name = forms.CharField(
        label=_("Name in native script"),
        max_length=80,
        required=False,
        help_text=_("e.g. 陳大文 or 山田太郎; leave blank if your name has no other script"),
    )
    name_order = forms.ChoiceField(label=_("Name order"), choices=NameOrder.choices, initial=NameOrder.GIVEN_FIRST)
    language = forms.ChoiceField(label=_("Preferred language"), choices=settings.LANGUAGES)


class CloseForm(forms.Form):
    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput, strip=False)
    confirm = forms.CharField(
        label=_("Type your login name to confirm"), max_length=150, help_text=_("This cannot be undone.")
    )

"""One normal form for names people type: players' names, team names, online account names.

:func:`name_clean` is the one check, called by the services (the one place every entry path
passes) and by the model's ``clean`` for the admin's forms; :class:`NameFormField` and
:class:`NameSerializerField` are the same check for a form or a serializer that wants to answer
early. A name is

- NFC-normalised (so "é" typed as e + U+0301 and as U+00E9 is one name),
- stripped, with each inner run of whitespace (a tab, a no-break space, an ideographic space)
  made one ASCII space,
- refused (``ValidationError({field: [...]})`` naming the field, with a code) when it holds a
  control character, a line break, a bidirectional override, embedding, isolate or mark (U+202A–E,
  U+2066–9, U+200E/F, U+061C: they reverse how a name and what follows it read), a zero-width or
  other invisible character (U+200B–D, U+2060, U+FEFF, the Hangul fillers, a blank Braille cell:
  two names that look the same must be the same), a lone surrogate, or is longer than
  ``max_length`` once normalised.

The events app's team field: ``team = name_clean(team, field="team", max_length=60, required=False)``.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

# Invisible characters that Unicode files as letters or symbols, not as format characters
# (category Cf, refused as a whole): they make a blank or look-alike name.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")
# Refused although not Cc/Cf: line and paragraph separators.
LINE_BREAKS = frozenset("\u2028\u2029\x85")


def name_normal(value: str) -> str:
    """NFC, stripped, each run of inner whitespace one space. Checks nothing."""
    return " ".join(unicodedata.normalize("NFC", value).split())


def name_problem(value: str) -> tuple[str, str] | None:
    """(code, the offending character as U+XXXX) for a character no name may hold, else None."""
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cs":
            return "name_control", f"U+{ord(ch):04X}"
        if category in ("Cc", "Cf") or ch in INVISIBLE or ch in LINE_BREAKS:
            return "name_control", f"U+{ord(ch):04X}"
    return None


def _error(field: str, message: Any, code: str, params: dict[str, Any] | None = None) -> ValidationError:
    return ValidationError({field: [ValidationError(message, code=code, params=params)]})


def _messages(code: str) -> Any:
    return {
        "name_invalid": _("must be text"),
        "name_required": _("give a name"),
        "name_control": _("holds an invisible or control character (%(char)s): type the name again without it"),
        "name_too_long": _("at most %(n)s characters"),
    }[code]


def name_clean(value: object, *, field: str, max_length: int, required: bool = True) -> str:
    """``value`` in the names' normal form, or ``ValidationError({field: [...]})`` with code
    ``name_invalid`` (not text), ``name_required`` (blank and ``required``), ``name_control``
    (a control, bidi, zero-width or invisible character) or ``name_too_long``."""
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise _error(field, _messages("name_invalid"), "name_invalid")
    # checked before the whitespace is folded: a tab or a line break inside a name is refused, a
    # trailing newline from a paste is only stripped
    problem = name_problem(value.strip())
    if problem:
        code, char = problem
        raise _error(field, _messages(code), code, {"char": char})
    clean = name_normal(value)
    problem = name_problem(clean)  # NFC composes; it never makes a control character, but be sure
    if problem:
        code, char = problem
        raise _error(field, _messages(code), code, {"char": char})
    if not clean and required:
        raise _error(field, _messages("name_required"), "name_required")
    if len(clean) > max_length:
        raise _error(field, _messages("name_too_long"), "name_too_long", {"n": max_length})
    return clean


def _field_errors(exc: ValidationError) -> list[ValidationError]:
    return [e for errors in exc.error_dict.values() for e in errors]


class NameFormField(forms.CharField):
    """A form's name field through :func:`name_clean` (``strip`` is name_clean's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(*args, **kwargs)

    def clean(self, value: Any) -> str:
        if self.disabled:
            value = self.initial
        try:
            clean = name_clean(
                value, field=self.label and str(self.label) or "name", max_length=self.max_length or 200, required=False
            )
        except ValidationError as exc:
            raise ValidationError(_field_errors(exc)) from None
        super().validate(clean)
        self.run_validators(clean)
        return clean


class NameSerializerField(serializers.CharField):
    """A serializer's name field through :func:`name_clean`; errors keep name_clean's codes."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("trim_whitespace", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        try:
            clean = name_clean(
                data,
                field=self.field_name or "name",
                max_length=self.max_length or 200,
                required=not self.allow_blank,
            )
        except ValidationError as exc:
            errors = _field_errors(exc)
            raise serializers.ValidationError(
                [str(m) for e in errors for m in e.messages], code=errors[0].code or "invalid"
            ) from None
        return clean


def email_clean(value: object, *, field: str = "email", required: bool = True) -> str:
    """An email address as every part of the site stores and compares it (sign-up, an email change,
    a role or claim invitation, a roster's contact email): trimmed, lower-cased, valid, and in ASCII.
    An address in another script (Cyrillic ``а`` for Latin ``a``, full-width ``ｕｓｅｒ``) is refused
    in words rather than changed: it can pass for another address to the eye, and an invitation is
    bound to the address it was sent to. ``ValidationError`` naming ``field``; "" when not required
    and empty."""
    from django.core.validators import validate_email

    email = str(value or "").strip()
    if not email:
        if not required:
            return ""
        raise _error(field, _("Give an email address."), "email_missing")
    if not email.isascii():
        raise _error(
            field,
            _("Write the address in Latin letters (its ASCII form); this one has other characters."),
            "email_script",
        )
    try:
        validate_email(email)
    except ValidationError:
        raise _error(field, _("This is not an email address."), "email_invalid") from None
    if len(email) > 254:
        raise _error(field, _("This is not an email address."), "email_invalid")
    return email.lower()

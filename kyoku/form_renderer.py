"""Forms that a screen reader can follow: Django's own templates (which already tie each field to
its error list with ``aria-describedby`` and mark it ``aria-invalid``), with the form's errors
gathered at its top in one summary that is announced (``role="alert"``), names each field and links
to it; ``static/kyoku.js`` moves the focus there when a page comes back with errors.

The summary is ``kyoku/error_summary.html``; pages that lay a form out field by field include it
where they showed ``form.non_field_errors``, so it is the same everywhere."""

from __future__ import annotations

from pathlib import Path

import django
from django.forms.renderers import DjangoTemplates
from django.template.backends.django import DjangoTemplates as DjangoTemplatesBackend
from django.utils.functional import cached_property

HERE = Path(__file__).resolve().parent
DJANGO_FORMS = Path(django.__file__).resolve().parent / "forms" / "templates"


class KyokuFormRenderer(DjangoTemplates):
    """Django's form templates, with ``kyoku/form_templates`` looked at first."""

    @cached_property
    def engine(self) -> DjangoTemplatesBackend:
        return self.backend(
            {
                "APP_DIRS": True,
                "DIRS": [HERE / "form_templates", DJANGO_FORMS],
                "NAME": "kyokuforms",
                "OPTIONS": {},
            }
        )

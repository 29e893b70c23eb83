"""Upload forms. Size and type are checked again by the services (the API shares them)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .tenhou.parse import MAX_BYTES


class RecordUploadForm(forms.Form):
    file = forms.FileField(label=_("Tenhou record (mjlog XML or tenhou.net/6 JSON)"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large to be a Tenhou game record (at most %(limit)s bytes).") % {"limit": MAX_BYTES}
            )
        return upload


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    """Django's documented pattern for a field taking several files."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data, initial=None):
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(d, initial) for d in data]
        return [single(data, initial)]


class EvidenceUploadForm(forms.Form):
    records = MultipleFileField(label=_("Tenhou records (several files or a zip archive)"))

"""Evidence files are private data: kept outside any public URL, under random names, accepted
only when their content (not their name) is one of the allowed types and within the size limit.

Allowed: PNG, JPEG, WebP images and PDF (settings.EVIDENCE_MAX_BYTES, default 10 MiB). The type
is read from the file's first bytes with ``puremagic`` (a maintained pure-Python magic-number
table) and checked again when the file is served.
"""

from __future__ import annotations

import secrets
from typing import Any, cast

import puremagic
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage, Storage
from django.core.files import File
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.functional import LazyObject, empty
from django.utils.translation import gettext as _

# detected MIME type → stored extension
ALLOWED_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/webp": "webp", "application/pdf": "pdf"}
INLINE_TYPES = frozenset(ALLOWED_TYPES)


class _PrivateStorage(LazyObject):
    def _setup(self) -> None:
        # base_url="" makes any attempt to build a public URL for these files obviously wrong
        self._wrapped = FileSystemStorage(location=settings.PRIVATE_MEDIA_ROOT, base_url="/no-public-url/")


private_storage = _PrivateStorage()


@receiver(setting_changed)
def _private_storage_reset(*, setting: str, **kwargs: Any) -> None:
    if setting == "PRIVATE_MEDIA_ROOT":  # tests point it at a temporary folder
        setattr(private_storage, "_wrapped", empty)  # LazyObject's reset: the stubs type _wrapped narrowly


def get_private_storage() -> Storage:
    """Callable for FileField(storage=...), so migrations don't freeze the path."""
    return cast(Storage, private_storage)  # a LazyObject standing in for the storage


def sniff(head: bytes) -> str | None:
    """The allowed MIME type the bytes start with, or None."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head[:4] == b"%PDF":
        return "application/pdf"
    try:
        matches = puremagic.magic_string(head)
    except (puremagic.PureError, ValueError):
        return None
    for match in matches:
        mime = (match.mime_type or "").lower()
        if mime in ALLOWED_TYPES:
            return mime
        if match.extension in (".jpg", ".jpeg", ".jfif"):
            return "image/jpeg"
        if match.extension == ".webp":
            return "image/webp"
    return None


def evidence_file_check(upload: File[Any], field: str = "proof") -> str:
    """Validate an uploaded evidence file; returns its MIME type. Raises ValidationError naming
    ``field`` for a file too large or of a type not allowed."""
    limit = settings.EVIDENCE_MAX_BYTES
    if upload.size > limit:
        raise ValidationError({field: [_("the file is larger than %(mib)s MiB") % {"mib": limit // (1024 * 1024)}]})
    upload.seek(0)
    head = upload.read(4096)
    upload.seek(0)
    mime = sniff(head)
    if mime is None:
        raise ValidationError({field: [_("only PNG, JPEG, WebP images and PDF files are accepted")]})
    return mime


def random_name(prefix: str, mime: str) -> str:
    """A stored name that reveals nothing and cannot be guessed: prefix/<32 hex>.<ext>."""
    return f"{prefix}/{secrets.token_hex(16)}.{ALLOWED_TYPES[mime]}"


def evidence_upload_to(instance: object, filename: str) -> str:
    mime = getattr(instance, "proof_type", "") or "application/pdf"
    return random_name("qualification", mime if mime in ALLOWED_TYPES else "application/pdf")

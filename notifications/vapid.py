"""VAPID keys for Web Push (RFC 8292): a P-256 key pair, the private key as the raw 32 bytes and
the public key as the uncompressed point, both base64url (what pywebpush and the browser's
``pushManager.subscribe`` take). ``python -m notifications.vapid`` prints them as .env lines
(scripts/dev-env adds them for development; production sets its own)."""

from __future__ import annotations

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid02
from py_vapid.utils import b64urlencode


def vapid_keys_generate() -> tuple[str, str]:
    """(private, public), base64url."""
    vapid = Vapid02()
    vapid.generate_keys()
    private = b64urlencode(vapid.private_key.private_numbers().private_value.to_bytes(32, "big"))
    public = b64urlencode(
        vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return private, public


if __name__ == "__main__":
    private, public = vapid_keys_generate()
    print(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}")

"""The links that carry a secret (an invitation to a role, to claim a player): the token goes in
the email once, and only its SHA-256 is stored, so a copy of the database opens no invitation."""

from __future__ import annotations

import hashlib
import secrets


def token_hash(token: str) -> str:
    """The stored form of a link's token (a token a visitor typed may hold any character)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_new() -> tuple[str, str]:
    """A fresh token (256 bits, URL-safe) and its stored form."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)

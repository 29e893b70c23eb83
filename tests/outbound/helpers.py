"""Shared by the outbound tests: a resolver that answers from a table (the machine has no DNS),
and push keys as a browser's Push API makes them."""

from __future__ import annotations

import base64
import ipaddress
import os
import socket

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

_real = socket.getaddrinfo


def fake_dns(monkeypatch, table: dict[str, list[str]]) -> list[str]:
    """``socket.getaddrinfo`` answers the names in ``table`` with their addresses (an IP literal
    and ``localhost`` resolve for real); any other name does not resolve. Returns the names asked."""
    asked: list[str] = []

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):
        name = host.decode() if isinstance(host, bytes) else str(host)
        asked.append(name)
        if name in table:
            out = []
            for address in table[name]:
                ip = ipaddress.ip_address(address)
                fam = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
                sa = (address, int(port or 0), 0, 0) if ip.version == 6 else (address, int(port or 0))
                out.append((fam, socket.SOCK_STREAM, 6, "", sa))
            return out
        try:
            ipaddress.ip_address(name.split("%")[0])
            return _real(host, port, family, type, proto, flags)
        except ValueError:
            pass
        if name == "localhost":
            return _real(host, port, family, type, proto, flags)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def push_keys() -> dict[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return {"p256dh": b64(public), "auth": b64(os.urandom(16))}

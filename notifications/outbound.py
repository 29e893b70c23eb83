"""Where the server may connect when it sends (issue 47 §2): a league's channel or a phone's push
endpoint never makes it post to an internal address.

**The address rule.** A host is resolved with ``socket.getaddrinfo`` and refused when ANY of its
addresses is not a public internet address: loopback, private (10/8, 172.16/12, 192.168/16,
fc00::/7), link-local (169.254/16 with the cloud metadata service, fe80::/10), multicast,
unspecified (0.0.0.0, ::), shared address space (100.64/10), benchmarking, documentation and
reserved ranges, and an IPv6 address carrying one of those in IPv4 form (IPv4-mapped ::ffff:0:0/96,
IPv4-compatible, 6to4 2002::/16, NAT64 64:ff9b::/96, Teredo). The operator, never a league admin,
may let a network through (setting ``OUTBOUND_ALLOWED_NETWORKS``, e.g. a league's Mattermost on
the venue's LAN; the tests' local receivers).

**Checked twice.** When a channel or a subscription is saved (:func:`host_check`, so the admin
reads why at once) and again at every send: :func:`outbound_guard` wraps the one place urllib3
opens a connection (``urllib3.util.connection.create_connection``, used by requests and so by
Apprise and pywebpush), resolves the host there, checks every address and connects to the
checked address itself. No second resolution happens between the check and the connection, so
DNS rebinding (a name public at save time, internal at send time, or flipping between two
lookups) cannot get through; a redirect opens a new connection and is checked the same way.

A refusal raises :class:`AddressRefused` whose ``reason`` is a code and whose :meth:`words`
say why in the reader's language. Nothing is sent to a refused address, so no answer from an
internal service is ever recorded."""

from __future__ import annotations

import contextvars
import ipaddress
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# non-global ranges Python's ``is_global`` may let through, and embeddings of IPv4 in IPv6
_REFUSED_V4 = [
    ipaddress.ip_network(n)
    for n in (
        "0.0.0.0/8",  # "this network"
        "100.64.0.0/10",  # shared address space (carrier NAT)
        "192.0.0.0/24",  # IETF protocol assignments
        "192.0.2.0/24",
        "198.51.100.0/24",
        "203.0.113.0/24",  # documentation
        "198.18.0.0/15",  # benchmarking
        "240.0.0.0/4",  # reserved, and the broadcast address
    )
]
_NAT64 = [ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48")]

REASONS = ("unresolved", "loopback", "private", "link_local", "multicast", "unspecified", "reserved")


class AddressRefused(Exception):
    """A host the server will not connect to; ``reason`` is one of :data:`REASONS`."""

    def __init__(self, host: str, reason: str) -> None:
        self.host = host
        self.reason = reason
        super().__init__(f"address_refused ({reason}): {host}")

    def words(self) -> str:
        """Why, for the admin, in the active language (never whether anything answered)."""
        what = {
            "unresolved": _("%(host)s has no address on the internet."),
            "loopback": _("%(host)s leads to this server itself (a loopback address)."),
            "private": _("%(host)s leads to a private network address."),
            "link_local": _("%(host)s leads to a link-local address (such as a cloud metadata service)."),
            "multicast": _("%(host)s leads to a multicast address."),
            "unspecified": _("%(host)s leads to an unspecified address (0.0.0.0 or ::)."),
            "reserved": _("%(host)s leads to a reserved or special-purpose address."),
        }[self.reason] % {"host": self.host}
        return what + " " + _("The server posts only to public internet addresses.")


def _embedded_v4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (mapped, compatible, 6to4, NAT64; Teredo is
    refused as not global)."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in net for net in _NAT64):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if int(ip) >> 32 == 0 and int(ip) > 1:  # IPv4-compatible ::a.b.c.d (deprecated)
        return ipaddress.IPv4Address(int(ip))
    return None


def _category(ip: IPAddress) -> str | None:
    """Why ``ip`` is refused, or None when it is a public internet address."""
    if ip.is_unspecified:
        return "unspecified"
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link_local"
    if ip.is_multicast:
        return "multicast"
    if isinstance(ip, ipaddress.IPv4Address):
        if any(ip in net for net in _REFUSED_V4) or ip.is_reserved:
            return "reserved"
    else:
        inner = _embedded_v4(ip)
        if inner is not None:
            return _category(inner)
        if ip.is_site_local or ip.is_reserved:
            return "reserved"
    if ip.is_private:
        return "private"
    if not ip.is_global:
        return "reserved"
    return None


def _allowed_networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [ipaddress.ip_network(n, strict=False) for n in getattr(settings, "OUTBOUND_ALLOWED_NETWORKS", [])]


def address_refusal(address: str) -> str | None:
    """The reason code an address (as getaddrinfo gives it) is refused for, or None."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # an IPv6 zone (fe80::1%eth0) is not kept
    if any(ip.version == net.version and ip in net for net in _allowed_networks()):
        return None
    return _category(ip)


def host_check(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to, each one checked: raises :class:`AddressRefused` when
    the name does not resolve or ANY address is not public (a name with one public and one
    internal address is refused: a client may pick either)."""
    host = (host or "").strip().strip("[]")
    if not host:
        raise AddressRefused("?", "unresolved")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError, ValueError):
        raise AddressRefused(host, "unresolved") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise AddressRefused(host, "unresolved")
    for address in addresses:
        reason = address_refusal(address)
        if reason is not None:
            raise AddressRefused(host, reason)
    return addresses


# ---------------------------------------------------------------- at send time

_guard: contextvars.ContextVar[list[AddressRefused] | None] = contextvars.ContextVar("outbound_guard", default=None)
_original: Callable[..., socket.socket] | None = None


def _create_connection(address: tuple[str, int], *args: Any, **kwargs: Any) -> socket.socket:
    assert _original is not None
    refusals = _guard.get()
    if refusals is None:  # not a send of ours: urllib3 as usual
        return _original(address, *args, **kwargs)
    host, port = address
    try:
        checked = host_check(host, port)
    except AddressRefused as exc:
        refusals.append(exc)
        raise
    # connect to the addresses just checked, in order: no second resolution can answer otherwise
    error: OSError | None = None
    for ip in checked:
        try:
            return _original((ip, port), *args, **kwargs)
        except OSError as exc:
            error = exc
    assert error is not None
    raise error


def _install() -> None:
    global _original
    from urllib3.util import connection

    if _original is None:
        _original = connection.create_connection
        connection.create_connection = _create_connection


@contextmanager
def outbound_guard() -> Iterator[list[AddressRefused]]:
    """Inside, every connection urllib3 opens in this thread goes to a checked address only; the
    list collects the refusals (a library may swallow the exception and answer "failed")."""
    _install()
    refusals: list[AddressRefused] = []
    token = _guard.set(refusals)
    try:
        yield refusals
    finally:
        _guard.reset(token)

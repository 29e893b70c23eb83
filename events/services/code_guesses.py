"""Wrong table codes (issue 47 §2): wrong guesses slow the guesser, never the room.

A per-event limit that refuses everyone once it is full is a switch anyone can pull: eleven
addresses × twenty wrong codes and the right code from a new phone answered 429. So nothing is
keyed on the event alone any more:

- **per guesser**, an escalating delay: a client address (an IPv6 client by its /64, which one
  host holds whole) has ``FREE`` wrong codes at an event; after each further one it waits 2, 4,
  8 … seconds, at most ``CAP`` (15 minutes), before its next code is even compared (a right code
  during the wait is refused too, so waiting is the only way on). A right code does not reset the
  count: a phone holding its own table's code could otherwise guess others' between two right
  ones. The count is forgotten ``FORGET`` seconds (an hour) after the guesser's last wrong code;
- the site-wide per-address bucket ``table_code_client`` (kyoku.throttle, 20 per 10 minutes)
  still caps one address across events;
- **per event** the wrong codes are only counted (``table_code_event``), for the director's desk,
  which lists the guessers waiting (``/events/<id>/codes/``) and clears one (audited): a venue
  whose phones share one address behind its Wi-Fi, slowed by a guesser or by typos, is freed by
  the desk in one click.

The state lives in the Django cache like every throttle (a cache that is down slows nobody)."""

from __future__ import annotations

import ipaddress
import time
from typing import Any

from django.core.cache import cache

from kyoku.audit import audit_log_write
from kyoku.cache import UNAVAILABLE, cache_unavailable_log
from kyoku.principals import Actor, actor_require
from kyoku.throttle import Throttled, client_address, throttle_check, throttle_hit, throttle_note, throttle_reset

from ..models import Event

FREE = 5  # wrong codes a guesser has at an event before it waits
CAP = 900  # the longest wait, seconds
FORGET = 3600  # a guesser's count lives this long after its last wrong code


def guesser_of(request: Any) -> str:
    """Whose guesses these are: the client address, an IPv6 one by its /64."""
    address = client_address(request)
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _key(event_id: int, what: str, guesser: str = "") -> str:
    import hashlib

    digest = hashlib.sha256(guesser.encode()).hexdigest()[:32] if guesser else ""
    return f"tablecode:{event_id}:{what}:{digest}"


def _now() -> float:
    return time.time()


def wait_after(misses: int) -> int:
    """Seconds a guesser waits after its ``misses``-th wrong code: 0 up to FREE, then 2, 4, 8 …
    up to CAP."""
    if misses <= FREE:
        return 0
    return int(min(CAP, 2 ** min(misses - FREE, 20)))


def guess_check(request: Any, event: Event) -> None:
    """Before a code is compared: refuse (429, Retry-After) a guesser still waiting, or an address
    over the site-wide bucket."""
    guesser = guesser_of(request)
    throttle_check("table_code_client", guesser)
    try:
        until = cache.get(_key(event.pk, "until", guesser))
    except UNAVAILABLE as exc:
        cache_unavailable_log("table code check", exc)
        return
    if until is not None and float(until) > _now():
        raise Throttled(int(float(until) - _now()) + 1, "table_code_guesser")


def guess_miss(request: Any, event: Event) -> None:
    """A wrong code: count it for the guesser (its next wait) and for the event's desk."""
    guesser = guesser_of(request)
    now = _now()
    throttle_note("table_code_event", str(event.pk))
    try:
        misses_key = _key(event.pk, "misses", guesser)
        if not cache.add(misses_key, 1, timeout=FORGET):
            try:
                misses = int(cache.incr(misses_key))
                cache.touch(misses_key, FORGET)
            except ValueError:
                cache.set(misses_key, 1, timeout=FORGET)
                misses = 1
        else:
            misses = 1
        wait = wait_after(misses)
        if wait:
            cache.set(_key(event.pk, "until", guesser), now + wait, timeout=wait + 1)
        index = dict(cache.get(_key(event.pk, "index")) or {})
        index[guesser] = now
        cache.set(_key(event.pk, "index"), index, timeout=FORGET)
    except UNAVAILABLE as exc:
        cache_unavailable_log("table code count", exc)
    throttle_hit("table_code_client", guesser)


def guessers(event: Event) -> list[dict[str, Any]]:
    """The event's guessers of the last hour for the desk: address, wrong codes, seconds still
    to wait (0: not waiting), most recent first."""
    now = _now()
    try:
        index = dict(cache.get(_key(event.pk, "index")) or {})
        rows = []
        for guesser, last in index.items():
            misses = int(cache.get(_key(event.pk, "misses", guesser)) or 0)
            until = cache.get(_key(event.pk, "until", guesser))
            if not misses:
                continue
            wait = max(0, int(float(until) - now) + 1) if until is not None and float(until) > now else 0
            rows.append({"guesser": guesser, "misses": misses, "wait": wait, "last": float(last)})
    except UNAVAILABLE as exc:
        cache_unavailable_log("table code guessers", exc)
        return []
    return sorted(rows, key=lambda r: -r["last"])


def guesser_clear(*, event: Event, guesser: str, actor: Actor) -> bool:
    """The desk frees a guesser (a venue's shared address): its count, its wait and its
    site-wide bucket are forgotten. Audited. False when the event had no such guesser."""
    actor_require(actor)
    index = dict(cache.get(_key(event.pk, "index")) or {})
    if guesser not in index:
        return False
    cache.delete_many([_key(event.pk, "misses", guesser), _key(event.pk, "until", guesser)])
    throttle_reset("table_code_client", guesser)
    index.pop(guesser, None)
    cache.set(_key(event.pk, "index"), index, timeout=FORGET)
    audit_log_write(actor=actor, action="events.table_code_guesser_clear", obj=event, data={"guesser": guesser})
    return True

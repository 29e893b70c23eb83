"""What is sent: every kind of notification, who may read it where, and on which channels it goes
unless its recipient chose otherwise.

A kind is **private** (addressed to the people it concerns: their inbox, their email, their
phones) or **public** (an announcement of what the league publishes anyway: it may also be posted
to the league's own channels). The privacy rule (docs/privacy.md) holds here: a private kind is
never posted to a public channel (``notifications.services.announce`` refuses it), and a public
kind's parameters carry only what every visitor of the league's pages can read (names, tables,
results, divisions), never a membership number, an online account, an application or a ruling.
"""

from __future__ import annotations

import re

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

EMAIL = "email"
PUSH = "push"
CHANNELS: tuple[str, ...] = (EMAIL, PUSH)  # what a user chooses per kind (the inbox always receives)
CHANNEL_LABELS: dict[str, Promise] = {EMAIL: _("Email"), PUSH: _("Push to my phone")}


@dataclass(frozen=True)
class Kind:
    code: str
    label: Promise
    public: bool  # an announcement a league's public channels may carry
    defaults: tuple[str, ...]  # the channels it goes to until its recipient chooses
    to_people: bool = True  # False: only ever posted to a league's channels (no one's inbox, email or phone)


KINDS: dict[str, Kind] = {
    k.code: k
    for k in (
        # private: to the people the fact concerns
        Kind("seating_published", _("Your table is published"), False, (EMAIL, PUSH)),
        Kind("round_starts", _("Your round starts soon"), False, (PUSH,)),
        Kind("time_up", _("Time is up at your table"), False, (PUSH,)),
        Kind("result_to_confirm", _("Your table's result waits for your confirmation"), False, (PUSH,)),
        Kind("result_recorded", _("Your table's result is recorded"), False, (PUSH,)),
        Kind("result_disputed", _("Your table's result is disputed"), False, (EMAIL, PUSH)),
        Kind("referee_call", _("A referee is needed"), False, (EMAIL, PUSH)),
        Kind("ruling_issued", _("A ruling that concerns you"), False, (EMAIL, PUSH)),
        Kind("ruling_appealed", _("A ruling is appealed"), False, (EMAIL, PUSH)),
        Kind("penalty_issued", _("A penalty issued to you"), False, (EMAIL, PUSH)),
        Kind("application_decided", _("Your qualification application is decided"), False, (EMAIL, PUSH)),
        Kind("promotion_relegation", _("Your division next season"), False, (EMAIL, PUSH)),
        # public: what the league's pages show anyway, also posted to its own channels
        # (a person is told their own table by seating_published and result_recorded: the league-wide
        # announcements go to the league's channels only, so a person has no box to tick for them)
        Kind("seating_announced", _("Seating published"), True, (), to_people=False),
        Kind("results_announced", _("Results recorded"), True, (), to_people=False),
        Kind("registration_open", _("Registration opens"), True, (EMAIL,)),
    )
}
PUBLIC_KINDS = tuple(code for code, k in KINDS.items() if k.public)
PERSONAL_KINDS = tuple(code for code, k in KINDS.items() if k.to_people)  # what a person may choose channels for


def kind_get(code: str) -> Kind:
    try:
        return KINDS[code]
    except KeyError:
        raise ValueError(f"unknown notification kind {code!r}") from None


# a seat (league.models.GameSeat.seat, 0 = the first dealer) as its wind
WINDS: dict[int, Promise] = {0: _("East"), 1: _("South"), 2: _("West"), 3: _("North")}


# Why a send failed, when the reason is ours (a delivery's ``last_error`` holds the code; a mail
# server's or a push service's own answer is kept as it said it), in the reader's words.
REASONS: dict[str, Promise] = {
    "no_email": _("The recipient has no email address."),
    "subscription_removed": _("The phone's subscription was removed."),
    "push_not_configured": _("Web Push is not configured on this server (VAPID keys)."),
    "push_gone": _("The push service no longer knows this phone."),
    "push_refused": _("The push service refused the message."),
    "not_public": _("Only a public announcement goes to a league's channel."),
    "channel_removed": _("The channel was removed."),
    "channel_address": _("Not an address Apprise can post to."),
    "unknown_channel": _("Unknown channel."),
    "outcome_unknown": _("The sender stopped after handing it over: not sent again automatically."),
    # the address rule (notifications.outbound): nothing was sent, so nothing answered
    "address_unresolved": _("Not sent: the address has no address on the internet."),
    "address_loopback": _("Not sent: the address leads to this server itself (a loopback address)."),
    "address_private": _("Not sent: the address leads to a private network address."),
    "address_link_local": _("Not sent: the address leads to a link-local address."),
    "address_multicast": _("Not sent: the address leads to a multicast address."),
    "address_unspecified": _("Not sent: the address leads to an unspecified address."),
    "address_reserved": _("Not sent: the address leads to a reserved or special-purpose address."),
}


# A channel's exception (kept as "<its class name>: <what the server said>"), by family: the
# class name is a code, the server's own answer stays as it said it, after the words.
FAILURES: tuple[tuple[tuple[str, ...], Promise], ...] = (
    (("SMTPRecipientsRefused", "SMTPSenderRefused"), _("The mail server refused the address:")),
    (("SMTPAuthenticationError",), _("The mail server refused our login:")),
    (
        ("SMTPServerDisconnected", "SMTPConnectError", "ConnectionRefusedError", "ConnectionResetError"),
        _("The server could not be reached:"),
    ),
    (("TimeoutError", "timeout", "ReadTimeout", "ConnectTimeout"), _("The server did not answer in time:")),
    (("WebPushException",), _("The push service refused the message:")),
)
EXCEPTION = re.compile(
    r"^([A-Za-z_][A-Za-z0-9_]*(?:Error|Exception|Refused|Disconnected|Timeout|timeout)): ?(.*)$", re.S
)


def reason_words(last_error: str) -> str:
    """A delivery's last error for the reader: our own reason in words; a server's answer after
    words saying what kind of failure it was (never an exception's class name alone)."""
    code, _sep, detail = last_error.partition(" ")
    if code in REASONS:
        return f"{REASONS[code]} {detail}".strip()
    found = EXCEPTION.match(last_error)
    if not found:
        return last_error
    name, said = found.groups()
    words = next((w for names, w in FAILURES if name in names), _("The server answered with an error:"))
    return f"{words} {said}".strip()

"""A league's channels post only where they should (issue 47 §2): the allowed Apprise schemes,
no method, header or field override, and the address rule at saving and again at sending, where
the connection goes to the address just checked (DNS rebinding)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.utils import timezone

from kyoku.principals import SYSTEM
from notifications import services
from notifications.models import Delivery, LeagueChannel
from tests.outbound.helpers import fake_dns

PARAMS = {"league": {"en": "Test League"}, "season": "2026 S2"}


def _add(league, url):
    return services.league_channel_add(league=league, name="Chat", url=url, actor=SYSTEM)


@pytest.mark.parametrize("scheme", ["json", "form", "xml", "jsons"])
def test_channels_to_loopback_are_refused_and_nothing_is_stored(league, internal, scheme):
    with pytest.raises(ValidationError) as refused:
        _add(league, f"{scheme}://127.0.0.1:{internal.port}/hook")
    words = " ".join(refused.value.message_dict["url"])
    assert ("loopback" in words) if scheme in ("json", "jsons") else ("Only these channels" in words)
    assert not LeagueChannel.objects.exists() and internal.requests == []


@pytest.mark.parametrize(
    "url",
    [
        "json://169.254.169.254/latest/meta-data/",
        "jsons://[::1]:8443/hook",
        "json://[::ffff:127.0.0.1]/hook",
        "json://10.0.0.8/hook",
        "mmosts://192.168.1.5/token",
        "ntfys://localhost/topic",
        "json://0.0.0.0:8000/",
    ],
)
def test_internal_hosts_are_refused_in_words(league, url):
    with pytest.raises(ValidationError) as refused:
        _add(league, url)
    assert "The server posts only to public internet addresses." in refused.value.message_dict["url"][0]
    assert not LeagueChannel.objects.exists()


def test_a_name_resolving_to_loopback_is_refused(league, monkeypatch):
    fake_dns(monkeypatch, {"hooks.example.net": ["127.0.0.1"]})
    with pytest.raises(ValidationError) as refused:
        _add(league, "jsons://hooks.example.net/kyoku")
    assert refused.value.message_dict["url"] == [
        "hooks.example.net leads to this server itself (a loopback address). "
        "The server posts only to public internet addresses."
    ]


@pytest.mark.parametrize(
    "url",
    [
        "mailto://user:pass@smtp.internal:25?to=x@example.org",
        "mailtos://user:pass@example.org",
        "form://hooks.example.net/",
        "xml://hooks.example.net/",
        "https://hooks.example.net/",
        "gotify://hooks.example.net/token",
    ],
)
def test_only_the_listed_schemes(league, url):
    with pytest.raises(ValidationError) as refused:
        _add(league, url)
    assert refused.value.message_dict["url"][0].startswith("Only these channels:")


@pytest.mark.parametrize(
    "query",
    [
        "?method=GET",
        "?method=PUT",
        "?+X-Forwarded-For=1",
        "?+Authorization=x",
        "?-token=1",
        "?:message=x",
        "?verify=no",
        "?to=x",
    ],
)
def test_method_header_and_field_overrides_are_refused(league, monkeypatch, query):
    fake_dns(monkeypatch, {"hooks.example.net": ["93.184.215.14"]})
    with pytest.raises(ValidationError) as refused:
        _add(league, f"jsons://hooks.example.net/kyoku{query}")
    assert "the server's" in refused.value.message_dict["url"][0]
    assert not LeagueChannel.objects.exists()


def test_allowed_channels_are_saved(league, monkeypatch):
    fake_dns(monkeypatch, {"hooks.example.net": ["93.184.215.14"], "chat.example.net": ["2606:4700::1111"]})
    for url in (
        "jsons://hooks.example.net/kyoku",
        "mmosts://chat.example.net/abcdefghijklmnopqrstuvwxyz",
        "discord://1234567890/abcdefghijklmnop",
        "tgram://123456789:abcdefghijklmnopqrstuvwxyz0123456789/12345678",
        "ntfys://kyoku-league-topic",
        "slack://T1JJ3T3L2/A1BRTD4JD/TIiajkdnlazkcOXrIdevi7FQ/#general?format=markdown",
    ):
        _add(league, url)
    assert LeagueChannel.objects.count() == 6


def _announce(league):
    announced = services.announce(kind="registration_open", league=league, params=PARAMS, actor=SYSTEM)
    return announced.deliveries.get()


def test_dns_rebinding_at_send_time_reaches_nothing(league, internal, monkeypatch, settings):
    """Public when saved, loopback when sent: the send resolves once, refuses, connects to nothing,
    and records why in words, never an answer."""
    fake_dns(monkeypatch, {"hooks.example.net": ["93.184.215.14"]})
    _add(league, f"json://hooks.example.net:{internal.port}/hook")
    fake_dns(monkeypatch, {"hooks.example.net": ["127.0.0.1"]})
    delivery = _announce(league)
    assert services.delivery_attempt(delivery.pk)[0] == "failed"
    delivery.refresh_from_db()
    assert delivery.last_error == "address_loopback" and internal.requests == []


def test_the_send_connects_to_the_address_it_checked(league, internal, monkeypatch, settings):
    """The resolver answers public then loopback (a name that flips between lookups): the save sees
    the public one, the send's single lookup sees loopback and refuses; nothing resolves twice."""
    answers = iter([["93.184.215.14"], ["127.0.0.1"], ["93.184.215.14"]])
    asked = []

    def flip(host, port, *args, **kwargs):
        asked.append(host)
        addresses = next(answers)
        return [(2, 1, 6, "", (a, port)) for a in addresses]

    import socket

    monkeypatch.setattr(socket, "getaddrinfo", flip)
    _add(league, f"json://flip.example.net:{internal.port}/hook")
    delivery = _announce(league)
    assert services.delivery_attempt(delivery.pk)[0] == "failed"
    assert asked == ["flip.example.net", "flip.example.net"]  # the save's lookup, the send's: no third
    assert internal.requests == []


def test_a_checked_address_is_the_one_connected_to(league, internal, monkeypatch, settings):
    """With the operator's exception for loopback, a name resolving there is posted to: through
    the checked address, with the name as the Host."""
    settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    fake_dns(monkeypatch, {"hooks.example.net": ["127.0.0.1"]})
    _add(league, f"json://hooks.example.net:{internal.port}/hook")
    delivery = _announce(league)
    assert services.delivery_attempt(delivery.pk)[0] == "sent"
    [(method, path, headers, _body)] = internal.requests
    assert (method, path, headers["Host"]) == ("POST", "/hook", f"hooks.example.net:{internal.port}")


def test_a_channel_saved_before_the_rule_is_refused_at_send_time(league, internal):
    channel = LeagueChannel.objects.create(league=league, name="Old", url=f"xml://127.0.0.1:{internal.port}/")
    delivery = _announce(league)
    assert delivery.channel == f"league:{channel.pk}"
    assert services.delivery_attempt(delivery.pk)[0] == "failed"
    delivery.refresh_from_db()
    assert delivery.last_error.startswith("channel_address Only these channels") and internal.requests == []


def test_the_sends_page_says_why_in_words_not_what_answered(league, admin, internal, monkeypatch):
    fake_dns(monkeypatch, {"hooks.example.net": ["93.184.215.14"]})
    _add(league, f"json://hooks.example.net:{internal.port}/hook")
    fake_dns(monkeypatch, {"hooks.example.net": ["10.0.0.7"]})
    delivery = _announce(league)
    services.delivery_attempt(delivery.pk)
    client = Client()
    client.force_login(admin)
    page = client.get(f"/leagues/{league.slug}/notifications/").content.decode()
    assert "Not sent: the address leads to a private network address." in page
    assert "10.0.0.7" not in page and internal.requests == []
    # and the form says why when an admin adds one
    answer = client.post(
        f"/leagues/{league.slug}/notifications/",
        {"action": "channel_add", "name": "Metadata", "url": "json://169.254.169.254/"},
        follow=True,
    ).content.decode()
    assert "link-local address (such as a cloud metadata service)" in answer
    assert LeagueChannel.objects.filter(name="Metadata").count() == 0
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())


def test_a_redirect_to_an_internal_address_is_not_followed(league, internal, monkeypatch, settings):
    """A public webhook answering 307 to an internal name: the redirect opens a new connection,
    checked like the first, and nothing reaches the internal service."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(307)
            self.send_header("Location", f"http://intranet.example.net:{internal.port}/admin")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.2", 0), Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        settings.OUTBOUND_ALLOWED_NETWORKS = ["127.0.0.2/32"]  # the "public" webhook, for the test
        fake_dns(monkeypatch, {"hooks.example.net": ["127.0.0.2"], "intranet.example.net": ["127.0.0.1"]})
        _add(league, f"json://hooks.example.net:{server.server_address[1]}/hook")
        delivery = _announce(league)
        assert services.delivery_attempt(delivery.pk)[0] == "failed"
        delivery.refresh_from_db()
        assert delivery.last_error == "address_loopback" and internal.requests == []
    finally:
        server.shutdown()
        server.server_close()


def test_checking_a_channel_leaves_the_sites_email_encoding_alone(league, monkeypatch):
    """Apprise's e-mail plugin (loaded with the others) switches utf-8 headers to quoted-printable
    for the whole process; the site's own e-mails keep Python's encoding."""
    from email import charset

    fake_dns(monkeypatch, {"hooks.example.net": ["93.184.215.14"]})
    _add(league, "jsons://hooks.example.net/kyoku")
    assert charset.CHARSETS["utf-8"] == (charset.SHORTEST, charset.BASE64, "utf-8")

"""Nothing private stays on a shared phone (issue 47 §3), on the server's side: signed-in answers
say ``Cache-Control: private, no-store``; a logout, whatever view does it, answers
``Clear-Site-Data: "cache"`` with the page's signal to clear, forgets this browser's push
subscriptions, and keeps the table codes this phone entered; the service worker keeps no private
page."""

from __future__ import annotations

import pytest
from django.contrib.auth import logout
from django.test import Client, RequestFactory

from events import services
from events.services.tables import CODES_KEY
from notifications.models import PushSubscription
from notifications.shared_phone import KEPT_AT_LOGOUT, SIGNED_OUT_COOKIE
from tests.actors import make_user
from tests.events.conftest import event, field, in_play, rules, running  # noqa: F401  (fixtures)
from tests.outbound.helpers import fake_dns, push_keys


@pytest.fixture
def walker(db):
    return make_user("walker")


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("path", ["/me/", "/me/notifications/", "/", "/events/"])
def test_signed_in_pages_are_private_and_not_stored(walker, path):
    response = _signed_in(walker).get(path)
    assert response.status_code == 200 and response["Cache-Control"] == "private, no-store"


def test_anonymous_pages_and_static_files_are_left_as_they_were(db, walker):
    assert "no-store" not in Client().get("/events/").get("Cache-Control", "")
    client = _signed_in(walker)
    assert client.get("/sw.js")["Cache-Control"] == "no-cache"
    assert client.get("/manifest.webmanifest")["Cache-Control"] == "max-age=3600, public"


def test_logout_answers_clear_site_data_and_the_pages_signal(walker):
    client = _signed_in(walker)
    response = client.post("/accounts/logout/")
    assert response.status_code in (200, 302)
    assert response["Clear-Site-Data"] == '"cache"'  # not "storage": the table's outbox lives there
    assert response["Cache-Control"] == "private, no-store"
    assert response.cookies[SIGNED_OUT_COOKIE].value == "1"
    assert not response.cookies[SIGNED_OUT_COOKIE]["httponly"]  # the page's script reads it
    assert "_auth_user_id" not in client.session


def test_any_logout_view_works_the_signal_is_djangos(walker, rf: RequestFactory):
    """django.contrib.auth.logout itself (what allauth's view and Django's call) marks the request."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.http import HttpResponse

    from notifications.shared_phone import SharedPhoneMiddleware

    request = rf.post("/anywhere/")
    request.session = SessionStore()
    request.user = walker

    def view(req):
        logout(req)
        return HttpResponse("bye")

    response = SharedPhoneMiddleware(view)(request)
    assert response["Clear-Site-Data"] == '"cache"' and response.cookies[SIGNED_OUT_COOKIE].value == "1"


def test_logout_forgets_this_browsers_push_subscriptions_only(walker, monkeypatch):
    fake_dns(monkeypatch, {"push.example.net": ["93.184.215.14"]})
    here, elsewhere = _signed_in(walker), _signed_in(walker)
    api = "/api/me/push-subscriptions/"
    for client, endpoint in ((here, "https://push.example.net/here"), (elsewhere, "https://push.example.net/there")):
        body = {"endpoint": endpoint, "keys": push_keys()}
        assert client.post(api, body, content_type="application/json").status_code == 201
    here.post("/accounts/logout/")
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == ["https://push.example.net/there"]


def test_logout_keeps_the_table_codes_this_phone_entered(in_play, walker):  # noqa: F811
    assert KEPT_AT_LOGOUT == (CODES_KEY,)
    from league.models import Game

    game = Game.objects.filter(season=in_play.season, match_day=1).order_by("table").first()
    phone = _signed_in(walker)
    assert phone.post(f"/events/{in_play.pk}/code/", {"code": services.table_code(game)}).status_code == 302
    phone.post("/accounts/logout/")
    assert "_auth_user_id" not in phone.session
    assert phone.session[CODES_KEY] == {str(game.pk): services.table_code(game)}
    # the phone still acts for its table: its kept report goes through after the logout
    answer = phone.post(
        f"/api/events/tables/{game.pk}/report",
        {"scores": [48000, 32000, 12000, 8000], "seat": 0},
        content_type="application/json",
    )
    assert answer.status_code in (200, 201), answer.content


def test_the_service_worker_keeps_no_private_page(db):
    sw = Client().get("/sw.js").content.decode()
    assert 'const VERSION = "kyoku-v2"' in sw  # a new version: the old caches (with private pages) go
    pages = sw.split("const PAGES = ", 1)[1].split(";", 1)[0]
    assert "me\\/" not in pages and "scoring" not in pages
    assert "no-store|private" in sw

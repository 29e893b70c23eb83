"""One throttle (kyoku.throttle, issue 34 item 7): counters in the cache, a sliding window, one
table of limits; over the limit a 429 with Retry-After and words in the reader's language, as
JSON under /api/ and as a page elsewhere. Used by POST /api/settle (per address, per user) and
by every login (failures per address, whatever the usernames)."""

from __future__ import annotations

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from kyoku import throttle
from kyoku.throttle import LIMITS, Throttled, client_address, throttle_check, throttle_hit
from scoring import api as scoring_api
from tests.actors import make_user

RECORD = {"rules": "mleague", "game_end": {"scores": [43000, 30800, 16000, 10200], "deposits_left": 0}}


@pytest.fixture
def clock(monkeypatch):
    """A hand on the throttle's clock."""
    now = {"t": 1_000_000.0}
    monkeypatch.setattr(throttle.time, "time", lambda: now["t"])
    return now


def test_the_table_holds_the_buckets_others_call():
    assert {"table_code_client", "table_code_event", "settle_client", "settle_user", "login_client"} <= set(LIMITS)
    assert (LIMITS["table_code_client"].limit, LIMITS["table_code_client"].window) == (20, 600)
    assert (LIMITS["table_code_event"].limit, LIMITS["table_code_event"].window) == (200, 600)


def test_hits_up_to_the_limit_pass_and_the_next_is_throttled(clock):
    for _ in range(20):
        throttle_hit("table_code_client", "203.0.113.1")
    with pytest.raises(Throttled) as err:
        throttle_hit("table_code_client", "203.0.113.1")
    assert 1 <= err.value.retry_after <= 1200 and err.value.bucket == "table_code_client"
    throttle_hit("table_code_client", "203.0.113.2")  # another key has its own count
    throttle_hit("table_code_event", "event:1")  # and another bucket


def test_check_counts_nothing(clock):
    for _ in range(100):
        throttle_check("table_code_client", "203.0.113.1")
    for _ in range(20):
        throttle_hit("table_code_client", "203.0.113.1")
    with pytest.raises(Throttled):
        throttle_check("table_code_client", "203.0.113.1")


def test_the_window_slides(clock):
    """A burst at the end of one window still weighs on the start of the next; it fades out."""
    key = "198.51.100.1"
    clock["t"] = 600 * 2000 + 590  # the end of a window
    for _ in range(20):
        throttle_hit("table_code_client", key)
    clock["t"] += 20  # 10 s into the next window: the previous 20 still weigh 19.7
    with pytest.raises(Throttled) as err:
        throttle_check("table_code_client", key)
    clock["t"] += err.value.retry_after  # Retry-After is enough
    throttle_hit("table_code_client", key)
    clock["t"] += 1200  # two windows later nothing is left
    for _ in range(20):
        throttle_hit("table_code_client", key)


def test_settings_override_the_table(settings, clock):
    settings.THROTTLE_LIMITS = {"table_code_client": (2, 60)}
    throttle_hit("table_code_client", "k")
    throttle_hit("table_code_client", "k")
    with pytest.raises(Throttled) as err:
        throttle_hit("table_code_client", "k")
    assert err.value.retry_after <= 120


def test_an_unknown_bucket_is_a_programming_error():
    with pytest.raises(KeyError):
        throttle_hit("no_such_bucket", "k")


def test_a_cache_that_is_down_throttles_nothing(monkeypatch):
    class Down:
        def __getattr__(self, name):
            def fail(*args, **kwargs):
                raise ConnectionError("redis is down")

            return fail

    monkeypatch.setattr(throttle, "cache", Down())
    for _ in range(50):
        throttle_hit("table_code_client", "k")


def test_client_address_reads_the_proxy_header_only_behind_a_proxy(settings):
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 93.184.216.34")
    settings.BEHIND_PROXY = False
    assert client_address(request) == "10.0.0.1"
    settings.BEHIND_PROXY = True
    # the entry our proxy appended, not the one the client wrote
    assert client_address(request) == "93.184.216.34"
    settings.PROXY_COUNT = 2
    assert client_address(request) == "6.6.6.6"
    assert client_address(RequestFactory().get("/", REMOTE_ADDR="10.0.0.1")) == "10.0.0.1"


def test_axes_counts_the_same_address(settings):
    from axes.helpers import get_client_ip_address

    settings.BEHIND_PROXY = True
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="93.184.216.34")
    assert get_client_ip_address(request) == "93.184.216.34"


# ---------------------------------------------------------------- POST /api/settle


@pytest.mark.parametrize(
    "lang, words",
    [("en", "Too many requests"), ("zh-hant", "請求過多"), ("ja", "リクエストが多すぎます")],
)
def test_anonymous_settling_is_throttled_per_address(db, settings, lang, words):
    settings.THROTTLE_LIMITS = {"settle_client": (3, 60)}
    api = APIClient()
    for _ in range(3):
        assert api.post("/api/settle", RECORD, format="json", REMOTE_ADDR="203.0.113.5").status_code == 200
    response = api.post("/api/settle", RECORD, format="json", REMOTE_ADDR="203.0.113.5", HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 429
    assert 1 <= int(response["Retry-After"]) <= 120
    assert response.json()["code"] == "throttled" and words in response.json()["detail"]
    # another address is not affected
    assert api.post("/api/settle", RECORD, format="json", REMOTE_ADDR="198.51.100.5").status_code == 200


def test_logged_in_settling_counts_per_user_and_more_generously(db, settings):
    assert LIMITS["settle_user"].limit > LIMITS["settle_client"].limit
    settings.THROTTLE_LIMITS = {"settle_client": (2, 60), "settle_user": (4, 60)}
    user = make_user("settler")
    client = Client()
    client.force_login(user)
    codes = [client.post("/api/settle", RECORD, content_type="application/json").status_code for _ in range(5)]
    assert codes == [200, 200, 200, 200, 429]
    # a token counts as the same user
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=user)
    api = APIClient()
    response = api.post("/api/settle", RECORD, format="json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 429
    # an anonymous caller from the same address has its own (smaller) allowance
    assert APIClient().post("/api/settle", RECORD, format="json").status_code == 200


def test_a_list_of_records_is_bounded(db):
    api = APIClient()
    response = api.post("/api/settle", [RECORD] * (scoring_api.MAX_RECORDS + 1), format="json")
    assert response.status_code == 400
    body = response.json()
    assert "records" in body["errors"] and body["codes"]["records"] == ["records_too_many"]
    assert scoring_api.MAX_RECORDS == 500
    ok = api.post("/api/settle", [RECORD] * scoring_api.MAX_RECORDS, format="json")
    assert ok.status_code == 200 and len(ok.json()) == scoring_api.MAX_RECORDS


# ---------------------------------------------------------------- pages


def test_a_page_that_is_throttled_answers_the_429_page(db, rf):
    request = rf.get("/events/")
    request.LANGUAGE_CODE = "ja"
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    with translation.override("ja"):
        response = throttle.ThrottleMiddleware(lambda r: None).process_exception(request, Throttled(130, "x"))
    assert response.status_code == 429 and response["Retry-After"] == "130"
    html = response.content.decode()
    assert "429" in html and "3" in html and 'id="error-page"' in html
    assert "リクエストが多すぎます" in html


# ---------------------------------------------------------------- logins per address


def _login(client, path, username, password, addr):
    if path.startswith("/api/"):
        return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=addr)
    # the site's sign-in form (django-allauth) names its field "login"; Django admin's "username"
    field = "username" if path.startswith("/admin/") else "login"
    return client.post(path, {field: username, "password": password}, REMOTE_ADDR=addr)


@pytest.mark.parametrize("path", ["/accounts/login/", "/api/auth/token/", "/admin/login/"])
def test_sixty_usernames_from_one_address_are_throttled(db, path):
    """Django-axes counts each username and address pair; spreading the guesses over sixty
    usernames from one address meets the per-address limit (50 in 15 minutes)."""
    make_user("victim")
    client = Client()
    codes = [_login(client, path, f"user{i}", "wrong-password", "203.0.113.66").status_code for i in range(60)]
    assert 429 not in codes[: LIMITS["login_client"].limit]
    assert codes[-1] == 429
    refused = _login(client, path, "victim", "victim-pw-123", "203.0.113.66")
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "_auth_user_id" not in client.session
    if path.startswith("/api/"):
        assert refused["Content-Type"].startswith("application/json") and refused.json()["code"] == "throttled"
    else:
        assert 'id="error-page"' in refused.content.decode()
    # another address still logs in
    other = Client()
    ok = _login(other, path, "victim", "victim-pw-123", "198.51.100.66")
    assert ok.status_code in (200, 302)
    if path == "/accounts/login/":
        assert ok.status_code == 302 and other.session.get("_auth_user_id")
    if path.startswith("/api/"):
        assert "token" in ok.json()


def test_a_few_failures_do_not_count_against_other_users(db):
    make_user("victim")
    client = Client()
    for i in range(10):
        _login(client, reverse("login"), f"typo{i}", "nope", "203.0.113.67")
    assert _login(client, reverse("login"), "victim", "victim-pw-123", "203.0.113.67").status_code == 302

"""Issue 50 loose ends on the notification pages: the settings offer only what is sent to a person;
the inbox and the unsubscribe page speak the language the person chose."""

from __future__ import annotations

from django.test import Client

from kyoku.principals import SYSTEM
from notifications import services
from notifications.kinds import KINDS, PERSONAL_KINDS
from notifications.models import Preferences
from tests.actors import make_user

PARAMS = {"league": {"en": "Test League", "zh": "測試聯賽"}, "season": "2026 S1", "approved": True}


def _client(user, language="en"):
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_the_settings_offer_no_box_for_the_league_wide_announcements(db):
    reader = make_user("reader", email="reader@example.org")
    page = _client(reader).get("/me/notifications/settings/").content.decode()
    for code in ("seating_announced", "results_announced"):
        assert f'name="{code}:email"' not in page and f'name="{code}:push"' not in page
    assert ">Seating published<" not in page and ">Results recorded<" not in page
    # what is sent to a person keeps its boxes: a table's own seating and result, registration
    for code in ("seating_published", "result_recorded", "registration_open"):
        assert f'name="{code}:email"' in page and f'name="{code}:push"' in page
    assert page.count('type="checkbox"') == 2 * len(PERSONAL_KINDS) == 2 * (len(KINDS) - 2)


def test_no_person_is_sent_a_league_wide_announcement(db, league):
    reader = make_user("reader", email="reader@example.org")
    for code in ("seating_announced", "results_announced"):
        try:
            services.notification_send(kind=code, recipients=[reader], league=league, params={}, actor=SYSTEM)
        except ValueError:
            continue
        raise AssertionError(f"{code} was sent to a person")


def test_the_inbox_speaks_the_language_chosen_not_the_browsers(db, league):
    reader = make_user("reader", email="reader@example.org")
    services.preferences_set(user=reader, language="ja", actor=reader)
    services.notification_send(
        kind="application_decided", recipients=[reader], league=league, params=PARAMS, actor=SYSTEM
    )
    response = _client(reader, "zh-hant").get("/me/notifications/")
    page = response.content.decode()
    assert "自分の通知" in page and "資格申請が承認されました" in page
    assert "我的通知" not in page and "你的資格申請已獲批准" not in page
    assert response.headers["Content-Language"] == "ja"
    assert Preferences.objects.get(user=reader).language == "ja"  # the browser's language changes nothing


def test_the_inbox_follows_the_browser_until_a_language_is_chosen(db):
    reader = make_user("reader", email="reader@example.org")
    page = _client(reader, "zh-hant").get("/me/notifications/").content.decode()
    assert "我的通知" in page


def test_the_unsubscribe_page_speaks_the_language_chosen(db):
    reader = make_user("reader", email="reader@example.org")
    services.preferences_set(user=reader, language="zh-hant", actor=reader)
    token = services.unsubscribe_token(reader, "registration_open")
    browser = Client(HTTP_ACCEPT_LANGUAGE="ja")  # no login: the link's own person decides
    page = browser.get(f"/notifications/unsubscribe/?t={token}").content.decode()
    assert "停止接收這類電郵" in page and "このメールを停止" not in page

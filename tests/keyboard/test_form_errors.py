"""Screen readers and forms: each error tied to its field and announced.

A form that comes back with errors starts with one summary (``role="alert"``; the focus moves
there, tests/keyboard/test_flows.py) naming each field with its words and linking to it; each
field carries ``aria-invalid`` and ``aria-describedby`` to the element holding its words."""

import pytest
from django.test import Client

from league.models import GameResult
from tests.keyboard.dom import described_words, parse

pytestmark = pytest.mark.django_db


def test_result_entry_ties_each_error_to_its_field_and_sums_them_up(game, admin):
    client = Client()
    client.force_login(admin)
    response = client.post(
        f"/games/{game.pk}/result/",
        {"score_0": "43000", "score_1": "lots", "score_2": "16000", "score_3": "10200", "deposits_left": "0"},
    )
    assert response.status_code in (200, 400)
    assert not GameResult.objects.exists()
    doc = parse(response.content)
    summary = doc.by_id("result-form").find(cls="error-summary")
    assert summary is not None and summary["role"] == "alert" and summary["tabindex"] == "-1"
    bad = doc.find("input", name="score_1")
    assert bad["aria-invalid"] == "true"
    words = described_words(doc, bad)
    assert words  # the field's own error, in words
    assert words in summary.text()
    link = summary.find("a", href=f"#{bad['id']}")
    assert link is not None
    # the fields without a fault are not marked
    good = doc.find("input", name="score_0")
    assert good.get("aria-invalid") is None


def test_a_fault_of_the_whole_form_is_in_the_announced_summary(game, admin):
    client = Client()
    client.force_login(admin)
    response = client.post(
        f"/games/{game.pk}/result/",
        {"score_0": "43000", "score_1": "30800", "score_2": "16000", "score_3": "10000", "deposits_left": "0"},
    )
    assert not GameResult.objects.exists()
    doc = parse(response.content)
    summary = doc.find(cls="error-summary")
    assert summary is not None and summary["role"] == "alert"
    # the scores add up to 99,800, not 100,000: said once, in the summary at the form's top
    assert "99800" in summary.text().replace(",", "") or "100000" in summary.text().replace(",", "")


def test_sign_in_with_a_wrong_password_is_announced(admin):
    response = Client().post("/accounts/login/", {"login": "admin", "password": "not-the-password"})
    assert response.status_code == 200
    doc = parse(response.content)
    summary = doc.find(cls="error-summary")
    assert summary is not None and summary["role"] == "alert"
    assert "password" in summary.text().lower()


def test_a_form_laid_out_by_django_sums_up_its_errors_too(league, admin):
    """``form.as_p`` (here the director's new tournament) goes through the same summary."""
    client = Client()
    client.force_login(admin)
    response = client.post("/events/new/", {"name": ""})
    assert response.status_code in (200, 400)
    doc = parse(response.content)
    summary = doc.find(cls="error-summary")
    assert summary is not None and summary["role"] == "alert"
    name = doc.find("input", name="name")
    assert name["aria-invalid"] == "true"
    assert described_words(doc, name) in summary.text()


@pytest.mark.parametrize(
    "lang, words",
    [
        ("zh-hant", "尚未儲存任何內容：請更正下面標示的地方。"),
        ("ja", "何も保存されていません。下に示した箇所を直してください。"),
    ],
)
def test_the_summary_speaks_the_readers_language(admin, lang, words):
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).post("/accounts/login/", {"login": "admin", "password": "nope"})
    assert words in parse(response.content).find(cls="error-summary").text()

"""Shared Playwright set-up: Debian's Chromium, no browser download."""

import os
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connections

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed")


@contextmanager
def chromium_page():
    # Playwright's sync API runs an event loop in this thread; Django's ORM guard would refuse.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                page = browser.new_page()
                page.set_default_timeout(15000)
                yield page
            finally:
                browser.close()
                # queries made inside Playwright's context open a connection of their own there;
                # left open, it would still hold the test database when that is dropped
                connections.close_all()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def login(page, live_server, username, password):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=login]", username)  # django-allauth's form: a username or an email
    page.fill("input[name=password]", password)
    page.click("form.card button[type=submit]")
    page.wait_for_load_state()


def back_online(page) -> None:
    """Bring the page's browser back online and tell the page so.  Chromium may fire the page's
    own ``online`` event first, and its handler may send the outbox and reload before the event
    dispatched here runs: the reload then ends the evaluation, which is the same outcome."""
    from playwright.sync_api import Error as PlaywrightError

    page.context.set_offline(False)
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as exc:
        if "Execution context was destroyed" not in str(exc):
            raise

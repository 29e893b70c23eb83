"""The pages the accessibility checks visit, and how a browser visits them (tests/a11y, bench/a11y_all.py).

Pages are the routes the endpoint matrix walks (tests/routes.py, objects from tests/security/kinds.py
in the matrix world, as tests/i18n/test_zh_hant_pages.py reads them), each requested by every
principal the issue names: anonymous, the owning player, the league's referee, its admin and its
event director. What answers 200 with HTML is a *visit*. Each visit is rendered once by Django's
test client first, to learn the template that rendered it (``response.templates[0]``): the CI slice
checks each template once, the bench every visit in every language at both widths."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import cycle

from django.conf import settings
from django.test import Client
from django.urls import resolve

from tests.routes import declarations, route_url, named_routes

PRINCIPALS = ("anonymous", "owner", "referee", "admin", "director")
LANGUAGES = ("en", "zh-hant", "ja")
WIDTHS = (390, 1366)
HEIGHT = {390: 844, 1366: 900}
# a page that ends the session it is read in (allauth signs out whoever opens another login's
# email-confirmation link): read by the anonymous visitor only
LOGS_OUT = {"account_confirm_email"}
# never rendered as a page: the API, the language switch, files
# the page a refusal, a bad link or a missing page shows is checked too
SHOWN = {200, 400, 403, 404}
MISSING = ("not-found", "/no-such-page/")  # the 404 page
SKIP_PREFIXES = ("/api/", "/i18n/", "/favicon", "/static/", "/media/", "/admin/")


@dataclass(frozen=True)
class Visit:
    """One page as one principal sees it, and the template that rendered it."""

    name: str
    url: str
    principal: str
    template: str
    status: int = 200
    size: int = 0  # the page's length: the richest view of a template shows the most controls


@dataclass(frozen=True)
class Look:
    """A visit in a language at a width: one axe run."""

    visit: Visit
    language: str
    width: int

    @property
    def label(self) -> str:
        return f"{self.visit.principal} {self.language} {self.width}px {self.visit.name} {self.visit.url}"


@dataclass
class Sessions:
    """A logged-in session cookie per principal (anonymous has none)."""

    cookies: dict[str, str] = field(default_factory=dict)


def routes_pages(world) -> list[tuple[str, str]]:
    """(route name, URL) of every named route with a GET, its object built in the matrix world."""
    routes, factories = declarations()
    kinds: dict = {}
    for factory in factories:
        kinds.update(factory(world))
    pages = []
    for name, pattern in sorted(named_routes().items()):
        declared = routes.get(name)
        if not declared or declared.skip or "GET" not in declared.methods or ":" in name:
            continue
        if declared.obj and declared.obj not in kinds:
            continue
        url = route_url(kinds, name, pattern, declared)
        if not url.startswith(SKIP_PREFIXES):
            pages.append((name, url))
    return [*pages, MISSING]


def client_for(world, principal: str) -> Client:
    client = Client()
    if principal != "anonymous":
        client.force_login(getattr(world, principal))
    return client


def main_template(response) -> str | None:
    """The page's template: the first HTML one rendered (the others are what it extends and includes;
    a view may render a notification's text templates before its page)."""
    names = [t.name for t in getattr(response, "templates", []) or [] if getattr(t, "name", None)]
    pages = [n for n in names if n.endswith(".html") and not n.startswith(("includes/", "django/"))]
    return pages[0] if pages else None


def visits(world, pages: list[tuple[str, str]]) -> list[Visit]:
    """Every page each principal reads as HTML (200), with the template that rendered it."""
    found = []
    for principal in PRINCIPALS:
        client = client_for(world, principal)
        for name, url in pages:
            if principal != "anonymous" and name in LOGS_OUT:
                continue
            response = client.get(url)
            if response.status_code not in SHOWN or "text/html" not in response.get("Content-Type", ""):
                continue
            template = main_template(response)
            if template:
                found.append(Visit(name, url, principal, template, response.status_code, len(response.content)))
    return found


def one_per_template(found: list[Visit]) -> list[Look]:
    """The CI slice: each template once, in its richest view (the page a principal gets longest, with
    the forms a referee or an admin is shown); languages, widths and principals taken in turn so that
    each is seen (among views nearly as rich, the principal whose turn it is)."""
    by_template: dict[str, list[Visit]] = {}
    for visit in found:
        by_template.setdefault(visit.template, []).append(visit)
    looks = []
    turns = cycle([(lang, width) for width in WIDTHS for lang in LANGUAGES])
    principals = cycle(PRINCIPALS)
    for template in sorted(by_template):
        richest = max(v.size for v in by_template[template])
        options = sorted((v for v in by_template[template] if v.size >= 0.9 * richest), key=lambda v: -v.size)
        wanted = next(principals)
        visit = next((v for v in options if v.principal == wanted), options[0])
        language, width = next(turns)
        looks.append(Look(visit, language, width))
    return looks


def every_look(found: list[Visit]) -> list[Look]:
    """The whole matrix: every page read (200) in every language at every width; a refusal's or an
    error's page (403, 404 …) once per template and principal."""
    refusals, kept = set(), []
    for visit in found:
        if visit.status != 200:
            if (visit.template, visit.principal) in refusals:
                continue
            refusals.add((visit.template, visit.principal))
        kept.append(visit)
    return [Look(v, lang, width) for v in kept for lang in LANGUAGES for width in WIDTHS]


def session_cookie(world, principal: str) -> str | None:
    if principal == "anonymous":
        return None
    client = client_for(world, principal)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


# The demo crawl (tests/i18n's): links followed from the front page, each URL shape (numbers as #)
# visited twice at most; never an action, a download or the API.
SKIP_LINKS = re.compile(
    r"^/(api|static|media|i18n|admin|accounts/logout|accounts/confirm-email)/|\.(csv|ics|pdf|png|zip|xlsx)$"
    r"|/(download|export|print)"
)
HREF = re.compile(r'href="(/[^"#]*)"')
DEMO_LOGINS = {"anonymous": None, "owner": "player", "referee": "referee", "admin": "admin", "director": "director"}


def demo_client(principal: str) -> Client:
    from django.contrib.auth import get_user_model

    client = Client()
    if DEMO_LOGINS[principal]:
        client.force_login(get_user_model().objects.get(username=DEMO_LOGINS[principal]))
    return client


def demo_visits(limit: int = 300) -> list[Visit]:
    """The demo league as each principal reaches it by links from the front page."""
    found = []
    for principal in PRINCIPALS:
        client = demo_client(principal)
        queue, seen, shapes = ["/"], {"/"}, {}
        while queue and len(found) < limit * len(PRINCIPALS):
            url = queue.pop(0)
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            template = main_template(response)
            if template:
                name = resolve(url.split("?")[0]).url_name or url
                found.append(Visit(name, url, principal, template, 200, len(response.content)))
            for link in HREF.findall(response.content.decode()):
                link = link.replace("&amp;", "&")
                shape = re.sub(r"\d+", "#", link.split("?")[0])
                if link in seen or SKIP_LINKS.search(link) or shapes.get(shape, 0) >= 2:
                    continue
                seen.add(link)
                shapes[shape] = shapes.get(shape, 0) + 1
                queue.append(link)
    return found


def demo_session_cookie(principal: str) -> str | None:
    if not DEMO_LOGINS[principal]:
        return None
    return demo_client(principal).cookies[settings.SESSION_COOKIE_NAME].value

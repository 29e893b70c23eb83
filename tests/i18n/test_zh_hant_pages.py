"""Every page a user can reach, rendered in Traditional Chinese, shows no English left behind.

The URL conf is walked as the endpoint matrix does (tests/security/test_endpoint_matrix.py): every
named route with a GET declaration, its objects from the apps' ``matrix_objects`` in the matrix
world (two leagues, a season with results, a hand-by-hand game, penalties, incidents, a ruling, an
appeal, an application), requested as that league's admin, its referee and the owning player, in
zh-Hant. A page fails on
  (a) a msgid of locale/zh_Hant/LC_MESSAGES/django.po with an empty translation that is shown, and
  (b) a snake_case code (``false_win``, ``head_bump``) or a known English word of the interface
      (``SETTLEMENT``, ``retroactive``, ``Warning``, ``1st`` …) in the visible text.
User data (names, descriptions, reasons) is not interface text and is left out of the check.

The catalogue is compiled from the .po files and locale/glossary.d/*.json by ./scripts/i18n, which
the lead runs after merging; on a branch whose glossary has strings the .po does not hold yet, the
test says so and skips (run ./scripts/i18n locally to try it)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.test import Client
from django.urls import reverse

from tests.routes import declarations, named_routes
from tests.security.world import world_build

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "zh_Hant" / "LC_MESSAGES" / "django.po"
LANGUAGES = {"zh-hant": "zh_Hant", "ja": "ja"}  # the language a page is asked in → its catalogue
ACTORS = ("admin", "referee", "owner")
# Interface words that must never reach a Chinese page (codes, enum values, engine phases, the
# headers of the issue). Matched as whole words, case-sensitive where the case is the tell.
ENGLISH = [
    "SETTLEMENT", "DEAL", "PLAY", "retroactive", "announced", "Warning", "Yellow card", "Red card",
    "Point deduction", "Dead hand", "Chombo", "Slow play", "Late declaration", "False win", "Misdeal",
    "Offence", "Offences", "Sanction", "Penalty", "Penalties", "Winners", "Ruling", "Appeal", "Incident",
    "Referee", "Standings", "Season", "Division", "Player", "Players", "Points", "Status", "Reason",
    "1st", "2nd", "3rd", "4th", "ron", "tsumo", "Ron", "Tsumo", "draw", "accepted", "overridden",
    "pending", "upheld", "reversed", "open", "closed", "ruled", "appealed", "ms (retroactive)",
]
# Codes a page shows on purpose, as what the user types: the audit log's action filter names them.
ALLOWED = {"season-audit": {"game_result"}}
SNAKE = re.compile(r"(?<![\w/.@-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.@-])")


class _Text(HTMLParser):
    """The visible text of a page: no script, style, template, code or <option value> attributes."""
    # <pre> holds records shown as data (an audit row's JSON), <code> codes shown beside their names
    SKIP = {"script", "style", "template", "code", "noscript", "pre"}

    def __init__(self):
        super().__init__()
        self.parts, self.depth = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.depth += 1
        for name, value in attrs:
            if name in ("title", "placeholder", "aria-label") and value:
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if not self.depth and data.strip():
            self.parts.append(data.strip())


def visible_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return "\n".join(parser.parts)


def _po(catalogue_language: str = "zh_Hant"):
    return polib.pofile(str(ROOT / "locale" / catalogue_language / "LC_MESSAGES" / "django.po"))


def _glossary_keys() -> set[str]:
    keys = set()
    for path in sorted((ROOT / "locale" / "glossary.d").glob("*.json")):
        keys |= set(json.loads(path.read_text(encoding="utf-8")))
    return keys


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def catalogue(request):
    po = _po(LANGUAGES[request.param])
    po.language_code = request.param
    # a pgettext entry's glossary key is "<context>|<msgid>" (scripts/fill_translations.py)
    known = {e.msgid for e in po} | {f"{e.msgctxt}|{e.msgid}" for e in po if e.msgctxt}
    missing = sorted(k for k in _glossary_keys() if k not in known)
    if missing:
        pytest.fail(f"{len(missing)} glossary strings are not in django.po (e.g. {missing[0]!r}): "
                    "run ./scripts/i18n to regenerate the catalogues, and drop glossary entries no code uses")
    return po


def _user_data(world) -> list[str]:
    """Names and free text the users typed: not interface text."""
    from league.models import League, Player, QualificationTier, Season
    from referee.models import Appeal, Incident
    out = []
    out += [p.display_name for p in Player.objects.all()] + [lg.name for lg in League.objects.all()]
    out += [str(s) for s in Season.objects.all()] + [t.description for t in QualificationTier.objects.all()]
    out += [i.description for i in Incident.objects.all()] + [a.reason for a in Appeal.objects.all()]
    out += [u.username for u in (world.admin, world.referee, world.owner, world.other_player)]
    from league.models import QualificationApplication
    out += [a.account_id for a in QualificationApplication.objects.all()]  # online account names
    return sorted((x for x in out if x), key=len, reverse=True)


def _url(kinds: dict, name: str, pattern, declared) -> str:
    kwargs = dict(kinds[declared.obj]) if declared.obj else {}
    wanted = set(pattern.pattern.converters) | set(pattern.pattern.regex.groupindex)
    url = reverse(name, kwargs={k: v for k, v in kwargs.items() if k in wanted})
    parts = [q for q in ((declared.query or "").format(**kwargs), kwargs.get("?", "")) if q]
    return url + ("?" + "&".join(parts) if parts else "")


def _pages(world) -> list[tuple[str, str]]:
    routes, factories = declarations()
    kinds = {}
    for factory in factories:
        kinds.update(factory(world))
    named = named_routes()
    pages = []
    for name, pattern in sorted(named.items()):
        declared = routes.get(name)
        if not declared or declared.skip or "GET" not in declared.methods or ":" in name:
            continue
        if declared.obj and declared.obj not in kinds:
            continue
        url = _url(kinds, name, pattern, declared)
        if url.startswith(("/api/", "/i18n/", "/favicon", "/static/")):
            continue
        pages.append((name, url))
    return pages


def find_english(text: str, user_data: list[str]) -> list[str]:
    for item in user_data:
        text = text.replace(item, " ")
    found = sorted(set(SNAKE.findall(text)))
    for word in ENGLISH:
        if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text):
            found.append(word)
    return found


def test_the_checker_finds_what_the_issue_reported():
    text = visible_text("<p>false_win · SETTLEMENT · 0 ms (retroactive)</p><script>a_b</script><th>1st</th>")
    assert find_english(text, []) == ["false_win", "SETTLEMENT", "retroactive", "1st", "ms (retroactive)"]
    assert find_english(visible_text("<p>錯和 · 結算程序 · <code>false_win</code></p>"), []) == []


def _problems(catalogue) -> tuple[int, list[str]]:
    untranslated = {e.msgid for e in catalogue if not e.translated() and not e.obsolete and len(e.msgid) > 3}
    world = world_build()
    pages = list(_pages(world))  # once: the route factories create objects
    user_data = _user_data(world)  # after the factories: what they typed is user data too
    problems = []
    seen = 0
    for actor in ACTORS:
        client = Client()
        client.force_login(getattr(world, actor))
        client.post(reverse("set_language"), {"language": catalogue.language_code, "next": "/"})
        for name, url in pages:
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            seen += 1
            text = visible_text(response.content.decode())
            shown = sorted(m for m in untranslated if m in text)
            english = [w for w in find_english(text, user_data) if w not in ALLOWED.get(name, ())]
            if shown or english:
                problems.append(f"{actor} {name} {url}: untranslated {shown[:5]} english {english[:8]}")
    return seen, problems


@pytest.mark.django_db
def test_every_page_is_translated(catalogue):
    """In zh-Hant and in ja (the catalogue fixture runs once per language)."""
    seen, problems = _problems(catalogue)
    assert seen > 20, f"only {seen} pages rendered: the walk is broken"
    assert not problems, "\n" + "\n".join(problems)

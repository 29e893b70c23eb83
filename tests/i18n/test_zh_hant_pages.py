"""Every page a user can reach, rendered in Traditional Chinese and in Japanese, shows no English
left behind.

The URL conf is walked as the endpoint matrix does (tests/security/test_endpoint_matrix.py): every
named route with a GET declaration, its objects from ``tests/security/kinds.py`` in the matrix
world (two leagues, a season with results, a hand-by-hand game, penalties, incidents, a ruling, an
appeal, an application), requested as that league's admin, its referee and the owning player, in
zh-Hant and in ja; then the demo league (``seed_demo``, the README's database) is crawled from its
front page by link, as its admin, referee, player and an anonymous visitor, in both languages.
A page fails on
  (a) a msgid of locale/<lang>/LC_MESSAGES/django.po with an empty translation that is shown,
  (b) a snake_case code (``false_win``, ``head_bump``) or a known English word of the interface
      (``SETTLEMENT``, ``retroactive``, ``Warning``, ``1st`` …) in the visible text, and
  (c) any English word (three ASCII letters or more) in the visible text, titles and aria-labels
      that is not a proper name or abbreviation of the allow-list (Tenhou, WRC, EMA, CSV …).
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
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import resolve, reverse
from notifications.models import Preferences

from tests.routes import declarations, route_url, named_routes
from tests.security.world import world_build

ROOT = Path(__file__).resolve().parents[2]
LANGS = {"zh_Hant": "zh-hant", "ja": "ja"}  # catalogue directory → language code of set_language
ACTORS = ("admin", "referee", "owner")
# Interface words that must never reach a Chinese page (codes, enum values, engine phases, the
# headers of the issue). Matched as whole words, case-sensitive where the case is the tell.
ENGLISH = [
    "SETTLEMENT",
    "DEAL",
    "PLAY",
    "retroactive",
    "announced",
    "Warning",
    "Yellow card",
    "Red card",
    "Point deduction",
    "Dead hand",
    "Chombo",
    "Slow play",
    "Late declaration",
    "False win",
    "Misdeal",
    "Offence",
    "Offences",
    "Sanction",
    "Penalty",
    "Penalties",
    "Winners",
    "Ruling",
    "Appeal",
    "Incident",
    "Referee",
    "Standings",
    "Season",
    "Division",
    "Player",
    "Players",
    "Points",
    "Status",
    "Reason",
    "1st",
    "2nd",
    "3rd",
    "4th",
    "ron",
    "tsumo",
    "Ron",
    "Tsumo",
    "draw",
    "accepted",
    "overridden",
    "pending",
    "upheld",
    "reversed",
    "open",
    "closed",
    "ruled",
    "appealed",
    "ms (retroactive)",
]
# Codes a page shows on purpose, as what the user types: the audit log's action filter names them.
ALLOWED = {
    "season-audit": {"game_result", "hand", "penalty", "admin"},
    # the account form's examples: ranks and rooms are typed as the platforms' codes
    "me": {"celestial", "phoenix", "throne"},
    # a nation's ISO 3166 code, typed as the example shows it
    "event-desk": {"HKG"},
    "event-new": {"HKG"},
    # a league channel's address: Apprise (the library's name) and its URL scheme, typed as shown
    "notifications-league": {"Apprise", "tgram"},
}
SNAKE = re.compile(r"(?<![\w/.@-])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w/.@-])")
# An English word: three ASCII letters or more, not part of a URL, an e-mail, a file name or a code.
WORD = re.compile(r"(?<![\w/.@:#=&?-])[A-Za-z][A-Za-z'’]+[A-Za-z](?![\w/@-]|\.[a-z])")
# Proper names, abbreviations and units a Chinese or Japanese page writes in Latin letters.
PROPER = {
    "Kyoku",
    "Tenhou",
    "WRC",
    "EMA",
    "JPML",
    "League",
    "API",
    "CSV",
    "XLSX",
    "PDF",
    "JSON",
    "ZIP",
    "PNG",
    "JPEG",
    "IDs",
    "iCalendar",
    "ICS",
    "MiB",
    "KiB",
    "UTC",
    "URL",
    "HTTP",
    "HTTPS",
    "OpenAPI",
    "Swagger",
    "Elo",
    "TrueSkill",
    "Glicko",
    "Weng",
    "Lin",
    "Plackett",
    "Luce",
    "OWASP",
    "Mahjong",
    "Soul",
    "Riichi",
    "Zung",
    "Jung",
    "Pinyin",
    "English",  # the language chooser names each language in itself
    "OpenSkill",
    "XML",
    "mjlog",
    "zip",  # a library's name; file formats a form asks for
    "Sylvain",
    "Malbec",
    "pixiv",  # the WRC rule book's author and a site, cited on the rules page
    "ISO",
    "MERS",  # ISO 3166 nation codes, asked for by the EMA's ranking (MERS)
}


class _Text(HTMLParser):
    """The visible text of a page: no script, style, template, code or <option value> attributes."""

    # <pre> holds records shown as data (an audit row's JSON), <code> codes shown beside their names,
    # <textarea> the JSON an advanced user edits
    SKIP = {"script", "style", "template", "code", "noscript", "pre", "textarea"}

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


def _po(lang: str):
    return polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"))


def _glossary_keys() -> set[str]:
    keys = set()
    for path in sorted((ROOT / "locale" / "glossary.d").glob("*.json")):
        keys |= set(json.loads(path.read_text(encoding="utf-8")))
    return keys


@pytest.fixture(scope="module", params=sorted(LANGS))
def catalogue(request):
    po = _po(request.param)
    po.lang = request.param
    # a pgettext entry's glossary key is "<context>|<msgid>" (scripts/fill_translations.py)
    known = {e.msgid for e in po} | {f"{e.msgctxt}|{e.msgid}" for e in po if e.msgctxt}
    missing = sorted(k for k in _glossary_keys() if k not in known)
    if missing:
        pytest.fail(
            f"{len(missing)} glossary strings are not in {request.param}'s django.po (e.g. {missing[0]!r}): "
            "run ./scripts/i18n to regenerate the catalogues, and drop glossary entries no code uses"
        )
    return po


def _user_data(world) -> list[str]:
    """Names and free text the users typed: not interface text."""
    from kyoku.models import League
    from league.models import Player, QualificationTier, Season
    from referee.models import Appeal, Incident

    out = _name_parts()
    out += [p.display_name for p in Player.objects.all()] + [lg.name for lg in League.objects.all()]
    out += [str(s) for s in Season.objects.all()] + [t.description for t in QualificationTier.objects.all()]
    out += [i.description for i in Incident.objects.all()] + [a.reason for a in Appeal.objects.all()]
    out += [i.private_notes for i in Incident.objects.all()] + _venues_and_notes()
    out += [u.username for u in (world.admin, world.referee, world.owner, world.other_player)]
    from league.models import QualificationApplication

    out += [a.account_id for a in QualificationApplication.objects.all()]  # online account names
    return sorted((x for x in out if x), key=len, reverse=True)


def _name_parts() -> list[str]:
    """Each player's family and given name, stored or proposed (league.names): parts of a name."""
    from league.models import Player
    from league.names import name_parts_propose

    out = []
    for p in Player.objects.all():
        out += [p.family_name, p.given_name, *name_parts_propose(p.display_name, p.native_name)[:2]]
    # a part is user data where it stands alone (a table cell): cut out of the words around it, a
    # short one ("Ma", "Lee") would take letters of interface words too ("Malbec")
    return [Line(part) for part in out if part]


def _venues_and_notes() -> list[str]:
    """What admins, referees and players typed beside the names: venues, notes, reasons, account IDs."""
    from league.models import Player, QualificationApplication
    from matchdays.models import MatchDay
    from referee.models import Appeal, Ruling

    out = list(MatchDay.objects.values_list("venue", flat=True))
    out += [x for a in QualificationApplication.objects.all() for x in (a.note, a.reason)]
    out += list(Appeal.objects.values_list("decision_reason", flat=True))
    out += list(Ruling.objects.values_list("override_reason", flat=True))
    out += [x for p in Player.objects.all() for x in (p.tenhou_id, p.mahjong_soul_id)]
    from events import services as events
    from events.models import Event, Registration, TableReport
    from league.models import Game

    out += [x for e in Event.objects.all() for x in (e.name, e.venue)]
    out += [x for r in Registration.objects.all() for x in (r.team, r.nationality, r.ema_number)]
    out += list(TableReport.objects.values_list("dispute_note", flat=True))
    out += [events.table_code(g) for g in Game.objects.filter(season__kind="event")]  # printed on the signs
    return out


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
        url = route_url(kinds, name, pattern, declared)
        if url.startswith(("/api/", "/i18n/", "/favicon", "/static/")):
            continue
        pages.append((name, url))
    return pages


class Line(str):
    """User data that counts only as a whole line of the visible text (one element's text)."""


def _without_user_data(text: str, user_data: list[str]) -> str:
    lines = {item for item in user_data if isinstance(item, Line)}
    if lines:
        text = "\n".join(line for line in text.split("\n") if line not in lines)
    for item in user_data:
        if not isinstance(item, Line):
            text = text.replace(item, " ")
    return text


def find_english(text: str, user_data: list[str]) -> list[str]:
    text = _without_user_data(text, user_data)
    found = sorted(set(SNAKE.findall(text)))
    for word in ENGLISH:
        if re.search(rf"(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])", text):
            found.append(word)
    return found


def english_words(text: str, user_data: list[str]) -> list[str]:
    """Every English word left in the text (c): what is not user data nor an allowed proper name."""
    text = _without_user_data(text, user_data)
    return sorted({w for w in WORD.findall(text) if w not in PROPER})


def test_the_checker_finds_what_the_issue_reported():
    text = visible_text("<p>false_win · SETTLEMENT · 0 ms (retroactive)</p><script>a_b</script><th>1st</th>")
    assert find_english(text, []) == ["false_win", "SETTLEMENT", "retroactive", "1st", "ms (retroactive)"]
    assert find_english(visible_text("<p>錯和 · 結算程序 · <code>false_win</code></p>"), []) == []


def test_the_checker_finds_english_words_but_not_names_or_links():
    page = (
        '<p>和了者 Winner · 支払い Payments · 天鳳 Tenhou · WRC · CSV</p><a href="/x/" aria-label="Standings">'
        "順位表</a><p>M.League · kyoku.example.org · 2026 S1 · shot.png · #12</p><p>Mei Lin</p>"
    )
    assert english_words(visible_text(page), ["Mei Lin"]) == ["Payments", "Standings", "Winner"]
    assert english_words(visible_text("<p>第3局 · 親 東家(M1) · 3翻30符</p>"), ["M1"]) == []
    # a name's part counts as a name only where it stands alone, never inside an interface word
    assert english_words(visible_text("<td>Lee</td><td>Fleet</td><p>Lee Round</p>"), [Line("Lee")]) == [
        "Fleet",
        "Lee",
        "Round",
    ]


def _page_problems(catalogue, untranslated: set[str], html: str, user_data: list[str], name: str) -> list[str]:
    text = visible_text(html)
    shown = sorted(m for m in untranslated if m in text)
    english = [w for w in find_english(text, user_data) if w not in ALLOWED.get(name, ())]
    words = [w for w in english_words(text, user_data) if w not in ALLOWED.get(name, ())]
    if shown or english or words:
        lines = [line for line in text.splitlines() if set(english_words(line, user_data)) & set(words)]
        return [f"untranslated {shown[:5]} english {english[:8]} words {words[:12]} in {lines[:6]}"]
    return []


def _untranslated(catalogue) -> set[str]:
    return {e.msgid for e in catalogue if not e.translated() and not e.obsolete and len(e.msgid) > 3}


def _problems(catalogue) -> tuple[int, list[str]]:
    untranslated = _untranslated(catalogue)
    world = world_build()
    pages = list(_pages(world))  # once: the route factories create objects
    user_data = _user_data(world)  # after the factories: what they typed is user data too
    problems = []
    seen = 0
    for actor in ACTORS:
        client = Client()
        client.force_login(getattr(world, actor))
        client.post(reverse("set_language"), {"language": LANGS[catalogue.lang], "next": "/"})
        for name, url in pages:
            response = client.get(url)
            if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
                continue
            seen += 1
            for problem in _page_problems(catalogue, untranslated, response.content.decode(), user_data, name):
                problems.append(f"{actor} {name} {url}: {problem}")
    return seen, problems


@pytest.mark.django_db
def test_every_page_in_zh_hant_and_ja_is_translated(catalogue):
    seen, problems = _problems(catalogue)
    assert seen > 20, f"only {seen} pages rendered: the walk is broken"
    assert not problems, "\n" + "\n".join(problems)


# The demo crawl: links followed from the front page; each URL shape (numbers as #) visited twice
# at most, so 32 player pages cost two; never an action, a download or the API.
SKIP_LINKS = re.compile(
    r"^/(api|static|media|i18n|admin|accounts/logout)/|\.(csv|ics|pdf|png|zip)$|/(download|export|print)"
)
HREF = re.compile(r'href="(/[^"#]*)"')


def _demo_user_data() -> list[str]:
    from kyoku.models import League
    from league.models import Player, QualificationApplication, QualificationTier, Season
    from referee.models import Appeal, Incident

    out = [p.display_name for p in Player.objects.all()] + [p.native_name for p in Player.objects.all()]
    out += _name_parts()
    out += [lg.name for lg in League.objects.all()] + [str(s) for s in Season.objects.all()]
    out += [t.description for t in QualificationTier.objects.all()]
    out += [i.description for i in Incident.objects.all()] + [a.reason for a in Appeal.objects.all()]
    out += [i.private_notes for i in Incident.objects.all()] + _venues_and_notes()
    out += [a.account_id for a in QualificationApplication.objects.all()]
    out += list(get_user_model().objects.values_list("username", flat=True))
    return sorted((x for x in out if x), key=len, reverse=True)


def _crawl(client: Client, limit: int = 400) -> list[tuple[str, str]]:
    queue, seen, shapes, pages = ["/"], {"/"}, {}, []
    while queue and len(pages) < limit:
        url = queue.pop(0)
        response = client.get(url)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        body = response.content.decode()
        pages.append((url, body))
        for link in HREF.findall(body):
            link = link.replace("&amp;", "&")
            shape = re.sub(r"\d+", "#", link.split("?")[0])
            if link in seen or SKIP_LINKS.search(link) or shapes.get(shape, 0) >= 2:
                continue
            seen.add(link)
            shapes[shape] = shapes.get(shape, 0) + 1
            queue.append(link)
    return pages


@pytest.mark.django_db
def test_the_demo_league_reads_in_zh_hant_and_ja(catalogue, demo):
    untranslated = _untranslated(catalogue)
    user_data = _demo_user_data()
    users = get_user_model().objects
    problems, seen = [], 0
    for login in ("admin", "referee", "player", None):
        client = Client()
        if login:
            client.force_login(users.get(username=login))
            # the inbox speaks the language the login chose in its notification settings: the
            # crawl's login chooses the language read
            Preferences.objects.filter(user__username=login).update(language=LANGS[catalogue.lang])
        client.post(reverse("set_language"), {"language": LANGS[catalogue.lang], "next": "/"})
        for url, body in _crawl(client):
            seen += 1
            name = resolve(url.split("?")[0]).url_name or ""
            for problem in _page_problems(catalogue, untranslated, body, user_data, name):
                problems.append(f"{login or 'anonymous'} {url}: {problem}")
    assert seen > 60, f"only {seen} demo pages rendered: the crawl is broken"
    assert not problems, "\n" + "\n".join(problems)

"""A player's name in its parts as people write them (pure): which words are the family name, which
the given name, and in which order the person writes them. The EMA's result file asks for the
family ("last") and given ("first") name apart; the league has kept one display name.

``name_parts_propose`` only *proposes* a split: it is what the data migration writes for players
who existed before the parts did, and what the EMA file falls back on for a player whose parts are
blank. A director corrects it in the admin. It never invents a word: every word of the proposal is a
word of the name, and when the name gives no hint the proposal is the plain reading "given names,
then one family name" (the league's display names were written that way)."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

FAMILY_FIRST = "family_first"
GIVEN_FIRST = "given_first"

# Chinese two-character (compound) surnames, the common ones (陳大文 is 陳 + 大文; 歐陽大文 is 歐陽 + 大文).
COMPOUND_SURNAMES = frozenset(
    "歐陽 欧阳 司徒 上官 諸葛 诸葛 皇甫 尉遲 尉迟 公孫 公孙 東方 东方 夏侯 令狐 長孫 长孙 慕容 司馬 司马 端木 "
    "西門 西门 南宮 南宫 軒轅 轩辕 宇文 澹臺 澹台 万俟 聞人 闻人 鍾離 钟离 呼延 獨孤 独孤 申屠 太史 公冶 濮陽 濮阳".split()
)

# Hong Kong surnames as they are romanised (Cantonese, the Hong Kong government's spelling and its
# common variants): "Chan Tai Man" is Chan + Tai Man, written family first.
HK_SURNAMES = frozenset(
    """
    chan wong lee li cheung lau ng ho leung lam tsang yip ip tang chow chau fung cheng kwok ma mak siu tam
    yeung choi chu lo law hui tse kwan wu so au yu chung ngai poon lai chiu tong pang cheuk fong kong mok
    shum sham yuen kan koo kwong lui luk mui ngan pun sit suen sze szeto tsui tsoi yim fok fan chiang chong
    choy chui kok nip ou tso tung auyeung au-yeung seto
    """.split()
)

# Words that begin a family name in European names ("van Beethoven", "de la Cruz", "dos Santos").
PARTICLES = frozenset("de del della der di da das do dos du la le van von y e ter ten zu bin ibn al el".split())

# Letters that mark a Spanish or Portuguese name, whose people carry two family names.
IBERIAN_LETTERS = frozenset("áéíóúñãõçÁÉÍÓÚÑÃÕÇ")


@functools.lru_cache(maxsize=8192)  # a board names hundreds of players: look each letter up once
def _script(ch: str) -> str:
    """'han', 'kana', 'hangul' or 'other' for one character."""
    name = unicodedata.name(ch, "")
    if name.startswith(("CJK UNIFIED IDEOGRAPH", "CJK COMPATIBILITY IDEOGRAPH")):
        return "han"
    if name.startswith(("HIRAGANA", "KATAKANA")):
        return "kana"
    if name.startswith("HANGUL"):
        return "hangul"
    return "other"


def _east_asian(text: str) -> bool:
    letters = [ch for ch in text if not ch.isspace() and ch not in "・·.-"]
    return bool(letters) and all(_script(ch) != "other" for ch in letters)


def _han_split(word: str) -> tuple[str, str]:
    """A Chinese name written without a space: its surname (one character, or a compound of two)."""
    if len(word) >= 3 and word[:2] in COMPOUND_SURNAMES:
        return word[:2], word[2:]
    return word[:1], word[1:]


def _hk_surname(word: str) -> bool:
    return word.casefold() in HK_SURNAMES


def name_parts_propose(display_name: str, native_name: str = "") -> tuple[str, str, str]:
    """(family name, given name, name order) proposed for a name. See the module's docstring."""
    words = " ".join((display_name or "").split()).split(" ")
    words = [w for w in words if w]
    if not words:
        return "", "", GIVEN_FIRST
    name = " ".join(words)

    if _east_asian(name):
        if len(words) > 1:  # 山田 太郎, 陳 大文: the writer marked the family name with a space
            return words[0], " ".join(words[1:]), FAMILY_FIRST
        if all(_script(ch) == "han" for ch in name) and 2 <= len(name) <= 4:  # 陳大文, 歐陽大文
            family, given = _han_split(name)
            return family, given, FAMILY_FIRST
        return name, "", FAMILY_FIRST  # kana or a long run: no safe split, the whole as family name

    if len(words) == 1:
        return name, "", GIVEN_FIRST

    first, last = words[0], words[-1]
    # A romanised Cantonese name, family first: "Chan Tai Man", "Chan Tai-man", "Lee Ka Ho"
    # (a first word that is a Hong Kong surname, followed by a two-syllable given name).
    if _hk_surname(first) and (len(words) == 3 or (len(words) == 2 and "-" in last)):
        return first, " ".join(words[1:]), FAMILY_FIRST
    # "Peter Chan Tai Man": an English given name before the Cantonese name
    if len(words) == 4 and not _hk_surname(first) and _hk_surname(words[1]) and not _hk_surname(last):
        return words[1], " ".join([first, *words[2:]]), GIVEN_FIRST
    # A family name that begins with a particle: "Ludwig van Beethoven", "Juan de la Cruz"
    for i, word in enumerate(words[1:-1], start=1):
        if word.casefold() in PARTICLES:
            return " ".join(words[i:]), " ".join(words[:i]), GIVEN_FIRST
    # Spanish and Portuguese names carry two family names: "María José García López"
    if len(words) == 4 and any(ch in IBERIAN_LETTERS for ch in name):
        return " ".join(words[2:]), " ".join(words[:2]), GIVEN_FIRST
    return last, " ".join(words[:-1]), GIVEN_FIRST


def name_written(display_name: str, family: str, given: str, order: str) -> str:
    """A player's name as people write it, from the stored parts: family first ("Chan Tai Man",
    "山田 太郎", "陳大文": no space between East Asian characters) or given first ("María José García
    López"); the display name when no part is stored."""
    family, given = family.strip(), given.strip()
    if not family and not given:
        return display_name
    if not family or not given:
        return family or given
    first, second = (family, given) if order == FAMILY_FIRST else (given, family)
    joiner = "" if _east_asian(first[-1]) and _east_asian(second[0]) and order == FAMILY_FIRST else " "
    return f"{first}{joiner}{second}"


# ---------------------------------------------------------------------------------------------
# One person, one name on every page of a language (issue 50 §2; docs/names.md)
#
# The rule: a page in Chinese (zh-Hant) or Japanese prints a player's name in native script when
# the player has one; a page in English prints it in Latin script (romanised) when the player has
# one; otherwise a page prints whichever name the player has. ``player_display_name`` is the one
# place that decides; the template tag ``{% player_name p %}`` (league.templatetags.names) prints
# its answer, marked with the name's own language when that differs from the page's.

EAST_ASIAN_LANGUAGES = ("zh", "ja", "ko")

# Modern Hepburn syllables (a romanised Japanese name is made of nothing else): a Latin name made
# of them whose first word is no Hong Kong surname reads as Japanese ("Sato Haruki", "Suzuki Ren").
_HEPBURN = re.compile(
    r"(?:(?:[kgszdnhbpmr]|sh|ch|ts|ky|gy|ny|hy|by|py|my|ry|sh|j)?[aiueoāīūēō]|(?:[tdwy])[aeoāō]|ts[uū]|[tdf]u|fū|y[uū]|w[ao]|n)+"
)


def _is_east_asian_script(text: str) -> bool:
    return any(_script(ch) != "other" for ch in text)


def is_latin(text: str) -> bool:
    """Whether ``text`` holds letters and every one of them is a Latin letter (with or without
    marks: "María José" is Latin, "Ωmega", "陳大文" and "Chan 大文" are not)."""
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(_latin_letter(ch) for ch in letters)


@functools.lru_cache(maxsize=8192)
def _latin_letter(ch: str) -> bool:
    return "LATIN" in unicodedata.name(ch, "")


# Cantonese surnames whose romanisation is also a run of Hepburn syllables (beside HK_SURNAMES).
_CANTONESE_HEPBURN = frozenset("wan yau ko hung man to sin kei yan hon mo".split())


def _looks_japanese(latin: str) -> bool:
    words = [w for w in latin.casefold().replace("-", " ").split() if w]
    if not words or _hk_surname(words[0]) or words[0] in _CANTONESE_HEPBURN:
        return False
    if any("au" in w or "eu" in w for w in words):  # Cantonese (Yau, Leung), not Japanese
        return False
    return all(_HEPBURN.fullmatch(w) for w in words)


def name_language(name: str, latin_hint: str = "") -> str:
    """The language a name is written in, for a ``lang`` attribute: "en" for a Latin name; for an
    East Asian one "ja" when it holds kana, "ko" when it holds hangul, and for one in Han characters
    only "ja" when the person's romanised name reads as Japanese (``latin_hint``), else "zh-Hant"
    (the league's people are mostly Hong Kong's)."""
    if not _is_east_asian_script(name):
        return "en"
    scripts = {_script(ch) for ch in name}
    if "kana" in scripts:
        return "ja"
    if "hangul" in scripts:
        return "ko"
    return "ja" if latin_hint and _looks_japanese(latin_hint) else "zh-Hant"


def _field(player: Any, name: str) -> str:
    if isinstance(player, dict):
        return str(player.get(name) or "")
    return str(getattr(player, name, "") or "")


def player_latin_name(player: Any) -> str:
    """The player's name in Latin script: the display name when it is Latin, else the stored parts
    written in their order when they are Latin, else ""."""
    display = _field(player, "display_name")
    if is_latin(display):
        return display
    written = name_written(
        "", _field(player, "family_name"), _field(player, "given_name"), _field(player, "name_order")
    )
    return written if is_latin(written) else ""


def player_native_name(player: Any) -> str:
    """The player's name in native (East Asian) script: the native name, else the display name
    when it is written in it, else the stored parts written in their order when they are, else ""."""
    native = _field(player, "native_name")
    if native:
        return native
    display = _field(player, "display_name")
    if _is_east_asian_script(display):
        return display
    written = name_written(
        "", _field(player, "family_name"), _field(player, "given_name"), _field(player, "name_order")
    )
    return written if _is_east_asian_script(written) else ""


def page_reads_native(language: str | None) -> bool:
    """Whether a page in ``language`` prints names in native script (zh-Hant, ja: yes; en: no)."""
    return (language or "").lower().startswith(EAST_ASIAN_LANGUAGES)


def player_display_name(player: Any, language: str | None = None) -> str:
    """THE name of ``player`` on a page in ``language`` (the active language when None): native
    script on Chinese and Japanese pages when the player has one, Latin script on English pages
    when the player has one, otherwise whichever the player has. ``player`` is a Player or any
    object or dict with its name fields (display_name, native_name; family_name, given_name and
    name_order when the display name is not Latin)."""
    if language is None:
        from django.utils.translation import get_language

        language = get_language()
    latin, native = player_latin_name(player), player_native_name(player)
    first, second = (native, latin) if page_reads_native(language) else (latin, native)
    return first or second or _field(player, "display_name")


def player_name_language(player: Any, language: str | None = None) -> str:
    """The language of the name ``player_display_name`` gives (for its ``lang`` attribute)."""
    return name_language(player_display_name(player, language), player_latin_name(player))


class Name(str):
    """A name as ``player_name_for`` chose it: a plain string (JSON, CSV, sorting) that also knows
    its language (``.lang``), for the template tag's ``lang`` attribute."""

    lang: str = ""

    def __new__(cls, text: str, lang: str = "") -> Name:
        name = super().__new__(cls, text)
        name.lang = lang or name_language(text)
        return name

    def __reduce__(self) -> tuple:  # a cached board keeps the language too
        return (Name, (str(self), self.lang))


def player_name_for(player: Any, language: str | None = None) -> Name:
    """``player_display_name`` as a ``Name`` that knows its language. Decided once per name and
    language in the process (a pure function of the name's fields): a 300-player board names 300
    seats at every build, and the script checks cost more than the rest of the build."""
    if language is None:
        from django.utils.translation import get_language

        language = get_language()
    return _name_for(tuple(_field(player, f) for f in _NAME_INPUTS), language or "")


_NAME_INPUTS = ("display_name", "native_name", "family_name", "given_name", "name_order")


@functools.lru_cache(maxsize=16384)
def _name_for(fields: tuple[str, ...], language: str) -> Name:
    player = dict(zip(_NAME_INPUTS, fields))
    text = player_display_name(player, language)
    return Name(text, name_language(text, player_latin_name(player)))


NAME_FIELDS = ("display_name", "native_name", "family_name", "given_name", "name_order", "name_confirmed_at")


def names_of(player_ids: Any, language: str | None = None) -> dict[int, Name]:
    """``player_display_name`` for many players at once (one query): {player id: name}."""
    from .models import Player

    rows = Player.objects.filter(pk__in=list(player_ids)).values("pk", *NAME_FIELDS)
    return {row["pk"]: player_name_for(row, language) for row in rows}


# ---------------------------------------------------------------------------------------------
# The EMA's parts: Latin script only, and "confirmed" only when a person confirmed both parts

LATIN_STORED = "confirmed"  # Latin parts stored and confirmed by a person
LATIN_UNCONFIRMED = "unconfirmed"  # Latin parts stored, nobody confirmed them
LATIN_PROPOSED = "proposed"  # no Latin parts stored: proposed from the name in Latin script
LATIN_MISSING = "missing"  # no name in Latin script at all: the file leaves the name blank


def split_confirmable(family: str, given: str) -> bool:
    """A split may be confirmed only when both parts are written: setting the order of two empty
    parts confirms nothing."""
    return bool((family or "").strip()) and bool((given or "").strip())


def split_confirmed(player: Any) -> bool:
    """Whether ``player``'s split counts as confirmed: a person confirmed it (the stored moment)
    and both parts are written."""
    confirmed_at = player.get("name_confirmed_at") if isinstance(player, dict) else player.name_confirmed_at
    return confirmed_at is not None and split_confirmable(_field(player, "family_name"), _field(player, "given_name"))


def split_after_edit(changed: list[str], family: str, given: str) -> str | None:
    """What an edit does to the confirmation: "confirm" when the editor wrote a part and both
    parts are written (writing the parts is the explicit act); "unconfirm" when a part was cleared,
    only the order was set, or the name changed without its parts; None when no name moved."""
    if "family_name" in changed or "given_name" in changed:
        return "confirm" if split_confirmable(family, given) else "unconfirm"
    if any(f in changed for f in ("name_order", "display_name", "native_name")):
        return "unconfirm"
    return None


def latin_parts(player: Any) -> tuple[str, str, str]:
    """(family, given, source) as the EMA's file writes them, in Latin script only: the stored
    parts when they are Latin (confirmed or not), else the split proposed from the player's name
    in Latin script, else blank ("missing"). Never a part in native script."""
    family, given = _field(player, "family_name").strip(), _field(player, "given_name").strip()
    stored = [part for part in (family, given) if part]
    if stored and all(is_latin(part) for part in stored):
        return family, given, LATIN_STORED if split_confirmed(player) else LATIN_UNCONFIRMED
    latin = player_latin_name(player)
    if not latin:
        return "", "", LATIN_MISSING
    proposed_family, proposed_given, _order = name_parts_propose(latin)
    return proposed_family, proposed_given, LATIN_PROPOSED


def names_said(players: Any, separator: str = " · ") -> dict[str, str]:
    """Players' names joined, in each language a notification is read in ({"en", "zh", "ja"}, as
    notifications.rendering.pick reads a parameter): an email names each person as the reader's
    pages do."""
    players = list(players)
    return {
        key: separator.join(player_display_name(p, language) for p in players)
        for key, language in (("en", "en"), ("zh", "zh-hant"), ("ja", "ja"))
    }

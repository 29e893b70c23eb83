"""A player's name in its parts as people write them (pure): which words are the family name, which
the given name, and in which order the person writes them. The EMA's result file asks for the
family ("last") and given ("first") name apart; the league has kept one display name.

``name_parts_propose`` only *proposes* a split: it is what the data migration writes for players
who existed before the parts did, and what the EMA file falls back on for a player whose parts are
blank. A director corrects it in the admin. It never invents a word: every word of the proposal is a
word of the name, and when the name gives no hint the proposal is the plain reading "given names,
then one family name" (the league's display names were written that way)."""

from __future__ import annotations

import unicodedata

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

"""Parsing of the two Tenhou record formats (see the package docstring)."""

from __future__ import annotations

import hashlib
import json
import math
import re
import urllib.parse
from dataclasses import dataclass, field
from datetime import date
from typing import Any, cast
from xml.etree import ElementTree

from scoring.limits import MAX_HANDS as GAME_MAX_HANDS

# A real hanchan mjlog is ~20-60 kB; anything far beyond is not a game record.
MAX_BYTES = 2_000_000

# Lobby type bit flags of a Tenhou game (GO type=, the 4 hex digits of a log id).
FLAG_HUMAN = 0x01
FLAG_NO_RED = 0x02
FLAG_NO_KUITAN = 0x04
FLAG_HANCHAN = 0x08
FLAG_SANMA = 0x10
FLAG_TOKUJOU = 0x20
FLAG_FAST = 0x40
FLAG_JOUKYUU = 0x80

ROOMS = ("general", "upper", "special", "phoenix")  # 一般 < 上級 < 特上 < 鳳凰 (league.qualification.ROOMS)
ROOM_BY_DISP = {"般": "general", "上": "upper", "特": "special", "鳳": "phoenix"}

# RYUUKYOKU type= → the engine's abortive reason.
ABORTIVE = {
    "yao9": "nine_terminals",
    "kaze4": "four_winds",
    "reach4": "four_riichi",
    "kan4": "four_kans",
    "ron3": "triple_ron",
}
ABORTIVE_JSON = {
    "九種九牌": "nine_terminals",
    "四風連打": "four_winds",
    "四家立直": "four_riichi",
    "四槓散了": "four_kans",
    "三家和了": "triple_ron",
    # Mahjong Soul records as the converters write them (tensoul convert.js RUNES, Japanese and English)
    "四開槓": "four_kans",
    "三家和": "triple_ron",
    "Kyuushu Kyuuhai": "nine_terminals",
    "Suufon Renda": "four_winds",
    "Suucha Riichi": "four_riichi",
    "Suukaikan": "four_kans",
    "Sanchahou": "triple_ron",
    "Nine Terminal Abortion": "nine_terminals",
    "Four Wind Abortion": "four_winds",
    "Four Riichi Abortion": "four_riichi",
    "Four Kan Abortion": "four_kans",
    "Three Ron Abortion": "triple_ron",
}
EXHAUSTIVE_JSON = (
    "流局",
    "全員聴牌",
    "全員不聴",
    "流し満貫",
    "Ryuukyoku",
    "Exhaustive Draw",
    "Nagashi Mangan",
    "Mangan at Draw",
)
NAGASHI_JSON = ("流し満貫", "Nagashi Mangan", "Mangan at Draw")

# Mahjong Soul (雀魂) records converted to tenhou.net/6 JSON (tensoul and its kin): the room in the
# rule's disp and the title (Japanese, English or Chinese, as the converter's language), the mode,
# the players' ranks in "dan" and their account ids in "mjsoulId"; "ref" is the paipu id.
MS_ROOMS = {  # words → league.qualification.ROOMS["mahjongsoul"]
    "bronze": ("銅の間", "Bronze Room", "铜之间", "銅之間"),
    "silver": ("銀の間", "Silver Room", "银之间", "銀之間"),
    "gold": ("金の間", "Gold Room", "金之间", "金之間"),
    "jade": ("玉の間", "Jade Room", "玉之间", "玉之間"),
    "throne": ("王座の間", "Throne Room", "王座间", "王座之間", "王座之间"),
}
MS_MODES = {  # words → mode (a ranked room's name says "ranked" by itself)
    "ranked": ("段位戦", "段位场", "段位場", "Ranked Match"),
    "friendly": ("友人戦", "Friendly", "友人场", "友人場"),
    "tournament": ("大会戦", "Tournament", "Tounament", "比赛场", "比賽場"),
    "casual": ("交流の間", "Casual Match", "休闲", "休閒"),
}
MS_RANKS = {  # the rank's words (level_definition full names, jp / en / zh) → league.qualification.RANKS
    "novice": ("初心", "Novice"),
    "adept": ("雀士", "Adept"),
    "expert": ("雀傑", "雀杰", "Expert"),
    "master": ("雀豪", "Master"),
    "saint": ("雀聖", "雀圣", "Saint"),
    "celestial": ("魂天", "Celestial"),
}
MS_PAIPU = re.compile(r"^(\d{2})(\d{2})(\d{2})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
MS_PAO_WORDS = {"daisangen": ("大三元", "Big Three Dragons"), "daisuushii": ("大四喜", "Big Four Winds")}
LOG_ID = re.compile(r"^(\d{4})(\d{2})(\d{2})(\d{2})gm-([0-9a-f]{4})-")


class TenhouError(ValueError):
    """A record that cannot be imported. ``code`` is stable (the web layer translates it)."""

    def __init__(self, code: str, message: str, **params):
        super().__init__(message % params if params else message)
        self.code = code
        self.params = params


@dataclass
class TenhouHand:
    round: int  # 0 = East 1 … 7 = South 4
    honba: int
    sticks: int
    start: list[int]  # scores at the start of the hand, as the record states them
    riichi: list[int]  # seats whose riichi stick was paid this hand
    result: dict  # engine result
    deltas: list[int]  # the record's deltas, riichi sticks included as the engine counts them
    declaration_ron: bool = False  # a ron on the discarder's riichi declaration tile (its stick never paid)

    def record(self) -> dict:
        out: dict[str, Any] = {"result": self.result}
        if self.riichi:
            out["riichi"] = list(self.riichi)
        return out


@dataclass
class TenhouGame:
    format: str  # "mjlog" | "tenhou6" (a Mahjong Soul record is a tenhou6 with platform "mahjongsoul")
    names: list[str]
    lobby_type: int | None  # the GO type flags, when the record has them
    room: str | None  # general / upper / special / phoenix
    hanchan: bool
    log_id: str = ""
    played_on: date | None = None
    hands: list[TenhouHand] = field(default_factory=list)
    final_scores: list[int] | None = None
    final_points: list[float] | None = None
    wall_seed: str = ""  # mjlog <SHUFFLE seed>: Tenhou's wall generator seed for the game
    deals: list[str] = field(default_factory=list)  # per hand: the four dealt hands and the dora indicator
    platform: str = "tenhou"  # "tenhou" | "mahjongsoul" (league.qualification.RANKS)
    mode: str = ""  # Mahjong Soul: "ranked", "friendly", "tournament" or "casual"
    ranks: list[str] = field(default_factory=list)  # Mahjong Soul: each seat's rank key ("saint"), "" unknown
    account_ids: list[str] = field(default_factory=list)  # Mahjong Soul: each seat's account id, "" unknown

    def fingerprints(self) -> list[str]:
        """What identifies the game by its content, not its file: the wall seed, and each hand's
        deal. A copy with a name or a score edited keeps them all; a forger would have to change
        the seed and every deal, and such a record no longer describes the game Tenhou played."""
        keys = [f"seed:{_digest(self.wall_seed)}"] if self.wall_seed else []
        if self.platform == "mahjongsoul" and self.log_id:
            keys.append(f"paipu:{_digest(self.log_id)}")  # the platform's own id of the game
        return keys + [f"deal:{_digest(deal)}" for deal in self.deals if deal]

    def summary(self) -> dict:
        return {
            "format": self.format,
            "names": self.names,
            "lobby_type": self.lobby_type,
            "room": self.room,
            "hanchan": self.hanchan,
            "log_id": self.log_id,
            "played_on": self.played_on.isoformat() if self.played_on else None,
            "hands": len(self.hands),
            "final_scores": self.final_scores,
            "final_points": self.final_points,
            "platform": self.platform,
            "mode": self.mode,
            "ranks": self.ranks,
        }


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def room_of(flags: int) -> str:
    return ROOMS[(2 if flags & FLAG_TOKUJOU else 0) + (1 if flags & FLAG_JOUKYUU else 0)]


def _date_of(log_id: str) -> tuple[date | None, int | None]:
    m = LOG_ID.match(log_id or "")
    if not m:
        return None, None
    try:
        return date(int(m[1]), int(m[2]), int(m[3])), int(m[5], 16)
    except ValueError:
        return None, None


def parse_record(data: bytes | str, name: str = "") -> TenhouGame:
    """Parse one record (bytes of a .mjlog/.xml or a tenhou.net/6 .json). Raises TenhouError."""
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if len(data) > MAX_BYTES:
        raise TenhouError("too_large", "the record is larger than %(limit)s bytes", limit=MAX_BYTES)
    if data.startswith(b"\x1f\x8b"):
        data = _gunzip(data)  # Tenhou's own mjlog downloads are gzip-compressed
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TenhouError("format", "not a Tenhou record: the file is not UTF-8 text") from None
    if "\x00" in text:
        raise TenhouError("format", "not a Tenhou record: the file contains NUL bytes")
    stripped = text.lstrip("\ufeff \t\r\n")
    if not (stripped.startswith("<") or stripped.startswith("{")):
        raise TenhouError("format", "not a Tenhou record: expected mjlog XML or a tenhou.net/6 JSON log")
    try:
        game = _parse_mjlog(stripped, name) if stripped.startswith("<") else _parse_json(stripped, name)
    except TenhouError:
        raise
    except PARSE_FAULTS as exc:
        # The one error path: whatever a malformed record trips over inside the readers (a missing
        # attribute, '16²', a number of thousands of digits, NaN, nesting too deep) is a TenhouError.
        raise TenhouError(
            "malformed",
            "malformed record: %(detail)s",
            detail=type(exc).__name__ if isinstance(exc, RecursionError) else str(exc)[:120],
        ) from None
    if not game.hands:
        raise TenhouError("empty", "the record has no hands")
    game_sanity_check(game)
    return game


PARSE_FAULTS = (ValueError, TypeError, KeyError, IndexError, AttributeError, ArithmeticError, RecursionError)
MAX_HANDS = GAME_MAX_HANDS  # the bound every entry of hands uses (scoring.limits)
MAX_NAME = 64  # Tenhou names are at most 8 characters; a margin for other clients' exports
MAX_SCORE = 1_000_000  # no four-player game reaches this; larger figures are not a game
MAX_POINTS = 10_000.0


def game_sanity_check(game: TenhouGame) -> None:
    """Refuse what cannot be a real game, so nothing downstream works on absurd figures."""
    if len(game.hands) > MAX_HANDS:
        raise TenhouError(
            "too_many_hands",
            "the record has %(n)s hands; a game has at most %(limit)s",
            n=len(game.hands),
            limit=MAX_HANDS,
        )
    for seat, player in enumerate(game.names):
        if not isinstance(player, str) or len(player) > MAX_NAME:
            raise TenhouError(
                "name",
                "malformed record: the name of seat %(seat)s is longer than %(limit)s characters",
                seat=seat + 1,
                limit=MAX_NAME,
            )
        if any(ch in player for ch in "\x00") or any(0xD800 <= ord(ch) <= 0xDFFF or ord(ch) < 0x20 for ch in player):
            raise TenhouError(
                "name", "malformed record: the name of seat %(seat)s holds characters that are not text", seat=seat + 1
            )
    for i, hand in enumerate(game.hands):
        where = f"hand {i + 1}"
        if not 0 <= hand.honba <= i or not 0 <= hand.sticks <= 4 * (i + 1):
            raise TenhouError(
                "impossible",
                "malformed record: %(where)s has %(honba)s honba and %(sticks)s sticks " "after %(played)s hands",
                where=where,
                honba=hand.honba,
                sticks=hand.sticks,
                played=i,
            )
        if not 0 <= hand.round < 16:
            raise TenhouError(
                "impossible", "malformed record: %(where)s is round %(round)s", where=where, round=hand.round
            )
        figures = [*hand.start, *hand.deltas]
        if len(hand.start) != 4 or len(hand.deltas) != 4 or any(abs(x) > MAX_SCORE for x in figures):
            raise TenhouError("impossible", "malformed record: %(where)s has scores no game can have", where=where)
        if any(not 0 <= seat <= 3 for seat in hand.riichi):
            raise TenhouError("impossible", "malformed record: %(where)s names a seat that does not exist", where=where)
    if game.final_scores is not None and any(abs(x) > MAX_SCORE for x in game.final_scores):
        raise TenhouError("impossible", "malformed record: the final scores are no game's")
    if game.final_points is not None and any(not math.isfinite(p) or abs(p) > MAX_POINTS for p in game.final_points):
        raise TenhouError("impossible", "malformed record: the final points are not numbers")


def _gunzip(data: bytes) -> bytes:
    import zlib

    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(data, MAX_BYTES + 1)
    except zlib.error:
        raise TenhouError("format", "not a Tenhou record: a broken gzip file") from None
    if len(out) > MAX_BYTES or inflate.unconsumed_tail:
        raise TenhouError("too_large", "the record is larger than %(limit)s bytes", limit=MAX_BYTES)
    return out


def _ints(value: str | None, where: str) -> list[int]:
    try:
        return [int(x) for x in (value or "").split(",") if x != ""]
    except ValueError:
        raise TenhouError("malformed", "malformed record: %(where)s is not a list of numbers", where=where) from None


def _check_four(game_names: list, flags: int | None):
    if flags is not None and flags & FLAG_SANMA:
        raise TenhouError("sanma", "three-player records are not league games; only four-player records are imported")
    if len([n for n in game_names if n is not None]) != 4:
        raise TenhouError("sanma", "three-player records are not league games; only four-player records are imported")


# ------------------------------------------------------------------------------------ mjlog XML


def _parse_mjlog(text: str, name: str) -> TenhouGame:
    if "<!DOCTYPE" in text or "<!ENTITY" in text:
        raise TenhouError("format", "not a Tenhou record: XML with a document type is refused")
    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        raise TenhouError("format", "not a Tenhou record: the XML does not parse") from None
    if root.tag != "mjloggm":
        raise TenhouError("format", "not a Tenhou record: the XML root is not <mjloggm>")
    go = root.find("GO")
    flags = int(go.get("type", "0")) if go is not None and (go.get("type") or "").isdigit() else None
    un = root.find("UN")
    seats_named = [key for key in (un.keys() if un is not None else []) if re.fullmatch(r"n\d+", key)]
    if any(key not in ("n0", "n1", "n2", "n3") for key in seats_named):
        raise TenhouError("names", "the record names %(n)s players; a game has four", n=len(seats_named))
    names = [
        urllib.parse.unquote(un.get(f"n{i}") or "") if un is not None and un.get(f"n{i}") is not None else None
        for i in range(4)
    ]
    if un is not None and un.get("n3") == "":
        names[3] = None  # a three-player lobby writes an empty fourth name
    _check_four(names, flags)
    if flags is None:
        raise TenhouError("format", "not a Tenhou record: the lobby type (GO) is missing")
    game = TenhouGame("mjlog", cast(list[str], names), flags, room_of(flags), bool(flags & FLAG_HANCHAN))
    game.played_on, _ = _date_of(name)
    if game.played_on:
        matched = cast(re.Match, LOG_ID.match(name))  # _date_of found a date in it
        game.log_id = matched[0] + name[len(matched[0]) :].split(".")[0].split("&")[0]
    hand = None
    shuffle = root.find("SHUFFLE")
    game.wall_seed = (shuffle.get("seed") or "")[:4096] if shuffle is not None else ""
    for el in root:
        tag = el.tag
        if tag == "INIT":
            seed = _ints(el.get("seed"), "INIT seed")
            red = not flags & FLAG_NO_RED
            dealt = [
                ",".join(sorted((str(tile_code(t, red)) for t in _ints(el.get(f"hai{i}"), f"INIT hai{i}")), key=str))
                for i in range(4)
            ]
            game.deals.append("|".join(dealt) + f"|{tile_code(seed[5], red) if len(seed) > 5 else ''}")
            ten = _ints(el.get("ten"), "INIT ten")
            if len(seed) < 3 or len(ten) != 4:
                raise TenhouError("malformed", "malformed record: %(where)s", where="INIT")
            hand = TenhouHand(seed[0], seed[1], seed[2], [t * 100 for t in ten], [], {}, [0, 0, 0, 0])
        elif tag == "REACH" and el.get("step") == "2":
            _need(hand).riichi.append(int(el.get("who")))  # type: ignore[arg-type]  # None: a TypeError, a PARSE_FAULT
        elif tag == "AGARI":
            hand = _need(hand)
            _agari(hand, el)
            if not game.hands or game.hands[-1] is not hand:
                game.hands.append(hand)
        elif tag == "RYUUKYOKU":
            hand = _need(hand)
            _ryuukyoku(hand, el)
            game.hands.append(hand)
        if tag in ("AGARI", "RYUUKYOKU") and el.get("owari"):
            owari = (el.get("owari") or "").split(",")
            try:
                game.final_scores = [int(owari[i]) * 100 for i in (0, 2, 4, 6)]
                game.final_points = [float(owari[i]) for i in (1, 3, 5, 7)]
            except (ValueError, IndexError):
                raise TenhouError("malformed", "malformed record: %(where)s", where="owari") from None
    game.hanchan = game_length(game.hanchan, game.hands)
    return game


def _need(hand: TenhouHand | None) -> TenhouHand:
    if hand is None:
        raise TenhouError("malformed", "malformed record: %(where)s", where="an event before INIT")
    return hand


def _sc_deltas(el) -> list[int]:
    sc = _ints(el.get("sc"), "sc")
    if len(sc) != 8:
        raise TenhouError("malformed", "malformed record: %(where)s", where="sc")
    return [sc[1] * 100, sc[3] * 100, sc[5] * 100, sc[7] * 100]


def _agari(hand: TenhouHand, el) -> None:
    who, frm = int(el.get("who")), int(el.get("fromWho"))
    ten = _ints(el.get("ten"), "AGARI ten")
    yaku = _ints(el.get("yaku"), "AGARI yaku")
    yakuman = _ints(el.get("yakuman"), "AGARI yakuman")
    winner = {"seat": who}
    if yakuman:
        winner["yakuman"] = len(yakuman)
    else:
        winner["han"] = sum(yaku[1::2])
        winner["fu"] = ten[0]
    if el.get("paoWho") is not None:
        winner["pao"] = int(el.get("paoWho"))
    deltas = _sc_deltas(el)
    # A ron on the riichi discard: the stick was never paid (no REACH step 2), nothing to undo.
    if who == frm:
        hand.result = {"type": "tsumo", "winner": winner}
    elif hand.result.get("type") == "ron":
        hand.result["winners"].append(winner)
    else:
        hand.result = {"type": "ron", "from": frm, "winners": [winner]}
    first = len(hand.result.get("winners", [None])) == 1
    for s in range(4):
        hand.deltas[s] += deltas[s] - (1000 if first and s in hand.riichi else 0)


def _ryuukyoku(hand: TenhouHand, el) -> None:
    kind = el.get("type")
    if kind in ABORTIVE:
        hand.result = {"type": "abortive", "reason": ABORTIVE[kind]}
    elif kind in (None, "nm"):
        tenpai = [s for s in range(4) if el.get(f"hai{s}") is not None]
        hand.result = {"type": "draw", "tenpai": tenpai}
        if kind == "nm":
            # Nagashi mangan: the seats paid a mangan each; read them from the record's own deltas.
            d = _sc_deltas(el)
            hand.result = {"type": "draw", "tenpai": [], "nagashi": [s for s in range(4) if d[s] > 0]}
    else:
        raise TenhouError("malformed", "malformed record: %(where)s", where=f"RYUUKYOKU type={kind}")
    deltas = _sc_deltas(el)
    hand.deltas = [deltas[s] - (1000 if s in hand.riichi else 0) for s in range(4)]


# ----------------------------------------------------------------------------- tenhou.net/6 JSON

# The converters write the han in the parenthesis in their language: 飜 (Japanese), 番 (Chinese),
# Han (English); a yakuman yaku as (役満), (役滿) or (Yakuman).
HAN_WORDS = r"(?:飜|翻|番|[Hh]an)"
JSON_POINTS = re.compile(r"(\d+)\s*(?:符|[Ff]u)\s*(\d+)\s*" + HAN_WORDS)
JSON_YAKU = re.compile(r"(.+?)\s*[(（]\s*(?:(\d+)\s*" + HAN_WORDS + r"|(役満|役滿|[Yy]akuman))\s*[)）]")


def _parse_json(text: str, name: str) -> TenhouGame:
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise TenhouError("format", "not a Tenhou record: the JSON does not parse") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list) or not isinstance(doc.get("name"), list):
        raise TenhouError("format", 'not a Tenhou record: a tenhou.net/6 log has "name" and "log"')
    if len(doc["name"]) > 4:
        raise TenhouError("names", "the record names %(n)s players; a game has four", n=len(doc["name"]))
    names = [n if isinstance(n, str) and n != "" else None for n in doc["name"]][:4]
    names += [None] * (4 - len(names))
    for i, kyoku in enumerate(doc["log"]):
        _json_tiles(kyoku, i)
    rule = doc["rule"] if isinstance(doc.get("rule"), dict) else {}
    disp = rule["disp"] if isinstance(rule.get("disp"), str) else ""
    log_id = doc["ref"] if isinstance(doc.get("ref"), str) else name
    played_on, flags = _date_of(log_id)
    soul = _mahjong_soul(doc, disp, log_id)
    if soul is not None:
        return _parse_mahjong_soul(doc, names, disp, soul)
    if disp.startswith("三"):
        raise TenhouError("sanma", "three-player records are not league games; only four-player records are imported")
    _check_four(names, flags)
    room: str | None
    label: bool | None
    if flags is not None:
        room, label = room_of(flags), bool(flags & FLAG_HANCHAN)
    else:
        room = next((r for ch, r in ROOM_BY_DISP.items() if ch in disp[:2]), None)
        label = True if "南" in disp else False if "東" in disp else None
    game = TenhouGame(
        "tenhou6", cast(list[str], names), flags, room, bool(label), log_id if played_on else "", played_on
    )
    for i, kyoku in enumerate(doc["log"]):
        game.hands.append(_json_hand(kyoku, i))
        game.deals.append(_json_deal(kyoku))
    game.hanchan = game_length(label, game.hands)
    _json_even_draws(game.hands)
    sc = doc.get("sc")
    if isinstance(sc, list) and len(sc) == 8 and all(isinstance(x, (int, float)) for x in sc):
        game.final_scores = [int(sc[i]) for i in (0, 2, 4, 6)]
        game.final_points = [float(sc[i]) for i in (1, 3, 5, 7)]
    return game


def _mahjong_soul(doc: dict, disp: str, log_id: str) -> str | None:
    """The paipu id ("" when the record has none) when the log was converted from Mahjong Soul,
    else None: its paipu id in ref, its account ids, or its room, mode or ranks in words."""
    paipu = log_id.strip() if isinstance(log_id, str) else ""
    paipu = paipu.split("_")[0]  # a shared link's "_a<account>" tail is not part of the game's id
    title = doc.get("title")
    words = disp + " " + (title[0] if isinstance(title, list) and title and isinstance(title[0], str) else "")
    dan = _list(doc, "dan")
    if (
        MS_PAIPU.match(paipu)
        or "mjsoulId" in doc
        or any(w in words for group in (*MS_ROOMS.values(), *MS_MODES.values()) for w in group)
        or any(isinstance(d, str) and _ms_rank(d) for d in dan)
    ):
        return paipu if MS_PAIPU.match(paipu) else ""
    return None


def _list(doc: dict, key: str) -> list:
    value = doc.get(key)
    return value if isinstance(value, list) else []


def _ms_rank(text: str) -> str:
    return next((key for key, words in MS_RANKS.items() if any(text.startswith(w) for w in words)), "")


def _parse_mahjong_soul(doc: dict, names: list, disp: str, paipu: str) -> TenhouGame:
    """A Mahjong Soul game in tenhou.net/6 JSON: the hands read as Tenhou's, the room, mode, length
    and ranks from the converter's words, the date from the paipu id (YYMMDD-uuid)."""
    if (
        len([n for n in names if n is not None]) != 4
        or disp.startswith("3")
        or disp.startswith("三")
        or (doc.get("ratingc") == "PF3")
    ):
        raise TenhouError("sanma", "three-player records are not league games; only four-player records are imported")
    title = doc.get("title")
    words = disp + " " + (title[0] if isinstance(title, list) and title and isinstance(title[0], str) else "")
    room = next((key for key, group in MS_ROOMS.items() if any(w in words for w in group)), None)
    mode = "ranked" if room else next((key for key, group in MS_MODES.items() if any(w in words for w in group)), "")
    label = True if ("南" in disp or "South" in disp) else False if ("東" in disp or "East" in disp) else None
    played_on = None
    m = MS_PAIPU.match(paipu)
    if m:
        try:
            played_on = date(2000 + int(m[1]), int(m[2]), int(m[3]))
        except ValueError:
            raise TenhouError("malformed", "malformed record: %(where)s", where="ref") from None
    game = TenhouGame("tenhou6", cast(list[str], names), None, room, bool(label), paipu, played_on)
    game.platform, game.mode = "mahjongsoul", mode
    dan = _list(doc, "dan")
    game.ranks = [(_ms_rank(d) if isinstance(d, str) else "") for d in dan[:4]] + [""] * (4 - len(dan[:4]))
    ids = _list(doc, "mjsoulId")
    game.account_ids = [
        str(i)
        if isinstance(i, (int, str)) and not isinstance(i, bool) and str(i).isdigit() and len(str(i)) <= 20
        else ""
        for i in ids[:4]
    ] + [""] * (4 - len(ids[:4]))
    for i, kyoku in enumerate(doc["log"]):
        hand = _json_hand(kyoku, i)
        _ms_yakuman(hand, kyoku, i)
        game.hands.append(hand)
        game.deals.append(_json_deal(kyoku))
    game.hanchan = game_length(label, game.hands)
    _json_even_draws(game.hands)
    converted = [list(hand.deltas) for hand in game.hands]
    # What each hand paid is what the scores say: the next hand's start minus this one's. The
    # converter's own deltas count a riichi stick when the declaration tile is ronned (tensoul
    # convert.js adds 1,000 per declaration, kyoku.nriichi, before the ron undoes it), so they can
    # disagree with the platform's scores; the scores are the platform's.
    for hand, after in zip(game.hands, game.hands[1:]):
        hand.deltas = [b - a for a, b in zip(hand.start, after.start)]
    sc = doc.get("sc")
    if (
        isinstance(sc, list)
        and len(sc) == 8
        and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in sc)
    ):
        game.final_scores = [int(sc[i]) for i in (0, 2, 4, 6)]
        game.final_points = [float(sc[i]) for i in (1, 3, 5, 7)]
        last = game.hands[-1] if game.hands else None
        if last is not None and last.result.get("type") in ("ron", "tsumo"):
            # the last hand's win takes every stick, so the final scores are what it paid
            last.deltas = [b - a for a, b in zip(last.start, game.final_scores)]
    _ms_payments_check(game, converted)
    return game


EXTENSION_TARGET = 30_000  # an east game goes on into South (南入) while nobody holds this many points


def game_length(label: bool | None, hands: list[TenhouHand]) -> bool:
    """Whether the game is a hanchan, read from the hands the record holds as well as its label
    (東/南, the lobby flags): a game that reaches South is a hanchan, unless it is an east game's
    extension (南入: after East 4 nobody held 30,000, and it never goes past South); an east label
    on a game that went on into South without that reason is refused, in words."""
    south = next((hand for hand in hands if hand.round >= 4), None)
    if label is True:
        return True  # a hanchan may end in East (a player busts)
    if south is None:
        if label is None:
            raise TenhouError("length", "the record does not say whether it is a hanchan or an east game")
        return False
    extension = all(hand.round < 8 for hand in hands) and all(s < EXTENSION_TARGET for s in south.start)
    if label is False and not extension:
        raise TenhouError(
            "length_label",
            "the record is labelled an east game but holds %(where)s, played after a player reached 30,000",
            round=south.round,
            honba=south.honba,
            where=f"round {south.round} ({south.honba} honba)",
        )
    return label is None


def _ms_payments_check(game: TenhouGame, converted: list[list[int]]) -> None:
    """Each hand's payments as the converter wrote them must be what the scores say it paid (the
    next hand's start minus this one's; the final scores for the last hand). Two differences are
    the platform's, not the record's: the converter's riichi-stick quirk (a ron on the discarder's
    riichi declaration tile: the converter counts the declaration's stick for the winner who takes
    the sticks, the scores do not, as the stick was never paid), and the sticks left on the table
    at the end, which the first place takes."""
    for i, hand in enumerate(game.hands):
        after = game.hands[i + 1].start if i + 1 < len(game.hands) else game.final_scores
        if after is None:
            continue
        moved = [b - a for a, b in zip(hand.start, after)]
        diff = [c - m for c, m in zip(converted[i], moved)]
        if not any(diff) or _riichi_stick_quirk(hand, diff) or _sticks_left(game, hand, i, diff):
            continue
        raise TenhouError(
            "deltas",
            "hand %(hand)s pays %(paid)s, but the scores move by %(moved)s",
            hand=i + 1,
            round=hand.round,
            honba=hand.honba,
            paid=_signed([d + (1000 if s in hand.riichi else 0) for s, d in enumerate(converted[i])]),
            moved=_signed([m + (1000 if s in hand.riichi else 0) for s, m in enumerate(moved)]),
        )


def _riichi_stick_quirk(hand: TenhouHand, diff: list[int]) -> bool:
    """tensoul convert.js counts kyoku.nriichi (+1 at the declaration) in the ron's stick payment;
    when the declaration tile itself is ronned Mahjong Soul never takes the stick."""
    if not hand.declaration_ron or hand.result.get("type") != "ron":
        return False
    taker = hand.result["winners"][0]["seat"]
    return diff == [1000 if s == taker else 0 for s in range(4)]


def _sticks_left(game: TenhouGame, hand: TenhouHand, i: int, diff: list[int]) -> bool:
    """The last hand, not won: the sticks still on the table go to the first place."""
    if i + 1 < len(game.hands) or hand.result.get("type") in ("ron", "tsumo") or game.final_scores is None:
        return False
    final = game.final_scores
    left = 1000 * (hand.sticks + len(hand.riichi))
    top = max(range(4), key=lambda s: (final[s], -s))  # ties: the seat nearer East
    return left > 0 and diff == [-left if s == top else 0 for s in range(4)]


def _signed(figures: list[int]) -> str:
    return " / ".join(f"{x:+,}" for x in figures)


TILES = frozenset([*range(11, 20), *range(21, 30), *range(31, 40), *range(41, 48), 51, 52, 53])
TSUMOGIRI = 60  # a discard of the tile just drawn
KAN_SLOT = 0  # the discard a daiminkan leaves
MELD = re.compile(r"((?:\d\d)*)([cpmka])((?:\d\d)+)")
MELD_SIZE = {"c": 3, "p": 3, "m": 4, "k": 4, "a": 4}


def _json_tiles(kyoku: Any, i: int) -> None:
    """Every tile of a hand is a tenhou.net/6 code (11–19, 21–29, 31–39, 41–47, red fives 51–53);
    a discard may be 60 (the tile just drawn), 0 (after an open kan) or "r" before either (riichi);
    calls are their tiles with one letter (c chi, p pon, m open kan in draws; k added kan, a closed
    kan in discards)."""
    if not isinstance(kyoku, list) or len(kyoku) < 17:
        return  # the hand reader says what is missing
    slots = [(2, "dora"), (3, "ura"), *((4 + 3 * s, "deal") for s in range(4))]
    slots += [(5 + 3 * s, "draws") for s in range(4)] + [(6 + 3 * s, "discards") for s in range(4)]
    for index, kind in slots:
        tiles = kyoku[index]
        if not isinstance(tiles, list):
            continue
        for tile in tiles:
            if not _tile_ok(tile, kind):
                raise TenhouError(
                    "tile", "hand %(hand)s holds %(tile)s, which is no tile", hand=i + 1, tile=str(tile)[:24]
                )


def _tile_ok(tile: Any, kind: str) -> bool:
    if isinstance(tile, bool):
        return False
    if isinstance(tile, int):
        return tile in TILES or (kind == "discards" and tile in (TSUMOGIRI, KAN_SLOT))
    if not isinstance(tile, str) or kind not in ("draws", "discards"):
        return False
    if len(tile) > 12:
        return False
    if kind == "discards" and tile.startswith("r") and tile[1:].isdigit() and tile[1:].isascii():
        return int(tile[1:]) in TILES or int(tile[1:]) == TSUMOGIRI
    m = MELD.fullmatch(tile)
    if not m or (m[2] in "cpm") != (kind == "draws"):
        return False
    codes = [int(x) for x in re.findall(r"\d\d", m[1] + m[3])]
    return len(codes) == MELD_SIZE[m[2]] and all(c in TILES for c in codes)


MS_POINTS = re.compile(r"(?:役満|役滿)\s*(\d+)(?:-(\d+))?点|Yakuman\s*(\d+)(?:-(\d+))?")


def _ms_yakuman(hand: TenhouHand, kyoku: list, i: int) -> None:
    """Mahjong Soul pays a double yakuman (and stacked yakuman) as multiples, and the converter
    writes each yakuman yaku as "(役満)" whatever its worth: the multiple is read from the figure
    paid (a non-dealer's ron of 64,000 is two yakuman), not by counting the yaku."""
    end = kyoku[16]
    if not end or end[0] != "和了":
        return
    winners = hand.result.get("winners") or ([hand.result["winner"]] if "winner" in hand.result else [])
    infos = [end[k + 1] for k in range(1, len(end) - 1, 2)]
    dealer = hand.round % 4
    for winner, info in zip(winners, infos):
        if "yakuman" not in winner:
            continue
        texts = [t for t in info[3:] if isinstance(t, str)]
        m = MS_POINTS.search(texts[0]) if texts else None
        if not m:
            continue
        first, second = int(m[1] or m[3]), m[2] or m[4]
        tsumo = hand.result["type"] == "tsumo"
        if tsumo and second:  # a non-dealer's tsumo: "non-dealers-dealer点"
            multiple, rest = divmod(int(second), 16000)
        elif tsumo:  # the dealer's tsumo: "each点∀"
            multiple, rest = divmod(first, 16000)
        else:
            multiple, rest = divmod(first, 48000 if winner["seat"] == dealer else 32000)
        if rest or not 1 <= multiple <= 6:
            raise TenhouError("malformed", "malformed record: %(where)s", where=f"log[{i}] yakuman {texts[0][:40]!r}")
        winner["yakuman"] = multiple
        if "pao" in winner:
            # the liable player answers for the yakuman it fed only (tensoul convert.js: liablefor
            # sums the value of daisangen / daisuushii, the latter a double yakuman on Mahjong Soul)
            liable = sum(
                2 if any(w in t for w in MS_PAO_WORDS["daisuushii"]) else 1
                for t in texts[1:]
                if any(w in t for words in MS_PAO_WORDS.values() for w in words)
            )
            if 0 < liable < multiple:
                winner["pao_yakuman"] = liable


RED_FIVES = {16: 51, 52: 52, 88: 53}  # mjlog tile ids of the red fives → tenhou.net/6 codes


def tile_code(tile_id: int, red: bool = True) -> int:
    """An mjlog tile id (0–135) as the tenhou.net/6 code (11–47, red fives 51–53), so one game's
    deal reads the same in both formats."""
    if not 0 <= tile_id < 136:
        raise TenhouError("malformed", "malformed record: %(where)s", where=f"tile {tile_id}")
    if red and tile_id in RED_FIVES:
        return RED_FIVES[tile_id]
    kind = tile_id // 4
    return (kind // 9 + 1) * 10 + kind % 9 + 1


def _json_deal(kyoku) -> str:
    """The hand's four dealt hands (sorted) and first dora indicator, as in the mjlog's INIT."""
    hands = "|".join(",".join(str(t) for t in sorted(kyoku[k], key=str)) for k in (4, 7, 10, 13))
    return f"{hands}|{kyoku[2][0] if kyoku[2] else ''}"


def _json_hand(kyoku, i: int) -> TenhouHand:
    where = f"log[{i}]"
    try:
        head, start, end = kyoku[0], kyoku[1], kyoku[16]
        rnd, honba, sticks = (int(x) for x in head)
        start = [int(x) for x in start]
        discards = [kyoku[6], kyoku[9], kyoku[12], kyoku[15]]
        kind = end[0]
    except (TypeError, ValueError, IndexError, KeyError):
        raise TenhouError("malformed", "malformed record: %(where)s", where=where) from None
    if len(start) != 4:
        raise TenhouError("malformed", "malformed record: %(where)s", where=where)
    declared = [s for s in range(4) if any(isinstance(d, str) and d.startswith("r") for d in discards[s])]
    hand = TenhouHand(rnd, honba, sticks, start, declared, {}, [0, 0, 0, 0])
    try:
        if kind == "和了":
            _json_agari(hand, end[1:], discards)
        elif kind in ABORTIVE_JSON:
            hand.result = {"type": "abortive", "reason": ABORTIVE_JSON[kind]}
        elif kind in EXHAUSTIVE_JSON:
            deltas = [int(x) for x in end[1]] if len(end) > 1 else [0, 0, 0, 0]
            # Ready seats gain on a split draw; all or none ready move nothing.
            if kind == "全員聴牌":
                tenpai = [0, 1, 2, 3]
            else:
                tenpai = [s for s in range(4) if deltas[s] > 0]
            hand.result = {"type": "draw", "tenpai": tenpai}
            if kind in NAGASHI_JSON:
                hand.result = {"type": "draw", "tenpai": [], "nagashi": [s for s in range(4) if deltas[s] > 0]}
            hand.deltas = deltas
        else:
            raise TenhouError("malformed", "malformed record: %(where)s", where=f"{where} result {kind!r}")
    except TenhouError:
        raise
    except (TypeError, ValueError, IndexError):
        raise TenhouError("malformed", "malformed record: %(where)s", where=where) from None
    hand.deltas = [hand.deltas[s] - (1000 if s in hand.riichi else 0) for s in range(4)]
    return hand


def _json_agari(hand: TenhouHand, parts: list, discards: list) -> None:
    winners, tsumo_winner, frm = [], None, None
    for k in range(0, len(parts), 2):
        deltas, info = parts[k], parts[k + 1]
        who, src, pao = int(info[0]), int(info[1]), int(info[2])
        texts = [t for t in info[3:] if isinstance(t, str)]
        winner = {"seat": who}
        yaku = [_json_yaku(t, hand) for t in info[4:]]
        yakuman = sum(1 for _, han in yaku if han is None)
        if yakuman:
            winner["yakuman"] = yakuman
        else:
            winner["han"] = sum(han or 0 for _, han in yaku)
            m = JSON_POINTS.search(texts[0]) if texts else None
            # A limit hand's text gives no fu; any fu that reaches the limit settles the same.
            winner["fu"] = int(m[1]) if m else (40 if winner["han"] == 4 else 70 if winner["han"] == 3 else 30)
            _han_agree(hand, winner["han"], texts[0] if texts else "", m)
        if pao != who:
            winner["pao"] = pao
        for s in range(4):
            hand.deltas[s] += int(deltas[s])
        if who == src:
            tsumo_winner = winner
        else:
            winners.append(winner)
            frm = src
    if tsumo_winner is not None:
        hand.result = {"type": "tsumo", "winner": tsumo_winner}
        return
    hand.result = {"type": "ron", "from": frm, "winners": winners}
    # A ron on the riichi declaration tile: the stick was never paid.
    if frm in hand.riichi:
        last = [d for d in discards[frm] if d != 0]
        if last and isinstance(last[-1], str) and last[-1].startswith("r"):
            hand.riichi.remove(frm)
            hand.declaration_ron = True


# A limit hand's words (the converters' languages) and the han it takes; the longer words first
LIMIT_HAN = (
    (("数え役満", "Kazoe Yakuman", "Counted Yakuman", "役満", "役滿", "Yakuman"), 13, 99),
    (("三倍満", "Sanbaiman"), 11, 12),
    (("倍満", "Baiman"), 8, 10),
    (("跳満", "Haneman"), 6, 7),
    (("満貫", "Mangan"), 3, 5),  # 3 han from 70 fu, 4 from 40 fu (or 30, rounded up), 5
)


def _han_agree(hand: TenhouHand, han: int, points: str, m: re.Match | None) -> None:
    """The yaku's han add up to what the points say: "30符4飜" 4 han, a mangan 3 to 5, a haneman
    6 or 7 … A yaku's han edited by hand no longer matches the hand's own figure."""
    if m is not None:
        low = high = int(m[2])
    else:
        low, high = next(((lo, hi) for words, lo, hi in LIMIT_HAN if any(w in points for w in words)), (0, 99))
    if not low <= han <= high:
        raise TenhouError(
            "yaku_han",
            "%(where)s: the yaku add up to %(han)s han, but the hand is scored %(points)s",
            round=hand.round,
            honba=hand.honba,
            where=f"round {hand.round} ({hand.honba} honba)",
            han=han,
            points=points[:40],
        )


MAX_YAKU_TEXT = 80  # the longest yaku name in any language is some 30 characters


def _json_yaku(text: Any, hand: TenhouHand) -> tuple[str, int | None]:
    """A yaku as the record writes it: its name and han ("立直(1飜)", "Riichi(1 Han)",
    "立直(1番)"), han None for a yakuman ("国士無双(役満)"). Anything else is refused in words: a
    yaku whose worth cannot be read would settle as nothing."""
    m = JSON_YAKU.fullmatch(text.strip()) if isinstance(text, str) and len(text) <= MAX_YAKU_TEXT else None
    if m is None:
        raise TenhouError(
            "yaku",
            "%(where)s names the yaku %(text)s, whose han cannot be read",
            round=hand.round,
            honba=hand.honba,
            where=f"round {hand.round} ({hand.honba} honba)",
            text=repr(text)[:48],
        )
    return m[1], (int(m[2]) if m[2] is not None else None)


def _json_even_draws(hands: list[TenhouHand]) -> None:
    """A draw where nobody paid is all ready or all not ready; the JSON does not say which, the
    next hand does: the dealer kept the seat only if ready."""
    for i, hand in enumerate(hands):
        r = hand.result
        if r.get("type") == "draw" and not r.get("nagashi") and not r["tenpai"] and i + 1 < len(hands):
            if hands[i + 1].round == hand.round:
                r["tenpai"] = [0, 1, 2, 3]

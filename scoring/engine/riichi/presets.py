"""Riichi rule presets, option documentation and option validation.

Every preset is plain JSON-able data: ``PRESETS[name]`` is the *full* option dict,
so a league's own rule set is ``{"preset": "wrc", "kiriage": true, ...}``.
``resolve(spec)`` merges overrides into the preset and validates every value;
an unknown option or a bad value raises ``SettlementError("rules.<option>", ...)``.

Sources (checked with the project's reference search, 2024 copies of the pages):

* ``wrc`` - World Riichi Championship Rules (rule book by Sylvain Malbec, 2015 text,
  2022 edition used at WRC 2022) and the riichi.wiki "World Riichi Championship
  rules" summary: 30,000 start = return, no oka, uma +15/+5/-5/-15 averaged on ties,
  no abortive draws, tenpai renchan, every yakuman counted single, kazoe capped at
  sanbaiman (errata: "Kazoe yakuman is not allowed ... 11+"), liability for
  daisangen/daisuushii, chombo = 20 points (20,000) off the final score
  ("Penalties are applied to the overall score, not to the table's score"),
  no red fives.  Head bump (atamahane) and no nagashi mangan: from the rule book
  as remembered, not re-checked in the corpus (see comments).
* ``ema`` - EMA "Rules for Japanese Mahjong", 2016 edition (RCR 2016) and the
  riichi.wiki "EMA Riichi Competition Rules" page: 30,000 start = return, no oka,
  uma +15/+5/-5/-15, double and triple ron allowed ("the discarder has to pay each
  winner separately"), abortive draws "no longer used", no red fives, max score a
  single yakuman, no kazoe, liability on the third dragon / fourth wind pung,
  chombo 20,000 off the final score.  Honba/deposit split on several winners as
  stated in ``shared/spec/settlement-contract.md``.
* ``mleague`` - M.League rules (m-league.jp/about, summarised on riichi.wiki):
  25,000 start, 30,000 return, "rank score" +50/+10/-10/-30 = uma +30/+10/-10/-30
  plus oka +20, ties split evenly, atamahane, pao on daisangen/daisuushii/suukantsu,
  three red fives.  No abortive draws (途中流局なし), kiriage (切り上げ満貫), no kazoe
  yakuman (数え役満なし), stacked yakuman but no double by wait, chombo 20,000: each from
  a published summary named in OPTION_SOURCES; pao scope and honba on a pao ron unconfirmed.
* ``tenhou`` - Tenhou.net rules (riichi.wiki "Tenhou.net rules" translation,
  mjstars.net ranking-match rules): 25,000 start, 30,000 return, uma "10-20"
  (+20/+10/-10/-20) with oka +20, leftover deposits to first place, ties broken by
  seat order, all five abortive draws incl. triple ron (so at most two ron
  winners), double ron with honba and deposits to the winner nearest the
  discarder, nagashi mangan replacing tenpai payments, pao on daisangen and
  daisuushii (tsumo: liable pays all incl. honba), kazoe and stacked yakuman,
  three red fives.  Tenhou itself has no chombo (it is online); we use the common
  parlour reverse mangan.
* ``jpml`` - Japan Professional Mahjong League official rule (連盟公式ルール) as
  summarised on pixiv encyclopaedia "日本プロ麻雀連盟": 30,000 start = return, no
  kiriage, head bump (頭ハネ), no abortive draws, tenpai 3,000, pao on
  daisangen/daisuushii/suukantsu (tsumo: liable pays all; ron: half each, honba by
  the discarder), no kazoe (sanbaiman cap), yakuman stacking allowed, no ippatsu /
  ura / kan dora in the A rule.  The *variable uma* (8-3-1 複合ウマ, by how many
  players finish above 30,000) and split ties are from the atwiki 麻雀ローカルルール
  page "ウマ", which names them as the JPML official rule: one up +12/-1/-3/-8, two
  up +8/+4/-4/-8, three up +8/+3/+1/-12; tied players share equally.  Whether a
  player on exactly 30,000 counts as up ("より多いか少ないか") is not said: we count
  them as up.  Leftover deposits for JPML are unconfirmed (we give them to first).
* ``mahjongsoul`` - Mahjong Soul (雀魂) four-player ranked rooms (段位戦, Bronze to Throne) and
  the friendly room's defaults, option by option in ``OPTION_SOURCES["mahjongsoul"]``: the
  figures every converted record carries (sc: final points = (score − 25,000) / 1,000 + uma
  15/5/−5/−15, no oka, no rounding; each hand's payments, double ron with honba and sticks
  to the winner nearest the discarder), the converter's rules of the platform (tensoul's
  convert.js, which reads Mahjong Soul's own game data: three red fives, no kiriage, the five
  abortive draws, pao on daisangen and daisuushii only, yakuman as multiples), and the
  platform's published rules as summarised for ranked play.  Game-flow rules with no option
  here (busting below 0 ends the game; the last dealer in first place stops, agari-yame; a game
  not reaching 30,000 goes on into the West round) are what a record's hands already show:
  the import checks every hand the record has, and the final scores the record states.
  Tournament rooms (大会戦) set their own options: a league states them as overrides.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from ..errors import SettlementError

ABORTIVE_REASONS = ("nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron")
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")

_COMMON = {
    "start_points": 30000,
    "return_points": 30000,
    "game_length": "hanchan",
    "uma": [15, 5, -5, -15],
    "uma_tonpuusen": None,
    "uma_by_floaters": None,
    "oka": 0,
    "ties": "split",
    "leftover_deposits": "first_place",
    "final_rounding": "none",
    "remainder_to": "nearest_first_dealer",
    "kiriage": False,
    "kazoe_yakuman": False,
    "multiple_ron": False,
    "max_ron_winners": 3,
    "honba_to": "first_after_discarder",
    "deposits_to": "first_after_discarder",
    "honba_points": 300,
    "noten_payment": 3000,
    "renchan_on_draw": "tenpai",
    "abortive_draws": [],
    "abortive_dealer_repeats": True,
    "nagashi_mangan": False,
    "nagashi_tenpai_payments": "replace",
    "chombo": {"mode": "deduction", "points": 20000},
    "pao": ["daisangen", "daisuushii"],
    "pao_scope": "pao_yakuman",
    "pao_ron_honba": "discarder",
    "max_yakuman_multiple": 1,
    "double_yakuman": False,
    "min_han": 1,
    "max_fu": 110,
    "aka_dora": 0,
    "kuitan": True,
    "ippatsu": True,
    "ura_dora": True,
    "kan_dora": True,
    "double_wind_fu": 2,
    "renhou": "mangan",
    "reaction_time_ms": 1500,
}

# Options that no hand's settlement reads: game end only (game_end.py) or the referee. A season's
# rules revised in these alone leaves every stored hand as it is; only results are rescored.
# tests/engine_riichi/test_game_end_options.py proves settle() ignores them.
GAME_END_OPTIONS = frozenset(
    {
        "return_points",
        "uma",
        "uma_by_floaters",
        "oka",
        "ties",
        "leftover_deposits",
        "reaction_time_ms",
        "game_length",
        "uma_tonpuusen",
        "final_rounding",
        "remainder_to",
    }
)


def _preset(**changes: Any) -> dict[str, Any]:
    out = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v) for k, v in _COMMON.items()}
    out.update(changes)
    return out


PRESETS: dict[str, dict[str, Any]] = {
    # World Riichi Championship Rules (2022 edition; 2015 rule book text).
    "wrc": _preset(
        kiriage=True,  # WRC rules summary: "Kiriage (4-han 30-fu is rounded up to mangan)"
        multiple_ron=False,  # atamahane; rule book as remembered (not re-checked)
        max_ron_winners=1,
        nagashi_mangan=False,  # not in the WRC yaku list (as remembered)
        chombo={"mode": "deduction", "points": 20000},
        renhou="mangan",
    ),
    # EMA Riichi Competition Rules 2016.
    "ema": _preset(
        multiple_ron=True,
        max_ron_winners=3,  # "Double and triple Ron is allowed"
        honba_to="each_winner",  # contract: every winner paid with their own honba
        deposits_to="each_winner",  # own riichi stick back, the rest to the first winner
        chombo={"mode": "deduction", "points": 20000},
    ),
    # M.League (25,000 start / 30,000 return, +50/+10/-10/-30 = uma 30/10 + oka 20).
    "mleague": _preset(
        start_points=25000,
        uma=[30, 10, -10, -30],
        oka=20,
        kiriage=True,  # 切り上げ満貫 / "7700は切り上げ" (k-bys.work, majyan-item.com)
        kazoe_yakuman=False,  # 数え役満なし: 13 han and more is sanbaiman (k-bys.work)
        max_yakuman_multiple=6,  # 役満の複合あり (k-bys.work); no double yakuman by wait
        abortive_draws=[],  # 途中流局なし (nine terminals, four winds, four kans, four riichi play on)
        pao=["daisangen", "daisuushii", "suukantsu"],
        aka_dora=3,
        chombo={"mode": "deduction", "points": 20000},  # チョンボは20000点相当の罰符 (majyan-item.com)
    ),
    # Tenhou.net ranked rules.
    "tenhou": _preset(
        start_points=25000,
        uma=[20, 10, -10, -20],
        oka=20,
        ties="seat_order",
        kazoe_yakuman=True,
        multiple_ron=True,
        max_ron_winners=2,  # triple ron (sanchahou) is an abortive draw
        abortive_draws=list(ABORTIVE_REASONS),
        nagashi_mangan=True,
        nagashi_tenpai_payments="replace",
        chombo={"mode": "reverse_mangan"},  # online play has none; parlour convention
        uma_tonpuusen=[10, 5, -5, -10],  # east-only lobbies, as real east-only records show
        final_rounding="thousand_half_up",  # non-first final scores to the nearest 1,000
        remainder_to="first_place",  # first place: minus the sum of the others
        pao_scope="whole_hand",  # real records: the liable player pays a double yakuman whole
        max_yakuman_multiple=6,
        double_yakuman=True,
        aka_dora=3,
        double_wind_fu=4,
        renhou="none",
    ),
    # Mahjong Soul (雀魂) ranked rooms; sources in OPTION_SOURCES["mahjongsoul"].
    "mahjongsoul": _preset(
        start_points=25000,
        return_points=25000,  # final points = (score - 25,000) / 1,000 + uma: real records' sc
        uma=[15, 5, -5, -15],
        oka=0,
        ties="seat_order",
        leftover_deposits="first_place",
        final_rounding="none",
        remainder_to="first_place",
        kiriage=False,
        kazoe_yakuman=True,
        multiple_ron=True,
        max_ron_winners=2,  # 三家和了 is an abortive draw
        abortive_draws=list(ABORTIVE_REASONS),
        nagashi_mangan=True,
        nagashi_tenpai_payments="replace",
        chombo={"mode": "reverse_mangan"},  # online play has none; parlour convention, as for Tenhou
        pao=["daisangen", "daisuushii"],
        pao_scope="pao_yakuman",
        max_yakuman_multiple=6,
        double_yakuman=True,
        aka_dora=3,
        double_wind_fu=4,
        renhou="none",
    ),
    # JPML official (連盟公式) rule; variable uma and its source in the module docstring.
    "jpml": _preset(
        uma=[8, 4, -4, -8],
        uma_by_floaters={"1": [12, -1, -3, -8], "2": [8, 4, -4, -8], "3": [8, 3, 1, -12]},
        multiple_ron=False,
        max_ron_winners=1,
        pao=["daisangen", "daisuushii", "suukantsu"],
        max_yakuman_multiple=6,
        ippatsu=False,
        ura_dora=False,
        kan_dora=False,
        chombo={"mode": "deduction", "points": 20000},  # unconfirmed
    ),
}


def gettext_noop(text: str) -> str:
    """Marks a source note for the translation catalogue (makemessages reads the name); the
    engine stays free of Django, pages translate the note (scoring.option_words)."""
    return text


PRESET_SOURCES = {
    "wrc": gettext_noop("World Riichi Championship Rules 2022 (Sylvain Malbec); riichi.wiki WRC rules summary"),
    "ema": gettext_noop("EMA Rules for Japanese Mahjong, 2016 edition; riichi.wiki EMA Riichi Competition Rules"),
    "mleague": gettext_noop("M.League rules (m-league.jp/about) as summarised on riichi.wiki"),
    "tenhou": gettext_noop("Tenhou.net rules (riichi.wiki translation; mjstars.net ranking rules)"),
    "mahjongsoul": gettext_noop(
        "Mahjong Soul (雀魂) ranked and friendly rooms: real records converted to tenhou.net/6 JSON "
        "(tensoul), the converter's reading of the platform's game data, and the platform's rules"
    ),
    "jpml": gettext_noop(
        "日本プロ麻雀連盟 公式ルール (pixiv encyclopaedia summary); variable uma: the 8-3-1 複合ウマ by players "
        "above 30,000 (1 浮き +12/-1/-3/-8, 2 浮き +8/+4/-4/-8, 3 浮き +8/+3/+1/-12), as listed for the JPML "
        "official rules in the atwiki 麻雀ローカルルール page 'ウマ' (www29.atwiki.jp/mahjlocal/pages/55.html)"
    ),
}

# Where each preset's value of an option comes from, where it is not the preset's general source
# (PRESET_SOURCES). "unconfirmed" marks a value taken as generally reported but not found in a
# published text; the options page shows it.
OPTION_SOURCES: dict[str, dict[str, str]] = {
    "wrc": {
        "kiriage": gettext_noop('worldriichi.org, WRC rules: "Kiriage (4-han 30-fu is rounded up to mangan)"'),
        "renhou": gettext_noop("worldriichi.org, WRC rules: renhou counts as mangan"),
        "aka_dora": gettext_noop("worldriichi.org, WRC rules: no red fives"),
        "kazoe_yakuman": gettext_noop("worldriichi.org, WRC rules: no kazoe yakuman (capped at sanbaiman)"),
        "double_yakuman": gettext_noop("worldriichi.org, WRC rules: no double yakuman"),
        "max_yakuman_multiple": gettext_noop("worldriichi.org, WRC rules: no double yakuman"),
        "nagashi_mangan": gettext_noop("worldriichi.org, WRC rules: no nagashi mangan"),
        "abortive_draws": gettext_noop("worldriichi.org, WRC rules: no abortive draws"),
        "multiple_ron": gettext_noop("worldriichi.org, WRC rules: atamahane (head bump)"),
        "pao": gettext_noop("worldriichi.org, WRC rules: liability for daisangen and daisuushii"),
        "start_points": gettext_noop("riichi.wiki, World Riichi Championship rules: starting points 30,000"),
        "return_points": gettext_noop("riichi.wiki, World Riichi Championship rules: ending points (target) 30,000"),
        "oka": gettext_noop("riichi.wiki, World Riichi Championship rules: oka 0"),
        "uma": gettext_noop("riichi.wiki, World Riichi Championship rules: uma +15 / +5 / −5 / −15"),
        "ties": gettext_noop(
            "riichi.wiki, World Riichi Championship rules: uma modified for ties (tied places share it)"
        ),
    },
    "mleague": {
        "abortive_draws": gettext_noop(
            "M.League rules: 途中流局なし (九種九牌・四風子連打・四開槓・四人リーチ play on); "
            "majannavi.com and mahjong-space.com summaries"
        ),
        "multiple_ron": gettext_noop("M.League rules: ダブロンなし (head bump)"),
        "kazoe_yakuman": gettext_noop('k-bys.work "Mリーグルール": 数え役満なし (13 han and more is sanbaiman)'),
        "max_yakuman_multiple": gettext_noop('k-bys.work "Mリーグルール": 役満の複合あり (e.g. 大三元・字一色)'),
        "double_yakuman": gettext_noop(
            'k-bys.work "Mリーグルール": 四暗刻単騎・国士無双13面待ち are not double yakuman'
        ),
        "chombo": gettext_noop("majyan-item.com/m-rule and ojisan-gyakushu.com: チョンボは20000点相当の罰符"),
        "ties": gettext_noop(
            "majyan-item.com/m-rule: 同着の場合は順位点は分け (tied places share the placement points)"
        ),
        "pao_scope": gettext_noop("unconfirmed: riichi.wiki, Sekinin barai (each yakuman settled on its own)"),
        "pao_ron_honba": gettext_noop("unconfirmed: published summaries differ; the settlement contract's default"),
        "kiriage": gettext_noop('k-bys.work "Mリーグルール": 切り上げ満貫; majyan-item.com/m-rule: 7700は切り上げ'),
        "honba_points": gettext_noop('majannavi.com "Mリーグ公式ルールまとめ": 1本場300点'),
    },
    "tenhou": {
        "final_rounding": gettext_noop(
            "real Tenhou records: 10,500 / 42,500 / 5,500 / 40,500 with one stick left " "give −29 / +52 / −44 / +21"
        ),
        "remainder_to": gettext_noop("real Tenhou records: first place receives minus the sum of the others"),
        "uma_tonpuusen": gettext_noop("real Tenhou east-only records (+10/+5/−5/−10)"),
        "pao_scope": gettext_noop(
            "real Tenhou records: the liable player pays the whole of a self-drawn double yakuman"
        ),
        "chombo": gettext_noop("Tenhou has none (online); the common parlour reverse mangan"),
    },
    "mahjongsoul": {
        "start_points": gettext_noop("real Mahjong Soul records (tensoul): every hand of a game starts at 25,000"),
        "return_points": gettext_noop(
            "real Mahjong Soul records: final points = (score − 25,000) / 1,000 + uma "
            "(47,400 → +37.4, 5,300 → −34.7)"
        ),
        "uma": gettext_noop("real Mahjong Soul records: uma +15 / +5 / −5 / −15 in the final points"),
        "oka": gettext_noop("real Mahjong Soul records: no oka (first place's points are score and uma only)"),
        "final_rounding": gettext_noop("real Mahjong Soul records: final points to one decimal, not rounded"),
        "remainder_to": gettext_noop("real Mahjong Soul records: points to one decimal leave nothing over"),
        "ties": gettext_noop("Mahjong Soul rules: equal scores are ranked by seat, the first dealer first"),
        "leftover_deposits": gettext_noop("Mahjong Soul rules: riichi sticks left at the end go to first place"),
        "aka_dora": gettext_noop("tensoul convert.js: ranked rooms have one red five in each suit (aka51-53)"),
        "kiriage": gettext_noop("tensoul convert.js: no kiriage mangan in ranked play (ALLOW_KIRIAGE off)"),
        "abortive_draws": gettext_noop(
            "tensoul convert.js: 九種九牌, 四風連打, 四家立直, 四開槓 and 三家和 end a hand as abortive draws"
        ),
        "multiple_ron": gettext_noop("real Mahjong Soul records: a double ron pays both winners"),
        "max_ron_winners": gettext_noop("tensoul convert.js: three rons on one discard are an abortive draw (三家和)"),
        "honba_to": gettext_noop(
            "unconfirmed: the winner nearest the discarder takes the honba, as on Tenhou (the real double ron had none)"
        ),
        "deposits_to": gettext_noop(
            "real Mahjong Soul records: on a double ron the winner nearest the discarder takes the sticks"
        ),
        "nagashi_mangan": gettext_noop("tensoul convert.js: 流し満貫 is paid at an exhaustive draw"),
        "pao": gettext_noop("tensoul convert.js: liability (包) for daisangen and daisuushii only"),
        "pao_scope": gettext_noop(
            "tensoul convert.js: the liable player answers only for the yakuman they fed (liablefor)"
        ),
        "kazoe_yakuman": gettext_noop("tensoul convert.js: 13 han and more is a counted yakuman (数え役満)"),
        "max_yakuman_multiple": gettext_noop("Mahjong Soul rules: yakuman stack (複合役満), up to six"),
        "double_yakuman": gettext_noop(
            "Mahjong Soul rules: 国士無双十三面, 四暗刻単騎, 純正九蓮宝燈 and 大四喜 are double yakuman in ranked play"
        ),
        "double_wind_fu": gettext_noop("unconfirmed: a double-wind pair as 4 fu, as on Tenhou"),
        "renhou": gettext_noop("unconfirmed: no renhou in ranked play (a friendly-room option)"),
        "chombo": gettext_noop("Mahjong Soul has none (online); the common parlour reverse mangan"),
    },
    "jpml": {
        "uma_by_floaters": gettext_noop("atwiki 麻雀ローカルルール, 'ウマ' (8-3-1 複合ウマ)"),
        "chombo": gettext_noop("unconfirmed"),
        "leftover_deposits": gettext_noop("unconfirmed"),
    },
}

# the game-end options no source names for a preset follow the engine's documented choices
DEFAULT_OPTION_SOURCE = gettext_noop("Kyoku's documented default (the settlement contract where it says)")


OPTION_DOCS: dict[str, str] = {
    "start_points": "Points each player starts the game with.",
    "return_points": "Target (return) points subtracted from the final score before uma.",
    "game_length": "Length of a game: 'hanchan' (east and south rounds) or 'tonpuusen' (east round only).",
    "uma": "Placement bonus for 1st..4th place, in thousands of points.",
    "uma_tonpuusen": "Placement bonus used for east-only (tonpuusen) games, or null to use uma.",
    "uma_by_floaters": "Variable uma: {number of players at or above return points: uma list}, or null.",
    "oka": "Bonus to first place in thousands (normally 4 x (return - start) / 1000).",
    "ties": "Equal final scores: 'split' shares the tied places' uma and oka; 'seat_order' ranks the earlier seat higher.",
    "leftover_deposits": "Riichi sticks left at the end of the game: 'first_place' takes them or they are 'lost'.",
    "final_rounding": "Final scores rounded to the thousand before league points: 'none', 'thousand_half_up' (四捨五入: 500 rounds up) or 'thousand_five_down' (五捨六入: 500 rounds down); negative scores round by their size.",
    "remainder_to": "Who takes what rounding leaves over so that league points sum to zero: 'nearest_first_dealer' (of the players whose share was rounded, the seat nearest the first dealer takes a surplus and the farthest gives a shortfall, so the nearer keeps the larger share) or 'first_place' (first place gets minus the sum of the others, as on Tenhou).",
    "kiriage": "4 han 30 fu and 3 han 60 fu are rounded up to mangan.",
    "kazoe_yakuman": "13 or more han count as yakuman (else sanbaiman).",
    "multiple_ron": "true: every ron declarer wins; false: head bump, only the first after the discarder wins.",
    "max_ron_winners": "Most ron winners paid on one discard (with multiple_ron); further declarers are head-bumped. A triple ron is an abortive draw when 'triple_ron' is in abortive_draws.",
    "honba_to": "With several ron winners, honba go to the 'first_after_discarder' or to 'each_winner'.",
    "deposits_to": "With several ron winners, deposits go to the 'first_after_discarder', or 'each_winner' takes back its own stick (EMA).",
    "honba_points": "Value of one honba on a ron (a tsumo costs a third of it per payer).",
    "noten_payment": "Total paid by non-ready to ready seats at an exhaustive draw.",
    "renchan_on_draw": "Dealer keeps the deal on an exhaustive draw: 'tenpai' (if ready), 'always' or 'never'.",
    "abortive_draws": "Abortive draws in use: any of nine_terminals, four_winds, four_riichi, four_kans, triple_ron.",
    "abortive_dealer_repeats": "The dealer keeps the deal after an abortive draw.",
    "nagashi_mangan": "Nagashi mangan is played (paid as a mangan tsumo at an exhaustive draw).",
    "nagashi_tenpai_payments": "With a nagashi mangan, tenpai payments are 'replace'd by it or paid 'also'.",
    "chombo": "Chombo penalty: {'mode': 'deduction', 'points': N} off the final score, or {'mode': 'reverse_mangan'}.",
    "pao": "Yakuman with liability payment (daisangen, daisuushii, suukantsu).",
    "pao_scope": "With several yakuman in the hand, the liable player answers for the 'whole_hand' or only for the 'pao_yakuman' (the others are paid as an ordinary win).",
    "pao_ron_honba": "On a ron under pao, the honba are paid by the 'discarder' or by the 'liable' player.",
    "max_yakuman_multiple": "Largest yakuman multiple paid (1 = every yakuman counts single).",
    "double_yakuman": "Single yaku counted as double yakuman (e.g. 13-sided kokushi) - used by hand evaluation.",
    "min_han": "Minimum han from yaku needed to win.",
    "max_fu": "Largest legal fu value (110, or 130 for some rule sets).",
    "aka_dora": "Number of red fives in the set (each one dora).",
    "kuitan": "Open tanyao (all simples) counts.",
    "ippatsu": "Ippatsu counts as a yaku.",
    "ura_dora": "Ura dora are used.",
    "kan_dora": "Kan dora are flipped.",
    "double_wind_fu": "Fu for a pair of a double wind (2 or 4).",
    "renhou": "Renhou (blessing of man): 'none', 'mangan' or 'yakuman'.",
    "reaction_time_ms": "League setting: time allowed to claim a discard, in milliseconds (used by the referee).",
}

assert set(OPTION_DOCS) == set(_COMMON)
assert all(set(s) <= set(_COMMON) for s in OPTION_SOURCES.values())


# --- validation -----------------------------------------------------------------------------

# a validator: (option name, the value given) → the value kept, or raise SettlementError; values
# come from JSON (a season's rules), hence Any
Validator = Callable[[str, Any], Any]


def _err(opt: str, msg: str) -> SettlementError:
    return SettlementError(f"rules.{opt}", msg)


def _is_int(v: object) -> TypeGuard[int]:
    return type(v) is int


def _is_num(v: object) -> TypeGuard[int | float]:
    return type(v) in (int, float)


def _bool(opt: str, v: Any) -> bool:
    if type(v) is not bool:
        raise _err(opt, f"must be true or false, got {v!r}")
    return v


def _int(lo: int, hi: int | None = None) -> Validator:
    def check(opt: str, v: Any) -> int:
        if not _is_int(v) or v < lo or (hi is not None and v > hi):
            rng = f"from {lo} to {hi}" if hi is not None else f"at least {lo}"
            raise _err(opt, f"must be an integer {rng}, got {v!r}")
        return v

    return check


def _enum(*choices: str | int) -> Validator:
    def check(opt: str, v: Any) -> str:
        if v not in choices or type(v) is not str:
            raise _err(opt, f"must be one of {', '.join(map(repr, choices))}, got {v!r}")
        return v

    return check


def _uma_list(opt: str, v: Any) -> list[int | float]:
    if not isinstance(v, list) or len(v) != 4 or not all(_is_num(x) for x in v):
        raise _err(opt, f"must be a list of 4 numbers (thousands of points, 1st..4th), got {v!r}")
    if any(v[i] < v[i + 1] for i in range(3)):
        raise _err(opt, "must not increase from 1st to 4th place")
    return list(v)


def _uma_by_floaters(opt: str, v: Any) -> dict[str, list[int | float]] | None:
    if v is None:
        return None
    if not isinstance(v, dict) or not v:
        raise _err(opt, 'must be null or an object {"1": [..4], "2": [...], ...}')
    out: dict[str, list[int | float]] = {}
    for k, lst in v.items():
        if str(k) not in ("0", "1", "2", "3", "4"):
            raise _err(opt, f"keys are the number of players at or above return points (0-4), got {k!r}")
        out[str(k)] = _uma_list(f"{opt}.{k}", lst)
    return out


def _oka(opt: str, v: Any) -> int | float:
    if not _is_num(v) or v < 0:
        raise _err(opt, f"must be a number >= 0 (thousands of points), got {v!r}")
    return v


def _abortive(opt: str, v: Any) -> list[str]:
    if v is True:
        return list(ABORTIVE_REASONS)
    if v is False or v is None:
        return []
    if not isinstance(v, list) or any(r not in ABORTIVE_REASONS for r in v):
        raise _err(opt, f"must be true, false or a list of {', '.join(ABORTIVE_REASONS)}; got {v!r}")
    return list(dict.fromkeys(v))


def _pao(opt: str, v: Any) -> list[str]:
    if v is False or v is None:
        return []
    if not isinstance(v, list) or any(r not in PAO_YAKUMAN for r in v):
        raise _err(opt, f"must be a list drawn from {', '.join(PAO_YAKUMAN)}; got {v!r}")
    return list(dict.fromkeys(v))


def _chombo(opt: str, v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise _err(opt, 'must be {"mode": "deduction", "points": N} or {"mode": "reverse_mangan"}')
    mode = v.get("mode")
    if mode == "deduction":
        pts = v.get("points", 20000)
        if not _is_int(pts) or pts <= 0 or pts % 100:
            raise _err(f"{opt}.points", f"must be a positive multiple of 100, got {pts!r}")
        extra = set(v) - {"mode", "points"}
        if extra:
            raise _err(f"{opt}.{sorted(extra)[0]}", "unknown chombo setting")
        return {"mode": "deduction", "points": pts}
    if mode == "reverse_mangan":
        extra = set(v) - {"mode"}
        if extra:
            raise _err(f"{opt}.{sorted(extra)[0]}", "unknown chombo setting")
        return {"mode": "reverse_mangan"}
    raise _err(f"{opt}.mode", f"must be 'deduction' or 'reverse_mangan', got {mode!r}")


def _noten(opt: str, v: Any) -> int:
    if not _is_int(v) or v < 0 or v % 600:
        raise _err(opt, f"must be a non-negative multiple of 600 (it is split 2 and 3 ways), got {v!r}")
    return v


def _honba(opt: str, v: Any) -> int:
    if not _is_int(v) or v < 0 or v % 300:
        raise _err(opt, f"must be a non-negative multiple of 300 (a third is paid by each tsumo payer), got {v!r}")
    return v


def _points(opt: str, v: Any) -> int:
    if not _is_int(v) or v <= 0 or v % 100:
        raise _err(opt, f"must be a positive multiple of 100, got {v!r}")
    return v


def _optional_uma(opt: str, v: Any) -> list[int | float] | None:
    return None if v is None else _uma_list(opt, v)


# The values an option can take where they are a fixed set (forms offer them as choices).
OPTION_CHOICES: dict[str, tuple[str | int, ...]] = {
    "game_length": ("hanchan", "tonpuusen"),
    "ties": ("split", "seat_order"),
    "leftover_deposits": ("first_place", "lost"),
    "final_rounding": ("none", "thousand_half_up", "thousand_five_down"),
    "remainder_to": ("nearest_first_dealer", "first_place"),
    "honba_to": ("first_after_discarder", "each_winner"),
    "deposits_to": ("first_after_discarder", "each_winner"),
    "renchan_on_draw": ("tenpai", "always", "never"),
    "nagashi_tenpai_payments": ("replace", "also"),
    "pao_scope": ("whole_hand", "pao_yakuman"),
    "pao_ron_honba": ("discarder", "liable"),
    "renhou": ("none", "mangan", "yakuman"),
    "abortive_draws": ABORTIVE_REASONS,
    "pao": PAO_YAKUMAN,
    "max_fu": (110, 130),
    "double_wind_fu": (2, 4),
}


def _int_choice(*choices: str | int) -> Validator:
    def check(opt: str, v: Any) -> int:
        if not _is_int(v) or v not in choices:
            raise _err(opt, f"must be one of {', '.join(map(str, choices))}, got {v!r}")
        return v

    return check


VALIDATORS: dict[str, Validator] = {
    "start_points": _points,
    "return_points": _points,
    "game_length": _enum(*OPTION_CHOICES["game_length"]),
    "uma": _uma_list,
    "uma_tonpuusen": _optional_uma,
    "final_rounding": _enum(*OPTION_CHOICES["final_rounding"]),
    "remainder_to": _enum(*OPTION_CHOICES["remainder_to"]),
    "pao_scope": _enum(*OPTION_CHOICES["pao_scope"]),
    "pao_ron_honba": _enum(*OPTION_CHOICES["pao_ron_honba"]),
    "uma_by_floaters": _uma_by_floaters,
    "oka": _oka,
    "ties": _enum(*OPTION_CHOICES["ties"]),
    "leftover_deposits": _enum(*OPTION_CHOICES["leftover_deposits"]),
    "kiriage": _bool,
    "kazoe_yakuman": _bool,
    "multiple_ron": _bool,
    "max_ron_winners": _int(1, 3),
    "honba_to": _enum(*OPTION_CHOICES["honba_to"]),
    "deposits_to": _enum(*OPTION_CHOICES["deposits_to"]),
    "honba_points": _honba,
    "noten_payment": _noten,
    "renchan_on_draw": _enum(*OPTION_CHOICES["renchan_on_draw"]),
    "abortive_draws": _abortive,
    "abortive_dealer_repeats": _bool,
    "nagashi_mangan": _bool,
    "nagashi_tenpai_payments": _enum(*OPTION_CHOICES["nagashi_tenpai_payments"]),
    "chombo": _chombo,
    "pao": _pao,
    "max_yakuman_multiple": _int(1, 6),
    "double_yakuman": _bool,
    "min_han": _int(1, 4),
    "max_fu": _int_choice(*OPTION_CHOICES["max_fu"]),
    "aka_dora": _int(0, 4),
    "kuitan": _bool,
    "ippatsu": _bool,
    "ura_dora": _bool,
    "kan_dora": _bool,
    "double_wind_fu": _int_choice(*OPTION_CHOICES["double_wind_fu"]),
    "renhou": _enum(*OPTION_CHOICES["renhou"]),
    "reaction_time_ms": _int(0, 600000),
}


assert set(VALIDATORS) == set(OPTION_DOCS)


def resolve(spec: Any) -> dict[str, Any]:
    """``{"preset": name, **overrides}`` (or a bare preset name) → full validated options.

    The returned dict is a fresh copy; treat it as read-only once handed to ``settle``.
    """
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise SettlementError("rules", "expected a preset name or an object with 'preset'")
    name = spec.get("preset")
    if name not in PRESETS:
        raise SettlementError("rules.preset", f"unknown riichi preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    out: dict[str, Any] = {"preset": name}
    base = PRESETS[name]
    for opt, value in base.items():
        out[opt] = VALIDATORS[opt](opt, spec[opt]) if opt in spec else _copy(value)
    for opt in spec:
        if opt != "preset" and opt not in VALIDATORS:
            raise SettlementError(f"rules.{opt}", f"unknown riichi option; known: {', '.join(sorted(VALIDATORS))}")
    return out


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return list(v)
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    return v

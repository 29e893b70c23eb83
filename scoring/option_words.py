"""Rule options in words, in the reader's language: a label and a meaning per riichi option, and
every value (codes, lists, objects, null) as a phrase, never as a Python or JSON repr.

The engine (``scoring.engine.riichi.presets``) keeps the option data, its English reference text
(``OPTION_DOCS``) and its sources (``PRESET_SOURCES``, ``OPTION_SOURCES``); this module is the
translated face of it for pages, forms and the options API.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy


RIICHI_OPTIONS = {  # option: (label, meaning)
    "start_points": (gettext_lazy("Starting points"), gettext_lazy("Points each player starts the game with.")),
    "return_points": (
        gettext_lazy("Return points"),
        gettext_lazy("Target subtracted from each final score before uma."),
    ),
    "game_length": (
        gettext_lazy("Game length"),
        gettext_lazy("East and south rounds (hanchan) or the east round only (tonpuusen)."),
    ),
    "uma": (gettext_lazy("Uma"), gettext_lazy("Placement bonus for 1st to 4th place, in thousands of points.")),
    "uma_tonpuusen": (
        gettext_lazy("Uma in east-only games"),
        gettext_lazy("Placement bonus used when the game is east-only; otherwise the uma above."),
    ),
    "uma_by_floaters": (
        gettext_lazy("Uma by players above return"),
        gettext_lazy("Uma that depends on how many players finish at or above the return points."),
    ),
    "oka": (gettext_lazy("Oka"), gettext_lazy("Bonus to first place, in thousands of points.")),
    "ties": (gettext_lazy("Tied final scores"), gettext_lazy("How players with equal final scores are ranked.")),
    "leftover_deposits": (
        gettext_lazy("Riichi sticks left at the end"),
        gettext_lazy("Who takes the riichi sticks still on the table when the game ends."),
    ),
    "final_rounding": (
        gettext_lazy("Rounding of final scores"),
        gettext_lazy("Final scores rounded to the thousand before league points are worked out."),
    ),
    "remainder_to": (
        gettext_lazy("Rounding remainder"),
        gettext_lazy("Who absorbs what rounding leaves over, so that a game's league points sum to zero."),
    ),
    "kiriage": (gettext_lazy("Kiriage mangan"), gettext_lazy("4 han 30 fu and 3 han 60 fu are rounded up to mangan.")),
    "kazoe_yakuman": (
        gettext_lazy("Counted yakuman (kazoe)"),
        gettext_lazy("13 han or more count as yakuman; otherwise sanbaiman."),
    ),
    "multiple_ron": (
        gettext_lazy("Several ron winners"),
        gettext_lazy(
            "Whether every player who calls ron on one discard wins, or only the first after the discarder (head bump)."
        ),
    ),
    "max_ron_winners": (
        gettext_lazy("Most ron winners on one discard"),
        gettext_lazy("Further declarers are head-bumped."),
    ),
    "honba_to": (
        gettext_lazy("Honba with several winners"),
        gettext_lazy("Which winner the honba go to when several win on one discard."),
    ),
    "deposits_to": (
        gettext_lazy("Riichi sticks with several winners"),
        gettext_lazy("Which winner takes the riichi sticks when several win on one discard."),
    ),
    "honba_points": (
        gettext_lazy("Value of a honba"),
        gettext_lazy("Added to a ron; a self-draw costs a third of it per payer."),
    ),
    "noten_payment": (
        gettext_lazy("No-ten payment"),
        gettext_lazy("Total paid by the players not ready to those ready at an exhaustive draw."),
    ),
    "renchan_on_draw": (
        gettext_lazy("Dealer repeat on a draw"),
        gettext_lazy("Whether the dealer keeps the deal after an exhaustive draw."),
    ),
    "abortive_draws": (gettext_lazy("Abortive draws"), gettext_lazy("Which abortive draws end a hand.")),
    "abortive_dealer_repeats": (
        gettext_lazy("Dealer repeat on an abortive draw"),
        gettext_lazy("The dealer keeps the deal after an abortive draw."),
    ),
    "nagashi_mangan": (
        gettext_lazy("Nagashi mangan"),
        gettext_lazy("Paid as a mangan self-draw at an exhaustive draw."),
    ),
    "nagashi_tenpai_payments": (
        gettext_lazy("No-ten payments with nagashi"),
        gettext_lazy("Whether no-ten payments are also made beside a nagashi mangan."),
    ),
    "chombo": (gettext_lazy("Chombo penalty"), gettext_lazy("What a false win or other chombo costs.")),
    "pao": (
        gettext_lazy("Liability (pao) yakuman"),
        gettext_lazy("Yakuman for which the player who fed the deciding set is liable."),
    ),
    "pao_scope": (
        gettext_lazy("Liability with several yakuman"),
        gettext_lazy("Whether the liable player answers for the whole hand or only for the liable yakuman."),
    ),
    "pao_ron_honba": (
        gettext_lazy("Honba on a ron under liability"),
        gettext_lazy("Who pays the honba when a liable hand wins by ron."),
    ),
    "max_yakuman_multiple": (
        gettext_lazy("Largest yakuman multiple"),
        gettext_lazy("1 means every yakuman counts single."),
    ),
    "double_yakuman": (
        gettext_lazy("Double yakuman hands"),
        gettext_lazy("Single hands counted as double yakuman, such as a 13-sided kokushi."),
    ),
    "min_han": (gettext_lazy("Minimum han"), gettext_lazy("Han from yaku needed to win.")),
    "max_fu": (gettext_lazy("Largest fu"), gettext_lazy("The largest fu value a hand can have.")),
    "aka_dora": (gettext_lazy("Red fives"), gettext_lazy("Number of red fives in the set, each one dora.")),
    "kuitan": (gettext_lazy("Open tanyao (kuitan)"), gettext_lazy("All simples counts with open sets.")),
    "ippatsu": (gettext_lazy("Ippatsu"), gettext_lazy("Ippatsu counts as a yaku.")),
    "ura_dora": (gettext_lazy("Ura dora"), gettext_lazy("Ura dora are used.")),
    "kan_dora": (gettext_lazy("Kan dora"), gettext_lazy("A kan flips another dora indicator.")),
    "double_wind_fu": (
        gettext_lazy("Fu for a double-wind pair"),
        gettext_lazy("Fu for a pair of the wind that is both the round's and the seat's."),
    ),
    "renhou": (gettext_lazy("Renhou"), gettext_lazy("Value of a win on a discard before one's own first draw.")),
    "reaction_time_ms": (
        gettext_lazy("Reaction time"),
        gettext_lazy("Time allowed to claim a discard (used by the referee)."),
    ),
}

CODES = {  # option codes and enum values shown in words
    "hanchan": gettext_lazy("hanchan (east and south)"),
    "tonpuusen": gettext_lazy("east only (tonpuusen)"),
    "split": gettext_lazy("share the places' uma and oka"),
    "seat_order": gettext_lazy("earlier seat ranks higher"),
    "first_place": gettext_lazy("first place"),
    "lost": gettext_lazy("nobody (removed)"),
    "none": gettext_lazy("none"),
    "thousand_half_up": gettext_lazy("to the nearest 1,000, 500 rounds up (四捨五入)"),
    "thousand_five_down": gettext_lazy("to the nearest 1,000, 500 rounds down (五捨六入)"),
    "nearest_first_dealer": gettext_lazy("the rounded players: the larger share nearest the first dealer"),
    "first_after_discarder": gettext_lazy("the first winner after the discarder"),
    "each_winner": gettext_lazy("each winner"),
    "tenpai": gettext_lazy("if ready"),
    "always": gettext_lazy("always"),
    "never": gettext_lazy("never"),
    "replace": gettext_lazy("instead of them"),
    "also": gettext_lazy("as well"),
    "whole_hand": gettext_lazy("the whole hand"),
    "pao_yakuman": gettext_lazy("the liable yakuman only"),
    "discarder": gettext_lazy("the discarder"),
    "liable": gettext_lazy("the liable player"),
    "mangan": gettext_lazy("mangan"),
    "yakuman": gettext_lazy("yakuman"),
    "nine_terminals": gettext_lazy("nine terminals and honours"),
    "four_winds": gettext_lazy("four same winds discarded"),
    "four_riichi": gettext_lazy("four riichi declarations"),
    "four_kans": gettext_lazy("four kans by several players"),
    "triple_ron": gettext_lazy("triple ron"),
    "daisangen": gettext_lazy("big three dragons (daisangen)"),
    "daisuushii": gettext_lazy("big four winds (daisuushii)"),
    "suukantsu": gettext_lazy("four kans (suukantsu)"),
}

CODES.update(
    {  # Zung Jung and Beijing values
        "ordinary": gettext_lazy("official rule"),
        "precise": gettext_lazy("precise (精算版)"),
        "precise_multiwait": gettext_lazy("precise, over every waiting tile"),
        "competition": gettext_lazy("competition (中庸競技制)"),
        "full_discard": gettext_lazy("discarder pays all (全銃制)"),
        "uniform": gettext_lazy("every opponent pays the value (中庸皆一制)"),
        "head_bump": gettext_lazy("head bump (only the first winner)"),
        "next_turn": gettext_lazy("until the player's next turn"),
        "draw_or_call": gettext_lazy("until the player draws or calls"),
        "open": gettext_lazy("open"),
        "concealed": gettext_lazy("concealed"),
        "added": gettext_lazy("added"),
        "tianhu": gettext_lazy("天和"),
        "dihu": gettext_lazy("地和"),
        "hungang": gettext_lazy("混槓"),
        "points": gettext_lazy("points"),
        "all": gettext_lazy("every winner"),
        # 上楼 (shanglou): its settings' names and the reach of its ×2
        "enabled": gettext_lazy("in use"),
        "after_draw": gettext_lazy("after a drawn hand"),
        "dealer_streak": gettext_lazy("from the dealer's consecutive hand no."),
        "scope": gettext_lazy("doubles"),
        "hand_and_kong": gettext_lazy("the hand and kong points"),
        "hand": gettext_lazy("the hand only"),
    }
)
SCOPE_WORDS = {"all": gettext_lazy("the hand, kong points and fixed hands")}  # shanglou's scope 'all'


SYSTEM_OPTIONS = {  # Zung Jung and Beijing options: (label, meaning); the engine's own text stays English
    "liability": (
        gettext_lazy("Same-turn immunity"),
        gettext_lazy(
            "Who pays when the winning tile was discarded earlier in the same turn: nobody is immune, the official rule, or one of the precise (精算) variants."
        ),
    ),
    "scheme": (
        gettext_lazy("Payoff scheme"),
        gettext_lazy(
            "How a discard win is paid: competition (standard score shared, the rest by the discarder), full discard (the discarder pays all) or uniform (every opponent pays the value)."
        ),
    ),
    "par": (
        gettext_lazy("Standard score"),
        gettext_lazy(
            "Points shared by all three opponents on a discard win under the competition scheme; officially 25."
        ),
    ),
    "min_points": (
        gettext_lazy("Minimum hand value"),
        gettext_lazy("Smallest hand value that may win (0: none, the official rule)."),
    ),
    "limit": (
        gettext_lazy("Limit"),
        gettext_lazy("The highest value of a hand; a sum at or above it scores the limit."),
    ),
    "edition": (gettext_lazy("Pattern table edition"), gettext_lazy("Which edition of the pattern values is used.")),
    "pattern_values": (
        gettext_lazy("Pattern values changed"),
        gettext_lazy("Single pattern values changed from the table, by official number."),
    ),
    "seven_pairs_quad": (
        gettext_lazy("Four alike in Seven Pairs"),
        gettext_lazy("Seven Pairs may contain four identical tiles counted as two pairs."),
    ),
    "declined_nine_gates": (
        gettext_lazy("Declined Nine Gates"),
        gettext_lazy("Whether a declined self-draw may be valued as Nine Gates when computing liability."),
    ),
    "base": (gettext_lazy("Base rate"), gettext_lazy("The value of one point: a hand with no factor is worth this.")),
    "kong_points": (
        gettext_lazy("Kong points"),
        gettext_lazy("Points per kong of the winner, paid by each opponent (open and concealed)."),
    ),
    "dealer_doubles_kong": (
        gettext_lazy("Dealer doubles kong points"),
        gettext_lazy("Kong points are doubled when the dealer pays or receives them."),
    ),
    "gangkai_doubles_kong": (
        gettext_lazy("槓開 doubles kong points"),
        gettext_lazy("The 槓開 factor also doubles kong points."),
    ),
    "discarder_pays_all": (
        gettext_lazy("Discarder pays all"),
        gettext_lazy("On a discard win the discarder alone pays the three players' shares."),
    ),
    "pays_all_self_draw_double": (
        gettext_lazy("Self-draw double with discarder pays all"),
        gettext_lazy("With the discarder paying all, self-draws keep their ×2."),
    ),
    "fixed_hands": (
        gettext_lazy("Fixed-value hands"),
        gettext_lazy("Fixed values of 天和 / 地和 / 混槓, paid equally by each of the three, no factors."),
    ),
    "chombo": (
        gettext_lazy("False win"),
        gettext_lazy("Penalty for a false win: fixed points to each of the three, or the reverse of the claimed hand."),
    ),
    "shaozhuang": (
        gettext_lazy("焼荘"),
        gettext_lazy(
            "If the first go-around had four identical discards and the hand ends in a win, the dealer pays each of the other three."
        ),
    ),
    "shanglou": (
        gettext_lazy("上楼"),
        gettext_lazy("After a draw, or from the dealer's Nth consecutive hand, the hand scores ×2."),
    ),
    "qianggang_pao": (
        gettext_lazy("Robbing a kong pays all"),
        gettext_lazy("The robbed player alone pays the three self-draw shares."),
    ),
    "hangzhou_pao": (
        gettext_lazy("Three-claim liability"),
        gettext_lazy("A player who made three claims from another's discards is liable with him."),
    ),
    "multiple_winners": (
        gettext_lazy("Several winners on one discard"),
        gettext_lazy("Head bump (only the first winner after the discarder) or all winners."),
    ),
    "furiten": (
        gettext_lazy("Passed win (furiten)"),
        gettext_lazy(
            "After passing a winnable discard, no discard win until the player's next turn or next draw or call."
        ),
    ),
    "duanmen": (
        gettext_lazy("Missing suit required"),
        gettext_lazy("A winning hand must lack at least one of the three number suits."),
    ),
    "claim_limit": (gettext_lazy("Claim limit"), gettext_lazy("At most one chow or pong per player per hand.")),
    "hunyou_meihuar": (
        gettext_lazy("混悠 as 没混"),
        gettext_lazy("Treat a wildcard single wait with one wildcard as no wildcard (×2)."),
    ),
    "benhunlong_meihuar": (
        gettext_lazy("本混龍 as 没混"),
        gettext_lazy("Treat 本混龍 (one wildcard inside a 龍) as no wildcard (×2)."),
    ),
    "extra_factors": (
        gettext_lazy("Extra patterns"),
        gettext_lazy("Extra patterns agreed at the table, each ×2 to a power."),
    ),
}

# The Beijing (吃碰提) factor table in the reader's language: the engine keeps the factors and an
# English reference text (scoring.engine.beijing.FACTORS); pages show these words.
BEIJING_FACTOR_KINDS = {
    "payer": gettext_lazy("Payment factor"),
    "hand": gettext_lazy("Hand factor"),
    "fixed": gettext_lazy("Fixed-value hand"),
    "option": gettext_lazy("Optional factor"),
}
BEIJING_FACTOR_MEANINGS = {
    "zhuangjia": gettext_lazy(
        "The dealer is involved: every payment doubles when the dealer wins, and the "
        "dealer's own payment doubles when another player wins. Added by the engine."
    ),
    "tiliu": gettext_lazy(
        "A self-drawn win (including on a kong replacement tile) doubles every payment; on a "
        "win from a discard only the discarder's payment doubles. Added by the engine."
    ),
    "menqing": gettext_lazy("Concealed hand: no chow, pong or exposed kong (concealed kongs allowed)."),
    "meihuar": gettext_lazy("No wildcard (混) in the hand, or every wildcard used as its own face."),
    "long": gettext_lazy("1 to 9 of one suit as three chows (123 456 789); wildcards allowed."),
    "qidui": gettext_lazy("Seven pairs (always concealed as well; four identical tiles may count as two pairs)."),
    "haohua": gettext_lazy(
        "Each set of four identical real tiles inside a seven-pairs hand (no kong declared, "
        "no wildcard among the four); listed once per set."
    ),
    "zhuowu": gettext_lazy(
        "Winning on a real five of characters as a middle wait (4 and 6) or as the single "
        "wait of seven pairs; a wildcard cannot be that five."
    ),
    "gangkai": gettext_lazy("Winning on a kong replacement tile: always self-drawn; also doubles kong points."),
    "tianhu": gettext_lazy(
        "The dealer's dealt hand is complete: a fixed value (20 by default) from each of " "the three others."
    ),
    "dihu": gettext_lazy(
        "A non-dealer wins on the dealer's first discard: a fixed value (20 by default) from "
        "each of the three others."
    ),
    "hungang": gettext_lazy(
        "All four wildcards in the hand, in any shape: a fixed value (20 by default) from " "each of the three others."
    ),
    "benhunlong": gettext_lazy(
        "With the option 本混龍 as 没混: a 龍 in which exactly one wildcard stands for "
        "a tile of the 龍's suit counts as 没混."
    ),
    "hunyou": gettext_lazy("A wildcard single wait, self-drawn only; with its option it counts as 没混."),
}


def beijing_factor_rows() -> list[dict]:
    """The Beijing factors for a page: Chinese name, pinyin, kind and meaning in the reader's
    language, doubling; the factor's code stays available for tools (``id``)."""
    from scoring.engine.beijing import FACTORS

    return [
        {
            "id": f["id"],
            "zh": f["zh"],
            "pinyin": f["pinyin"],
            "doubling": f["doubling"],
            "kind": f["kind"],
            "kind_words": str(BEIJING_FACTOR_KINDS.get(f["kind"], f["kind"])),
            "meaning": str(BEIJING_FACTOR_MEANINGS.get(f["id"], f["en"])),
        }
        for f in FACTORS
    ]


def option_label(option: str) -> str:
    if option == "preset":
        return str(_("Preset"))  # the row naming the preset among the options in force
    entry = RIICHI_OPTIONS.get(option)
    return str(entry[0]) if entry else option.replace("_", " ").capitalize()


def option_meaning(option: str, english: str = "") -> str:
    entry = RIICHI_OPTIONS.get(option)
    return str(entry[1]) if entry else english


def value_words(option: str, value) -> str:
    """One option value as words: ``{'mode': 'deduction', 'points': 20000}`` → "20,000 points off
    the final score", ``None`` → "not used", ``[15, 5, -5, -15]`` → "+15 / +5 / −5 / −15"."""
    if value is None:
        return _("not used")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if option == "chombo" and isinstance(value, dict):
        return _chombo_words(value)
    if option in ("uma", "uma_tonpuusen") and isinstance(value, list):
        return _signed_list(value)
    if option == "uma_by_floaters" and isinstance(value, dict):
        return "; ".join(_("%(n)s above: %(uma)s") % {"n": n, "uma": _signed_list(u)} for n, u in sorted(value.items()))
    if option == "reaction_time_ms" and isinstance(value, int):
        return _("%(s)s seconds") % {"s": f"{value / 1000:g}"}
    if isinstance(value, list):
        return ", ".join(value_words(option, v) for v in value) if value else _("none")
    if isinstance(value, dict):
        return "; ".join(f"{_code(k)}: {value_words(k, v)}" for k, v in value.items()) if value else _("none")
    if option == "preset" and isinstance(value, str):
        from kyoku.labels import label

        return label(value, "preset")  # "WRC", not the code "wrc"
    if option == "scope" and value in SCOPE_WORDS:
        return str(SCOPE_WORDS[value])
    if isinstance(value, str):
        return _code(value)
    if isinstance(value, int) and abs(value) >= 1000:
        return f"{value:,}"
    return str(value)


def _code(code: str) -> str:
    word = CODES.get(code)
    return str(word) if word is not None else code.replace("_", " ")


def _signed_list(values) -> str:
    return " / ".join(f"{v:+g}".replace("-", "−") for v in values)


def _chombo_words(value: dict) -> str:
    if value.get("mode") == "deduction":
        return _("%(points)s points off the final score") % {"points": f"{value.get('points', 0):,}"}
    if value.get("mode") == "reverse_mangan":
        return _("reverse mangan (paid to each other player)")
    if value.get("mode") == "fixed":
        return _("%(points)s to each other player") % {"points": value.get("points")}
    if value.get("mode") == "reverse":
        return _("paid as the hand would have been won, in reverse")
    return ", ".join(f"{_code(k)}: {v}" for k, v in value.items())


def riichi_option_rows(presets: list[str]) -> list[dict]:
    """Per option: label, meaning, and per preset the value in words and its source."""
    from scoring.engine.riichi import DEFAULT_OPTION_SOURCE, OPTION_DOCS, OPTION_SOURCES, PRESET_SOURCES, PRESETS

    rows = []
    for option, english in OPTION_DOCS.items():
        cells = []
        for name in presets:
            value = PRESETS[name].get(option)
            source = OPTION_SOURCES.get(name, {}).get(option) or PRESET_SOURCES.get(name) or DEFAULT_OPTION_SOURCE
            cells.append(
                {
                    "preset": name,
                    "value": value,
                    "words": value_words(option, value),
                    "source": _(source),
                    "unconfirmed": source.startswith("unconfirmed"),
                }
            )
        rows.append(
            {
                "option": option,
                "label": option_label(option),
                "meaning": option_meaning(option, english),
                "values": cells,
            }
        )
    return rows


ZUNG_JUNG_PATTERN_NAMES = {  # the Zung Jung patterns by key, named in the reader's language
    "chicken_hand": gettext_lazy("Chicken Hand"),
    "all_sequences": gettext_lazy("All Sequences"),
    "concealed_hand": gettext_lazy("Concealed Hand"),
    "no_terminals": gettext_lazy("No Terminals"),
    "mixed_one_suit": gettext_lazy("Mixed One-Suit"),
    "pure_one_suit": gettext_lazy("Pure One-Suit"),
    "nine_gates": gettext_lazy("Nine Gates"),
    "value_honor": gettext_lazy("Value Honor"),
    "small_three_dragons": gettext_lazy("Small Three Dragons"),
    "big_three_dragons": gettext_lazy("Big Three Dragons"),
    "small_three_winds": gettext_lazy("Small Three Winds"),
    "big_three_winds": gettext_lazy("Big Three Winds"),
    "small_four_winds": gettext_lazy("Small Four Winds"),
    "big_four_winds": gettext_lazy("Big Four Winds"),
    "all_honors": gettext_lazy("All Honors"),
    "all_triplets": gettext_lazy("All Triplets"),
    "two_concealed_triplets": gettext_lazy("Two Concealed Triplets"),
    "three_concealed_triplets": gettext_lazy("Three Concealed Triplets"),
    "four_concealed_triplets": gettext_lazy("Four Concealed Triplets"),
    "one_kong": gettext_lazy("One Kong"),
    "two_kong": gettext_lazy("Two Kong"),
    "three_kong": gettext_lazy("Three Kong"),
    "four_kong": gettext_lazy("Four Kong"),
    "two_identical_sequences": gettext_lazy("Two Identical Sequences"),
    "two_identical_sequences_twice": gettext_lazy("Two Identical Sequences Twice"),
    "three_identical_sequences": gettext_lazy("Three Identical Sequences"),
    "four_identical_sequences": gettext_lazy("Four Identical Sequences"),
    "three_similar_sequences": gettext_lazy("Three Similar Sequences"),
    "small_three_similar_triplets": gettext_lazy("Small Three Similar Triplets"),
    "three_similar_triplets": gettext_lazy("Three Similar Triplets"),
    "nine_tile_straight": gettext_lazy("Nine-Tile Straight"),
    "three_consecutive_triplets": gettext_lazy("Three Consecutive Triplets"),
    "four_consecutive_triplets": gettext_lazy("Four Consecutive Triplets"),
    "mixed_lesser_terminals": gettext_lazy("Mixed Lesser Terminals"),
    "pure_lesser_terminals": gettext_lazy("Pure Lesser Terminals"),
    "mixed_greater_terminals": gettext_lazy("Mixed Greater Terminals"),
    "pure_greater_terminals": gettext_lazy("Pure Greater Terminals"),
    "final_draw": gettext_lazy("Final Draw"),
    "final_discard": gettext_lazy("Final Discard"),
    "win_on_kong": gettext_lazy("Win on Kong"),
    "robbing_a_kong": gettext_lazy("Robbing a Kong"),
    "blessing_of_heaven": gettext_lazy("Blessing of Heaven"),
    "blessing_of_earth": gettext_lazy("Blessing of Earth"),
    "thirteen_terminals": gettext_lazy("Thirteen Terminals"),
    "seven_pairs": gettext_lazy("Seven Pairs"),
}


def zung_jung_rows() -> list[dict]:
    """The Zung Jung pattern table for a page: each row of the engine's table with ``name``, the
    pattern's name in the reader's language (the engine keeps the English and Chinese names)."""
    from scoring.engine.zung_jung import CHICKEN, PATTERNS

    return [{**p, "name": str(ZUNG_JUNG_PATTERN_NAMES.get(str(p["key"]), p["en"]))} for p in (CHICKEN, *PATTERNS)]

"""One message table for the ruling's explanation, in English and Traditional Chinese.

A ruling builds its explanation as structured lines ``{"key", "params"}``; :func:`render`
turns each into both languages from this table, so the wording and the clauses cited stay
consistent. Each entry: ``key → (clauses, English template, Chinese template)``.

Parameter conventions: names ending in ``seat`` are seat numbers (rendered with the seat's
wind), ``seats`` a list of them; ``act``/``decl``/``kind``/``harm``/``reason`` are codes looked
up in the small tables below; everything else is printed as is.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[list[str], str, str]] = {
    "settings": (
        ["2"],
        "League setting: reaction time {rt} ms (preset {preset}); it is recorded with this ruling.",
        "聯賽設定:反應時間為{rt}毫秒(預設規則 {preset}),隨本裁決記錄。",
    ),
    "announce_too_early": (
        ["1.2", "2"],
        "{seat} announced at {t_announce} ms but {act} at {t} ms, only {gap} ms later, less than one reaction time ({rt} ms): an announced start that is too early does not begin PLAY.",
        "{seat}於{t_announce}毫秒明確表示,但於{t}毫秒{act},相隔僅{gap}毫秒,未足一個反應時間({rt}毫秒):過早的行動不會令對局進入摸打程序。",
    ),
    "announce_blocked": (
        ["1.2"],
        "{seat} announced at {t_announce} ms, but {claimant_seat} claimed an incomplete deal at {t_claim} ms, before {seat} {act} at {t} ms: PLAY did not begin.",
        "{seat}於{t_announce}毫秒明確表示,但{claimant_seat}於{t_claim}毫秒提出配牌未完成({seat}於{t}毫秒{act}之前):未進入摸打程序。",
    ),
    "announce_unfinished": (
        ["1.2"],
        "{seat} announced at {t_announce} ms but did not then act: an announcement alone does not begin PLAY.",
        "{seat}於{t_announce}毫秒明確表示,但其後未有行動:單憑表示不會進入摸打程序。",
    ),
    "play_announced": (
        ["1.2"],
        "{seat} announced at {t_announce} ms and, {gap} ms later with no claim of an incomplete deal in between, {act} at {t} ms: PLAY began at {t} ms (announced start).",
        "{seat}於{t_announce}毫秒明確表示,{gap}毫秒後於{t}毫秒{act},期間無人提出配牌未完成:摸打程序於{t}毫秒開始(明確表示)。",
    ),
    "not_ratified": (
        ["1.1", "1.2"],
        "PLAY actions taken before the announced start remain illegal (they are not ratified).",
        "明確表示開始前其他家的摸打行為仍屬非法,不獲追認。",
    ),
    "play_retroactive": (
        ["1.2"],
        "Nobody had validly announced a start; {seat} {act} on North's first turn at {t} ms, so PLAY is deemed to have begun when {dealer_seat} discarded the first tile at {t_start} ms (retroactive start). Earlier draws, discards and calls are legal, and dealing errors stand uncorrected from now on.",
        "無人作出有效的明確表示;{seat}於其首巡目在{t}毫秒{act},故往回追認{dealer_seat}於{t_start}毫秒打出第一張牌的一刻為摸打程序的開始(往回追認)。此前的摸打、鳴牌等行為均屬合法,此後配牌相公一律不予更正。",
    ),
    "play_retroactive_no_discard": (
        ["1.2"],
        "Nobody had validly announced a start; {seat} {act} on North's first turn at {t} ms, and no first discard by East is recorded, so PLAY is taken to have begun at {t} ms (retroactive start).",
        "無人作出有效的明確表示;{seat}於其首巡目在{t}毫秒{act},而記錄中沒有東家的第一張捨牌,故以{t}毫秒為摸打程序的開始(往回追認)。",
    ),
    "still_deal": (
        ["1.2"],
        "Nobody validly announced a start and North had not yet acted on North's first turn: the hand was still in DEAL at the last event ({t} ms).",
        "無人作出有效的明確表示,北家亦未於其首巡目伸手觸及牆頭牌:直至最後事件({t}毫秒)仍處於配牌程序。",
    ),
    "deal_to_settlement": (
        ["1.2", "4"],
        "{seat} declared {decl} at {t} ms while the hand was still in DEAL: the hand went straight into SETTLEMENT and PLAY never formally began.",
        "{seat}於{t}毫秒宣告{decl}時仍處於配牌程序:對局直接進入結算程序,摸打程序未曾正式開始。",
    ),
    "early_action": (
        ["1.1"],
        "{seat} {act} at {t} ms (events[{event}]) while the hand was in DEAL: an early PLAY action, illegal, but penalised only if it harmed another player.",
        "{seat}於{t}毫秒{act}(事件{event})時仍處於配牌程序:屬偷步的摸打行為,違規,但只在影響他家利益時才會判罰。",
    ),
    "no_harm": (
        ["1.1"],
        "No harm from these early actions is recorded: no penalty for them.",
        "未有記錄偷步行為令他家受損:不予判罰。",
    ),
    "harm_penalised": (
        ["1.1"],
        "{victim_seat} {harm} because of {seat}'s early action ({act} at {t_by} ms, events[{by}]): {seat} is penalised.",
        "{seat}於{t_by}毫秒偷步{act}(事件{by}),令{victim_seat}{harm}:判罰{seat}。",
    ),
    "harm_not_penalised": (
        ["1.1"],
        "{victim_seat} {harm} because of events[{by}] ({seat} {act} at {t_by} ms), but that act was {reason}: no penalty.",
        "{victim_seat}因事件{by}({seat}於{t_by}毫秒{act}){harm},但該行為{reason}:不予判罰。",
    ),
    "correction_allowed": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms while the hand was still in DEAL: the deal may be corrected.",
        "{seat}於{t}毫秒提出配牌{kind},當時仍處於配牌程序:可以補正。",
    ),
    "correction_refused_play": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms, after PLAY had begun ({t_transition} ms): the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但對局已於{t_transition}毫秒進入摸打程序:配牌相公不予更正,{seat}成為相公(死手)。",
    ),
    "correction_refused_retroactive": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms, after North's first-turn act at {t_transition} ms had begun PLAY retroactively: the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但北家已於{t_transition}毫秒在首巡目行動,摸打程序經往回追認已開始:配牌相公不予更正,{seat}成為相公(死手)。",
    ),
    "correction_refused_settlement": (
        ["1.3", "4"],
        "{seat} claimed a {kind} deal at {t} ms, after SETTLEMENT had begun ({t_transition} ms): the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但對局已於{t_transition}毫秒進入結算程序:配牌相公不予更正,{seat}成為相公(死手)。",
    ),
    "window": (
        ["2"],
        "{discarder_seat}'s discard at {t_discard} ms lay face up and released at {t_visible} ms; the first declaration came at {t_first} ms: the reaction window runs from {open} to {close} ms.",
        "{discarder_seat}於{t_discard}毫秒打出的捨牌於{t_visible}毫秒正面朝上放好並離手;首個宣言於{t_first}毫秒作出:反應時間窗口為{open}至{close}毫秒。",
    ),
    "window_hidden": (
        ["2"],
        "{discarder_seat}'s discard at {t_discard} ms was not placed so it could be seen; it could be seen from {t_visible} ms; the first declaration came at {t_first} ms: the reaction window runs from {open} to {close} ms.",
        "{discarder_seat}於{t_discard}毫秒打出的捨牌未有放好,令他家未能清楚看到,至{t_visible}毫秒才可看清;首個宣言於{t_first}毫秒作出:反應時間窗口為{open}至{close}毫秒。",
    ),
    "decl_late": (
        ["2"],
        "{seat}'s {decl} at {t} ms came after the reaction window closed at {close} ms: invalid.",
        "{seat}於{t}毫秒的{decl}宣言在反應時間窗口({close}毫秒)結束之後:無效。",
    ),
    "decl_late_settlement": (
        ["2", "3", "4"],
        "{seat}'s {decl} at {t} ms came after SETTLEMENT had begun ({t_settle} ms) and outside reaction time (the window closed at {close} ms): invalid, and it gives no right to win.",
        "{seat}於{t}毫秒的{decl}宣言在結算程序開始({t_settle}毫秒)之後,且超出反應時間(窗口於{close}毫秒結束):無效,不享有和權。",
    ),
    "decl_after_settlement": (
        ["4"],
        "{seat}'s {decl} at {t} ms came after SETTLEMENT had begun ({t_settle} ms), not on the discard that began it: invalid.",
        "{seat}於{t}毫秒的{decl}宣言在結算程序開始({t_settle}毫秒)之後,且並非針對引致結算的捨牌:無效。",
    ),
    "decl_turn_passed": (
        ["2"],
        "{seat}'s {decl} at {t} ms came after the next turn had begun ({t_turn} ms) and more than one reaction time after the discard could be seen ({t_visible} ms): invalid.",
        "{seat}於{t}毫秒的{decl}宣言在下一巡目開始({t_turn}毫秒)之後,且距捨牌可被看清({t_visible}毫秒)已超過一個反應時間:無效。",
    ),
    "settlement_begins": (
        ["4"],
        "{seat} declared {decl} at {t} ms: any win declaration, even a false one, moves the hand into SETTLEMENT.",
        "{seat}於{t}毫秒宣告{decl}:任何和了宣言(包括錯和)均令對局進入結算程序。",
    ),
    "call_superseded_ron": (
        ["2"],
        "{seat}'s {decl} at {t} ms is superseded: a ron declared within reaction time takes priority over calls.",
        "{seat}於{t}毫秒的{decl}被取代:在反應時間內宣告的榮和優先於鳴牌。",
    ),
    "call_priority": (
        ["2"],
        "{winner_seat}'s {decl} at {t} ms, within reaction time, takes priority over {seat}'s {decl2} at {t2} ms.",
        "{winner_seat}於{t}毫秒在反應時間內的{decl}優先於{seat}於{t2}毫秒的{decl2}。",
    ),
    "call_stands": (
        ["2"],
        "{seat}'s {decl} at {t} ms stands.",
        "{seat}於{t}毫秒的{decl}成立。",
    ),
    "false_found": (
        ["4"],
        "{seat}'s win declaration at {t} ms (events[{event}]) was found false: a false win (chombo), penalised.",
        "{seat}於{t}毫秒的和了宣言(事件{event})被確認為錯和:判罰錯和。",
    ),
    "dead_hand_win": (
        ["1.3", "4"],
        "{seat}'s hand is dead (an uncorrected dealing error), so its win declaration at {t} ms (events[{event}]) is false: penalised as a false win.",
        "{seat}為相公(配牌錯誤未獲更正),其於{t}毫秒的和了宣言(事件{event})屬錯和:判罰錯和。",
    ),
    "head_bump": (
        ["3"],
        "Several rons in time and no multiple ron: by head bump, {seat} wins as the first in turn order after the discarder, {discarder_seat}.",
        "多家於反應時間內宣告榮和,而本規則不設多重榮和:按頭跳,由捨牌者{discarder_seat}之後順序最先的{seat}和了。",
    ),
    "bumped": (
        ["3"],
        "{seat}'s ron at {t} ms was declared in time but is head-bumped by {winner_seat}.",
        "{seat}於{t}毫秒在反應時間內宣告榮和,但被{winner_seat}頭跳。",
    ),
    "next_priority": (
        ["4"],
        "The declaration with priority, by {false_seat}, was false: {seat}, the next in-time declaration in priority order, wins.",
        "擁有優先權的{false_seat}和了宣言為錯和:由優先次序中下一位在反應時間內宣言的{seat}和了。",
    ),
    "single_winner": (
        ["4"],
        "{seat} wins by ron on {discarder_seat}'s discard.",
        "{seat}榮和{discarder_seat}的捨牌。",
    ),
    "multiple_winners": (
        ["3"],
        "Multiple ron is allowed (up to {max} winners): {seats} win, in priority order after the discarder, {discarder_seat}.",
        "本規則容許多重榮和(最多{max}家):{seats}和了,按捨牌者{discarder_seat}之後的順序排列。",
    ),
    "abortive": (
        ["3"],
        "{n} valid rons in time exceed the limit of {max} winners: abortive draw, nobody wins.",
        "反應時間內有效的榮和宣言共{n}家,超過上限{max}家:流局,無人和了。",
    ),
    "tsumo_winner": (
        ["4"],
        "{seat} wins by self-draw (tsumo) at {t} ms.",
        "{seat}於{t}毫秒自摸和了。",
    ),
    "no_winner": (
        ["4"],
        "No win declaration stands: nobody wins this hand.",
        "沒有成立的和了宣言:本局無人和了。",
    ),
    "end_play": (
        ["1.2"],
        "At the last event ({t} ms) the hand is in PLAY.",
        "至最後事件({t}毫秒)對局處於摸打程序。",
    ),
    "end_settlement": (
        ["4"],
        "At the last event ({t} ms) the hand is in SETTLEMENT.",
        "至最後事件({t}毫秒)對局處於結算程序。",
    ),
    "sanctions": (
        ["5"],
        "The sanction for each penalty comes from the league's penalty catalogue.",
        "各項判罰的罰則依聯賽罰則表決定。",
    ),
}

WINDS_EN = ("East", "South", "West", "North")
WINDS_ZH = ("東家", "南家", "西家", "北家")

ACTS = {
    "touch_wall": ("touched the wall's next tile", "伸手觸及牆頭牌"),
    "draw": ("drew", "摸牌"),
    "discard": ("discarded", "打牌"),
    "call": ("called", "鳴牌"),
    "chi": ("called chi", "吃牌"),
    "pon": ("called pon", "碰牌"),
    "kan": ("called kan", "槓牌"),
    "expose": ("exposed the meld", "亮出搭子"),
    "ron": ("declared ron", "宣告榮和"),
    "tsumo": ("declared tsumo", "宣告自摸"),
    "announce": ("announced", "明確表示"),
    "claim_deal_incomplete": ("claimed an incomplete deal", "提出配牌未完成"),
    "false_win_found": ("was found to have won falsely", "被確認錯和"),
    "harm": ("was harmed", "受損"),
}
DECLS = {
    "ron": ("ron", "榮和"),
    "tsumo": ("tsumo", "自摸"),
    "chi": ("chi", "吃"),
    "pon": ("pon", "碰"),
    "kan": ("kan", "槓"),
}
KINDS = {
    "short": ("short", "少牌(小相公)"),
    "long": ("long", "多牌(大相公)"),
}
HARMS = {
    "missed_call": ("missed a call", "錯過鳴牌機會"),
    "correction_prevented": ("could not have a dealing error corrected", "未能及時修正配牌相公"),
}
REASONS = {
    "ratified": ("legal under the retroactive start", "在往回追認下屬合法"),
    "in_play": ("made during PLAY", "於摸打程序中作出"),
    "dealer_first_draw": ("the dealer's first-turn draw, which is allowed", "為莊家首巡摸牌(跳牌),不在禁止之列"),
    "not_play_action": ("not a PLAY action", "並非摸打行為"),
    "play_start": ("the act that began PLAY", "為令對局進入摸打程序的行動"),
    "announced_turn": ("part of the announced turn that began PLAY", "屬明確表示後開始摸打程序的巡目"),
}
_TABLES = {"act": ACTS, "decl": DECLS, "decl2": DECLS, "kind": KINDS, "harm": HARMS, "reason": REASONS}


def seat_label(seat: int, dealer: int, lang: str) -> str:
    wind = (seat - dealer) % 4
    if lang == "zh":
        return f"{WINDS_ZH[wind]}({seat}號位)"
    return f"seat {seat} ({WINDS_EN[wind]})"


def _value(name: str, value, dealer: int, lang: str) -> str:
    k = 1 if lang == "zh" else 0
    if name == "seats":
        sep = "、" if lang == "zh" else ", "
        return sep.join(seat_label(s, dealer, lang) for s in value)
    if name.endswith("seat"):
        return seat_label(value, dealer, lang)
    if name in _TABLES:
        return _TABLES[name][value][k]
    return str(value)


def line(key: str, **params) -> dict:
    """A structured explanation line; checked against the table at once."""
    if key not in MESSAGES:
        raise KeyError(f"no message {key!r}")
    return {"key": key, "params": params}


def clauses_of(entry: dict) -> list[str]:
    return list(MESSAGES[entry["key"]][0])


def render(entry: dict, dealer: int, lang: str = "en") -> str:
    clauses, en, zh = MESSAGES[entry["key"]]
    params = {name: _value(name, value, dealer, lang) for name, value in entry["params"].items()}
    text = (zh if lang == "zh" else en).format(**params)
    cited = ", ".join(clauses)
    text = text[:1].upper() + text[1:]
    if lang == "zh":
        return f"{text}(第{'、'.join(clauses)}條)"
    return f"{text} (clause{'s' if len(clauses) > 1 else ''} {cited})"

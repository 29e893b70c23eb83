"""One message table for the ruling's explanation, in English, Traditional Chinese and Japanese.

A ruling builds its explanation as structured lines ``{"key", "params"}``; :func:`render`
turns each into any of the three languages from this table, so the wording and the clauses cited
stay consistent. Each entry: ``key → (clauses, English, Traditional Chinese, Japanese template)``.
The words never cite internal references (event indexes): those stay in the line's ``params``.

Parameter conventions: names ending in ``seat`` are seat numbers, rendered by :func:`seat_label`
(this hand's wind, from the dealer) or by the caller's own seat-naming function (the app adds the
player's name); ``seats`` a list of them; ``act``/``decl``/``kind``/``harm``/``reason`` are codes
looked up in the small tables below; everything else is printed as is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

MESSAGES: dict[str, tuple[list[str], str, str, str]] = {
    "settings": (
        ["2"],
        "League setting: reaction time {rt} ms (preset {preset}); it is recorded with this ruling.",
        "聯賽設定:反應時間為{rt}毫秒(預設規則 {preset}),隨本裁決記錄。",
        "リーグ設定:反応時間 {rt} ミリ秒(プリセット {preset})。この裁定とともに記録される。",
    ),
    "announce_too_early": (
        ["1.2", "2"],
        "{seat} announced at {t_announce} ms but {act} at {t} ms, only {gap} ms later, less than one reaction time ({rt} ms): an announced start that is too early does not begin PLAY.",
        "{seat}於{t_announce}毫秒明確表示,但於{t}毫秒{act},相隔僅{gap}毫秒,未足一個反應時間({rt}毫秒):過早的行動不會令對局進入摸打程序。",
        "{seat}は{t_announce}ミリ秒に表明したが、わずか{gap}ミリ秒後の{t}ミリ秒に{act}。反応時間({rt}ミリ秒)に満たない:早すぎる表明による開始ではツモ打ち手順は始まらない。",
    ),
    "announce_blocked": (
        ["1.2"],
        "{seat} announced at {t_announce} ms, but {claimant_seat} claimed an incomplete deal at {t_claim} ms, before {seat} {act} at {t} ms: PLAY did not begin.",
        "{seat}於{t_announce}毫秒明確表示,但{claimant_seat}於{t_claim}毫秒提出配牌未完成({seat}於{t}毫秒{act}之前):未進入摸打程序。",
        "{seat}は{t_announce}ミリ秒に表明したが、{seat}が{t}ミリ秒に{act}時点より前の{t_claim}ミリ秒に{claimant_seat}が配牌未完了を申し出た:ツモ打ち手順は始まらなかった。",
    ),
    "announce_unfinished": (
        ["1.2"],
        "{seat} announced at {t_announce} ms but did not then act: an announcement alone does not begin PLAY.",
        "{seat}於{t_announce}毫秒明確表示,但其後未有行動:單憑表示不會進入摸打程序。",
        "{seat}は{t_announce}ミリ秒に表明したが、その後行動しなかった:表明だけではツモ打ち手順は始まらない。",
    ),
    "play_announced": (
        ["1.2"],
        "{seat} announced at {t_announce} ms and, {gap} ms later with no claim of an incomplete deal in between, {act} at {t} ms: PLAY began at {t} ms (announced start).",
        "{seat}於{t_announce}毫秒明確表示,{gap}毫秒後於{t}毫秒{act},期間無人提出配牌未完成:摸打程序於{t}毫秒開始(明確表示)。",
        "{seat}は{t_announce}ミリ秒に表明し、{gap}ミリ秒後(その間に配牌未完了の申し出なし)の{t}ミリ秒に{act}:ツモ打ち手順は{t}ミリ秒に始まった(表明による開始)。",
    ),
    "not_ratified": (
        ["1.1", "1.2"],
        "PLAY actions taken before the announced start remain illegal (they are not ratified).",
        "明確表示開始前其他家的摸打行為仍屬非法,不獲追認。",
        "表明による開始より前に他家が行った摸打の行為は違法のままである(追認されない)。",
    ),
    "play_retroactive": (
        ["1.2"],
        "Nobody had validly announced a start; {seat} {act} on North's first turn at {t} ms, so PLAY is deemed to have begun when {dealer_seat} discarded the first tile at {t_start} ms (retroactive start). Earlier draws, discards and calls are legal, and dealing errors stand uncorrected from now on.",
        "無人作出有效的明確表示;{seat}於其首巡目在{t}毫秒{act},故往回追認{dealer_seat}於{t_start}毫秒打出第一張牌的一刻為摸打程序的開始(往回追認)。此前的摸打、鳴牌等行為均屬合法,此後配牌相公一律不予更正。",
        "有効な表明は誰もしていない。{seat}が北家の第一巡の{t}ミリ秒に{act}ので、{dealer_seat}が第一打を打った{t_start}ミリ秒にツモ打ち手順が始まったとみなす(遡及開始)。それ以前のツモ・打牌・鳴きは適法であり、以後、配牌の誤りは訂正されない。",
    ),
    "play_retroactive_no_discard": (
        ["1.2"],
        "Nobody had validly announced a start; {seat} {act} on North's first turn at {t} ms, and no first discard by East is recorded, so PLAY is taken to have begun at {t} ms (retroactive start).",
        "無人作出有效的明確表示;{seat}於其首巡目在{t}毫秒{act},而記錄中沒有東家的第一張捨牌,故以{t}毫秒為摸打程序的開始(往回追認)。",
        "有効な表明は誰もしていない。{seat}が北家の第一巡の{t}ミリ秒に{act}。東家の第一打の記録がないため、ツモ打ち手順は{t}ミリ秒に始まったものとする(遡及開始)。",
    ),
    "still_deal": (
        ["1.2"],
        "Nobody validly announced a start and North had not yet acted on North's first turn: the hand was still in DEAL at the last event ({t} ms).",
        "無人作出有效的明確表示,北家亦未於其首巡目伸手觸及牆頭牌:直至最後事件({t}毫秒)仍處於配牌程序。",
        "有効な表明は誰もしておらず、北家も第一巡でまだ行動していない:最後の記録({t}ミリ秒)の時点で配牌手順のままである。",
    ),
    "deal_to_settlement": (
        ["1.2", "4"],
        "{seat} declared {decl} at {t} ms while the hand was still in DEAL: the hand went straight into SETTLEMENT and PLAY never formally began.",
        "{seat}於{t}毫秒宣告{decl}時仍處於配牌程序:對局直接進入結算程序,摸打程序未曾正式開始。",
        "{seat}は配牌手順中の{t}ミリ秒に{decl}を宣言した:局は直ちに精算手順に入り、ツモ打ち手順は正式には始まらなかった。",
    ),
    "early_action": (
        ["1.1"],
        "{seat} {act} at {t} ms while the hand was in DEAL: an early PLAY action, illegal, but penalised only if it harmed another player.",
        "{seat}於{t}毫秒{act}時仍處於配牌程序:屬偷步的摸打行為,違規,但只在影響他家利益時才會判罰。",
        "{seat}は配牌手順中の{t}ミリ秒に{act}:早すぎる摸打の行為で違法だが、他家に不利益を与えた場合にのみ罰則の対象となる。",
    ),
    "no_harm": (
        ["1.1"],
        "No harm from these early actions is recorded: no penalty for them.",
        "未有記錄偷步行為令他家受損:不予判罰。",
        "これらの早すぎる行為による不利益は記録されていない:罰則なし。",
    ),
    "harm_penalised": (
        ["1.1"],
        "{victim_seat} {harm} because of {seat}'s early action ({act} at {t_by} ms): {seat} is penalised.",
        "{seat}於{t_by}毫秒偷步{act},令{victim_seat}{harm}:判罰{seat}。",
        "{seat}の早すぎる行為({t_by}ミリ秒に{act})により、{victim_seat}は{harm}:{seat}に罰則。",
    ),
    "harm_not_penalised": (
        ["1.1"],
        "{victim_seat} {harm} because {seat} {act} at {t_by} ms, but that act was {reason}: no penalty.",
        "{victim_seat}因{seat}於{t_by}毫秒{act}而{harm},但該行為{reason}:不予判罰。",
        "{seat}が{t_by}ミリ秒に{act}ことにより、{victim_seat}は{harm}。しかしその行為は{reason}:罰則なし。",
    ),
    "correction_allowed": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms while the hand was still in DEAL: the deal may be corrected.",
        "{seat}於{t}毫秒提出配牌{kind},當時仍處於配牌程序:可以補正。",
        "{seat}は配牌手順中の{t}ミリ秒に{kind}を申し出た:配牌は訂正できる。",
    ),
    "correction_refused_play": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms, after PLAY had begun ({t_transition} ms): the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但對局已於{t_transition}毫秒進入摸打程序:配牌相公不予更正,{seat}成為相公(死手)。",
        "{seat}はツモ打ち手順の開始({t_transition}ミリ秒)後の{t}ミリ秒に{kind}を申し出た:配牌の誤りは訂正されず、{seat}の手はアガリ放棄となる。",
    ),
    "correction_refused_retroactive": (
        ["1.2", "1.3"],
        "{seat} claimed a {kind} deal at {t} ms, after North's first-turn act at {t_transition} ms had begun PLAY retroactively: the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但北家已於{t_transition}毫秒在首巡目行動,摸打程序經往回追認已開始:配牌相公不予更正,{seat}成為相公(死手)。",
        "{seat}は{t}ミリ秒に{kind}を申し出たが、{t_transition}ミリ秒の北家の第一巡の行為でツモ打ち手順が遡って始まっていた:配牌の誤りは訂正されず、{seat}の手はアガリ放棄となる。",
    ),
    "correction_refused_settlement": (
        ["1.3", "4"],
        "{seat} claimed a {kind} deal at {t} ms, after SETTLEMENT had begun ({t_transition} ms): the dealing error stands and {seat}'s hand is dead.",
        "{seat}於{t}毫秒提出配牌{kind},但對局已於{t_transition}毫秒進入結算程序:配牌相公不予更正,{seat}成為相公(死手)。",
        "{seat}は精算手順の開始({t_transition}ミリ秒)後の{t}ミリ秒に{kind}を申し出た:配牌の誤りは訂正されず、{seat}の手はアガリ放棄となる。",
    ),
    "window": (
        ["2"],
        "{discarder_seat}'s discard at {t_discard} ms lay face up and released at {t_visible} ms; the first declaration came at {t_first} ms: the reaction window runs from {open} to {close} ms.",
        "{discarder_seat}於{t_discard}毫秒打出的捨牌於{t_visible}毫秒正面朝上放好並離手;首個宣言於{t_first}毫秒作出:反應時間窗口為{open}至{close}毫秒。",
        "{discarder_seat}が{t_discard}ミリ秒に打った牌は{t_visible}ミリ秒に表向きで置かれ手が離れた。最初の宣言は{t_first}ミリ秒:反応時間の枠は{open}から{close}ミリ秒まで。",
    ),
    "window_hidden": (
        ["2"],
        "{discarder_seat}'s discard at {t_discard} ms was not placed so it could be seen; it could be seen from {t_visible} ms; the first declaration came at {t_first} ms: the reaction window runs from {open} to {close} ms.",
        "{discarder_seat}於{t_discard}毫秒打出的捨牌未有放好,令他家未能清楚看到,至{t_visible}毫秒才可看清;首個宣言於{t_first}毫秒作出:反應時間窗口為{open}至{close}毫秒。",
        "{discarder_seat}が{t_discard}ミリ秒に打った牌は見えるように置かれず、{t_visible}ミリ秒から見えるようになった。最初の宣言は{t_first}ミリ秒:反応時間の枠は{open}から{close}ミリ秒まで。",
    ),
    "decl_late": (
        ["2"],
        "{seat}'s {decl} at {t} ms came after the reaction window closed at {close} ms: invalid.",
        "{seat}於{t}毫秒的{decl}宣言在反應時間窗口({close}毫秒)結束之後:無效。",
        "{seat}の{t}ミリ秒の{decl}は反応時間の枠が{close}ミリ秒に閉じた後:無効。",
    ),
    "decl_late_settlement": (
        ["2", "3", "4"],
        "{seat}'s {decl} at {t} ms came after SETTLEMENT had begun ({t_settle} ms) and outside reaction time (the window closed at {close} ms): invalid, and it gives no right to win.",
        "{seat}於{t}毫秒的{decl}宣言在結算程序開始({t_settle}毫秒)之後,且超出反應時間(窗口於{close}毫秒結束):無效,不享有和權。",
        "{seat}の{t}ミリ秒の{decl}は精算手順の開始({t_settle}ミリ秒)後で、反応時間外(枠は{close}ミリ秒に終了):無効であり、和了の権利はない。",
    ),
    "decl_after_settlement": (
        ["4"],
        "{seat}'s {decl} at {t} ms came after SETTLEMENT had begun ({t_settle} ms), not on the discard that began it: invalid.",
        "{seat}於{t}毫秒的{decl}宣言在結算程序開始({t_settle}毫秒)之後,且並非針對引致結算的捨牌:無效。",
        "{seat}の{t}ミリ秒の{decl}は精算手順の開始({t_settle}ミリ秒)後で、それを始めた打牌に対するものではない:無効。",
    ),
    "decl_turn_passed": (
        ["2"],
        "{seat}'s {decl} at {t} ms came after the next turn had begun ({t_turn} ms) and more than one reaction time after the discard could be seen ({t_visible} ms): invalid.",
        "{seat}於{t}毫秒的{decl}宣言在下一巡目開始({t_turn}毫秒)之後,且距捨牌可被看清({t_visible}毫秒)已超過一個反應時間:無效。",
        "{seat}の{t}ミリ秒の{decl}は次の手番の開始({t_turn}ミリ秒)後で、捨て牌が見えるようになった時({t_visible}ミリ秒)から反応時間を超えていた:無効。",
    ),
    "settlement_begins": (
        ["4"],
        "{seat} declared {decl} at {t} ms: any win declaration, even a false one, moves the hand into SETTLEMENT.",
        "{seat}於{t}毫秒宣告{decl}:任何和了宣言(包括錯和)均令對局進入結算程序。",
        "{seat}は{t}ミリ秒に{decl}を宣言した:和了の宣言は、チョンボであっても局を精算手順に移す。",
    ),
    "call_superseded_ron": (
        ["2"],
        "{seat}'s {decl} at {t} ms is superseded: a ron declared within reaction time takes priority over calls.",
        "{seat}於{t}毫秒的{decl}被取代:在反應時間內宣告的榮和優先於鳴牌。",
        "{seat}の{t}ミリ秒の{decl}は取り消される:反応時間内に宣言されたロンが鳴きに優先する。",
    ),
    "call_priority": (
        ["2"],
        "{winner_seat}'s {decl} at {t} ms, within reaction time, takes priority over {seat}'s {decl2} at {t2} ms.",
        "{winner_seat}於{t}毫秒在反應時間內的{decl}優先於{seat}於{t2}毫秒的{decl2}。",
        "{winner_seat}の{t}ミリ秒の{decl}(反応時間内)は、{seat}の{t2}ミリ秒の{decl2}に優先する。",
    ),
    "call_stands": (
        ["2"],
        "{seat}'s {decl} at {t} ms stands.",
        "{seat}於{t}毫秒的{decl}成立。",
        "{seat}の{t}ミリ秒の{decl}は成立する。",
    ),
    "false_found": (
        ["4"],
        "{seat}'s win declaration at {t} ms was found false: a false win (chombo), penalised.",
        "{seat}於{t}毫秒的和了宣言被確認為錯和:判罰錯和。",
        "{seat}の{t}ミリ秒の和了宣言は誤りと確認された:チョンボとして罰則。",
    ),
    "dead_hand_win": (
        ["1.3", "4"],
        "{seat}'s hand is dead (an uncorrected dealing error), so its win declaration at {t} ms is false: penalised as a false win.",
        "{seat}為相公(配牌錯誤未獲更正),其於{t}毫秒的和了宣言屬錯和:判罰錯和。",
        "{seat}の手はアガリ放棄(訂正されなかった配牌の誤り)のため、{t}ミリ秒の和了宣言は誤り:チョンボとして罰則。",
    ),
    "head_bump": (
        ["3"],
        "Several rons in time and no multiple ron: by head bump, {seat} wins as the first in turn order after the discarder, {discarder_seat}.",
        "多家於反應時間內宣告榮和,而本規則不設多重榮和:按頭跳,由捨牌者{discarder_seat}之後順序最先的{seat}和了。",
        "反応時間内に複数のロンがあり、ダブロンはない:頭ハネにより、打牌者{discarder_seat}の次から順に最初の{seat}が和了する。",
    ),
    "bumped": (
        ["3"],
        "{seat}'s ron at {t} ms was declared in time but is head-bumped by {winner_seat}.",
        "{seat}於{t}毫秒在反應時間內宣告榮和,但被{winner_seat}頭跳。",
        "{seat}の{t}ミリ秒のロンは反応時間内だが、{winner_seat}に頭ハネされる。",
    ),
    "next_priority": (
        ["4"],
        "The declaration with priority, by {false_seat}, was false: {seat}, the next in-time declaration in priority order, wins.",
        "擁有優先權的{false_seat}和了宣言為錯和:由優先次序中下一位在反應時間內宣言的{seat}和了。",
        "優先権のある{false_seat}の宣言は誤りだった:優先順で次の反応時間内の宣言者である{seat}が和了する。",
    ),
    "single_winner": (
        ["4"],
        "{seat} wins by ron on {discarder_seat}'s discard.",
        "{seat}榮和{discarder_seat}的捨牌。",
        "{seat}が{discarder_seat}の打牌でロン和了。",
    ),
    "multiple_winners": (
        ["3"],
        "Multiple ron is allowed (up to {max} winners): {seats} win, in priority order after the discarder, {discarder_seat}.",
        "本規則容許多重榮和(最多{max}家):{seats}和了,按捨牌者{discarder_seat}之後的順序排列。",
        "複数のロンが認められる(最大{max}人):{seats}が打牌者{discarder_seat}からの順に和了する。",
    ),
    "abortive": (
        ["3"],
        "{n} valid rons in time exceed the limit of {max} winners: abortive draw, nobody wins.",
        "反應時間內有效的榮和宣言共{n}家,超過上限{max}家:流局,無人和了。",
        "反応時間内の有効なロン{n}人は上限の{max}人を超える:流局、和了者なし。",
    ),
    "tsumo_winner": (
        ["4"],
        "{seat} wins by self-draw (tsumo) at {t} ms.",
        "{seat}於{t}毫秒自摸和了。",
        "{seat}が{t}ミリ秒にツモ和了。",
    ),
    "no_winner": (
        ["4"],
        "No win declaration stands: nobody wins this hand.",
        "沒有成立的和了宣言:本局無人和了。",
        "成立する和了宣言はない:この局は和了者なし。",
    ),
    "end_play": (
        ["1.2"],
        "At the last event ({t} ms) the hand is in PLAY.",
        "至最後事件({t}毫秒)對局處於摸打程序。",
        "最後の記録({t}ミリ秒)の時点で、局はツモ打ち手順中。",
    ),
    "end_settlement": (
        ["4"],
        "At the last event ({t} ms) the hand is in SETTLEMENT.",
        "至最後事件({t}毫秒)對局處於結算程序。",
        "最後の記録({t}ミリ秒)の時点で、局は精算手順中。",
    ),
    "sanctions": (
        ["5"],
        "The sanction for each penalty comes from the league's penalty catalogue.",
        "各項判罰的罰則依聯賽罰則表決定。",
        "各罰則の内容はリーグの罰則表による。",
    ),
}

WINDS_EN = ("East", "South", "West", "North")
WINDS_ZH = ("東家", "南家", "西家", "北家")
WINDS_JA = ("東家", "南家", "西家", "北家")
LANGS = ("en", "zh", "ja")

# code → (English, Traditional Chinese, Japanese)
ACTS = {
    "touch_wall": ("touched the wall's next tile", "伸手觸及牆頭牌", "山の次の牌に触れた"),
    "draw": ("drew", "摸牌", "ツモった"),
    "discard": ("discarded", "打牌", "打牌した"),
    "call": ("called", "鳴牌", "鳴いた"),
    "chi": ("called chi", "吃牌", "チーした"),
    "pon": ("called pon", "碰牌", "ポンした"),
    "kan": ("called kan", "槓牌", "カンした"),
    "expose": ("exposed the meld", "亮出搭子", "副露を晒した"),
    "ron": ("declared ron", "宣告榮和", "ロンを宣言した"),
    "tsumo": ("declared tsumo", "宣告自摸", "ツモを宣言した"),
    "announce": ("announced", "明確表示", "明確に表明した"),
    "claim_deal_incomplete": ("claimed an incomplete deal", "提出配牌未完成", "配牌未完了を申し出た"),
    "false_win_found": ("was found to have won falsely", "被確認錯和", "チョンボと確認された"),
    "harm": ("was harmed", "受損", "不利益を受けた"),
}
DECLS = {
    "ron": ("ron", "榮和", "ロン"),
    "tsumo": ("tsumo", "自摸", "ツモ"),
    "chi": ("chi", "吃", "チー"),
    "pon": ("pon", "碰", "ポン"),
    "kan": ("kan", "槓", "カン"),
}
KINDS = {
    "short": ("short", "少牌(小相公)", "少牌"),
    "long": ("long", "多牌(大相公)", "多牌"),
}
HARMS = {
    "missed_call": ("missed a call", "錯過鳴牌機會", "鳴きの機会を逃した"),
    "correction_prevented": (
        "could not have a dealing error corrected",
        "未能及時修正配牌相公",
        "配牌の誤りを訂正できなかった",
    ),
}
REASONS = {
    "ratified": ("legal under the retroactive start", "在往回追認下屬合法", "遡及開始により適法"),
    "in_play": ("made during PLAY", "於摸打程序中作出", "ツモ打ち手順中の行為"),
    "dealer_first_draw": (
        "the dealer's first-turn draw, which is allowed",
        "為莊家首巡摸牌(跳牌),不在禁止之列",
        "許されている親の第一ツモ",
    ),
    "not_play_action": ("not a PLAY action", "並非摸打行為", "摸打の行為ではない"),
    "play_start": ("the act that began PLAY", "為令對局進入摸打程序的行動", "ツモ打ち手順を開始させた行為"),
    "announced_turn": (
        "part of the announced turn that began PLAY",
        "屬明確表示後開始摸打程序的巡目",
        "ツモ打ち手順を開始させた表明後の手番の一部",
    ),
}
_TABLES = {"act": ACTS, "decl": DECLS, "decl2": DECLS, "kind": KINDS, "harm": HARMS, "reason": REASONS}
_SEPARATORS = {"en": ", ", "zh": "、", "ja": "、"}


def lang_index(lang: str) -> int:
    """Column of a language in the tables: ``en``, ``zh`` (Traditional Chinese), ``ja``; else English."""
    return LANGS.index(lang) if lang in LANGS else 0


def seat_wind(seat: int, dealer: int) -> int:
    """This hand's wind of a seat (0 East … 3 North): seats are numbered in turn order and the
    dealer is East (ruling contract), so the seat after the dealer is South."""
    return (seat - dealer) % 4


def wind_name(wind: int, lang: str) -> str:
    return (WINDS_EN, WINDS_ZH, WINDS_JA)[lang_index(lang)][wind]


def seat_label(seat: int, dealer: int, lang: str) -> str:
    """A seat named by this hand's wind and its number (the engine knows no player names)."""
    wind = wind_name(seat_wind(seat, dealer), lang)
    if lang == "zh":
        return f"{wind}({seat}號位)"
    if lang == "ja":
        return f"{wind}({seat}番席)"
    return f"seat {seat} ({wind})"


SeatNamer = Callable[[int], str]


def _value(name: str, value: Any, namer: SeatNamer, lang: str) -> str:
    if name == "seats":
        return _SEPARATORS.get(lang, ", ").join(namer(s) for s in value)
    if name.endswith("seat"):
        return namer(value)
    if name in _TABLES:
        return _TABLES[name][value][lang_index(lang)]
    if name == "preset":
        return str(value).upper()
    return str(value)


def line(key: str, **params: Any) -> dict[str, Any]:
    """A structured explanation line; checked against the table at once."""
    if key not in MESSAGES:
        raise KeyError(f"no message {key!r}")
    return {"key": key, "params": params}


def clauses_of(entry: dict[str, Any]) -> list[str]:
    return list(MESSAGES[entry["key"]][0])


def render(entry: dict[str, Any], dealer: int, lang: str = "en", seat_namer: SeatNamer | None = None) -> str:
    """One explanation line in ``lang`` (``en``, ``zh``, ``ja``), citing its clauses.

    ``seat_namer`` (seat → words) replaces the engine's own :func:`seat_label`, so a caller that
    knows the players names each seat exactly as its pages do."""
    clauses = MESSAGES[entry["key"]][0]
    template = str(MESSAGES[entry["key"]][1 + lang_index(lang)])  # (clauses, en, zh, ja): a text
    namer = seat_namer or (lambda seat: seat_label(seat, dealer, lang))
    params = {name: _value(name, value, namer, lang) for name, value in entry["params"].items()}
    text = template.format(**params)
    text = text[:1].upper() + text[1:]
    if lang == "zh":
        return f"{text}(第{'、'.join(clauses)}條)"
    if lang == "ja":
        return f"{text}(第{'、'.join(clauses)}条)"
    cited = ", ".join(clauses)
    return f"{text} (clause{'s' if len(clauses) > 1 else ''} {cited})"

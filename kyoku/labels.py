"""One place that turns codes and enum values into display names in the active language.

Templates use the ``label`` filter (``{% load kyoku_labels %}{{ p.offence|label:"offence" }}``);
Python uses :func:`label`. A code with no entry is shown humanised ("slow_play" → "Slow play"),
never raw; tests/i18n/test_zh_hant_pages.py fails on snake_case left in a page. A league's own
catalogue offences carry their names in the catalogue (``description`` / ``description_zh``):
:func:`offence_label` prefers those for offences this table does not know.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

LABELS: dict[str, dict[Any, object]] = {  # keyed by code (places by number)
    "offence": {
        "early_play_harm": _("Early play that harmed another player"),
        "false_win": _("False win (chombo)"),
        "invalid_call": _("Invalid call"),
        "late_declaration": _("Late declaration"),
        "misdeal": _("Misdeal not corrected in time"),
        "slow_play": _("Slow play"),
        "unsportsmanlike": _("Unsportsmanlike conduct"),
    },
    "sanction": {
        "warning": _("Warning"),
        "yellow_card": _("Yellow card"),
        "red_card": _("Red card"),
        "point_deduction": _("Point deduction"),
        "chombo": _("Chombo"),
        "dead_hand": _("Dead hand"),
    },
    "incident_kind": {
        "deal_error": _("Dealing error (short or long hand)"),
        "early_play": _("Play during the deal"),
        "reaction_time": _("Call or declaration outside reaction time"),
        "head_bump": _("Head bump / several win declarations"),
        "false_win": _("False win"),
        "call_dispute": _("Call priority dispute"),
        "conduct": _("Conduct"),
        "other": _("Other"),
    },
    # the procedure phases of the referee engine (clause 1)
    "phase": {
        "DEAL": pgettext_lazy("procedure phase", "Deal"),
        "PLAY": pgettext_lazy("procedure phase", "Play"),
        "SETTLEMENT": pgettext_lazy("procedure phase", "Settlement"),
    },
    "play_start": {
        "announced": _("announced"),
        "retroactive": _("retroactive"),
        "dealer_first_draw": _("the dealer's first draw"),
    },
    "act": {
        "announce": _("Announce"),
        "touch_wall": _("Touch wall"),
        "draw": _("Draw"),
        "discard": _("Discard"),
        "call": _("Call"),
        "expose": _("Expose meld"),
        "ron": _("Ron"),
        "tsumo": _("Tsumo"),
        "claim_deal_incomplete": _("Claim deal incomplete"),
        "false_win_found": _("False win found"),
        "harm": _("Harm"),
    },
    "event_detail": {
        "settled_t": _("settled (ms)"),
        "visible_t": _("visible (ms)"),
        "kind": _("kind"),
        "by": _("by event #"),
        "short": _("short hand"),
        "long": _("long hand"),
        "chi": _("chi"),
        "pon": _("pon"),
        "kan": _("kan"),
        "missed_call": _("missed a call"),
        "correction_prevented": _("correction prevented"),
    },
    "place": {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")},
    "result_type": {
        "ron": _("Ron"),
        "tsumo": _("Tsumo"),
        "draw": _("Exhaustive draw"),
        "chombo": _("Chombo"),
        "abortive_draw": _("Abortive draw"),
        "nagashi": _("Nagashi mangan"),
    },
}


def _humanise(code: object) -> str:
    text = str(code).replace("_", " ").strip()
    return text[:1].upper() + text[1:].lower() if text.isupper() or "_" in str(code) else text


def label(code: Any, kind: str) -> str:  # any value a template holds (a code, a place number, None)
    """The display name of ``code`` among the ``kind`` values, in the active language."""
    if code is None or code == "":
        return ""
    table = LABELS.get(kind, {})
    key = int(code) if kind == "place" and str(code).isdigit() else code
    if key in table:
        return str(table[key])
    return _humanise(code)


def rank_label(rank: str) -> str:
    """A platform rank in words: ``7-dan`` → 七段 / 7段, ``celestial`` → 魂天; an unknown rank as typed."""
    from django.utils.translation import gettext

    m = re.fullmatch(r"(\d+)-dan", rank or "")
    if m:
        return gettext("%(n)s-dan") % {"n": m.group(1)}
    return str(LABELS["rank"].get(rank, rank or ""))


def _zh() -> bool:
    return (get_language() or "en").lower().startswith("zh")


def offence_label(code: str, catalogue: dict[str, Any] | None = None) -> str:
    """An offence's name. In Chinese the league catalogue's own ``description_zh`` comes first; in
    English this table's short name, else the catalogue's ``description``; else the humanised code."""
    entry = ((catalogue or {}).get("offences") or {}).get(code) or {}
    if _zh() and entry.get("description_zh"):
        zh: str = entry["description_zh"]
        return zh
    if code in LABELS["offence"] or not entry.get("description"):
        return label(code, "offence")
    en: str = entry["description"]
    return en


def choices(kind: str) -> list[tuple[str, object]]:
    """``(code, lazy name)`` pairs for a form's choices (names translated when rendered)."""
    return list(LABELS[kind].items())


# ---------------------------------------------------------------- codes on admin pages (issue 20)
# Platforms, rule presets and systems, and the audit log's actions and object types, shown as words
# in every language instead of their codes (``tenhou``, ``wrc``, ``season.rules_revise``,
# ``league.qualificationapplication``).

LABELS["platform"] = {
    "tenhou": _("Tenhou"),
    "mahjongsoul": _("Mahjong Soul"),
    "league": _("League record"),
}
# the platforms' ranks and rooms (league.qualification orders them); "N-dan" by rank_label
LABELS["rank"] = {
    "1-kyu": _("1-kyu"),
    "tenhoui": _("Tenhou-i"),
    "novice": _("Novice"),
    "adept": _("Adept"),
    "expert": _("Expert"),
    "master": _("Master"),
    "saint": _("Saint"),
    "celestial": _("Celestial"),
}
LABELS["room"] = {
    "general": _("General room"),
    "upper": _("Upper room"),
    "special": _("Special room"),
    "phoenix": _("Phoenix room"),
    "bronze": _("Bronze room"),
    "silver": _("Silver room"),
    "gold": _("Gold room"),
    "jade": _("Jade room"),
    "throne": _("Throne room"),
}
LABELS["preset"] = {
    "wrc": _("WRC"),
    "ema": _("EMA"),
    "mleague": _("M.League"),
    "mahjongsoul": _("Mahjong Soul"),
    "tenhou": _("Tenhou"),
    "jpml": _("JPML"),
}
LABELS["rule_system"] = {
    "riichi": _("Riichi"),
    "zung-jung": _("Zung Jung"),
    "beijing": _("Beijing"),
}
LABELS["audit_object"] = {
    "kyoku.league": _("League"),
    "kyoku.leaguerole": _("League role"),
    # rows written before leagues and roles moved to the platform keep their old type
    "league.league": _("League"),
    "league.leaguerole": _("League role"),
    "league.player": _("Player"),
    "league.ruleset": _("Rule set"),
    "league.season": _("Season"),
    "league.division": _("Division"),
    "league.qualificationtier": _("Tier"),
    "league.qualificationapplication": _("Qualification application"),
    "league.entry": _("Entry"),
    "league.game": _("Game"),
    "league.gameseat": _("Seat"),
    "league.gameresult": _("Game result"),
    "league.penalty": _("Penalty"),
    "league.standing": _("Standing"),
    "scoring.handrecord": _("Hand"),
    "referee.penaltycatalogue": _("Penalty catalogue"),
    "referee.incident": _("Incident"),
    "referee.ruling": _("Ruling"),
    "referee.appeal": _("Appeal"),
    "ratings.playerrating": _("Skill rating"),
    "ratings.ratingevent": _("Rating change"),
    "matchdays.matchday": _("Match day"),
    "matchdays.attendance": _("Attendance"),
    "matchdays.reserve": _("Reserve"),
    "matchdays.substitution": _("Substitution"),
    "matchdays.seatingconstraint": _("Seating constraint"),
    "matchdays.seatingplan": _("Seating"),
    "online.onlineaccount": _("Online account"),
    "online.gameimport": _("Game record import"),
    "online.evidencerecord": _("Game record"),
    "online.evidencecheck": _("Evidence check"),
    "auth.user": _("User"),
    "events.event": _("Tournament"),
    "events.registration": _("Tournament registration"),
    "events.round": _("Tournament round"),
    "events.tablereport": _("Table report"),
}
LABELS["audit_action"] = {
    "season.create": _("Season created"),
    "season.status": _("Season status changed"),
    "season.close": _("Season closed"),
    "season.close_confirmed": _("Season closed with open work"),
    "season.reopen": _("Season reopened"),
    "season.open": _("Season registration opened"),
    "account.close": _("Account closed"),
    "claim.accept": _("Player claimed from an invitation"),
    "claim.invite": _("Invitation to claim a player sent"),
    "claim.resend": _("Invitation to claim a player sent again"),
    "claim.revoke": _("Invitation to claim a player revoked"),
    "events.table_code_guesser_clear": _("Wrong table codes of an address cleared"),
    "invitation.block": _("League's invitations blocked by the player"),
    "invitation.unblock": _("League's invitations accepted again by the player"),
    "league.approve": _("League approved"),
    "league.refuse": _("League refused"),
    "league.second_factor_set": _("Second-factor rule changed"),
    "league.settings": _("League settings changed"),
    "league.start": _("League started"),
    "link_request.create": _("Request to be linked to a player"),
    "link_request.approved": _("Request to be linked to a player approved"),
    "link_request.rejected": _("Request to be linked to a player rejected"),
    "player.self_create": _("Player created by the person"),
    "player.merge": _("Duplicate players merged"),
    "role.accept": _("Role invitation accepted"),
    "role.invite": _("Role invitation sent"),
    "role.invite_resend": _("Role invitation sent again"),
    "role.invite_revoke": _("Role invitation revoked"),
    "role.remove": _("Role removed"),
    "roster.add": _("Member added"),
    "roster.archive": _("Member archived"),
    "roster.edit": _("Member edited"),
    "roster.import": _("Roster imported"),
    "roster.import_preview": _("Roster import previewed"),
    "roster.restore": _("Member restored"),
    "tier.create": _("Qualification tier added"),
    "tier.update": _("Qualification tier changed"),
    "tier.retire": _("Qualification tier retired"),
    "season.rules_revise": _("Rules revised"),
    "season.hands_resettle": _("Hands settled again"),
    "season.results_rescore": _("Results re-scored"),
    "season.promote": _("Promotion and relegation applied"),
    "season.promotion_confirm": _("Promotion and relegation confirmed"),
    "rule_set.create": _("Rule set created"),
    "rule_set.revise": _("Rule set revised"),
    "entry.create": _("Player entered"),
    "entry.remove": _("Entry removed"),
    "game.create": _("Game created"),
    "game.import": _("Game record imported"),
    "game.import_override": _("Game record imported despite differences"),
    "game.hands_finish": _("Game finished from its hands"),
    "game.hands_resettle": _("Game's hands settled again"),
    "game_result.create": _("Result entered"),
    "game_result.replace": _("Result corrected"),
    "hand.add": _("Hand entered"),
    "hand.correct": _("Hand corrected"),
    "hand.delete": _("Hand deleted"),
    "penalty.assign": _("Penalty assigned"),
    "penalty.cancel": _("Penalty cancelled"),
    "penalty_catalogue.create": _("Penalty catalogue created"),
    "penalty_catalogue.revise": _("Penalty catalogue revised"),
    "incident.log": _("Incident logged"),
    "incident.close": _("Incident closed"),
    "ruling.decide": _("Ruling made"),
    "appeal.file": _("Appeal filed"),
    "notifications.preferences": _("Notification choices saved"),
    "notifications.unsubscribe": _("Emails stopped (unsubscribe link)"),
    "notifications.retry": _("Notification sent again"),
    "notifications.channel_add": _("Public channel added"),
    "notifications.channel_remove": _("Public channel removed"),
    "appeal.uphold": _("Appeal decided: ruling upheld"),
    "appeal.reverse": _("Appeal decided: ruling reversed"),
    "application.submit": _("Application submitted"),
    "application.approve": _("Application approved"),
    "application.reject": _("Application rejected"),
    "application.records_attach": _("Game records attached"),
    "online_account.link": _("Online account linked"),
    "online_account.unlink": _("Online account unlinked"),
    "matchday.create": _("Match day created"),
    "attendance.mark": _("Attendance marked"),
    "seating.generate": _("Seating generated"),
    "seating.plan": _("Season seating planned"),
    "seating.swap": _("Seats swapped"),
    "seating.publish": _("Seating published"),
    "seating.republish": _("Seating published again"),
    "substitution.make": _("Substitute seated"),
    "ratings.game_created": _("Ratings updated for a new game"),
    "ratings.game_replaced": _("Ratings updated for a corrected game"),
    "event.create": _("Tournament created"),
    "event.register": _("Registered for the tournament"),
    "event.withdraw": _("Withdrew from the tournament"),
    "event.promote_waiting": _("Moved up from the waiting list"),
    "event.checkin": _("Check-in changed"),
    "event.seat": _("Tournament rounds seated"),
    "event.seat_by_standings": _("Round seated by standings"),
    "event.clock_start": _("Round clock started"),
    "event.clock_pause": _("Round clock paused"),
    "event.clock_resume": _("Round clock resumed"),
    "event.clock_extend": _("Round clock extended"),
    "event.clock_end": _("Round ended"),
    "event.round_end_and_start": _("Round ended and the next one started"),
    "event.table_report": _("Table reported its result"),
    "event.table_confirm": _("Table result confirmed by a seat"),
    "event.table_report_differs": _("Different scores reported: table disputed"),
    "event.table_dispute": _("Table result disputed"),
    "event.table_result": _("Table result entered by the desk"),
    "event.status": _("Tournament status changed"),
    "event.round_schedule": _("Round start time set"),
    "event.cut_decide": _("Tie at the cut decided"),
    "game.hand_details": _("A record's hand details kept (yaku, dora, calls)"),
    "stats.recompute": _("Statistics rebuilt from the hands and results"),
    "event.time_up": _("Time up: each table's last hand stored"),
    "event.late_arrival": _("Late arrival seated"),
    "player.name_confirm": _("Name split into family and given name confirmed"),
    "player.name_unconfirm": _("Name changed: its split needs confirming again"),
    "membership.grant": _("Joined the league"),
    "invitation.create": _("Invited to a season"),
    "invitation.accept": _("Invitation accepted"),
    "invitation.decline": _("Invitation declined"),
}
LABELS["table_status"] = {
    "waiting": pgettext_lazy("table", "Not started"),
    "playing": pgettext_lazy("table", "Playing"),
    "pending": pgettext_lazy("table", "Waiting for confirmation"),
    "disputed": pgettext_lazy("table", "Disputed"),
    "done": pgettext_lazy("table", "Finished"),
}
LABELS["tiebreak"] = {  # events.ranking.TIEBREAKS
    "firsts": _("Most first places"),
    "places": _("Best average place"),
    "best_game": _("Best single game"),
    "fewest_fourths": _("Fewest fourth places"),
}
LABELS["event_stage"] = {  # events.models.Round.Stage
    "qualifying": pgettext_lazy("event stage", "qualifying rounds"),
    "semi_final": pgettext_lazy("event stage", "semi-final"),
    "final": pgettext_lazy("event stage", "final"),
}
LABELS["cut_method"] = {  # events.models.CutDecision.Method
    "playoff": _("Playoff hand"),
    "lots": _("Draw of lots"),
    "other": _("Other (see the note)"),
}
LABELS["clock_state"] = {
    "waiting": pgettext_lazy("clock", "Not started"),
    "running": pgettext_lazy("clock", "Running"),
    "paused": pgettext_lazy("clock", "Paused"),
    "time_up": pgettext_lazy("clock", "Time is up"),
    "ended": pgettext_lazy("clock", "Round over"),
}
LABELS["audit_admin_verb"] = {
    "add": pgettext_lazy("site admin", "added"),
    "change": pgettext_lazy("site admin", "changed"),
    "delete": pgettext_lazy("site admin", "deleted"),
}


def audit_action_label(action: str) -> str:
    """An audit row's action in words. Codes made up of parts (``admin.<model>.<change>``,
    ``ratings.<reason>``) are worded from their parts; an unknown code is humanised, never raw."""
    if action in LABELS["audit_action"]:
        return str(LABELS["audit_action"][action])
    head, _sep, rest = action.partition(".")
    if head == "admin" and rest:
        model, _sep, verb = rest.rpartition(".")
        return str(_("In the site admin: %(object)s %(verb)s")) % {
            "object": audit_object_label(model),
            "verb": label(verb, "audit_admin_verb"),
        }
    if head == "ratings":
        return str(_("Ratings recomputed"))
    return _humanise(action.replace(".", "_"))


def audit_object_label(object_type: str) -> str:
    """An audit row's object type in words: ``league.game`` or a bare model name (``game``, as the
    site admin's actions name it)."""
    if "." not in object_type:
        object_type = next((key for key in LABELS["audit_object"] if key.endswith("." + object_type)), object_type)
    return label(object_type, "audit_object")


def rule_set_notes_words(rule_set: Any) -> str:
    """A rule set version's notes; the note the system writes when a season copies a template
    ("copied from WRC (template) v1", stored in English) in the reader's language.

    ``rule_set`` is the league app's RuleSet (the platform does not import it)."""
    notes: str = rule_set.notes or ""
    if notes.startswith("copied from "):
        return str(_("Copied from the league's %(preset)s template")) % {"preset": label(rule_set.preset, "preset")}
    return notes


# ---------------------------------------------------------------- false-win reasons (錯和)
# The engines give each reason a code with English and Chinese text; pages and the API add the
# reader's words from the code here, so every language (Japanese included) reads the same reason.
LABELS["false_win_reason"] = {
    # riichi
    "bad_declaration": _("The declaration is malformed."),
    "ron_from_self": _("A ron cannot be on the declarer's own discard."),
    "invalid_tiles": _("The tiles cannot be read, or their number is wrong."),
    "incomplete": _("The tiles are not a complete hand."),
    "no_yaku": _("No yaku, or fewer han than the minimum (dora do not count)."),
    "furiten_discards": _("Furiten: one of the declarer's own discards is among the waits."),
    "furiten_temporary": _("Furiten: a waiting tile was passed since the declarer's last draw."),
    "furiten_riichi": _("Furiten: a waiting tile was passed after riichi."),
    "dead_hand": _("The declarer's hand is dead."),
    # Zung Jung
    "incomplete_hand": _("The hand is not complete (four sets and a pair, seven pairs or thirteen terminals)."),
    "below_min_points": _("The hand scores fewer points than the minimum to win."),
    # Beijing
    "wildcard_discarded": _("The declarer discarded a wildcard (混) this hand and forfeited winning."),
    "tile_count": _("Wrong number of tiles: winning is forfeited."),
    "wildcard_in_meld": _("A meld containing a wildcard (混) cannot be claimed or exposed."),
    "not_complete": _("Not a complete hand (four sets and a pair, or seven pairs)."),
    "open_hand_discard": _("After a chow, pong or exposed kong the hand wins only by self-draw."),
    "discarded_wildcard_win": _("No one can win on a discarded wildcard (混)."),
    "three_wildcards_discard": _("With three wildcards (混) in hand a player wins only by self-draw."),
    "hunyou_discard": _("A wildcard single wait (混悠) wins only by self-draw."),
    "qidui_not_concealed": _("Seven pairs needs a concealed hand."),
    "gangkai_discard": _("A win on a kong replacement (槓開) is always a self-draw."),
    "furiten_passed": _("The declarer passed a winnable discard and cannot win on a discard before their next turn."),
    "duanmen": _("The hand must lack one of the three number suits (斷門)."),
    "claim_limit": _("More than one chow or pong this hand."),
    "qianggang_not_added": _("Only an added kong can be robbed."),
}


def false_win_reasons_words(reasons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The engine's reasons with ``words``: the reason in the reader's language (the engine's own
    English message stays for detail, e.g. which tile)."""
    return [{**r, "words": label(r.get("code", ""), "false_win_reason")} for r in reasons]

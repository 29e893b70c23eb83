"""The three procedures of a hand (clause 1): when PLAY begins, early actions, corrections.

Pure functions over validated events (see ``validate.py``). Times are compared with the
boundary inclusive: an act or claim at the very instant another one happens counts as
simultaneous, so a claim at the same ``t`` as the act that would begin PLAY blocks (announced
start) or precedes (retroactive start) it.
"""

from __future__ import annotations

from typing import Any

from .messages import line

PLAY_ACTS = ("touch_wall", "draw", "discard", "call", "expose")
WIN_ACTS = ("ron", "tsumo")


def north_of(dealer: int) -> int:
    return (dealer + 3) % 4


def _qualifies(ev: dict[str, Any], dealer: int) -> bool:
    """Is ``ev`` the act that follows an announcement (clause 1.2.1)?

    The dealer discards; a non-dealer touches the wall's next tile (a recorded ``draw`` implies
    the touch); a caller exposes the meld.
    """
    act: str = ev["act"]
    if act == "expose":
        return True
    if ev["seat"] == dealer:
        return act == "discard"
    return act in ("touch_wall", "draw")


def _north_first_turn(ev: dict[str, Any], north: int) -> bool:
    """North acting on North's first turn (clause 1.2.2): touching the wall (a draw implies it),
    or after a call exposing / discarding. Only evaluated while the hand is in DEAL, so the first
    such act is the one on North's first turn."""
    return ev["seat"] == north and ev["act"] in ("touch_wall", "draw", "expose", "discard")


def walk(events: list[dict[str, Any]], dealer: int, rt: int) -> dict[str, Any]:
    """Chronological walk through DEAL → PLAY → SETTLEMENT.

    Returns ``{"state", "play_start", "play_started_t", "trigger", "settle", "transition",
    "lines"}`` where ``trigger`` is the index of the act that began PLAY, ``settle`` the index of
    the first win declaration, ``transition`` the index of the event that took the hand out of
    DEAL (``trigger`` or ``settle``).
    """
    north = north_of(dealer)
    state = "DEAL"
    play_start = None
    play_t = None
    trigger = None
    settle = None
    transition = None
    announce = None
    pending: dict[int, int] = {}  # seat → index of its pending announcement
    first_dealer_discard = None
    lines: list[dict[str, Any]] = []

    for ev in events:
        i, t, act, seat = ev["i"], ev["t"], ev["act"], ev["seat"]
        if act == "discard" and seat == dealer and first_dealer_discard is None:
            first_dealer_discard = i
        if state == "DEAL":
            if act == "announce":
                pending[seat] = i
            elif act in PLAY_ACTS:
                if seat in pending and _qualifies(ev, dealer):
                    a = pending.pop(seat)
                    ta = events[a]["t"]
                    gap = t - ta
                    blocking = [e for e in events[a + 1 :] if e["t"] <= t and e["act"] == "claim_deal_incomplete"]
                    if gap < rt:
                        lines.append(line("announce_too_early", seat=seat, t_announce=ta, act=act, t=t, gap=gap, rt=rt))
                    elif blocking:
                        c = blocking[0]
                        lines.append(
                            line(
                                "announce_blocked",
                                seat=seat,
                                t_announce=ta,
                                claimant_seat=c["seat"],
                                t_claim=c["t"],
                                act=act,
                                t=t,
                            )
                        )
                    else:
                        state, play_start, play_t, trigger, announce = "PLAY", "announced", t, i, a
                        lines.append(line("play_announced", seat=seat, t_announce=ta, gap=gap, act=act, t=t))
                if state == "DEAL" and _north_first_turn(ev, north):
                    state, play_start, trigger = "PLAY", "retroactive", i
                    if first_dealer_discard is not None:
                        play_t = events[first_dealer_discard]["t"]
                        lines.append(
                            line("play_retroactive", seat=seat, act=act, t=t, dealer_seat=dealer, t_start=play_t)
                        )
                    else:
                        play_t = t
                        lines.append(line("play_retroactive_no_discard", seat=seat, act=act, t=t))
                if state == "PLAY":
                    transition = i
        if act in WIN_ACTS and settle is None:
            if state == "DEAL":
                lines.append(line("deal_to_settlement", seat=seat, decl=act, t=t))
                transition = i
            state = "SETTLEMENT"
            settle = i

    if trigger is None and settle is None:
        for seat, a in sorted(pending.items(), key=lambda kv: kv[1]):
            lines.append(line("announce_unfinished", seat=seat, t_announce=events[a]["t"]))
        lines.append(line("still_deal", t=events[-1]["t"] if events else 0))
    return {
        "state": state,
        "play_start": play_start,
        "play_started_t": play_t,
        "trigger": trigger,
        "announce": announce,
        "settle": settle,
        "transition": transition,
        "first_dealer_discard": first_dealer_discard,
        "lines": lines,
    }


def early_actions(events: list[dict[str, Any]], dealer: int, tl: dict[str, Any]) -> dict[int, str]:
    """Status of every PLAY action taken before the hand left DEAL (clause 1.1).

    ``{event index: "early" | "ratified" | "dealer_first_draw" | "play_start" | "announced_turn"}``; PLAY actions
    after the transition are absent (legal, or matters for SETTLEMENT).
    """
    out: dict[int, str] = {}
    tr = tl["transition"]
    first_discard = tl["first_dealer_discard"]
    for ev in events:
        i = ev["i"]
        if ev["act"] not in PLAY_ACTS or (tr is not None and i > tr):
            continue
        if i == tl["trigger"]:
            out[i] = "play_start"
        elif tl["announce"] is not None and tl["announce"] < i and ev["seat"] == events[tl["trigger"]]["seat"]:
            out[i] = "announced_turn"  # e.g. the call between "I am about to call" and exposing
        elif (
            ev["seat"] == dealer
            and ev["act"] in ("draw", "touch_wall")
            and (first_discard is None or i < first_discard)
        ):
            out[i] = "dealer_first_draw"
        elif tl["play_start"] == "retroactive":
            out[i] = "ratified"
        else:
            out[i] = "early"
    return out


def corrections(
    events: list[dict[str, Any]],
    tl: dict[str, Any],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """One correction per claim of an incomplete deal (clauses 1.2, 1.3).

    Allowed iff the hand was still in DEAL at the claim (a claim at the same instant as the
    transition counts as in time). Returns ``(corrections, lines, refused claim indexes)``.
    """
    out, lines, refused = [], [], []
    tr = tl["transition"]
    t_tr = events[tr]["t"] if tr is not None else None
    for ev in events:
        if ev["act"] != "claim_deal_incomplete":
            continue
        allowed = tr is None or ev["i"] < tr or ev["t"] <= t_tr
        out.append({"seat": ev["seat"], "allowed": allowed, "clauses": ["1.2", "1.3"]})
        if allowed:
            lines.append(line("correction_allowed", seat=ev["seat"], kind=ev["kind"], t=ev["t"]))
        else:
            refused.append(ev["i"])
            if tr == tl["settle"]:
                key = "correction_refused_settlement"
            elif tl["play_start"] == "retroactive":
                key = "correction_refused_retroactive"
            else:
                key = "correction_refused_play"
            lines.append(line(key, seat=ev["seat"], kind=ev["kind"], t=ev["t"], t_transition=t_tr))
    return out, lines, refused

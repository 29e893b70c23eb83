"""Calls and win declarations on a discard: reaction time, priority, head bump, false wins
(clauses 2, 3, 4).

Every call (chi/pon/kan on a discard) and ron belongs to the latest discard before it. For that
discard the reaction window opens at the later of the first declaration on it and the moment
the tile lay face up and released (``settled_t``; with ``visible: false`` the moment it could be
seen) and closes ``reaction_time_ms`` later, inclusive. The first declaration is always inside
its own window; it is late only if the next turn had begun (a draw / touch of the wall) and more
than one reaction time had passed since the tile could be seen.
"""

from __future__ import annotations

from typing import Any

from .messages import line

CALL_RANK = {"pon": 0, "kan": 0, "chi": 1}


def _groups(events: list[dict[str, Any]]) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    last = None
    for ev in events:
        if ev["act"] == "discard":
            last = ev
        elif ev["act"] == "ron" or ev["act"] == "call":
            if last is None or last["seat"] == ev["seat"]:
                continue  # a kan on one's own turn, not a claim on a discard
            groups.setdefault(last["i"], []).append(ev["i"])
    return groups


def resolve(
    events: list[dict[str, Any]], settings: dict[str, Any], tl: dict[str, Any], dead_seats: set[int]
) -> dict[str, Any]:
    rt = settings["reaction_time_ms"]
    settle = tl["settle"]
    t_settle = events[settle]["t"] if settle is not None else None
    lines: list[dict[str, Any]] = []
    invalid: list[int] = []
    superseded: list[int] = []
    calls: list[dict[str, Any]] = []
    in_time: dict[int, list[int]] = {}
    settle_group = None

    for d, decls in sorted(_groups(events).items()):
        disc = events[d]
        discarder = disc["seat"]
        v = disc["settled_t"]
        t1 = events[decls[0]]["t"]
        open_t = max(t1, v)
        close = open_t + rt
        lines.append(
            line(
                "window" if disc["visible"] else "window_hidden",
                discarder_seat=discarder,
                t_discard=disc["t"],
                t_visible=v,
                t_first=t1,
                open=open_t,
                close=close,
            )
        )
        if settle in decls:
            settle_group = d
        ok: list[int] = []
        for k in decls:
            ev = events[k]
            decl = ev["act"] if ev["act"] == "ron" else ev["kind"]
            if k == settle and tl["transition"] != settle:
                lines.append(line("settlement_begins", seat=ev["seat"], decl="ron", t=ev["t"]))
            turn = next((e for e in events[d + 1 : k] if e["act"] in ("draw", "touch_wall")), None)
            params = dict(seat=ev["seat"], decl=decl, t=ev["t"])
            if settle is not None and settle < k and settle not in decls:
                lines.append(line("decl_after_settlement", **params, t_settle=t_settle))
            elif ev["t"] > close and settle is not None and settle < k:
                lines.append(line("decl_late_settlement", **params, t_settle=t_settle, close=close))
            elif ev["t"] > close:
                lines.append(line("decl_late", **params, close=close))
            elif turn is not None and ev["t"] > v + rt:
                lines.append(line("decl_turn_passed", **params, t_turn=turn["t"], t_visible=v))
            else:
                ok.append(k)
                continue
            invalid.append(k)
            if ev["act"] == "call":
                calls.append({"event": k, "seat": ev["seat"], "kind": ev["kind"], "status": "invalid"})
        in_time[d] = ok

        ok_calls = [k for k in ok if events[k]["act"] == "call"]
        ok_rons = [k for k in ok if events[k]["act"] == "ron"]
        if ok_calls:
            if ok_rons:
                for k in ok_calls:
                    ev = events[k]
                    superseded.append(k)
                    calls.append({"event": k, "seat": ev["seat"], "kind": ev["kind"], "status": "superseded"})
                    lines.append(line("call_superseded_ron", seat=ev["seat"], decl=ev["kind"], t=ev["t"]))
            elif settle is not None and settle < ok_calls[0] and settle not in decls:
                pass  # unreachable: such calls are already invalid
            else:
                best = min(
                    ok_calls, key=lambda k: (CALL_RANK[events[k]["kind"]], (events[k]["seat"] - discarder) % 4, k)
                )
                b = events[best]
                calls.append({"event": best, "seat": b["seat"], "kind": b["kind"], "status": "stands"})
                for k in ok_calls:
                    if k == best:
                        continue
                    ev = events[k]
                    superseded.append(k)
                    calls.append({"event": k, "seat": ev["seat"], "kind": ev["kind"], "status": "superseded"})
                    lines.append(
                        line(
                            "call_priority",
                            winner_seat=b["seat"],
                            decl=b["kind"],
                            t=b["t"],
                            seat=ev["seat"],
                            decl2=ev["kind"],
                            t2=ev["t"],
                        )
                    )
                lines.append(line("call_stands", seat=b["seat"], decl=b["kind"], t=b["t"]))

    # false win declarations: found false, or made with a dead hand
    false: dict[int, str] = {}
    for ev in events:
        if ev["act"] == "false_win_found":
            false.setdefault(ev["declaration"], "false_found")
    for ev in events:
        if ev["act"] in ("ron", "tsumo") and ev["seat"] in dead_seats:
            false.setdefault(ev["i"], "dead_hand_win")
    penalties = []
    for k in sorted(false):
        ev = events[k]
        lines.append(line(false[k], seat=ev["seat"], t=ev["t"], event=k))
        penalties.append({"seat": ev["seat"], "offence": "false_win", "clauses": ["4"], "event": k})

    winners: list[int] = []
    abortive = False
    if settle is not None:
        s = events[settle]
        if s["act"] == "tsumo":
            if tl["transition"] != settle:
                lines.append(line("settlement_begins", seat=s["seat"], decl="tsumo", t=s["t"]))
            if settle in false:
                lines.append(line("no_winner"))
            else:
                winners = [s["seat"]]
                lines.append(line("tsumo_winner", seat=s["seat"], t=s["t"]))
        else:
            assert settle_group is not None  # a ron settles a discard, whose declarations form a group
            discarder = events[settle_group]["seat"]
            seen, cand = set(), []
            for k in in_time[settle_group]:
                ev = events[k]
                if ev["act"] == "ron" and ev["seat"] not in seen:
                    seen.add(ev["seat"])
                    cand.append(k)
            cand.sort(key=lambda k: (events[k]["seat"] - discarder) % 4)
            true = [k for k in cand if k not in false]
            if not true:
                lines.append(line("no_winner"))
            elif not settings["multiple_ron"]:
                w = events[true[0]]
                winners = [w["seat"]]
                if cand[0] != true[0]:
                    lines.append(line("next_priority", false_seat=events[cand[0]]["seat"], seat=w["seat"]))
                elif len(cand) > 1:
                    lines.append(line("head_bump", seat=w["seat"], discarder_seat=discarder))
                else:
                    lines.append(line("single_winner", seat=w["seat"], discarder_seat=discarder))
                for k in true[1:]:
                    lines.append(line("bumped", seat=events[k]["seat"], t=events[k]["t"], winner_seat=w["seat"]))
            elif len(true) > settings["max_ron_winners"]:
                abortive = True
                lines.append(line("abortive", n=len(true), max=settings["max_ron_winners"]))
            elif len(true) > 1:
                winners = [events[k]["seat"] for k in true]
                lines.append(
                    line("multiple_winners", max=settings["max_ron_winners"], seats=winners, discarder_seat=discarder)
                )
            else:
                winners = [events[true[0]]["seat"]]
                if cand[0] != true[0]:
                    lines.append(line("next_priority", false_seat=events[cand[0]]["seat"], seat=winners[0]))
                else:
                    lines.append(line("single_winner", seat=winners[0], discarder_seat=discarder))

    calls.sort(key=lambda c: c["event"])
    return {
        "winners": winners,
        "invalid": invalid,
        "superseded": sorted(superseded),
        "calls": calls,
        "penalties": penalties,
        "abortive": abortive,
        "lines": lines,
    }

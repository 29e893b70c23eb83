"""Stored settlements gain the engine's payment ``reason`` objects (issue 21).

A settlement is derived data, and the engine now writes a machine-readable ``reason`` beside each
payment's and penalty's English ``why`` (pages translate the reason). The hands stored before have
only the ``why``. They are *annotated*, not re-settled: a re-settle needs each season's resolved
rules and would also rewrite anything else the engine computes differently today, and a closed
season's hands must not change. The reason of each stored line follows from the rest of the stored
settlement (a riichi winner's han, fu, yakuman and limit; a Zung Jung band; a Beijing share), the
hand's record (its honba) and the line's own ``why``, matched whole against the texts the engine
wrote for those values (English texts of the engine as of this migration, frozen here: later engine
changes do not alter what this migration does). A line whose reason cannot be told is left as it
was (pages show no reason for it, as before). Key order follows the engine's, so a later season
re-settle finds the annotated settlement identical to its own and leaves the row alone; the digest
of each annotated hand is recomputed.

Reverse: nothing to undo (a reason beside the why is harmless to older code)."""

from django.db import migrations

BATCH = 1000

# ------------------------------------------------------------------------------------ riichi

_LIMIT_CODES = {
    "": None,
    "mangan": "mangan",
    "haneman": "haneman",
    "baiman": "baiman",
    "sanbaiman": "sanbaiman",
    "kazoe yakuman": "kazoe_yakuman",
}
_RIICHI_FIXED = {
    "riichi deposit": {"code": "riichi_deposit"},
    "riichi deposits": {"code": "deposits"},
    "own riichi deposit back": {"code": "riichi_deposit_back"},
    "noten payment": {"code": "noten"},
    "nagashi mangan": {"code": "nagashi_mangan"},
    "chombo": {"code": "chombo"},
    "chombo (reverse mangan)": {"code": "chombo_reverse_mangan"},
}
_PAO_SUFFIXES = {
    " (pao: liable half)": "liable_half",
    " (pao: discarder half)": "discarder_half",
    " (yakuman not under pao)": "not_liable",
    " (pao: liable pays all)": "liable_all",
    " (pao: liable yakuman)": "liable_yakuman",
}


def _riichi_win(how, w):
    han, fu, yakuman, limit = w.get("han"), w.get("fu"), w.get("yakuman") or 0, w.get("limit") or ""
    if yakuman:
        return f"{how} {limit}", {"code": "win", "how": how, "yakuman": yakuman, "limit": "yakuman"}
    if fu is None:
        text = f"{how} {han} han {limit}"
    elif limit:
        text = f"{how} {han} han {fu} fu {limit}"
    else:
        text = f"{how} {han} han {fu} fu"
    reason = {"code": "win", "how": how, "han": han}
    if fu is not None:
        reason["fu"] = fu
    code = _LIMIT_CODES.get(limit, limit)
    if code:
        reason["limit"] = code
    return text, reason


def riichi_reasons(settlement: dict, record: dict) -> dict:
    """why text → reason for the lines of one stored riichi settlement."""
    table: dict[str, dict] = dict(_RIICHI_FIXED)
    honba = record.get("honba", 0) if isinstance(record, dict) else 0
    if type(honba) is int:
        table[f"{honba} honba"] = {"code": "honba", "count": honba}
        table[f"{honba} honba (pao)"] = {"code": "honba", "count": honba, "share": "liable_all"}
    how = settlement.get("type")
    if how in ("ron", "tsumo"):
        for w in settlement.get("winners") or ():
            if isinstance(w, dict):
                text, reason = _riichi_win(how, w)
                table[text] = reason
                for suffix, share in _PAO_SUFFIXES.items():
                    table[text + suffix] = {**reason, "share": share}
    return table


def _riichi(settlement: dict, record: dict) -> bool:
    table = None
    changed = False
    for line in (*settlement.get("payments", ()), *settlement.get("penalties", ())):
        if isinstance(line, dict) and "reason" not in line:
            table = table or riichi_reasons(settlement, record)
            reason = table.get(line.get("why"))
            if reason is not None:
                line["reason"] = reason
                changed = True
    return changed


# ------------------------------------------------------------------------------- Zung Jung


def _band_cause(why: str):
    if why.startswith("self-draw, value "):
        return "self_draw"
    if why.startswith("uniform payoff scheme, value "):
        return "uniform"
    if why.startswith("discard by seat "):
        return "discard"
    if why.startswith("winner's own earlier "):
        return "own_earlier"
    if why.startswith("seat ") and " first (same-turn immunity), value " in why:
        return "first_discard"
    if why.startswith("seat "):
        return "earlier_discard"
    return None


def _zung_jung(settlement: dict) -> bool:
    """Lines come band after band (a band's lines add up to 3 × its width): a SELF band as three
    shared lines; a liable band as three lines up to par (if any) then one above par (if any)."""
    lines = settlement.get("payments") or []
    if not lines or any(not isinstance(x, dict) or "reason" in x for x in lines):
        return False
    value = settlement.get("value")
    out, i = [], 0
    for band in settlement.get("bands") or ():
        a, b, why = band.get("from"), band.get("to"), band.get("why") or ""
        cause = _band_cause(why)
        if cause is None or type(a) is not int or type(b) is not int:
            return False
        mine, paid = [], 0
        while i < len(lines) and paid < 3 * (b - a):
            mine.append(lines[i])
            paid += lines[i].get("points") or 0
            i += 1
        if paid != 3 * (b - a) or len(mine) not in (1, 3, 4):
            return False
        base = {"code": "band", "cause": cause, "value": value}
        if cause in ("discard", "earlier_discard", "first_discard"):
            base["seat"] = band.get("seat")
        for n, line in enumerate(mine):
            pts = line.get("points") or 0
            if band.get("kind") == "self":
                reason = {**base, "split": "shared", "band": [a, b]}
            elif len(mine) == 1 or n == 3:
                reason = {**base, "split": "above_par", "band": [b - pts // 3, b]}
            else:
                reason = {**base, "split": "below_par", "band": [a, a + pts]}
            out.append(reason)
    if i != len(lines):
        return False
    for line, reason in zip(lines, out):
        line["reason"] = reason
    return True


# --------------------------------------------------------------------------------- Beijing


def _beijing(settlement: dict) -> bool:
    winners = {w.get("seat"): w for w in settlement.get("winners") or () if isinstance(w, dict)}
    taken: dict = {}
    changed = False
    for line in settlement.get("payments") or ():
        if not isinstance(line, dict) or "reason" in line:
            continue
        why = line.get("why") or ""
        reason: dict | None = None
        if why == "chombo (false win): fixed penalty":
            reason = {"code": "chombo"}
        elif why.startswith("chombo (false win), reverse payment: "):
            reason = {"code": "chombo_reverse"}
        elif why == "焼荘 (four identical first discards): dealer's penalty":
            reason = {"code": "shaozhuang"}
        elif line.get("to") in winners:
            shares = winners[line["to"]].get("shares") or []
            if why.startswith("包 (3 claims"):
                total = sum(s.get("total") or 0 for s in shares)
                times = (line.get("points") or 0) // total if total else 1
                reason = {"code": "bao", "times": times, "total": total}
            else:
                k = taken.get(line["to"], 0)
                taken[line["to"]] = k + 1
                if k < len(shares):
                    s = shares[k]
                    reason = {
                        "code": "share",
                        "seat": s.get("seat"),
                        "hand": s.get("hand"),
                        "kong": s.get("kong"),
                        "fixed": s.get("fixed"),
                    }
                    if why.startswith("点炮包荘: "):
                        reason["liability"] = "discarder"
                    elif why.startswith("搶槓包: "):
                        reason["liability"] = "robbed_kong"
        if reason is not None:
            line["reason"] = reason
            changed = True
    return changed


def annotate(settlement, record) -> bool:
    """Add the reasons a stored settlement lacks; True when it changed."""
    if not isinstance(settlement, dict):
        return False
    system = settlement.get("system")
    if system == "riichi":
        return _riichi(settlement, record)
    if system == "zung-jung":
        return _zung_jung(settlement)
    if system == "beijing":
        return _beijing(settlement)
    return False


def forward(apps, schema_editor):
    from scoring.engine.replay import derived_digest, encode

    HandRecord = apps.get_model("scoring", "HandRecord")
    batch = []
    rows = HandRecord.objects.only("id", "record", "settlement", "scores_after", "derived_digest").order_by("id")
    for hand in rows.iterator(chunk_size=BATCH):
        if annotate(hand.settlement, hand.record):
            hand.derived_digest = derived_digest(encode(hand.settlement), encode(hand.scores_after))
            batch.append(hand)
            if len(batch) >= BATCH:
                HandRecord.objects.bulk_update(batch, ["settlement", "derived_digest"])
                batch = []
    if batch:
        HandRecord.objects.bulk_update(batch, ["settlement", "derived_digest"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_hand_derived_json")]
    operations = [migrations.RunPython(forward, migrations.RunPython.noop, elidable=True)]

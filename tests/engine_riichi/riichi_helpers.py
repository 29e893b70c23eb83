"""Shared helpers (no Django)."""

from scoring.engine.riichi import resolve, settle

_CACHE = {}


def opts(preset="wrc", **over):
    key = (preset, tuple(sorted((k, repr(v)) for k, v in over.items())))
    if key not in _CACHE:
        _CACHE[key] = resolve({"preset": preset, **over})
    return _CACHE[key]


def run(record, preset="wrc", **over):
    return settle(record, opts(preset, **over))


def ron(frm, *winners, dealer=0, honba=0, deposits=0, riichi=(), preset="wrc", **over):
    rec = {
        "dealer": dealer,
        "honba": honba,
        "deposits": deposits,
        "riichi": list(riichi),
        "result": {"type": "ron", "from": frm, "winners": list(winners)},
    }
    return run(rec, preset, **over)


def tsumo(winner, dealer=0, honba=0, deposits=0, riichi=(), preset="wrc", **over):
    rec = {
        "dealer": dealer,
        "honba": honba,
        "deposits": deposits,
        "riichi": list(riichi),
        "result": {"type": "tsumo", "winner": winner},
    }
    return run(rec, preset, **over)


def check_payments(out):
    """payments explain deltas exactly."""
    d = [0, 0, 0, 0]
    for p in out["payments"]:
        assert p["points"] > 0 and p["points"] % 100 == 0, p
        if p["from"] is not None:
            d[p["from"]] -= p["points"]
        if p["to"] is not None:
            d[p["to"]] += p["points"]
    assert d == out["deltas"], (d, out)

"""Benchmark: riichi settlement throughput, against the ``mahjong`` package (2.1.0).

    .venv/bin/python bench/settle.py [N]

1. builds N (default 100,000) varied riichi records: ron (single, double / triple under
   EMA and Tenhou, head bump elsewhere), tsumo, pao, exhaustive draws (with nagashi under
   Tenhou), abortive draws, chombo; presets wrc, ema, mleague, tenhou, jpml;
2. times ``scoring.engine.settle`` over all of them (dispatch caches the resolved rules);
3. times the han/fu *winning* hands of the same set both through ``scoring.engine.settle``
   and through ``mahjong.hand_calculating.scores.ScoresCalculator().calculate_scores``
   priced the way a caller must: one ``HandConfig`` per hand (win type, seat wind, honba,
   deposits), with ``OptionalRules`` built once per rule set;
4. prints the rates and the ratio (ours / mahjong) on the common hands.

Times are process CPU time (best of 5), so a busy shared machine does not skew them.

Note the two are not doing the same work: ``settle`` validates the record and produces
deltas, payment lines, riichi deposits, dealer rotation and honba; ``calculate_scores``
only prices one hand.
"""

from __future__ import annotations

import gc
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

PRESET_NAMES = ["wrc", "ema", "mleague", "tenhou", "jpml"]
FU_BY_HAN = {
    1: [30, 40, 50, 60, 70, 80, 90, 100, 110],
    2: [25, 30, 40, 50, 60, 70],
    3: [25, 30, 40, 50, 60],
    4: [25, 30, 40],
}


def _winner(rng, seat, tsumo):
    r = rng.random()
    if r < 0.03:
        return {"seat": seat, "yakuman": 1}
    if r < 0.20:
        return {"seat": seat, "han": rng.randint(5, 13)}
    han = rng.choice((1, 1, 2, 2, 3, 3, 4))
    fus = FU_BY_HAN[han]
    if tsumo and han >= 2 and rng.random() < 0.2:
        fu = 20
    else:
        fu = rng.choice(fus)
        if fu == 25 and han < 2:
            fu = 30
    return {"seat": seat, "han": han, "fu": fu}


def _abortive_reasons() -> dict[str, list[str]]:
    """Per preset, the abortive draws it plays (of those these records can state alone)."""
    from scoring.engine import riichi

    return {
        name: [
            r
            for r in ("nine_terminals", "four_winds", "four_kans")
            if r in (riichi.resolve({"preset": name}).get("abortive_draws") or [])
        ]
        for name in PRESET_NAMES
    }


def build_records(n: int, seed: int = 7) -> list[dict]:
    abortive = _abortive_reasons()
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        preset = rng.choice(PRESET_NAMES)
        dealer = rng.randrange(4)
        rec = {
            "rules": preset,
            "dealer": dealer,
            "honba": rng.choice((0, 0, 0, 1, 2, 3)),
            "deposits": rng.choice((0, 0, 1, 2)),
            "riichi": rng.sample(range(4), rng.choice((0, 0, 1, 1, 2))),
        }
        kind = rng.random()
        if kind < 0.50:
            frm = rng.randrange(4)
            others = [s for s in range(4) if s != frm]
            k = 1 if rng.random() < 0.92 else rng.choice((2, 2, 3))
            winners = [_winner(rng, s, False) for s in rng.sample(others, k)]
            if rng.random() < 0.01 and winners[0].get("yakuman"):
                winners[0]["pao"] = rng.choice([s for s in range(4) if s != winners[0]["seat"]])
            rec["result"] = {"type": "ron", "from": frm, "winners": winners}
        elif kind < 0.82:
            w = _winner(rng, rng.randrange(4), True)
            if w.get("yakuman") and rng.random() < 0.3:
                w["pao"] = (w["seat"] + rng.randrange(1, 4)) % 4
            rec["result"] = {"type": "tsumo", "winner": w}
        elif kind < 0.95:
            tenpai = rng.sample(range(4), rng.randrange(5))
            res = {"type": "draw", "tenpai": tenpai}
            if preset == "tenhou" and rng.random() < 0.05:
                res["nagashi"] = [rng.randrange(4)]
            rec["result"] = res
        elif kind < 0.98 and abortive[preset]:  # only where the preset plays abortive draws
            rec["result"] = {"type": "abortive", "reason": rng.choice(abortive[preset])}
        else:
            rec["result"] = {"type": "chombo", "seat": rng.randrange(4)}
        out.append(rec)
    return out


def _settle_fn():
    from scoring.engine import settle

    try:
        settle({"rules": "wrc", "dealer": 0, "result": {"type": "draw", "tenpai": [1]}})
        return settle, "scoring.engine.settle"
    except Exception as exc:  # another system module still under construction breaks dispatch
        from scoring.engine import riichi

        cache = {name: riichi.resolve({"preset": name}) for name in PRESET_NAMES}

        def direct(record, _s=riichi.settle, _c=cache):
            return _s(record, _c[record["rules"]])

        print(f"!! scoring.engine.settle unusable ({exc!r}); timing scoring.engine.riichi.settle directly")
        return direct, "scoring.engine.riichi.settle (direct)"


def _time(fn, items, repeat=5):
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        for it in items:
            fn(it)
        dt = time.process_time() - t0
        best = dt if best is None or dt < best else best
    return best


def main(n: int = 100_000) -> dict:
    from mahjong.constants import EAST, SOUTH
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.hand_calculating.scores import ScoresCalculator

    from scoring.engine.riichi import PRESETS

    records = build_records(n)
    settle, label = _settle_fn()
    # the 100k input records are long-lived: keep the cyclic GC from re-walking them during
    # timing (the same for both contenders; collection of new garbage stays on)
    gc.collect()
    gc.freeze()
    t_all = _time(settle, records)

    # han/fu winning hands, one per winner actually priced
    wins = [r for r in records if r["result"]["type"] in ("ron", "tsumo")]
    rules = {}
    for name in PRESET_NAMES:
        p = PRESETS[name]
        rules[name] = OptionalRules(
            kiriage=p["kiriage"],
            kazoe_limit=HandConfig.KAZOE_LIMITED if p["kazoe_yakuman"] else HandConfig.KAZOE_SANBAIMAN,
            has_aka_dora=bool(p["aka_dora"]),
            has_open_tanyao=p["kuitan"],
            has_double_yakuman=p["double_yakuman"],
        )
    calc = ScoresCalculator()

    def price(rec, _calc=calc, _rules=rules):
        res = rec["result"]
        tsumo = res["type"] == "tsumo"
        ws = [res["winner"]] if tsumo else res["winners"]
        opts = _rules[rec["rules"]]
        for w in ws:
            config = HandConfig(
                is_tsumo=tsumo,
                player_wind=EAST if w["seat"] == rec["dealer"] else SOUTH,
                tsumi_number=rec["honba"],
                kyoutaku_number=rec["deposits"],
                options=opts,
            )
            yk = w.get("yakuman", 0)
            if yk:
                _calc.calculate_scores(13 * yk, 0, config, True)
            else:
                _calc.calculate_scores(w["han"], w.get("fu", 30), config, False)

    # sanity: both agree on the ron value of every single-winner non-dealer/dealer hand
    for rec in wins[:2000]:
        res = rec["result"]
        if res["type"] == "ron" and len(res["winners"]) == 1 and not rec["honba"]:
            w = res["winners"][0]
            if w.get("pao") is not None:
                continue
            ours = settle(rec)["winners"][0]["value"]
            opts = rules[rec["rules"]]
            cfg = HandConfig(player_wind=EAST if w["seat"] == rec["dealer"] else SOUTH, options=opts)
            yk = w.get("yakuman", 0)
            theirs = calc.calculate_scores(13 * yk if yk else w["han"], w.get("fu", 30), cfg, bool(yk))["main"]
            assert ours == theirs, (rec, ours, theirs)

    t_ours = _time(settle, wins)
    t_mj = _time(price, wins)
    rate_all = len(records) / t_all
    rate_ours = len(wins) / t_ours
    rate_mj = len(wins) / t_mj
    print(f"records: {len(records):,} (han/fu winning hands: {len(wins):,})")
    print(f"{label}: all records      {rate_all:12,.0f} records/s")
    print(f"{label}: winning hands    {rate_ours:12,.0f} records/s")
    print(f"mahjong 2.1.0 calculate_scores (+HandConfig): {rate_mj:12,.0f} hands/s")
    print(f"ratio ours / mahjong on the same hands: {rate_ours / rate_mj:.2f}")
    return {"all": rate_all, "ours": rate_ours, "mahjong": rate_mj}


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100_000)

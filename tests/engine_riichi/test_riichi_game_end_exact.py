"""Game-end arithmetic against an independent derivation in exact fractions.

The engine works in integers over a common denominator; the reference below restates the rule
directly (seed 002; settlement contract, "game end") with ``fractions.Fraction``:
points = (score + stick share − return) / 1000 + mean uma (and oka) of the places a player
occupies, rounded to one decimal, halves away from zero; final scores first rounded to the
thousand where the rules say so (四捨五入 / 五捨六入, by size); then whatever the rounding leaves
over goes to first place, or, among the rounded players, a surplus to the one nearest the first
dealer and a shortfall from the one farthest from it (M.League: 16.7 / 16.7 / 16.6), so the points
add up to the game's exact total.
"""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine.riichi import game_end, resolve


def reference(options, scores, deposits_left):
    split = options["ties"] == "split"
    order = sorted(range(4), key=lambda i: (-scores[i], i))
    adjusted = [Fraction(s) for s in scores]
    if deposits_left and options["leftover_deposits"] == "first_place":
        top = [i for i in range(4) if scores[i] == scores[order[0]]] if split else [order[0]]
        for i in top:
            adjusted[i] += Fraction(1000 * deposits_left, len(top))
    uma = options["uma"]
    if options["game_length"] == "tonpuusen" and options["uma_tonpuusen"]:
        uma = options["uma_tonpuusen"]
    if options.get("uma_by_floaters"):
        floaters = sum(a >= options["return_points"] for a in adjusted)
        uma = options["uma_by_floaters"].get(str(floaters), uma)
    uma = [Fraction(str(u)) for u in uma]
    places, bonus, pos = [0] * 4, [Fraction(0)] * 4, 0
    while pos < 4:
        group = [i for i in order if scores[i] == scores[order[pos]]] if split else [order[pos]]
        share = (sum(uma[pos : pos + len(group)]) + (Fraction(str(options["oka"])) if pos == 0 else 0)) / len(group)
        for i in group:
            places[i], bonus[i] = pos + 1, share
        pos += len(group)

    def rounded(score):
        if options["final_rounding"] == "none":
            return Fraction(score)
        size, rest = divmod(abs(score), 1000)
        up = rest >= (500 if options["final_rounding"] == "thousand_half_up" else 600)
        return Fraction((size + up) * 1000 * (1 if score >= 0 else -1))

    def tenths(x):
        r = int(abs(x) * 10) + (abs(x) * 10 - int(abs(x) * 10) >= Fraction(1, 2))
        return r if x >= 0 else -r

    exact = [(adjusted[i] - options["return_points"]) / 1000 + bonus[i] for i in range(4)]
    shares = [
        (rounded(scores[i]) + adjusted[i] - scores[i] - options["return_points"]) / 1000 + bonus[i] for i in range(4)
    ]
    out = [tenths(x) for x in shares]
    left = tenths(sum(exact)) - sum(out)
    if left:
        inexact = [i for i in range(4) if shares[i] != exact[i] or (shares[i] * 10).denominator != 1]
        if options["remainder_to"] == "first_place" or not inexact:
            out[order[0]] += left
        else:
            # what is over goes to the rounded seat nearest the first dealer, what is short is
            # given by the rounded seat farthest from it
            out[min(inexact) if left > 0 else max(inexact)] += left
    points = [t / 10 + 0.0 for t in out]
    return points, places


SCORE = st.one_of(st.integers(-30, 80).map(lambda x: x * 1000), st.integers(-300, 800).map(lambda x: x * 100))
UMA = st.sampled_from(
    [[30, 10, -10, -30], [15, 5, -5, -15], [20, 10, -10, -20], [12.5, 2.5, -2.5, -12.5], [10.3, 0.1, -0.1, -10.3]]
)


@settings(max_examples=400, deadline=None)
@given(
    preset=st.sampled_from(["wrc", "ema", "mleague", "tenhou", "jpml"]),
    uma=UMA,
    oka=st.sampled_from([0, 20, 12.5]),
    ties=st.sampled_from(["split", "seat_order"]),
    leftover=st.sampled_from(["first_place", "lost"]),
    deposits=st.integers(0, 5),
    three=st.lists(SCORE, min_size=3, max_size=3),
    rounding=st.sampled_from(["none", "thousand_half_up", "thousand_five_down"]),
    remainder=st.sampled_from(["nearest_first_dealer", "first_place"]),
    length=st.sampled_from(["hanchan", "tonpuusen"]),
)
def test_game_end_matches_the_fraction_reference(
    preset, uma, oka, ties, leftover, deposits, three, rounding, remainder, length
):
    overrides = {
        "ties": ties,
        "leftover_deposits": leftover,
        "oka": oka,
        "final_rounding": rounding,
        "remainder_to": remainder,
        "game_length": length,
    }
    if preset != "jpml":
        overrides["uma"] = uma
    options = resolve({"preset": preset, **overrides})
    total = 4 * options["start_points"] - 1000 * deposits
    scores = [*three, total - sum(three)]  # adds up to the table total; ties and negative scores are common
    out = game_end(options, scores, deposits)
    assert (out["points"], out["places"]) == reference(options, scores, deposits)

"""The worked M-League game used by the hand-by-hand tests (figures worked in
tests/scoring_app/test_hands_riichi.py). Plain data: engine tests use it without Django."""

HANDS = [
    {"riichi": [1], "result": {"type": "draw", "tenpai": [0, 1]}},
    {"result": {"type": "ron", "from": 2, "winners": [{"seat": 3, "han": 3, "fu": 30}]}},
    {"riichi": [1], "result": {"type": "tsumo", "winner": {"seat": 1, "han": 2, "fu": 40}}},
    {"result": {"type": "tsumo", "winner": {"seat": 2, "han": 1, "fu": 30}}},
    {"riichi": [3], "result": {"type": "draw", "tenpai": [3]}},
]
DELTAS = [
    [1500, 500, -1500, -1500],
    [0, 0, -4200, 5200],
    [-1300, 3900, -1300, -1300],
    [-400, -600, 1400, -400],
    [-1000, -1000, -1000, 2000],
]
RUNNING = [
    [26500, 25500, 23500, 23500],
    [26500, 25500, 19300, 28700],
    [25200, 29400, 18000, 27400],
    [24800, 28800, 19400, 27000],
    [23800, 27800, 18400, 29000],
]
STATES = [(0, 0, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0), (2, 0, 0)]  # dealer, honba, deposits before each hand

CHOMBO = {"result": {"type": "chombo", "seat": 2}}
ALL_READY = {"result": {"type": "draw", "tenpai": [0, 1, 2, 3]}}

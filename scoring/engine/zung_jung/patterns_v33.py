"""Zung Jung (中庸麻雀) pattern table, version 3.3, as data.

Each row: ``id`` (the official number), ``key`` (a stable name the evaluator detects by),
``series`` (the one-pattern-per-series group: the number up to its second level), ``en``,
``zh``, ``value`` (points). ``per_set`` marks 3.1 Value Honor, counted once per qualifying set.

Another edition is a table with the same keys and different values (or without some rows);
register it in ``EDITIONS`` of ``scoring.engine.zung_jung.patterns``. Sources: shared/spec/zung-jung.md §1.2.
"""

EDITION = "v3.3"

CHICKEN = {"id": "0", "key": "chicken_hand", "series": "0", "en": "Chicken Hand", "zh": "雞和", "value": 1}

PATTERNS = [
    # 1 Trivial patterns
    {"id": "1.1", "key": "all_sequences", "series": "1.1", "en": "All Sequences", "zh": "平和", "value": 5},
    {"id": "1.2", "key": "concealed_hand", "series": "1.2", "en": "Concealed Hand", "zh": "門前清", "value": 5},
    {"id": "1.3", "key": "no_terminals", "series": "1.3", "en": "No Terminals", "zh": "斷么九", "value": 5},
    # 2 One-suit patterns
    {"id": "2.1.1", "key": "mixed_one_suit", "series": "2.1", "en": "Mixed One-Suit", "zh": "混一色", "value": 40},
    {"id": "2.1.2", "key": "pure_one_suit", "series": "2.1", "en": "Pure One-Suit", "zh": "清一色", "value": 80},
    {"id": "2.2", "key": "nine_gates", "series": "2.2", "en": "Nine Gates", "zh": "九蓮寶燈", "value": 480},
    # 3 Honor tiles
    {
        "id": "3.1",
        "key": "value_honor",
        "series": "3.1",
        "en": "Value Honor",
        "zh": "番牌",
        "value": 10,
        "per_set": True,
    },
    {
        "id": "3.2.1",
        "key": "small_three_dragons",
        "series": "3.2",
        "en": "Small Three Dragons",
        "zh": "小三元",
        "value": 40,
    },
    {
        "id": "3.2.2",
        "key": "big_three_dragons",
        "series": "3.2",
        "en": "Big Three Dragons",
        "zh": "大三元",
        "value": 130,
    },
    {
        "id": "3.3.1",
        "key": "small_three_winds",
        "series": "3.3",
        "en": "Small Three Winds",
        "zh": "小三風",
        "value": 30,
    },
    {"id": "3.3.2", "key": "big_three_winds", "series": "3.3", "en": "Big Three Winds", "zh": "大三風", "value": 120},
    {"id": "3.3.3", "key": "small_four_winds", "series": "3.3", "en": "Small Four Winds", "zh": "小四喜", "value": 320},
    {"id": "3.3.4", "key": "big_four_winds", "series": "3.3", "en": "Big Four Winds", "zh": "大四喜", "value": 400},
    {"id": "3.4", "key": "all_honors", "series": "3.4", "en": "All Honors", "zh": "字一色", "value": 320},
    # 4 Triplets and kongs
    {"id": "4.1", "key": "all_triplets", "series": "4.1", "en": "All Triplets", "zh": "對對和", "value": 30},
    {
        "id": "4.2.1",
        "key": "two_concealed_triplets",
        "series": "4.2",
        "en": "Two Concealed Triplets",
        "zh": "二暗刻",
        "value": 5,
    },
    {
        "id": "4.2.2",
        "key": "three_concealed_triplets",
        "series": "4.2",
        "en": "Three Concealed Triplets",
        "zh": "三暗刻",
        "value": 30,
    },
    {
        "id": "4.2.3",
        "key": "four_concealed_triplets",
        "series": "4.2",
        "en": "Four Concealed Triplets",
        "zh": "四暗刻",
        "value": 125,
    },
    {"id": "4.3.1", "key": "one_kong", "series": "4.3", "en": "One Kong", "zh": "一槓", "value": 5},
    {"id": "4.3.2", "key": "two_kong", "series": "4.3", "en": "Two Kong", "zh": "二槓", "value": 20},
    {"id": "4.3.3", "key": "three_kong", "series": "4.3", "en": "Three Kong", "zh": "三槓", "value": 120},
    {"id": "4.3.4", "key": "four_kong", "series": "4.3", "en": "Four Kong", "zh": "四槓", "value": 480},
    # 5 Identical sets
    {
        "id": "5.1.1",
        "key": "two_identical_sequences",
        "series": "5.1",
        "en": "Two Identical Sequences",
        "zh": "一般高",
        "value": 10,
    },
    {
        "id": "5.1.2",
        "key": "two_identical_sequences_twice",
        "series": "5.1",
        "en": "Two Identical Sequences Twice",
        "zh": "兩般高",
        "value": 60,
    },
    {
        "id": "5.1.3",
        "key": "three_identical_sequences",
        "series": "5.1",
        "en": "Three Identical Sequences",
        "zh": "一色三同順",
        "value": 120,
    },
    {
        "id": "5.1.4",
        "key": "four_identical_sequences",
        "series": "5.1",
        "en": "Four Identical Sequences",
        "zh": "一色四同順",
        "value": 480,
    },
    # 6 Similar sets
    {
        "id": "6.1",
        "key": "three_similar_sequences",
        "series": "6.1",
        "en": "Three Similar Sequences",
        "zh": "三色同順",
        "value": 35,
    },
    {
        "id": "6.2.1",
        "key": "small_three_similar_triplets",
        "series": "6.2",
        "en": "Small Three Similar Triplets",
        "zh": "三色小同刻",
        "value": 30,
    },
    {
        "id": "6.2.2",
        "key": "three_similar_triplets",
        "series": "6.2",
        "en": "Three Similar Triplets",
        "zh": "三色同刻",
        "value": 120,
    },
    # 7 Consecutive sets
    {
        "id": "7.1",
        "key": "nine_tile_straight",
        "series": "7.1",
        "en": "Nine-Tile Straight",
        "zh": "一氣通貫",
        "value": 40,
    },
    {
        "id": "7.2.1",
        "key": "three_consecutive_triplets",
        "series": "7.2",
        "en": "Three Consecutive Triplets",
        "zh": "三連刻",
        "value": 100,
    },
    {
        "id": "7.2.2",
        "key": "four_consecutive_triplets",
        "series": "7.2",
        "en": "Four Consecutive Triplets",
        "zh": "四連刻",
        "value": 200,
    },
    # 8 Terminals
    {
        "id": "8.1.1",
        "key": "mixed_lesser_terminals",
        "series": "8.1",
        "en": "Mixed Lesser Terminals",
        "zh": "混全帶么",
        "value": 40,
    },
    {
        "id": "8.1.2",
        "key": "pure_lesser_terminals",
        "series": "8.1",
        "en": "Pure Lesser Terminals",
        "zh": "純全帶么",
        "value": 50,
    },
    {
        "id": "8.1.3",
        "key": "mixed_greater_terminals",
        "series": "8.1",
        "en": "Mixed Greater Terminals",
        "zh": "混么九",
        "value": 100,
    },
    {
        "id": "8.1.4",
        "key": "pure_greater_terminals",
        "series": "8.1",
        "en": "Pure Greater Terminals",
        "zh": "清么九",
        "value": 400,
    },
    # 9 Incidental bonuses
    {"id": "9.1.1", "key": "final_draw", "series": "9.1", "en": "Final Draw", "zh": "海底撈月", "value": 10},
    {"id": "9.1.2", "key": "final_discard", "series": "9.1", "en": "Final Discard", "zh": "河底撈魚", "value": 10},
    {"id": "9.2", "key": "win_on_kong", "series": "9.2", "en": "Win on Kong", "zh": "嶺上開花", "value": 10},
    {"id": "9.3", "key": "robbing_a_kong", "series": "9.3", "en": "Robbing a Kong", "zh": "搶槓", "value": 10},
    {
        "id": "9.4.1",
        "key": "blessing_of_heaven",
        "series": "9.4",
        "en": "Blessing of Heaven",
        "zh": "天和",
        "value": 155,
    },
    {"id": "9.4.2", "key": "blessing_of_earth", "series": "9.4", "en": "Blessing of Earth", "zh": "地和", "value": 155},
    # 10 Irregular hands
    {
        "id": "10.1",
        "key": "thirteen_terminals",
        "series": "10.1",
        "en": "Thirteen Terminals",
        "zh": "十三么九",
        "value": 160,
    },
    {"id": "10.2", "key": "seven_pairs", "series": "10.2", "en": "Seven Pairs", "zh": "七對子", "value": 30},
]

"""Record keys this engine reads."""

# The keys a riichi hand record may carry (settlement contract, docs/engine-interfaces.md): the
# one declaration the app's record gate is built from.
RECORD_KEYS = frozenset(
    {
        "rules",
        "dealer",
        "honba",
        "deposits",
        "riichi",
        "result",
        "round_wind",
        "seat_wind",
        "dora_indicators",
        "ura_indicators",
    }
)
RESULT_KEYS = frozenset(
    {
        "type",
        "from",
        "winners",
        "winner",
        "han",
        "fu",
        "yakuman",
        "pao",
        "pao_yakuman",
        "tenpai",
        "nagashi",
        "reason",
        "seat",
        "hand",
        "tile",
        "tiles",
        "yaku",
        "melds",
        "limit",
        "claimed",
    }
)

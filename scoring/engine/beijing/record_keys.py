"""Record keys this engine reads."""

# The keys a Beijing hand record may carry (settle.py's record, beijing.md): the one declaration
# the app's record gate is built from.
RECORD_KEYS = frozenset(
    {
        "rules",
        "dealer",
        "dealer_streak",
        "after_draw",
        "shanglou",
        "shaozhuang",
        "wildcard_indicator",
        "wildcard",
        "result",
    }
)
RESULT_KEYS = frozenset(
    {
        "type",
        "winner",
        "from",
        "factors",
        "kongs",
        "special",
        "hand",
        "wildcards",
        "wildcard",
        "wildcard_indicator",
        "hunyou",
        "winning_tile_wildcard",
        "discarded_wildcard",
        "claims",
        "winners",
        "seat",
        "claimed",
    }
)

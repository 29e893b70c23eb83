"""Record keys this engine reads."""

# The keys a Zung Jung hand record may carry (settlement contract, zung-jung.md): the one
# declaration the app's record gate is built from.
RECORD_KEYS = frozenset({"rules", "dealer", "result"})
RESULT_KEYS = frozenset(
    {
        "type",
        "winner",
        "from",
        "value",
        "earlier",
        "seat_wind",
        "hand",
        "tile",
        "tiles",
        "melds",
        "limit",
        "seat",
        "claimed",
    }
)

"""Bounds of a real game, shared by every way hands come in (entered, phoned, imported)."""

from __future__ import annotations

# A real hanchan has at most a few dozen hands (Tenhou ends games long before); a hundred is
# far past any game, and a phone that keeps adding draws stops here.
MAX_HANDS = 100
# Honba counts the hands since the last non-dealer win: it can never reach the number of hands.
MAX_HONBA = MAX_HANDS - 1

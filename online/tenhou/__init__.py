"""Tenhou game records → riichi hand records (pure Python, no Django).

Two public formats are read: the mjlog XML (``<mjloggm>`` with ``GO``, ``UN``, ``INIT``,
``REACH``, ``AGARI``, ``RYUUKYOKU``) and the tenhou.net/6 JSON log. Both become a
:class:`TenhouGame`: the four names, the lobby flags (room, hanchan/east), the date, and each hand
as a record for ``scoring.engine.riichi`` plus the deltas and scores the record itself states.
:func:`game_check` settles the hands through the engine (Tenhou preset) and lists every hand
whose deltas differ from the record's.

Tenhou's own deltas leave out the 1,000 a riichi declarer puts on the table; the engine's include
it (settlement contract), so the record's figure is compared after taking 1,000 off each seat
whose riichi stick was paid.
"""

from .parse import TenhouError, TenhouGame, TenhouHand, parse_record
from .check import game_check, hand_label, records_of

__all__ = ["TenhouError", "TenhouGame", "TenhouHand", "parse_record", "game_check", "hand_label", "records_of"]

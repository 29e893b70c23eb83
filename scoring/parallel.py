"""Re-settling many games on several CPU cores (no Django here).

The engine is pure Python and CPU-bound, so a season's hands are cut into batches of whole games
and each batch is settled in a worker process while the next one is still being read from the
database. Workers send back only what changed, already encoded for the write.

The pool is forked when the first batch is handed over, while this process is still small; each
batch travels to its worker pickled. Workers never touch the database connection (a forked worker ends
with ``os._exit``, which closes nothing). Without ``fork`` (not Linux), inside a daemonic process
(which may not have children), with one worker, or for fewer than ``PARALLEL_MIN_BATCHES``
batches, it all runs in this process.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from itertools import chain, islice

from .engine.replay import games_resettle

BATCH_HANDS = 10000
PARALLEL_MIN_BATCHES = 3  # measured: 20,000 hands (2 batches) settle faster in one process


def default_workers() -> int:
    return min(os.cpu_count() or 1, 8)


def whole_games(rows: Iterable[tuple], size: int = BATCH_HANDS) -> Iterator[list[tuple]]:
    """Batches of about ``size`` rows ``(hand id, game id, ...)`` in play order, never cutting a game."""
    batch: list[tuple] = []
    for row in rows:
        if len(batch) >= size and row[1] != batch[-1][1]:
            yield batch
            batch = []
        batch.append(row)
    if batch:
        yield batch


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods() and not multiprocessing.current_process().daemon


def batches_resettle(system: str, options: dict, batches: Iterable[list[tuple]], *,
                     workers: int | None = None) -> tuple[list[tuple], dict, int]:
    """:func:`scoring.engine.replay.games_resettle` over every batch (each made of whole games),
    on ``workers`` processes; the results joined in batch order."""
    workers = default_workers() if workers is None else workers
    batches = iter(batches)
    ahead = list(islice(batches, PARALLEL_MIN_BATCHES))
    few = len(ahead) < PARALLEL_MIN_BATCHES  # a pool's start-up would cost more than it saves
    batches = chain(ahead, batches)
    if workers <= 1 or few or not _can_fork():
        parts = [games_resettle(system, options, batch) for batch in batches]
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            try:
                pending = [pool.submit(games_resettle, system, options, batch) for batch in batches]
                parts = [part.result() for part in pending]
            except BaseException:  # an invalid hand (or a failed read): do not settle the batches still queued
                pool.shutdown(cancel_futures=True)
                raise
    changed, finals, hands = [], {}, 0
    for part_changed, part_finals, part_hands in parts:
        changed += part_changed
        finals.update(part_finals)
        hands += part_hands
    return changed, finals, hands

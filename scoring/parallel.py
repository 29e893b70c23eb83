"""Re-settling many games on several CPU cores (no Django here).

The engine is pure Python and CPU-bound, so a season's hands are cut into batches of whole games
and each batch is settled in a worker process while the next one is still being read from the
database. Workers send back only what changed, already encoded for the write, and each part
is handed on as soon as it is ready, so the caller writes it while the next ones are settled.

The pool is forked when the first batch is handed over, while this process is still small; each
batch travels to its worker pickled. Workers never touch the database connection (a forked worker ends
with ``os._exit``, which closes nothing). Without ``fork`` (not Linux), inside a daemonic process
(which may not have children), with one worker, or for fewer than ``PARALLEL_MIN_BATCHES``
batches, it all runs in this process.
"""

from __future__ import annotations

from typing import cast

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


def copy_text(changed: list[tuple]) -> bytes:
    """Changed rows ``(id, record JSON or None, settlement JSON, scores JSON, digest)`` as the
    body of a PostgreSQL ``COPY … FROM STDIN`` (text format), built in the worker so the parent
    only passes the bytes on. JSON text holds no raw tab or newline (JSON escapes them), so a
    backslash is the only character to escape; ``\\N`` is NULL."""
    return b"".join(
        b"%d\t%s\t%s\t%s\t%d\n"
        % (
            hand_id,
            b"\\N" if record is None else record.replace(b"\\", b"\\\\"),
            settlement.replace(b"\\", b"\\\\"),
            scores,
            digest,
        )
        for hand_id, record, settlement, scores, digest in changed
    )


def _part_resettle(
    system: str, options: dict, batch: list[tuple], encode
) -> tuple[list[tuple] | bytes, int, dict, int]:
    changed, finals, hands = games_resettle(system, options, batch)
    return (encode(changed) if encode else changed), len(changed), finals, hands


def resettled_parts(
    system: str, options: dict, batches: Iterable[list[tuple]], *, workers: int | None = None, encode=None
) -> Iterator[tuple[list[tuple] | bytes, int, dict, int]]:
    """:func:`scoring.engine.replay.games_resettle` of every batch (each made of whole games), on
    ``workers`` processes, yielded in batch order as each is ready, so the caller can write one
    part back while the workers are still settling the next ones: ``(changed rows, or what
    ``encode`` (a module-level function, run in the worker) makes of them; how many; finals;
    hands)``."""
    workers = default_workers() if workers is None else workers
    batches = iter(batches)
    ahead = list(islice(batches, PARALLEL_MIN_BATCHES))
    few = len(ahead) < PARALLEL_MIN_BATCHES  # a pool's start-up would cost more than it saves
    batches = chain(ahead, batches)
    if workers <= 1 or few or not _can_fork():
        for batch in batches:
            yield _part_resettle(system, options, batch, encode)
        return
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
        try:
            pending = [pool.submit(_part_resettle, system, options, batch, encode) for batch in batches]
            for part in pending:
                yield part.result()
        except BaseException:  # an invalid hand, a failed read or write: do not settle the batches still queued
            pool.shutdown(cancel_futures=True)
            raise


def batches_resettle(
    system: str, options: dict, batches: Iterable[list[tuple]], *, workers: int | None = None
) -> tuple[list[tuple], dict, int]:
    """:func:`resettled_parts` joined: ``(changed, finals, hands)`` of the whole."""
    changed: list[tuple] = []
    finals, hands = {}, 0
    for part_changed, _, part_finals, part_hands in resettled_parts(system, options, batches, workers=workers):
        changed += cast(list, part_changed)  # no encode: a list
        finals.update(part_finals)
        hands += part_hands
    return changed, finals, hands

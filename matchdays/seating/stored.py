"""Designs found offline and kept in JSON files beside the code (v -> the design), read once per
process; and the command line that searches the missing sizes and stores each one found."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from typing import Any


@functools.cache
def _file(path: str) -> dict[int, Any]:
    try:
        with open(path) as fh:
            return {int(v): design for v, design in json.load(fh).items()}
    except FileNotFoundError:
        return {}


def stored_read(path: str) -> dict[int, Any]:
    """v -> design as stored in ``path`` (a copy of the mapping: the file is read once per
    process, not at every seating)."""
    return dict(_file(path))


def stored_add(path: str, v: int, design: Any) -> None:
    """Store ``design`` for v in ``path`` at once (the sizes in order, compact)."""
    stored = stored_read(path)
    stored[v] = design
    with open(path, "w") as fh:
        json.dump({str(k): stored[k] for k in sorted(stored)}, fh, separators=(",", ":"))
        fh.write("\n")
    _file.cache_clear()


def stored_search_main(argv: list[str], path: str, search: Callable[[int, float], Any], seconds: float) -> None:
    """The command line: for each size in ``argv`` not yet stored, ``search(v, seconds)``
    (``--seconds S`` overrides the default), then store what it found at once."""
    if "--seconds" in argv:
        i = argv.index("--seconds")
        seconds = float(argv[i + 1])
        argv = argv[:i] + argv[i + 2 :]
    for v in (int(x) for x in argv):
        if v in stored_read(path):
            continue
        started = time.monotonic()
        design = search(v, seconds)
        print(v, "found" if design else "not found", f"{time.monotonic() - started:.0f} s", flush=True)
        if design:
            stored_add(path, v, design)

"""Input that cannot poison storage: one check for every JSON value before it is stored or
handed to an engine (hand records, incident timelines, rule overrides, penalty catalogues,
request bodies).

Refused: lone surrogates (PostgreSQL's jsonb and any UTF-8 encoder reject them, so one stored
value would break every later read and backup), NUL characters, nesting deeper than
``MAX_DEPTH``, more than ``MAX_NODES`` values, strings longer than ``MAX_STRING``, integers
outside ``INT_RANGE`` and non-finite floats. Each refusal names the path of the value.
"""

from __future__ import annotations

import math
import re

MAX_DEPTH = 32
MAX_NODES = 200_000
MAX_STRING = 10_000
INT_RANGE = (-(2**53) + 1, 2**53 - 1)  # exact in every JSON reader (JavaScript included)
_BAD_CHARS = re.compile("[\x00\ud800-\udfff]")


class UnsafeJSON(ValueError):
    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message


def text_problem(text: str) -> str | None:
    """Why a string may not be stored, or None."""
    bad = _BAD_CHARS.search(text)
    if bad:
        return "contains a NUL character" if bad.group() == "\x00" else "contains an unpaired surrogate character"
    return None


def check(
    value: object,
    path: str = "",
    *,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    max_string: int = MAX_STRING,
) -> None:
    """Raise UnsafeJSON for the first value that may not be stored. Iterative: a hostile depth
    cannot exhaust the Python stack."""
    stack: list[tuple[object, str, int]] = [(value, path or "value", 0)]
    nodes = 0
    while stack:
        item, where, depth = stack.pop()
        nodes += 1
        if nodes > max_nodes:
            raise UnsafeJSON(path or "value", f"more than {max_nodes} values")
        if depth > max_depth:
            raise UnsafeJSON(where, f"nested deeper than {max_depth} levels")
        if isinstance(item, str):
            _check_text(item, where, max_string)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, int):
            if not INT_RANGE[0] <= item <= INT_RANGE[1]:
                raise UnsafeJSON(where, "number out of range")
        elif isinstance(item, float):
            if not math.isfinite(item) or abs(item) > INT_RANGE[1]:
                raise UnsafeJSON(where, "number out of range")
        elif isinstance(item, dict):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise UnsafeJSON(where, "object keys must be strings")
                _check_text(key, f"{where}.{key[:40]}", 200)
                stack.append((sub, f"{where}.{key}" if where else key, depth + 1))
        elif isinstance(item, (list, tuple)):
            for i, sub in enumerate(item):
                stack.append((sub, f"{where}[{i}]", depth + 1))
        else:
            raise UnsafeJSON(where, f"unsupported value of type {type(item).__name__}")


def _check_text(text: str, where: str, max_len: int) -> None:
    if len(text) > max_len:
        raise UnsafeJSON(where, f"text longer than {max_len} characters")
    problem = text_problem(text)
    if problem:
        raise UnsafeJSON(where, problem)


def check_field(value: object, field: str, **limits: int) -> None:
    """The same check raising Django's ValidationError keyed by ``field`` (services, forms)."""
    from django.core.exceptions import ValidationError

    try:
        check(value, field, **limits)
    except UnsafeJSON as exc:
        raise ValidationError({field: [f"{exc.path}: {exc.message}"]}) from None

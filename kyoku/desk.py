"""Calls for a referee raised by any app (a disputed table result, …), shown on the referee desk.

The referee app cannot import the apps above it, so they register a provider here (in their
AppConfig.ready): ``desk_provider(fn)`` where ``fn(user)`` returns the calls that user may answer
(only in leagues where they referee), newest first."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable


@dataclass(frozen=True)
class DeskCall:
    title: str  # in the reader's language
    detail: str
    url: str
    at: datetime


_PROVIDERS: list[Callable[[Any], list[DeskCall]]] = []


def desk_provider(provider: Callable[[Any], list[DeskCall]]) -> Callable[[Any], list[DeskCall]]:
    if provider not in _PROVIDERS:
        _PROVIDERS.append(provider)
    return provider


def desk_calls(user: Any) -> list[DeskCall]:
    calls: list[DeskCall] = []
    for provider in _PROVIDERS:
        calls.extend(provider(user))
    return sorted(calls, key=lambda c: c.at, reverse=True)

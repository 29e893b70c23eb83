"""The second-factor banner's leagues (templates/account/snippets/second_factor_banner.html): read
once per request, and only by a page that shows it."""

from __future__ import annotations

from typing import Any, Callable

from django.http import HttpRequest

from kyoku.models import League


def second_factor(request: HttpRequest) -> dict[str, Callable[[], list[League]]]:
    def leagues() -> list[League]:
        cached: list[League] | None = getattr(request, "_second_factor_leagues", None)
        if cached is None:
            from kyoku.second_factor import leagues_missing_second_factor

            user: Any = getattr(request, "user", None)
            cached = list(leagues_missing_second_factor(user)) if user is not None else []
            request._second_factor_leagues = cached  # type: ignore[attr-defined]
        return cached

    return {"second_factor_leagues": leagues}

"""The season page's per-division summary counted from the raw facts (games and entries): the
full recompute that the stored :class:`league.models.DivisionSummary` rows must equal."""

from __future__ import annotations

from django.db.models import Count, Max

from .models import Division, Entry, Game

SUMMARY_FIELDS = ("entrants", "finished", "to_play", "void", "last_match_day")


def division_summary_rows(*, season_id: int, division_ids=None) -> dict[int, dict]:
    """The full recompute: every division's summary counted from its games and entries (two
    grouped queries over the season's index), ``{division id: row}``."""
    games = Game.objects.filter(season_id=season_id)
    entries = Entry.objects.filter(season_id=season_id)
    divisions = Division.objects.filter(season_id=season_id)
    if division_ids is not None:
        games, entries = games.filter(division_id__in=division_ids), entries.filter(division_id__in=division_ids)
        divisions = divisions.filter(pk__in=division_ids)
    rows = {
        pk: {"entrants": 0, "finished": 0, "to_play": 0, "void": 0, "last_match_day": None}
        for pk in divisions.values_list("pk", flat=True)
    }
    for row in games.order_by().values("division_id", "status").annotate(n=Count("id"), last=Max("match_day")):
        out = rows.setdefault(
            row["division_id"], {"entrants": 0, "finished": 0, "to_play": 0, "void": 0, "last_match_day": None}
        )
        if row["status"] == Game.Status.FINISHED:
            out["finished"], out["last_match_day"] = row["n"], row["last"]
        elif row["status"] == Game.Status.VOID:
            out["void"] = row["n"]
        else:
            out["to_play"] += row["n"]
    for division_id, n in (
        entries.order_by().values("division_id").annotate(n=Count("id")).values_list("division_id", "n")
    ):
        if division_id in rows:
            rows[division_id]["entrants"] = n
    return rows

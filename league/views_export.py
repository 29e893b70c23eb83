"""Downloads (public, like the pages they come from): CSV with a header row, or JSON."""

import csv

from django.http import Http404, HttpResponse, JsonResponse

from kyoku.access import PUBLIC, access, object_for_request
from kyoku.csv_cells import csv_row

from . import exports
from .models import Division, Player, Season


def _respond(rows, fields, name, fmt):
    if fmt == "json":
        response = JsonResponse({"rows": rows}, json_dumps_params={"ensure_ascii": False})
    elif fmt == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response.write("\ufeff")  # so spreadsheet programs read the Chinese names as UTF-8
        writer = csv.DictWriter(response, fieldnames=fields)
        writer.writeheader()
        writer.writerows(csv_row(row) for row in rows)
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


@access("division", GET=PUBLIC)
def standings_export(request, season_id, code, fmt):
    division = object_for_request(request, Division, season_id=season_id, code=code)
    return _respond(
        exports.standings_rows(division=division), exports.STANDINGS_FIELDS, f"standings-{season_id}-{code}", fmt
    )


@access("season", GET=PUBLIC)
def season_results_export(request, season_id, fmt):
    season = object_for_request(request, Season, pk=season_id)
    return _respond(exports.season_results_rows(season=season), exports.RESULTS_FIELDS, f"results-{season_id}", fmt)


@access("player", GET=PUBLIC)
def player_history_export(request, player_id, fmt):
    player = object_for_request(request, Player, pk=player_id)
    return _respond(exports.player_history_rows(player=player), exports.HISTORY_FIELDS, f"player-{player_id}", fmt)

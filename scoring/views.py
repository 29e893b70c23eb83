"""Server-rendered scoring pages: the table's scorekeeper and the public rules tables."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST
from django.utils.translation import gettext as _

from league import roles
from league.forms import service_errors_to_form, service_errors_to_messages
from league.models import Game, RuleSet, Season

from . import selectors, services
from .forms import HandRecordForm, SeasonRulesForm

RESULT_TYPES = {
    "riichi": ("ron", "tsumo", "draw", "abortive", "chombo"),
    "zung-jung": ("self_draw", "discard", "draw"),
    "beijing": ("tsumo", "ron", "draw"),
}


def _hand_rows(hands, seats) -> list[dict]:
    return [{"hand": h, "deltas": h.settlement.get("deltas", []), "scores": h.scores_after,
             "type": h.record.get("result", {}).get("type", ""),
             "dealer": seats[h.record["dealer"]].player.display_name if "dealer" in h.record else "",
             "honba": h.record.get("honba")} for h in hands]


@login_required
def scorekeeper(request, game_id):
    game = get_object_or_404(Game.objects.select_related("season__rule_set", "season__league", "division"),
                             pk=game_id)
    if not roles.is_admin(request.user, game.season.league):
        raise PermissionDenied
    form = HandRecordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.hand_record_add(game=game, record=form.cleaned_data["record"], actor=request.user,
                                     sequence=form.cleaned_data.get("sequence"))
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Hand saved."))
            return redirect("scorekeeper", game_id=game.pk)
    seats = selectors.game_seats(game=game)
    hands = list(selectors.game_hands(game=game))
    position = selectors.game_position(game=game, hands=hands)
    options = game.season.rule_set.options
    return render(request, "scoring/scorekeeper.html", {
        "game": game, "seats": seats, "score_rows": list(zip(seats, position["scores"])),
        "hands": _hand_rows(hands, seats), "position": position,
        "system": position["system"], "result_types": RESULT_TYPES[position["system"]], "form": form,
        "abortive_reasons": options.get("abortive_draws", []), "beijing_factors": _beijing_hand_factors(position),
        "seat_names": [s.player.display_name for s in seats], "idempotency_key": uuid.uuid4().hex,
        "finish_key": uuid.uuid4().hex,
        "dealer_name": seats[position["state"]["dealer"]].player.display_name if "dealer" in position["state"] else "",
    })


@login_required
@require_POST
def hand_delete(request, game_id, sequence):
    """Undo a hand entered by mistake (the scorekeeper's last hand; later hands, if any, move up)."""
    game = get_object_or_404(Game.objects.select_related("season__league"), pk=game_id)
    if not roles.is_admin(request.user, game.season.league):
        raise PermissionDenied
    try:
        hand = services.hand_expected(game=game, sequence=sequence, hand_id=request.POST.get("hand_id", ""))
        services.hand_record_delete(hand=hand, actor=request.user)
    except services.HandConflict:
        messages.error(request, _("Hand %(n)s has changed since the page was loaded; nothing was deleted.")
                       % {"n": sequence})
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    else:
        messages.success(request, _("Hand %(n)s deleted.") % {"n": sequence})
    return redirect("scorekeeper", game_id=game.pk)


def _beijing_hand_factors(position) -> list[dict]:
    if position["system"] != "beijing":
        return []
    return [f for f in selectors.beijing_factors() if f["kind"] == "hand"]


def rules_tables(request):
    return render(request, "scoring/rules.html", {
        "zung_jung": selectors.zung_jung_table(), "zung_jung_options": selectors.system_options("zung-jung"),
        "beijing": selectors.beijing_factors(), "beijing_options": selectors.system_options("beijing"),
        "riichi": selectors.riichi_presets(),
    })


def _revised_message(summary: dict) -> str:
    values = {"version": summary["rule_set"]["version"], "changed": summary["hands_changed"],
              "hands": summary["hands"], "results": summary["results_changed"]}
    if not summary["hands_resettled"]:
        return _("Rules revised to version %(version)s: only game-end options changed, which no hand reads, "
                 "so the %(hands)s hands stand as settled; %(results)s results changed.") % values
    return _("Rules revised to version %(version)s: %(changed)s of %(hands)s hands re-settled, "
             "%(results)s results changed.") % values


def season_rules(request, season_id):
    """A season's rules: the options in force, every earlier version, and (league admins) a
    revision, which re-settles the season's hands and re-derives its results and standings."""
    season = get_object_or_404(Season.objects.select_related("rule_set", "league"), pk=season_id)
    is_admin = roles.is_admin(request.user, season.league)
    form = SeasonRulesForm(request.POST or None, initial={"overrides": season.rule_set.overrides})
    if request.method == "POST":
        if not is_admin:
            raise PermissionDenied
        if form.is_valid():
            try:
                summary = services.season_rules_revise(season=season, actor=request.user, **form.cleaned_data)
            except ValidationError as exc:
                service_errors_to_form(form, exc)
            else:
                messages.success(request, _revised_message(summary))
                return redirect("season-rules", season_id=season.pk)
    rule_set = season.rule_set
    return render(request, "scoring/season_rules.html", {
        "season": season, "rule_set": rule_set, "options": sorted(rule_set.options.items()),
        "versions": RuleSet.objects.filter(slug=rule_set.slug).order_by("-version"),
        "form": form if is_admin and season.status != Season.Status.CLOSED else None,
    })

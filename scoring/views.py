"""Server-rendered scoring pages: the table's scorekeeper and the public rules tables."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku import authz
from kyoku.access import ADMIN, PUBLIC, access, object_for_request
from kyoku.errors import engine_error_words
from league import selectors as league_selectors
from league.forms import service_errors_to_form, service_errors_to_messages
from league.models import Game, RuleSet, Season

from . import display, selectors, services
from .engine import SettlementError
from .forms import HandRecordForm, RiichiRulesForm, SeasonRulesForm
from league.names import player_display_name

RESULT_TYPES = {
    "riichi": ("ron", "tsumo", "draw", "abortive", "chombo"),
    "zung-jung": ("self_draw", "discard", "draw"),
    "beijing": ("tsumo", "ron", "draw"),
}


def result_types_allowed(system: str, options: dict) -> list[str]:
    """The result kinds the season's resolved rules play (no abortive draw where none is allowed)."""
    kinds = list(RESULT_TYPES[system])
    if system == "riichi" and not options.get("abortive_draws"):
        kinds.remove("abortive")
    return kinds


def _hand_rows(hands, seats) -> list[dict]:
    rows = []
    for h in hands:
        kind = h.record.get("result", {}).get("type", "")
        rows.append(
            {
                "hand": h,
                "deltas": h.settlement.get("deltas", []),
                "scores": h.scores_after,
                "type": kind,
                "kind": display.result_kind(h.settlement.get("type", kind)),
                "dealer": seats[h.record["dealer"]].seat_name if "dealer" in h.record else "",
                "honba": h.record.get("honba"),
            }
        )
    return rows


def _correcting(request, hands) -> int | None:
    """The hand number the page corrects (``?correct=n``), or None for entering the next hand."""
    value = request.GET.get("correct", "")
    if value.isdigit() and 1 <= int(value) <= len(hands):
        return int(value)
    return None


@access("hand_game", GET=ADMIN, POST=ADMIN)
def scorekeeper(request, game_id):
    game = object_for_request(
        request, Game.objects.select_related("season__rule_set", "season__league", "division"), pk=game_id
    )

    def add(record, sequence):
        return services.hand_record_add(game=game, record=record, actor=request.user, sequence=sequence)

    return scorekeeper_page(request, game, urls=scorekeeper_urls(game), add=add, undo=True)


def scorekeeper_urls(game: Game) -> dict:
    """Where a league admin's scorekeeper reads and writes (a tournament table's uses its own)."""
    page = reverse("scorekeeper", args=[game.pk])
    return {
        "page": page,
        "save": reverse("api-game-hands", args=[game.pk]),
        "preview": reverse("api-game-hands-preview", args=[game.pk]),
        "finish": reverse("api-game-hands-finish", args=[game.pk]),
    }


def scorekeeper_page(request, game: Game, *, urls: dict, add, undo: bool, extra: dict | None = None):
    """The scorekeeper for ``game``, its requests going to ``urls``, once the caller has authorized
    the visitor (a league admin here; a player at a tournament table in events); ``add(record,
    sequence)`` stores a hand posted by the page's own form (no script)."""
    form = HandRecordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            add(form.cleaned_data["record"], form.cleaned_data.get("sequence"))
        except ValidationError as exc:
            service_errors_to_form(form, exc)
        else:
            messages.success(request, _("Hand saved."))
            return redirect(urls["page"])
    seats = selectors.game_seats(game=game)
    hands = list(selectors.game_hands(game=game))
    position = selectors.game_position(game=game, hands=hands)
    rules = services.Rules(game.season.rule_set)
    correct = _correcting(request, hands)
    sequence, state, scores, record = position["next_sequence"], position["state"], position["scores"], None
    if correct:
        # the position before hand n: what the corrected hand is settled from
        sequence, record = correct, hands[correct - 1].record
        state, scores = services.position_after(rules, hands[correct - 2] if correct > 1 else None)
    reasons = rules.options.get("abortive_draws") or [] if rules.system == "riichi" else []
    dealer = state.get("dealer")
    return render(
        request,
        "scoring/scorekeeper.html",
        {
            "game": game,
            "seats": seats,
            "score_rows": list(zip(seats, scores)),
            "hands": _hand_rows(hands, seats),
            "position": position,
            "state": state,
            "sequence": sequence,
            "correct": correct,
            "record": record,
            "entering": correct is not None or not position["finished_from_hands"],
            "system": position["system"],
            "result_types": [(t, display.result_kind(t)) for t in result_types_allowed(rules.system, rules.options)],
            "form": form,
            "abortive_reasons": [(r, display.abortive_reason(r)) for r in reasons],
            "beijing_factors": _beijing_hand_factors(position),
            "seat_names": [player_display_name(s.player) for s in seats],
            "idempotency_key": uuid.uuid4().hex,
            "finish_key": uuid.uuid4().hex,
            "dealer_name": player_display_name(seats[dealer].player) if dealer is not None else "",
            "sk_urls": urls,
            "undo": undo,
            **(extra or {}),
        },
    )


@access("hand", POST=ADMIN)
def hand_delete(request, game_id, sequence):
    """Undo a hand entered by mistake (the scorekeeper's last hand; later hands, if any, move up)."""
    game = object_for_request(request, Game.objects.select_related("season__league"), pk=game_id)
    try:
        hand = services.hand_expected(game=game, sequence=sequence, hand_id=request.POST.get("hand_id", ""))
        services.hand_record_delete(hand=hand, actor=request.user)
    except services.HandConflict:
        messages.error(
            request, _("Hand %(n)s has changed since the page was loaded; nothing was deleted.") % {"n": sequence}
        )
    except ValidationError as exc:
        service_errors_to_messages(request, exc)
    else:
        messages.success(request, _("Hand %(n)s deleted.") % {"n": sequence})
    return redirect("scorekeeper", game_id=game.pk)


def _beijing_hand_factors(position) -> list[dict]:
    if position["system"] != "beijing":
        return []
    return [f for f in selectors.beijing_factors() if f["kind"] == "hand"]


@access(GET=PUBLIC)
def rules_tables(request):
    return render(
        request,
        "scoring/rules.html",
        {
            "zung_jung": selectors.zung_jung_table(),
            "zung_jung_options": selectors.system_options("zung-jung"),
            "beijing": selectors.beijing_factors(),
            "beijing_options": selectors.system_options("beijing"),
            "riichi": selectors.riichi_presets(),
        },
    )


def _revised_message(summary: dict) -> str:
    values = {
        "version": summary["rule_set"]["version"],
        "changed": summary["hands_changed"],
        "hands": summary["hands"],
        "results": summary["results_changed"],
    }
    if not summary["hands_resettled"]:
        return (
            _(
                "Rules revised to version %(version)s: only game-end options changed, which no hand reads, "
                "so the %(hands)s hands stand as settled; %(results)s results changed."
            )
            % values
        )
    return (
        _(
            "Rules revised to version %(version)s: %(changed)s of %(hands)s hands re-settled, "
            "%(results)s results changed."
        )
        % values
    )


@access("season", GET=PUBLIC, POST=ADMIN)
def season_rules(request, season_id):
    """A season's rules: the options in force in words, every earlier version, and (league admins)
    a revision through a typed form (riichi; JSON for the other systems), previewed first: which
    options change and how many hands and results would be re-scored. Saving re-settles the
    season's hands and re-derives its results and standings."""
    season = object_for_request(request, Season.objects.select_related("rule_set", "league"), pk=season_id)
    is_admin = authz.is_admin(request.user, season.league)  # whether to offer the form
    rule_set = season.rule_set
    data = request.POST if request.method == "POST" else None
    json_form = SeasonRulesForm(
        data if data is not None and "overrides" in data else None, initial={"overrides": rule_set.overrides}
    )
    if rule_set.system == "riichi" and not json_form.is_bound:
        form: RiichiRulesForm | SeasonRulesForm = RiichiRulesForm(
            data, preset=rule_set.preset, current=rule_set.options
        )
    else:  # other systems, and the JSON box kept for advanced users (the same options as one object)
        form = json_form
    preview = None
    if request.method == "POST":
        if form.is_valid():
            overrides = getattr(form, "overrides", None)
            if overrides is None:
                overrides = form.cleaned_data["overrides"]
            if "preview" in request.POST:
                try:
                    preview = selectors.season_rules_preview(season=season, overrides=overrides)
                except SettlementError as exc:
                    form.add_error(None, engine_error_words(exc))
            else:
                try:
                    summary = services.season_rules_revise(
                        season=season, actor=request.user, overrides=overrides, notes=form.cleaned_data.get("notes", "")
                    )
                except ValidationError as exc:
                    service_errors_to_form(form, exc)
                else:
                    messages.success(request, _revised_message(summary))
                    return redirect("season-rules", season_id=season.pk)
    return render(
        request,
        "scoring/season_rules.html",
        {
            "season": season,
            "rule_set": rule_set,
            "options": selectors.rule_set_words(rule_set),
            "overrides": selectors.overrides_words(rule_set.overrides),
            "versions": [
                (v, selectors.overrides_words(v.overrides))
                for v in RuleSet.objects.filter(slug=rule_set.slug).order_by("-version")
            ],
            "form": form if is_admin and season.status != Season.Status.CLOSED else None,
            "json_form": json_form if rule_set.system == "riichi" and form is not json_form else None,
            "preview": preview,
        },
    )


@access("game", GET=PUBLIC)
def game_detail(request, game_id):
    """A game's page: its seats, result and every hand explained (the scoring app owns hands, so it
    owns the page that shows them)."""
    if not Game.objects.filter(pk=game_id).exists():
        from matchdays.views import game_replaced  # a game a new seating replaced: its address still answers

        return game_replaced(request, game_id)
    game = object_for_request(request, league_selectors.games_for(), pk=game_id)
    seats = list(game.seats.all())
    hands = list(game.hands.order_by("sequence")) if hasattr(game, "hands") else []
    return render(
        request,
        "league/game.html",
        {
            "game": game,
            "seats": seats,
            "result": getattr(game, "result", None),
            "hands": display.hands_explained(hands, seats),
            "is_game_admin": authz.is_admin(request.user, game.season.league),
        },
    )

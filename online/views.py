"""Pages: a game's Tenhou import (upload → names → check → import) and an application's records."""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kyoku.access import ADMIN, OWNER, access, object_for_request
from kyoku.authz import is_admin
from kyoku.labels import rank_label
from league.qualification import RANKS
from kyoku.uploads import get_private_storage
from league.models import Game, QualificationApplication

from . import selectors, services
from .forms import EvidenceUploadForm, RecordUploadForm

private_storage = get_private_storage()  # the same lazy storage, typed as a Storage

PENDING = "online_import_{}"


def mode_words() -> dict:
    return {
        "ranked": _("ranked room"),
        "friendly": _("friendly room"),
        "tournament": _("tournament room"),
        "casual": _("casual room"),
    }


def room_labels() -> dict:
    return {
        "general": _("General room (一般)"),
        "upper": _("Upper room (上級)"),
        "special": _("Special room (特上)"),
        "phoenix": _("Phoenix room (鳳凰)"),
        "bronze": _("Bronze room (銅の間)"),
        "silver": _("Silver room (銀の間)"),
        "gold": _("Gold room (金の間)"),
        "jade": _("Jade room (玉の間)"),
        "throne": _("Throne room (王座の間)"),
        "unknown": _("Unknown room"),
    }


def _pending_read(request, game) -> tuple[bytes, str] | None:
    stash = request.session.get(PENDING.format(game.pk))
    if not stash or not private_storage.exists(stash["path"]):
        return None
    with private_storage.open(stash["path"], "rb") as fh:
        return fh.read(), stash["name"]


def _pending_drop(request, game) -> None:
    stash = request.session.pop(PENDING.format(game.pk), None)
    if stash:
        private_storage.delete(stash["path"])


@access("game", GET=ADMIN, POST=ADMIN, actions={"": ADMIN, "import": ADMIN, "cancel": ADMIN})
def game_import(request, game_id):
    game = object_for_request(
        request, Game.objects.select_related("season__rule_set", "season__league", "division"), pk=game_id
    )
    form = RecordUploadForm(request.POST or None, request.FILES or None)
    errors, override_reason, keep = [], "", "hands"
    if request.method == "POST" and request.POST.get("action") == "cancel":
        _pending_drop(request, game)
        return redirect("online-game-import", game_id=game.pk)
    if request.method == "POST" and "file" in request.FILES:
        if form.is_valid():
            upload = form.cleaned_data["file"]
            data = upload.read()
            try:
                services.record_read(data, upload.name)
            except ValidationError as exc:
                form.add_error("file", exc.message_dict["file"])  # type: ignore[arg-type]  # a list of messages is taken too
            else:
                _pending_drop(request, game)
                path = private_storage.save(f"tenhou-pending/{secrets.token_hex(16)}.bin", ContentFile(data))
                request.session[PENDING.format(game.pk)] = {"path": path, "name": upload.name[:120]}
                return redirect("online-game-import", game_id=game.pk)
    pending = _pending_read(request, game)
    plan = record = None
    if pending:
        record = services.record_read(*pending)
        mapping = {}
        if request.method == "POST" and request.POST.get("action") == "import":
            seated = {s.player_id: s.player for s in game.seats.select_related("player")}
            for i, name in enumerate(record.names):
                value = request.POST.get(f"player_{i}", "")
                if value.isdigit() and int(value) in seated:
                    mapping[name] = seated[int(value)]
            override_reason = request.POST.get("override_reason", "")[:2000]
            keep = request.POST.get("keep", "hands")
            try:
                services.game_import(
                    game=game,
                    data=pending[0],
                    filename=pending[1],
                    actor=request.user,
                    mapping=mapping,
                    override_reason=override_reason,
                    keep=keep,
                )
            except ValidationError as exc:
                errors = [f"{msg}" for msgs in exc.message_dict.values() for msg in msgs]
            else:
                _pending_drop(request, game)
                messages.success(
                    request,
                    _("The record was imported: hands, result and standings are updated.")
                    if keep == "hands"
                    else _("The record's final scores were entered as the result; standings are updated."),
                )
                return redirect("game", game_id=game.pk)
        plan = services.import_plan(game=game, record=record, mapping=mapping)
        _words_for(plan["check"])
        if plan["season_check"] is not plan["check"]:
            _words_for(plan["season_check"])
    return render(
        request,
        "online/game_import.html",
        {
            "game": game,
            "form": form,
            "record": record,
            "plan": plan,
            "errors": errors,
            "override_reason": override_reason,
            "pending_name": pending[1] if pending else "",
            "keep": keep,
            "rows": _rows(record, plan) if plan else [],
            # a Mahjong Soul record: its room, mode and each seat's rank in words
            "soul": record is not None and record.platform == "mahjongsoul",
            "soul_room": room_labels().get(record.room or "", "") if record is not None and record.room else "",
            "soul_mode": mode_words().get(record.mode, "") if record is not None else "",
            "soul_ranks": [rank_label(r) for r in record.ranks] if record is not None else [],
        },
    )


hand_words = services.hand_words  # "East 1, 0 honba" in the reader's language


def _words_for(check: dict | None) -> None:
    for row in (check or {}).get("hands", []):
        if "round" in row:
            row["words"] = hand_words(row["round"], row["honba"])


def _rows(record, plan):
    return [
        {"seat": i, "name": name, "player": plan["players"][i], "seated": plan["seats"][i]}
        for i, name in enumerate(record.names)
    ]


@access("application", GET=OWNER, POST=OWNER)
def application_records(request, application_id):
    application = object_for_request(
        request, QualificationApplication.objects.select_related("player", "tier", "season__league"), pk=application_id
    )
    form = EvidenceUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            files = services.evidence_files(form.cleaned_data["records"])
            added = services.evidence_attach(application=application, files=files, actor=request.user)
        except ValidationError as exc:
            for msg in exc.message_dict.get("records", []):
                form.add_error("records", msg)
        else:
            messages.success(request, _("%(n)s records added.") % {"n": len(added)})
            return redirect("online-application-records", application_id=application.pk)
    summary = (
        application.online_check.snapshot
        if hasattr(application, "online_check")
        else selectors.evidence_summary(application=application)
    )
    return render(
        request,
        "online/application_records.html",
        {
            "application": application,
            "form": form,
            "summary": summary,
            "frozen": hasattr(application, "online_check"),
            "rooms": room_labels(),
            # that another player attached the same game is for the league's reviewers, not applicants
            "reviewer": is_admin(request.user, application.season.league),
            "min_room": room_labels().get(summary["min_room"], summary["min_room"]),
            # Mahjong Soul: the highest rank the records show the account at, against the tier's
            "rank": rank_label(summary.get("rank", "")),
            "min_rank": rank_label(summary.get("min_rank", "")),
            "ranks": {key: rank_label(key) for key in RANKS["mahjongsoul"]},
            "per_room": [(room_labels().get(k, k), n) for k, n in summary["per_room"].items()],
        },
    )

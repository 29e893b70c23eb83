"""A league's members for its admins: the roster (search, add, edit, archive and restore), a roster
sheet imported (preview, then confirm) and exported, and two duplicate players merged."""

from __future__ import annotations

import csv
import io
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _, gettext_lazy

from kyoku.access import ADMIN, access, object_for_request
from kyoku.csv_cells import csv_cell
from kyoku.models import League
from kyoku.principals import request_user_actor
from kyoku.throttle import throttle_hit

from . import roster_selectors as selectors
from .models import Division, LeagueMembership, NameOrder, Player, RosterImport, Season
from .roster_import import FIELD_LABELS
from .services import roster

EXPORT_COLUMNS = tuple(FIELD_LABELS)  # the columns the import reads, in its header words


class MemberForm(forms.Form):
    """What an admin types for a member; the service checks it (league.services.roster)."""

    display_name = forms.CharField(label=gettext_lazy("display name"), max_length=200, required=False, strip=False)
    native_name = forms.CharField(
        label=gettext_lazy("name in native script"), max_length=200, required=False, strip=False
    )
    family_name = forms.CharField(label=gettext_lazy("family name"), max_length=200, required=False, strip=False)
    given_name = forms.CharField(label=gettext_lazy("given name"), max_length=200, required=False, strip=False)
    name_order = forms.ChoiceField(label=gettext_lazy("name order"), choices=NameOrder.choices, required=False)
    membership_number = forms.CharField(label=gettext_lazy("membership number"), max_length=100, strip=False)
    email = forms.CharField(label=gettext_lazy("contact email"), max_length=300, required=False, strip=False)
    tenhou_id = forms.CharField(label=gettext_lazy("Tenhou ID"), max_length=100, required=False, strip=False)
    mahjong_soul_id = forms.CharField(
        label=gettext_lazy("Mahjong Soul ID"), max_length=100, required=False, strip=False
    )


class MemberAddForm(MemberForm):
    division = forms.ModelChoiceField(
        label=gettext_lazy("Invite into (a player of another league)"),
        queryset=Division.objects.none(),
        required=False,
    )

    def __init__(self, league: League, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field: Any = self.fields["division"]
        field.queryset = Division.objects.filter(season__league=league).exclude(season__status=Season.Status.CLOSED)


def _errors_to(form: forms.Form, exc: ValidationError) -> None:
    for field, errors in exc.message_dict.items():
        form.add_error(field if field in form.fields else None, errors)


def _player_id(request: HttpRequest) -> int | None:
    try:
        return int(request.POST.get("player", ""))
    except ValueError:
        return None


def _member(league: League, player_id: int) -> LeagueMembership:
    membership = selectors.member_for(league=league, player_id=player_id)
    if membership is None:
        raise Http404
    return membership


def _list(
    request: HttpRequest, league: League, add_form: MemberAddForm | None = None, status: int = 200
) -> HttpResponse:
    query = selectors.RosterQuery.of(request.GET)
    return render(
        request,
        "league/members.html",
        {
            "league": league,
            "query": query,
            "page": selectors.roster_page(league=league, query=query, page=request.GET.get("page", 1)),
            "counts": selectors.roster_counts(league=league),
            "add_form": add_form or MemberAddForm(league),
        },
        status=status,
    )


@access("league", GET=ADMIN, POST=ADMIN, actions={"add": ADMIN, "edit": ADMIN, "archive": ADMIN, "restore": ADMIN})
def members(request: HttpRequest, slug: str) -> HttpResponseBase:
    """The roster: search, pages, the add form; archive and restore; an edit posted from a member's page."""
    league = object_for_request(request, League, slug=slug)
    if request.method != "POST":
        return _list(request, league)
    action = request.POST.get("action")
    if action == "add":
        return _add(request, league)
    player_id = _player_id(request)
    if player_id is None:
        return HttpResponseBadRequest(_("Choose a member."))
    membership = _member(league, player_id)
    if action == "edit":
        return _edit(request, league, membership)
    actor = request_user_actor(request)
    if action == "archive":
        roster.member_archive(membership=membership, actor=actor)
        messages.success(request, _("%(player)s is archived.") % {"player": membership.player})
    else:
        roster.member_restore(membership=membership, actor=actor)
        messages.success(request, _("%(player)s is restored.") % {"player": membership.player})
    return redirect("members", slug=league.slug)


def _add(request: HttpRequest, league: League) -> HttpResponseBase:
    form = MemberAddForm(league, request.POST)
    if form.is_valid():
        values = {k: v for k, v in form.cleaned_data.items() if k != "division"}
        try:
            added = roster.member_add(
                league=league, values=values, actor=request_user_actor(request), division=form.cleaned_data["division"]
            )
        except ValidationError as exc:
            _errors_to(form, exc)
        else:
            if added.invitation is not None:
                messages.success(request, _("Invitation sent: the player joins when they accept."))
                return redirect("members", slug=league.slug)
            assert added.membership is not None
            messages.success(request, _("%(player)s is a member.") % {"player": added.membership.player})
            return redirect("member", slug=league.slug, player_id=added.membership.player_id)
    return _list(request, league, add_form=form, status=400)


def _edit(request: HttpRequest, league: League, membership: LeagueMembership) -> HttpResponseBase:
    form = MemberForm(request.POST)
    if form.is_valid():
        values = {k: v for k, v in form.cleaned_data.items() if k in request.POST}
        try:
            changed = roster.member_edit(membership=membership, values=values, actor=request_user_actor(request))
        except ValidationError as exc:
            _errors_to(form, exc)
        else:
            messages.success(request, _("Saved.") if changed else _("Nothing changed."))
            return redirect("member", slug=league.slug, player_id=membership.player_id)
    context = {"league": league, "membership": membership, "form": form, "accounts": _accounts(membership.player)}
    return render(request, "league/member.html", context, status=400)


@access("member", GET=ADMIN)
def member(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One member's edit form (posted to the roster's ``edit`` action)."""
    league = object_for_request(request, League, slug=slug)
    membership = _member(league, player_id)
    p = membership.player
    initial = {f: getattr(p, f) for f in roster.PLAYER_FIELDS} | {"email": membership.contact_email}
    context = {
        "league": league,
        "membership": membership,
        "form": MemberForm(initial=initial),
        "accounts": _accounts(p),
    }
    return render(request, "league/member.html", context)


def _accounts(player: Player) -> list[Any]:
    """The player's linked online accounts (changed through /api/players/<id>/accounts/; read
    through the reverse relation: the league layer imports no app above it)."""
    accounts: Any = getattr(player, "online_accounts")
    return list(accounts.order_by("platform", "account_name"))


# ---------------------------------------------------------------- import and export


@access("league", GET=ADMIN, POST=ADMIN, actions={"preview": ADMIN, "confirm": ADMIN})
def members_import(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Upload a sheet → its preview (each row's outcome, the errors first) → confirm (all or none)."""
    league = object_for_request(request, League, slug=slug)
    actor = request_user_actor(request)
    if request.method == "POST" and request.POST.get("action") == "preview":
        throttle_hit("roster_import_league", f"league:{league.pk}")
        upload = request.FILES.get("file")
        max_bytes, _rows = roster.import_limits()
        try:
            if upload is None:
                raise ValidationError({"file": [_("Choose a CSV or XLSX file.")]})
            if upload.size > max_bytes:
                raise ValidationError(
                    {"file": [_("The file is larger than %(n)s MB.") % {"n": round(max_bytes / 1024 / 1024, 1)}]}
                )
            preview = roster.roster_import_preview(
                league=league, data=upload.read(), filename=upload.name or "", actor=actor
            )
        except ValidationError as exc:
            return _import_page(
                request, league, None, errors=[m for ms in exc.message_dict.values() for m in ms], status=400
            )
        return redirect(f"{request.path}?preview={preview.pk}")
    if request.method == "POST":
        preview = _preview_of(league, request.POST.get("preview"))
        if preview is None:
            return _import_page(
                request, league, None, errors=[_("This preview no longer exists: upload the file again.")], status=400
            )
        try:
            counts = roster.roster_import_confirm(preview=preview, actor=actor)
        except ValidationError as exc:
            return _import_page(
                request, league, preview, errors=[m for ms in exc.message_dict.values() for m in ms], status=400
            )
        messages.success(
            request,
            _("Imported: %(new)s new, %(update)s updated, %(unchanged)s unchanged.") % counts,
        )
        return redirect("members", slug=league.slug)
    return _import_page(request, league, _preview_of(league, request.GET.get("preview")))


def _preview_of(league: League, pk: Any) -> RosterImport | None:
    try:
        return RosterImport.objects.filter(league=league, pk=int(pk), confirmed_at__isnull=True).first()
    except (TypeError, ValueError):
        return None


def _import_page(
    request: HttpRequest,
    league: League,
    preview: RosterImport | None,
    errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    page = Paginator(preview.rows, 100).get_page(request.GET.get("page", 1)) if preview else None
    max_bytes, max_rows = roster.import_limits()
    return render(
        request,
        "league/members_import.html",
        {
            "league": league,
            "preview": preview,
            "page": page,
            "errors": errors or [],
            "has_errors": bool(preview and preview.summary.get("counts", {}).get("error")),
            "max_mb": round(max_bytes / 1024 / 1024, 1),
            "max_rows": max_rows,
            "labels": {k: _(v) for k, v in FIELD_LABELS.items()},
        },
        status=status,
    )


@access("league", GET=ADMIN)
def members_export(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The active members in the columns the import reads (so the file re-imports unchanged)."""
    league = object_for_request(request, League, slug=slug)
    if fmt not in ("csv", "xlsx"):
        raise Http404
    rows = selectors.roster_rows(league=league)
    header = [FIELD_LABELS[c] for c in EXPORT_COLUMNS]
    name = f"{league.slug}-members.{fmt}"
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(header)
        for row in rows:
            writer.writerow([csv_cell(row[c]) for c in EXPORT_COLUMNS])
        response = HttpResponse("\ufeff" + buffer.getvalue(), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(
            _xlsx(header, rows), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _xlsx(header: list[str], rows: list[dict[str, Any]]) -> bytes:
    """Every cell typed as text: a membership number 00123 keeps its zeros, and a name beginning
    with "=" stays the name a person sees, never a formula (a text cell needs no CSV-style
    apostrophe, which a reader of the sheet would see)."""
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    book = Workbook(write_only=True)
    sheet = book.create_sheet("Members")

    def text(value: Any) -> WriteOnlyCell:
        cell = WriteOnlyCell(sheet, value=str(value))
        cell.data_type = "s"
        cell.number_format = "@"
        return cell

    sheet.append([text(h) for h in header])
    for row in rows:
        sheet.append([text(row[c]) for c in EXPORT_COLUMNS])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# ---------------------------------------------------------------- merge


@access("league", GET=ADMIN, POST=ADMIN, actions={"confirm": ADMIN})
def members_merge(request: HttpRequest, slug: str) -> HttpResponseBase:
    """Two duplicate players: the preview (per table, what moves and what conflicts), then confirm."""
    from .services import merge

    league = object_for_request(request, League, slug=slug)
    source = request.POST if request.method == "POST" else request.GET
    keep, drop = _merge_pair(league, source)
    if keep is None or drop is None:
        asked = any(source.get(k) for k in ("keep", "drop", "keep_number", "drop_number"))
        status = 400 if request.method == "POST" or asked else 200
        error = _("Choose two different members of this league.") if status == 400 else ""
        return render(request, "league/members_merge.html", {"league": league, "error": error}, status=status)
    actor = request_user_actor(request)
    preview = merge.merge_preview(league=league, keep=keep, drop=drop, actor=actor)
    if request.method == "POST" and not preview.refusals:
        try:
            merge.merge_confirm(league=league, keep=keep, drop=drop, actor=actor)
        except ValidationError as exc:
            preview.refusals.extend(m for ms in exc.message_dict.values() for m in ms)
        else:
            messages.success(request, _("%(drop)s is merged into %(keep)s.") % {"drop": drop, "keep": keep})
            return redirect("member", slug=league.slug, player_id=keep.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "league/members_merge.html",
        {"league": league, "keep": keep, "drop": drop, "preview": preview},
        status=status,
    )


def _merge_id(league: League, source: Any, role: str) -> int | None:
    """``keep``/``drop`` as a player id, or ``keep_number``/``drop_number`` as a membership number
    of one of this league's members."""
    try:
        return int(source.get(role, ""))
    except ValueError:
        pass
    number = str(source.get(f"{role}_number", "")).strip()[:40]
    if not number:
        return None
    member = LeagueMembership.objects.filter(league=league, player__membership_number=number).first()
    return member.player_id if member else None


def _merge_pair(league: League, source: Any) -> tuple[Player | None, Player | None]:
    keep_id, drop_id = _merge_id(league, source, "keep"), _merge_id(league, source, "drop")
    if keep_id is None or drop_id is None or keep_id == drop_id:
        return None, None
    found = {
        m.player_id: m.player
        for m in LeagueMembership.objects.filter(league=league, player_id__in=[keep_id, drop_id]).select_related(
            "player"
        )
    }
    return found.get(keep_id), found.get(drop_id)

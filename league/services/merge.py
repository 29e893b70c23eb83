"""Two players who are one person, merged: everything that points at the dropped player moves to
the kept one, and the dropped player stays as a tombstone (``Player.merged_into``) whose old links
lead to the kept player.

The tables are found, not listed: every foreign key to Player in every app
(``Player._meta.related_objects``), so a table added later moves too. Where a unique constraint
would make two rows one, the rule is explicit:

- both seated in the same game: refused (a game cannot seat one person twice: correct it first);
- both entered in the same season: the kept player's entry stays, the dropped player's goes;
- both members of the same league: one membership stays (the kept player's; the contact email
  kept when it had none, and active if either was);
- both invited to the same season: the kept player's open invitation stays;
- any other collision (two applications for one tier, two registrations for one event …):
  refused with the table's name, to be resolved first;
- both with a login: refused (a login is a person's: one of them must give it up first);
- derived rows (standings, statistics, ratings): the dropped player's are deleted and every
  division's standings, every league's statistics and ratings that either touched are recomputed.

The preview lists per table what moves and what collides, in words; nothing is written until the
confirmation, which is one transaction, audited in every league of the kept player. Only an admin
of a league both players belong to may merge them (the roster page of that league)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models, transaction
from django.utils.translation import gettext as _, gettext_lazy

from kyoku import authz
from kyoku.models import AuditLog, League
from kyoku.principals import actor_label

from ..models import Division, Entry, GameSeat, LeagueMembership, Penalty, Player, Standing

# derived from the games: deleted for the dropped player, then recomputed
DERIVED = frozenset(
    {"league.standing", "ratings.playerrating", "ratings.ratingevent", "stats.playergamestats", "stats.playerstats"}
)
# a collision here keeps the kept player's row (and removes the dropped player's)
KEEP_ONE = frozenset({"league.entry", "league.leaguemembership", "league.leagueinvitation", "league.invitationblock"})
FILLED = ("native_name", "family_name", "given_name", "tenhou_id", "mahjong_soul_id")
# the tables and the fields of their unique rules in words (a table added later shows its model's name)
TABLE_WORDS = {
    "league.gameseat": gettext_lazy("seats in games (and their results)"),
    "league.entry": gettext_lazy("season entries"),
    "league.qualificationapplication": gettext_lazy("qualification applications"),
    "league.penalty": gettext_lazy("penalties"),
    "league.standing": gettext_lazy("standings"),
    "league.leaguemembership": gettext_lazy("league memberships"),
    "league.leagueinvitation": gettext_lazy("invitations"),
    "league.invitationblock": gettext_lazy("leagues whose invitations the player blocked"),
    "people.claiminvitation": gettext_lazy("invitations to claim the player"),
    "people.linkrequest": gettext_lazy("requests to link a login to the player"),
    "league.player": gettext_lazy("players merged into this one before"),
    "referee.appeal": gettext_lazy("appeals"),
    "ratings.playerrating": gettext_lazy("ratings"),
    "ratings.ratingevent": gettext_lazy("rating history"),
    "matchdays.attendance": gettext_lazy("match-day attendance"),
    "matchdays.reserve": gettext_lazy("reserves"),
    "online.onlineaccount": gettext_lazy("online accounts"),
    "events.registration": gettext_lazy("event registrations"),
    "stats.playergamestats": gettext_lazy("statistics per game"),
    "stats.playerstats": gettext_lazy("statistics"),
}
FIELD_WORDS = {
    "season": gettext_lazy("season"),
    "league": gettext_lazy("league"),
    "game": gettext_lazy("game"),
    "event": gettext_lazy("event"),
    "match_day": gettext_lazy("match day"),
    "tier": gettext_lazy("tier"),
    "system": gettext_lazy("rule system"),
}


def _fields_words(model: type[models.Model], names: list[str]) -> str:
    return ", ".join(str(FIELD_WORDS.get(n) or model._meta.get_field(n).verbose_name) for n in names)


@dataclass
class TableLine:
    label: str  # model label, e.g. "league.gameseat"
    name: str  # the table in words
    moves: int = 0
    removed: int = 0  # the dropped player's rows removed (a collision kept the kept player's)
    derived: bool = False
    words: list[str] = field(default_factory=list)


@dataclass
class MergePreview:
    lines: list[TableLine] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _relations() -> list[models.ForeignKey]:
    """Every foreign key (and one-to-one) to Player, in every app."""
    return [
        rel.field
        for rel in Player._meta.related_objects
        if isinstance(rel.field, models.ForeignKey)  # a OneToOneField is one too
    ]


def _uniques(model: type[models.Model], name: str) -> list[tuple[list[str], Any]]:
    """(other fields, condition) of each unique rule of ``model`` that names the field ``name``."""
    found = []
    for constraint in model._meta.constraints:
        fields = list(getattr(constraint, "fields", ()) or ())
        if isinstance(constraint, models.UniqueConstraint) and name in fields:
            found.append(([f for f in fields if f != name], constraint.condition))
    for together in model._meta.unique_together:
        if name in together:
            found.append(([f for f in together if f != name], None))
    return found


def _collisions(fk: models.ForeignKey, keep: Player, drop: Player) -> list[tuple[list[str], Any, set[tuple]]]:
    model, name = fk.model, fk.name
    found = []
    for others, condition in _uniques(model, name):
        qs = model._default_manager.all()
        if condition is not None:
            qs = qs.filter(condition)
        if not others:
            if qs.filter(**{name: keep}).exists() and qs.filter(**{name: drop}).exists():
                found.append((others, condition, {()}))
            continue
        mine = set(qs.filter(**{name: drop}).values_list(*others))
        theirs = set(qs.filter(**{name: keep}).values_list(*others))
        if mine & theirs:
            found.append((others, condition, mine & theirs))
    return found


def _check(*, league: League, keep: Player, drop: Player, actor: Any) -> None:
    authz.authorize(actor, league, authz.Need.ADMIN)
    if keep.pk == drop.pk:
        raise ValidationError({"drop": [_("Choose two different players.")]})
    members = set(
        LeagueMembership.objects.filter(league=league, player__in=[keep, drop]).values_list("player_id", flat=True)
    )
    if members != {keep.pk, drop.pk}:
        raise PermissionDenied(_("Only an admin of a league both players belong to may merge them."))
    if keep.merged_into_id or drop.merged_into_id:
        raise ValidationError({"drop": [_("One of the two players is already merged into another.")]})


def merge_preview(*, league: League, keep: Player, drop: Player, actor: Any) -> MergePreview:
    """What the merge would do, per table, in words; nothing is written."""
    _check(league=league, keep=keep, drop=drop, actor=actor)
    preview = MergePreview()
    for fk in _relations():
        line = _line(fk, keep, drop, preview)
        if line is not None:
            preview.lines.append(line)
    if keep.user_id and drop.user_id:
        preview.refusals.append(
            _("Both players have a login: one of them must give it up (unlink it) before they are merged.")
        )
    elif drop.user_id:
        preview.notes.append(_("The dropped player's login moves to the kept player."))
    filled = [f for f in FILLED if not getattr(keep, f) and getattr(drop, f)]
    if filled:
        preview.notes.append(
            _("Blank details of the kept player taken from the dropped one: %(fields)s")
            % {"fields": ", ".join(str(Player._meta.get_field(f).verbose_name) for f in filled)}
        )
    preview.notes.append(
        _("%(drop)s (number %(number)s) stays as a record pointing to %(keep)s; their old links lead there.")
        % {"drop": drop, "number": drop.membership_number, "keep": keep}
    )
    return preview


def _line(fk: models.ForeignKey, keep: Player, drop: Player, preview: MergePreview) -> TableLine | None:
    model = fk.model
    label = model._meta.label_lower
    rows = model._default_manager.filter(**{fk.name: drop}).count()
    if not rows:
        return None
    name = str(TABLE_WORDS.get(label) or model._meta.verbose_name_plural)
    line = TableLine(label=label, name=name, derived=label in DERIVED)
    if line.derived:
        line.removed = rows
        line.words.append(_("%(n)s derived rows deleted and recomputed from the games") % {"n": rows})
        return line
    removed = 0
    for others, _condition, clash in _collisions(fk, keep, drop):
        if label in KEEP_ONE:
            removed += len(clash)
            line.words.append(
                _(
                    "%(n)s rows where both players have one (the same %(what)s): the kept player's stays, the dropped player's is removed"
                )
                % {"n": len(clash), "what": _fields_words(model, others) or name}
            )
        elif label == "league.gameseat":
            preview.refusals.append(
                _(
                    "Both players are seated in the same game (%(n)s games): one person cannot sit twice at a table; correct those games first."
                )
                % {"n": len(clash)}
            )
        else:
            preview.refusals.append(
                _("%(table)s: both players have a row for the same %(what)s (%(n)s); resolve it before merging.")
                % {"table": line.name, "what": _fields_words(model, others), "n": len(clash)}
            )
    line.removed, line.moves = removed, rows - removed
    line.words.insert(0, _("%(n)s rows move to the kept player") % {"n": line.moves})
    return line


# ---------------------------------------------------------------- confirm


def _affected(drop: Player) -> tuple[set[int], set[int]]:
    """(division ids, league ids) whose derived figures the dropped player's rows touch."""
    seasons = set(GameSeat.objects.filter(player=drop).values_list("game__season_id", flat=True))
    seasons |= set(Entry.objects.filter(player=drop).values_list("season_id", flat=True))
    seasons |= set(Standing.objects.filter(player=drop).values_list("season_id", flat=True))
    seasons |= set(Penalty.objects.filter(player=drop).values_list("season_id", flat=True))
    divisions = set(Division.objects.filter(season_id__in=seasons).values_list("pk", flat=True))
    leagues = set(Division.objects.filter(pk__in=divisions).values_list("season__league_id", flat=True))
    # the leagues of the dropped player's derived rows (statistics, ratings: the apps' tables,
    # found among the relations, not imported: the league layer imports no app above it)
    for fk in _relations():
        if fk.model._meta.label_lower in DERIVED and any(f.name == "league" for f in fk.model._meta.fields):
            rows = fk.model._default_manager.filter(**{fk.name: drop})
            leagues |= set(rows.order_by().values_list("league_id", flat=True).distinct())
    return divisions, leagues


def _keep_one(fk: models.ForeignKey, keep: Player, drop: Player) -> int:
    """Remove the dropped player's rows that collide with the kept player's (KEEP_ONE tables)."""
    removed = 0
    for others, condition, clash in _collisions(fk, keep, drop):
        for values in clash:
            where = dict(zip(others, values))
            qs = fk.model._default_manager.filter(**where)
            if condition is not None:
                qs = qs.filter(condition)
            mine, theirs = qs.filter(**{fk.name: drop}), qs.filter(**{fk.name: keep})
            if fk.model is LeagueMembership:
                _membership_fold(theirs.get(), mine.get())
            removed += mine.count()
            mine.delete()
    return removed


def _membership_fold(kept: LeagueMembership, dropped: LeagueMembership) -> None:
    changed = []
    if not kept.contact_email and dropped.contact_email:
        kept.contact_email = dropped.contact_email
        changed.append("contact_email")
    if kept.archived_at is not None and dropped.archived_at is None:
        kept.archived_at = None
        changed.append("archived_at")
    if changed:
        kept.save(update_fields=changed)


@transaction.atomic
def merge_confirm(*, league: League, keep: Player, drop: Player, actor: Any) -> dict[str, Any]:
    """Merge ``drop`` into ``keep`` (see the module's docstring). Returns what moved, per table."""
    keep, drop = (Player.objects.select_for_update().get(pk=p.pk) for p in (keep, drop))
    preview = merge_preview(league=league, keep=keep, drop=drop, actor=actor)
    if preview.refusals:
        raise ValidationError({"merge": preview.refusals})
    divisions, leagues = _affected(drop)
    moved: dict[str, int] = {}
    removed: dict[str, int] = {}
    for fk in _relations():
        label = fk.model._meta.label_lower
        rows = fk.model._default_manager.filter(**{fk.name: drop})
        if label in DERIVED:
            removed[label] = rows.delete()[0]
            continue
        if label in KEEP_ONE:
            removed[label] = _keep_one(fk, keep, drop)
        count = fk.model._default_manager.filter(**{fk.name: drop}).update(**{fk.name: keep})
        if count:
            moved[label] = count
    _player_fold(keep, drop)
    _derived_recompute(divisions, leagues, actor)
    data = {"kept": keep.pk, "dropped": drop.pk, "moved": moved, "removed": {k: v for k, v in removed.items() if v}}
    _merge_audit(actor, keep, data)
    return data


def _player_fold(keep: Player, drop: Player) -> None:
    """The login and blank details move to ``keep``; ``drop`` becomes its tombstone."""
    user = drop.user
    fields = [f for f in FILLED if not getattr(keep, f) and getattr(drop, f)]
    for f in fields:
        setattr(keep, f, getattr(drop, f))
    drop.user, drop.active, drop.merged_into = None, False, keep
    drop.save(update_fields=["user", "active", "merged_into"])
    if user is not None:
        keep.user = user
        fields.append("user")
    if fields:
        keep.save(update_fields=fields)


def _derived_recompute(divisions: set[int], leagues: set[int], actor: Any) -> None:
    """Standings and division summaries here; statistics and ratings by their apps, which listen
    to ``players_merged`` (sent inside this transaction)."""
    from ..signals import players_merged
    from .standings_writes import standings_recompute
    from .summary import division_summary_recompute

    for division in Division.objects.filter(pk__in=divisions).order_by("pk"):
        standings_recompute(division=division)
        division_summary_recompute(division=division)
    players_merged.send(sender=Player, league_ids=set(leagues), actor=actor)


def _merge_audit(actor: Any, keep: Player, data: dict[str, Any]) -> None:
    for league_id in sorted(authz.player_leagues(keep)) or [None]:
        AuditLog.objects.create(
            actor=authz.acting_user(actor),
            actor_label=actor_label(actor),
            action="player.merge",
            object_type=keep._meta.label_lower,
            object_id=str(keep.pk),
            data=data,
            league_id=league_id,
        )


def merged_target(player: Player) -> Player | None:
    """The player a merged tombstone leads to (following a chain), or None."""
    seen = set()
    target = player
    while target.merged_into_id and target.pk not in seen:
        seen.add(target.pk)
        target = target.merged_into  # type: ignore[assignment]
    return target if target.pk != player.pk else None

"""One place that decides who may touch what (the shape of healthchecks' ``_get_check_for_user``).

Every league object names the path from itself to its league in a class attribute
``LEAGUE_PATH`` (a Django lookup, "" for League itself, e.g. ``"season__league"`` for a Game).
``object_for_actor`` fetches the object, resolves its league and checks the actor's role in
*that* league; ``scope_for_actor`` narrows a queryset the same way for lists.

Needs, weakest first:
  VIEW     anyone may read (public league data; a league waiting for approval only its creator,
           its role holders and superusers: ``league_visible``)
  OWNER    the owning player, or that league's referee/admin (``owns``: the player ``OWNER_PATH``
           names, or one of those ``OWNERS_PATH`` names)
  REFEREE  a referee or admin of the object's league
  ADMIN    an admin of the object's league
  DIRECTOR an event director or admin of the object's league (runs its tournaments: the desk,
           rounds, clock, cut, seating, signs, the EMA file; never its seasons, results or roster)
  SELF     the owning player only
  SELF_OR_ADMIN  the player (the object, or its owner), or an admin of a league they belong to
  TABLE    a player seated at this game (``SEATS_PATH``), or this game's table phone
A superuser counts as admin, referee and director of every league; an admin counts as a referee
and a director of their league (``is_referee``, ``is_director``).

The actor is one of ``kyoku.principals``: a user, a table phone or the system (tasks and commands,
which may do anything); an anonymous visitor only reads (VIEW). ``None`` is refused (TypeError).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, TypeVar, cast

from django.core.exceptions import PermissionDenied
from django.db import models
from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from kyoku.models import League, LeagueRole
from kyoku.principals import System, TablePhone

# An actor is one of kyoku.principals (a user, a table phone, the system), or a request's anonymous
# visitor for reads; the platform reads a user by duck typing (``is_authenticated``, ``is_superuser``,
# the ``player`` the league app hangs on a User), so it is typed Any here. A player is the league
# app's Player, which the platform does not import: typed as a model.
Actor = Any
M = TypeVar("M", bound=models.Model)


class Need(str, Enum):
    VIEW = "view"
    OWNER = "owner"
    REFEREE = "referee"
    ADMIN = "admin"
    DIRECTOR = "director"  # an event director or admin of the object's league
    DESK = "desk"  # a referee, event director or admin of the object's league (settles a table)
    SELF = "self"  # the owning player only
    SELF_OR_ADMIN = "self_or_admin"  # the player, or an admin of a league the player belongs to
    TABLE = "table"  # a player seated at this game, or this game's table phone


# ---------------------------------------------------------------- actors and roles


def _roles(user: Actor) -> set[tuple[int, str]]:
    roles: set[tuple[int, str]] | None = getattr(user, "_kyoku_roles", None)
    if roles is None:
        roles = set(LeagueRole.objects.filter(user=user).values_list("league_id", "role"))
        user._kyoku_roles = roles  # cached per request (the user object lives one request)
    return roles


def _league_id(league: League | int | None) -> int | None:
    if league is None:
        return None
    return league if isinstance(league, int) else league.pk


def has_role(user: Actor, role: str, league: League | int | None = None) -> bool:
    """``league=None`` asks "in any league" (menus); object checks always pass a league."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    lid = _league_id(league)
    return any(r == role and (lid is None or l_id == lid) for l_id, r in _roles(user))


def is_admin(user: Actor, league: League | int | None = None) -> bool:
    return has_role(user, LeagueRole.Role.ADMIN, league)


def is_referee(user: Actor, league: League | int | None = None) -> bool:
    return has_role(user, LeagueRole.Role.REFEREE, league) or is_admin(user, league)


def is_director(user: Actor, league: League | int | None = None) -> bool:
    """An event director of ``league`` (any league when None); its admins count as directors."""
    return has_role(user, LeagueRole.Role.DIRECTOR, league) or is_admin(user, league)


def is_desk(user: Actor, league: League | int | None = None) -> bool:
    """Who settles a table's result at a tournament's desk: its referees and its directors (the
    head referee is often the director), and the league's admins."""
    return is_referee(user, league) or is_director(user, league)


def league_visible(user: Actor, league: League) -> bool:
    """An active league is public; a league waiting for approval (or refused) is shown only to its
    creator, those holding a role in it, and superusers (league.services.leagues)."""
    if getattr(league, "approval", League.Approval.ACTIVE) == League.Approval.ACTIVE:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser or league.created_by_id == user.pk:
        return True
    return any(l_id == league.pk for l_id, _r in _roles(user))


def _visible(user: Actor, obj: models.Model) -> bool:
    """VIEW: whether the object's league (if it has one) is visible to ``user``."""
    if getattr(type(obj), "LEAGUE_PATH", None) is None:
        return True
    try:
        league = league_of(obj)
    except AttributeError:  # a path through an empty link: no league to hide
        return True
    return league is None or league_visible(user, league)


def acting_user(actor: Actor) -> Any:
    """The user to record as having made a change: the actor when it is a signed-in user, else
    None (a task, a command or an anonymous request)."""
    return actor if getattr(actor, "is_authenticated", False) else None


def player_of(user: Actor) -> models.Model | None:
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        player: models.Model = user.player
        return player
    except Exception:  # RelatedObjectDoesNotExist: a login with no player
        return None


def player_leagues(player: models.Model) -> set[int]:
    """Ids of the leagues a player belongs to: the leagues of their memberships. The model that
    records a membership declares the path from its row to the league id
    (``MEMBERSHIP_LEAGUE_PATH``: the league app's ``LeagueMembership``), so the platform asks it
    without importing it. An entry, an application, a seat or a registration is not a membership:
    any of them can be made by another league's admin or director, and being entered somewhere
    is not the player's consent to show that league their private details (docs/privacy.md); a
    membership is recorded only with that consent (``league.services.memberships``)."""
    from django.apps import apps

    leagues: set[int] = set()
    for model in apps.get_models():
        path = getattr(model, "MEMBERSHIP_LEAGUE_PATH", None)
        if path:
            leagues |= set(model._default_manager.filter(player=player).values_list(path, flat=True).distinct())
    return leagues


def player_private_visible(user: Actor, player: models.Model | None) -> bool:
    """The privacy rule (docs/privacy.md): a player's membership number and online account names
    are shown only to the player and to admins of a league the player belongs to."""
    if not getattr(user, "is_authenticated", False) or player is None:
        return False
    if user.is_superuser:
        return True
    own = player_of(user)
    if own is not None and own.pk == player.pk:
        return True
    admin_of = leagues_where(user, Need.ADMIN) or []
    return bool(admin_of) and not player_leagues(player).isdisjoint(admin_of)


def leagues_where(user: Actor, need: Need) -> list[int] | None:
    """League ids where ``user`` meets ``need`` (REFEREE/ADMIN/DIRECTOR/DESK); ``None`` means every league."""
    if getattr(user, "is_superuser", False):
        return None
    if not getattr(user, "is_authenticated", False):
        return []
    if need == Need.ADMIN:
        wanted = {LeagueRole.Role.ADMIN}
    elif need == Need.DIRECTOR:
        wanted = {LeagueRole.Role.ADMIN, LeagueRole.Role.DIRECTOR}
    elif need == Need.DESK:
        wanted = {LeagueRole.Role.ADMIN, LeagueRole.Role.DIRECTOR, LeagueRole.Role.REFEREE}
    else:
        wanted = {LeagueRole.Role.ADMIN, LeagueRole.Role.REFEREE}
    return sorted({lid for lid, r in _roles(user) if r in wanted})


# ---------------------------------------------------------------- objects


def league_path(model: type[models.Model]) -> str:
    try:
        path: str = getattr(model, "LEAGUE_PATH")  # declared by each league model
        return path
    except AttributeError:
        raise TypeError(f"{model.__name__} declares no LEAGUE_PATH: it cannot be authorized") from None


def league_of(obj: models.Model) -> League:
    path = league_path(type(obj))
    if path == "":
        return cast(League, obj)  # the one model whose path is empty
    target: Any = obj
    for part in path.split("__"):
        target = getattr(target, part)
    league: League = target  # LEAGUE_PATH leads to the league
    return league


def owner_of(obj: models.Model) -> models.Model | None:
    """The player who owns ``obj`` (an application, a penalty), or None."""
    owner = getattr(type(obj), "OWNER_PATH", None)
    if not owner:
        return None
    target: Any = obj
    for part in owner.split("__"):
        target = getattr(target, part, None)
        if target is None:
            return None
    player: models.Model = target  # OWNER_PATH leads to the player
    return player


def owns(player: models.Model | None, obj: models.Model) -> bool:
    """Whether ``player`` owns ``obj``: the one player its ``OWNER_PATH`` names, or, on a model whose
    ``OWNERS_PATH`` is a lookup naming several (the players seated at an incident's game), any of them."""
    if player is None:
        return False
    many = getattr(type(obj), "OWNERS_PATH", None)
    if many:
        return bool(type(obj)._default_manager.filter(pk=obj.pk, **{many: player}).exists())
    same: bool = getattr(owner_of(obj), "pk", None) == player.pk
    return same


def seated(player: models.Model | None, obj: models.Model) -> bool:
    """Whether ``player`` has a seat at ``obj`` (a game: its ``SEATS_PATH`` names the seated players)."""
    path = getattr(type(obj), "SEATS_PATH", None)
    if player is None or not path:
        return False
    return bool(type(obj)._default_manager.filter(pk=obj.pk, **{path: player}).exists())


def allowed(user: Actor, obj: models.Model, need: Need) -> bool:
    if user is None:
        raise TypeError("authorize an actor, never None: pass the user, the table phone or SYSTEM")
    if isinstance(user, System):
        return True  # a task or a command: never a request
    if need == Need.VIEW:
        return _visible(user, obj)
    if isinstance(user, TablePhone):
        # a phone acts for its own table and nothing else
        return need == Need.TABLE and getattr(type(obj), "SEATS_PATH", None) is not None and obj.pk == user.game_id
    if need == Need.TABLE:
        return seated(player_of(user), obj)
    if need == Need.SELF:
        return owns(player_of(user), obj)
    if need == Need.SELF_OR_ADMIN:
        return player_private_visible(user, owner_of(obj) or obj)
    league = league_of(obj)
    if need == Need.ADMIN:
        return is_admin(user, league)
    if need == Need.REFEREE:
        return is_referee(user, league)
    if need == Need.DIRECTOR:
        return is_director(user, league)
    if need == Need.DESK:
        return is_desk(user, league)
    if need == Need.OWNER:
        return is_referee(user, league) or owns(player_of(user), obj)
    raise ValueError(need)


def authorize(user: Actor, obj: models.Model, need: Need) -> None:
    """Raise PermissionDenied (403) when ``user`` may not act on ``obj``; anonymous users
    asking for more than VIEW get the same (DRF turns it into 401/403, pages into login)."""
    if not allowed(user, obj, need):
        if getattr(type(obj), "LEAGUE_PATH", None) is None:  # a player: the privacy rule (docs/privacy.md)
            raise PermissionDenied(_("only the player or an admin of the player's league may do this"))
        raise PermissionDenied(_("you may not do this in %(league)s") % {"league": league_of(obj)})


def object_for_actor(model_or_qs: type[M] | QuerySet[M], *, actor: Actor, need: Need, **lookup: Any) -> M:
    """Fetch one object and authorize ``actor`` for ``need`` in the object's own league.

    A missing object (or a malformed id) is 404; an object the actor may not act on is 403.
    """
    qs: QuerySet[M] = (
        cast("type[M]", model_or_qs)._default_manager.all() if hasattr(model_or_qs, "_default_manager") else model_or_qs
    )
    # a model outside any league (a player) may still be fetched for a need that does not ask its
    # league (VIEW, SELF, SELF_OR_ADMIN); ``allowed`` refuses to guess a league it has no path to
    path = getattr(qs.model, "LEAGUE_PATH", None)
    if path and _is_fk_chain(qs.model, path):
        qs = qs.select_related(path)
    try:
        obj = qs.get(**lookup)
    except (cast(Any, qs.model).DoesNotExist, ValueError, TypeError, OverflowError):
        raise Http404(f"no such {qs.model._meta.verbose_name}") from None
    authorize(actor, obj, need)
    return obj


def _is_fk_chain(model: Any, path: str) -> bool:
    for part in path.split("__"):
        field = model._meta.get_field(part)
        if not (field.many_to_one or field.one_to_one):
            return False
        model = field.related_model
    return True


def scope_visible(qs: QuerySet[M], *, actor: Actor) -> QuerySet[M]:
    """Narrow a public list to the rows whose league ``actor`` may see (``league_visible``): a
    league waiting for approval only for its creator, its role holders and superusers."""
    if getattr(actor, "is_superuser", False):
        return qs
    from django.db.models import Q

    path = league_path(qs.model)
    prefix = f"{path}__" if path else ""
    cond = Q(**{f"{prefix}approval": League.Approval.ACTIVE})
    if getattr(actor, "is_authenticated", False):
        mine = {lid for lid, _r in _roles(actor)}
        cond |= Q(**{f"{prefix}created_by": actor.pk}) | Q(**{f"{prefix}pk__in": mine})
    return qs.filter(cond)


def scope_for_actor(qs: QuerySet[M], *, actor: Actor, need: Need) -> QuerySet[M]:
    """Narrow a queryset to the objects ``actor`` may see for ``need`` (lists)."""
    if need == Need.VIEW:
        return qs
    path = league_path(qs.model)
    league_field = f"{path}_id" if path else "pk"
    leagues = leagues_where(actor, need if need in (Need.ADMIN, Need.DIRECTOR, Need.DESK) else Need.REFEREE)
    if leagues is None:
        return qs
    from django.db.models import Q

    cond = Q(**{f"{league_field}__in": leagues})
    if need == Need.OWNER:
        player = player_of(actor)
        owner = getattr(qs.model, "OWNER_PATH", None)
        if player is not None and owner:
            cond |= Q(**{owner: player})
    return qs.filter(cond)

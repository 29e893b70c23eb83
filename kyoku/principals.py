"""Who acts: the one actor type every service takes (issue 34).

A service never receives ``None`` nor an anonymous visitor. It receives one of:

- a **user** (a signed-in ``User``): what they may do is their roles in the object's league
  (``kyoku.authz``);
- a **table phone** (``TablePhone``): a browser holding the code printed on one table's sign, bound
  to that one game while its round is in play, acting for that table's four seats and nothing else.
  Only the events app makes one (it alone checks codes and rounds), through the resolver it
  registers here, so the platform never imports it;
- the **system** (``SYSTEM`` or a named ``System``): a task, a command, a migration, the demo.
  Never a request: no view can make one.

``kyoku.authz`` decides what each may do: the system everything, a table phone only ``Need.TABLE``
on its own game (and reading), an anonymous visitor reading only. ``actor_require`` is the runtime
guard that every audited write passes through (``kyoku.audit.audit_log_write``), so a service that
forgot the type still cannot write as nobody; mypy holds the annotated services to ``Actor``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Union

from django.core.exceptions import PermissionDenied

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class System:
    """A task or a command; ``name`` says which, for the audit log."""

    name: str = "system"
    is_authenticated: ClassVar[bool] = False
    is_superuser: ClassVar[bool] = False
    pk: ClassVar[None] = None

    def __str__(self) -> str:
        return f"system: {self.name}"


SYSTEM = System()


@dataclass(frozen=True)
class TablePhone:
    """A phone holding one table's code while that table's round is in play."""

    game_id: int
    is_authenticated: ClassVar[bool] = False
    is_superuser: ClassVar[bool] = False
    pk: ClassVar[None] = None

    def __str__(self) -> str:
        return f"table phone: game {self.game_id}"

    @property
    def scope(self) -> str:
        """What an ``Idempotency-Key`` is scoped to: this table's phones."""
        return f"table:{self.game_id}"


Actor = Union["User", TablePhone, System]


def is_user(actor: Any) -> bool:
    return bool(getattr(actor, "is_authenticated", False))


def actor_require(actor: Any) -> None:
    """Refuse what is not an actor: ``None`` (the old "system") and an anonymous visitor. A
    programming error for None; for an anonymous visitor the request is refused (403)."""
    if actor is None:
        raise TypeError("a service was called with actor=None: pass the user, the table phone or SYSTEM")
    if isinstance(actor, (System, TablePhone)) or is_user(actor):
        return
    raise PermissionDenied("an anonymous visitor may not change anything")


def actor_label(actor: Any) -> str:
    """How the audit log names an actor that is not a user ("" for a user: the row links them)."""
    if isinstance(actor, (System, TablePhone)):
        return str(actor)
    return ""


def actor_scope(actor: Any) -> str | None:
    """The principal an ``Idempotency-Key`` belongs to: the user, or the table's phones; None for
    anyone else (an anonymous visitor writes nothing, so has no key to replay)."""
    if isinstance(actor, TablePhone):
        return actor.scope
    if is_user(actor):
        return f"user:{actor.pk}"
    return None


# ---------------------------------------------------------------- a request's principal

# The events app registers the function that turns a request and a game into that table's phone
# (or None): it alone knows the codes and which round is in play.
PhoneResolver = Callable[[Any, Any], "TablePhone | None"]
_PHONE_RESOLVERS: list[PhoneResolver] = []


def phone_resolver(resolver: PhoneResolver) -> PhoneResolver:
    if resolver not in _PHONE_RESOLVERS:
        _PHONE_RESOLVERS.append(resolver)
    return resolver


def request_actor(request: Any, obj: Any = None) -> Any:
    """The principal of a request acting on ``obj``: its signed-in user; else, when ``obj`` is a
    table whose code this browser holds (round in play), that table's phone; else the anonymous
    visitor (who may only read)."""
    user = getattr(request, "user", None)
    if is_user(user):
        return user
    if obj is not None:
        for resolve in _PHONE_RESOLVERS:
            phone = resolve(request, obj)
            if phone is not None:
                return phone
    return user


# ---------------------------------------------------------------- a view's signed-in user


def request_user_actor(request: Any) -> Actor:
    """The signed-in user of a request, as the actor a service takes. A view reaches a write only
    behind a login (``kyoku.access``); an anonymous visitor here is refused (403), never passed on."""
    from typing import cast

    user = getattr(request, "user", None)
    if not is_user(user):
        raise PermissionDenied("sign in to do this")
    return cast(Actor, user)  # signed in: a User (django-stubs types request.user as User | AnonymousUser)

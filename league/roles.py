"""Who may do what: moved to the shared package ``kyoku.authz`` (kept here for old imports)."""

from kyoku.authz import is_admin, is_referee, player_of  # noqa: F401

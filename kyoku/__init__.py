"""Shared plumbing for every app: actors and roles, the one league-scoped authorization
helper, idempotency, engine-error translation, input hardening and route access declarations.

Apps import from here; this package imports from no app but ``league.models`` (the league
and role tables the authorization rests on)."""

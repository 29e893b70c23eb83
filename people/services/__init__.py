"""People's writes: claims (invitations, link requests), a person's own player, account closure."""

from .claims import (
    ClaimSent,
    claim_invitation_accept,
    claim_invitation_resend,
    claim_invitation_revoke,
    claim_invitation_send,
    email_normalise,
    token_hash,
)
from .closure import account_close
from .links import link_request_create, link_request_decide
from .own_player import membership_number_new, player_self_create

__all__ = [
    "ClaimSent",
    "account_close",
    "claim_invitation_accept",
    "claim_invitation_resend",
    "claim_invitation_revoke",
    "claim_invitation_send",
    "email_normalise",
    "link_request_create",
    "link_request_decide",
    "membership_number_new",
    "player_self_create",
    "token_hash",
]

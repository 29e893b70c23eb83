"""The access of django-allauth's pages (declared in config.urls.DECLARED: their views are not
ours, and each enforces its own level, which the endpoint matrix probes for every principal), and
this app's own route, a league's security page."""

from __future__ import annotations

from django.urls import path

from accounts import views
from kyoku.access import LOGGED_IN, PUBLIC, Route, route

_PUBLIC_PAGES = {
    # signing in and out, signing up, verifying an email, resetting a forgotten password
    "login": route(GET=PUBLIC, POST=PUBLIC),
    "logout": route(GET=PUBLIC, POST=PUBLIC),
    "account_login": route(GET=PUBLIC, POST=PUBLIC),
    "account_logout": route(GET=PUBLIC, POST=PUBLIC),
    "account_inactive": route(GET=PUBLIC),
    "account_signup": route(GET=PUBLIC, POST=PUBLIC),
    "account_email_verification_sent": route(GET=PUBLIC),
    "account_confirm_email": route("email_key", GET=PUBLIC, POST=PUBLIC, query="next=/"),
    "account_reset_password": route(GET=PUBLIC, POST=PUBLIC),
    "account_reset_password_done": route(GET=PUBLIC),
    "account_reset_password_from_key": route("reset_key", GET=PUBLIC, POST=PUBLIC),
    "account_reset_password_from_key_done": route(GET=PUBLIC),
}
_SIGNED_IN_PAGES = {
    # one's own account: password, email addresses, sessions, two factors
    "account_reauthenticate": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "account_email": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "account_change_password": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "account_set_password": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "usersessions_list": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_index": route(GET=LOGGED_IN),
    "mfa_reauthenticate": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_activate_totp": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_deactivate_totp": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_view_recovery_codes": route(GET=LOGGED_IN),
    "mfa_generate_recovery_codes": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_download_recovery_codes": route(GET=LOGGED_IN),
}
_MID_LOGIN = (
    "serves only a sign-in in progress (allauth's login stage, held in the session after the "
    "password step): without one it sends everyone, signed in or not, to the sign-in page; "
    "the matrix holds no sign-in in progress (tests/accounts/test_two_factors.py walks it)"
)
_NO_LOGIN_CODES = "sign-in codes are off (ACCOUNT_LOGIN_BY_CODE_ENABLED): without a code sent it sends everyone back"
_MID_LOGIN_PAGES = {
    "account_confirm_login_code": route(GET=PUBLIC, POST=PUBLIC, skip=_NO_LOGIN_CODES),
    "account_request_reauthentication_code": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "account_confirm_reauthentication_code": route(GET=LOGGED_IN, POST=LOGGED_IN),
    "mfa_authenticate": route(GET=PUBLIC, POST=PUBLIC, skip=_MID_LOGIN),
}
ACCOUNT_ROUTES: dict[str, Route] = {**_PUBLIC_PAGES, **_SIGNED_IN_PAGES, **_MID_LOGIN_PAGES}

urlpatterns = [
    path("leagues/<slug:slug>/security/", views.league_security, name="league-security"),
]

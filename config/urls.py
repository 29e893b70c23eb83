from allauth.account import views as account_views
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import set_language

from accounts.urls import ACCOUNT_ROUTES
from kyoku.access import PUBLIC, access, route
from kyoku.site import favicon

# Routes served by Django's own views, declared here because their code is not ours; every other
# route declares its access on its view (kyoku/access.py).
DECLARED = {
    "admin:*": route(skip="Django admin: staff only by Django's own checks (tests/security/test_admin_audit.py)"),
    # django-allauth's pages under /accounts/ (sign-in, sign-up, password, email, sessions, two
    # factors), each at the level its view enforces (accounts/urls.py)
    **ACCOUNT_ROUTES,
}

urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", access(POST=PUBLIC)(set_language), name="set_language"),
    # the names "login" and "logout" (settings.LOGIN_URL, templates) lead to allauth's own pages
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", account_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("api/", include("scoring.api_urls")),
    path("api/", include("referee.api_urls")),
    path("api/", include("ratings.api_urls")),
    path("api/", include("league.api.urls")),
    path("api/", include("matchdays.api_urls")),
    path("api/", include("online.api_urls")),
    path("api/", include("events.api_urls")),
    path("api/", include("stats.api_urls")),
    path("api/", include("notifications.api_urls")),
    path("referee/", include("referee.urls")),
    path("scoring/", include("scoring.urls")),
    path("", include("matchdays.urls")),
    path("", include("ratings.urls")),
    path("", include("stats.urls")),
    path("online/", include("online.urls")),
    path("events/", include("events.urls")),
    path("live/", include("live.urls")),
    path("", include("notifications.urls")),
    path("", include("scoring.game_urls")),
    path("", include("people.urls")),
    path("", include("league.urls_roster")),
    path("", include("scoring.urls_start")),  # /leagues/new/, before league.urls_start's /leagues/<slug>/
    path("", include("league.urls_start")),
    path("", include("league.urls")),
]
handler404 = "kyoku.site.page_not_found"
handler403 = "accounts.views.permission_denied"
handler429 = "accounts.views.too_many_requests"  # allauth's rate limits (allauth.core.ratelimit)
handler500 = "kyoku.site.server_error"
# No media URL: uploaded evidence is private (kyoku.uploads) and served only by authorized views.

"""Site-level odds and ends: the favicon browsers ask for at /favicon.ico, and the error
handlers (config/urls.py): under /api/ a client gets JSON, elsewhere the site's translated page."""

import sys

from django.contrib.staticfiles import finders
from django.db import InterfaceError, OperationalError, connection
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.template import loader
from django.views import defaults
from django.views.decorators.cache import cache_control

from kyoku.access import PUBLIC, access


@access(GET=PUBLIC)
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> FileResponse:
    path = finders.find("favicon.ico")
    if not path:
        raise Http404("no favicon")
    return FileResponse(open(path, "rb"), content_type="image/x-icon")


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404: an API client gets JSON it can read, not an HTML page."""
    if _is_api(request):
        return JsonResponse({"detail": _("Not found: no such endpoint or object.")}, status=404)
    return defaults.page_not_found(request, exception)


RETRY_AFTER_SECONDS = 5


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database could not be reached (restarting, down, or SQLite's
    write lock held past its timeout), as opposed to a fault in the code. SQLite reports its own
    SQL mistakes as OperationalError too, so there only a lock counts."""
    if not isinstance(exc, (OperationalError, InterfaceError)):
        return False
    return connection.vendor != "sqlite" or "locked" in str(exc)


def service_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the request stored nothing and can be sent again as it is (the
    phones' outboxes do, with the same idempotency key)."""
    if _is_api(request):
        response: HttpResponse = JsonResponse(
            {
                "detail": _(
                    "The database is unavailable for a moment; nothing was half-saved. Send the request again shortly."
                ),
                "code": "database_unavailable",
            },
            status=503,
        )
    else:
        response = HttpResponse(loader.render_to_string("503.html", request=None), status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# set on a request whose answer is the 503 below (kyoku.middleware.ReadRetryMiddleware reads it)
_UNAVAILABLE = "kyoku_database_unavailable"


def database_unavailable_seen(request: HttpRequest) -> bool:
    """Whether this request was answered 503 because the database could not be reached; reading
    it forgets it, so a request read again is judged on its second answer."""
    seen = bool(getattr(request, _UNAVAILABLE, False))
    setattr(request, _UNAVAILABLE, False)
    return seen


def server_error(request: HttpRequest) -> HttpResponse:
    if database_unavailable(sys.exc_info()[1]):
        setattr(request, _UNAVAILABLE, True)
        return service_unavailable(request)
    if _is_api(request):
        return JsonResponse(
            {"detail": _("Server error: the request could not be completed; please try again.")}, status=500
        )
    return defaults.server_error(request)

"""Site-level odds and ends: the favicon browsers ask for at /favicon.ico, and the error
handlers (config/urls.py): under /api/ a client gets JSON, elsewhere the site's translated page."""

from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
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


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"detail": _("Server error: the request could not be completed; please try again.")}, status=500
        )
    return defaults.server_error(request)

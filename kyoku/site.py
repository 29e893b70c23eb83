"""Site-level odds and ends: the favicon browsers ask for at /favicon.ico."""

from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    path = finders.find("favicon.ico")
    if not path:
        raise Http404("no favicon")
    return FileResponse(open(path, "rb"), content_type="image/x-icon")

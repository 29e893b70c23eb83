from django.core.paginator import Paginator
from django.shortcuts import render

from kyoku.access import PUBLIC, access, object_for_request
from kyoku.models import League

from . import selectors

PER_PAGE = 25


@access("league", GET=PUBLIC)
def league_ratings(request, slug):
    league = object_for_request(request, League, slug=slug)
    sort = selectors.sort_clean(request.GET.get("sort"))
    page = Paginator(selectors.league_ratings(league=league, sort=sort), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "ratings/table.html", {"league": league, "page": page, "sort": sort})

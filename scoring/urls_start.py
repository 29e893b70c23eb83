"""/leagues/new/ (scoring.views_start), included before the league's own pages (league.urls_start)."""

from django.urls import path

from . import views_start

urlpatterns = [path("leagues/new/", views_start.league_new, name="league-new")]

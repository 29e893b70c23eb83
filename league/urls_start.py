"""A league's front door (league.views_start): approval queue, its page, roles, settings, and a
role invitation's link (starting one is scoring.urls_start, included before these)."""

from django.urls import path

from . import views_start, views_tiers

urlpatterns = [
    path("leagues/requests/", views_start.league_requests, name="league-requests"),
    path("leagues/<slug:slug>/", views_start.league_page, name="league-page"),
    path("leagues/<slug:slug>/roles/", views_start.league_roles, name="league-roles"),
    path("leagues/<slug:slug>/settings/", views_start.league_settings, name="league-settings"),
    path("leagues/<slug:slug>/tiers/", views_tiers.league_tiers, name="league-tiers"),
    path("roles/accept/<str:token>/", views_start.role_accept, name="role-accept"),
]

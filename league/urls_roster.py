"""A league's roster pages (league.views_roster) and its API (league.api_roster)."""

from django.urls import path

from . import api_roster, views_roster

urlpatterns = [
    path("leagues/<slug:slug>/members/", views_roster.members, name="members"),
    path("leagues/<slug:slug>/members/<int:player_id>/", views_roster.member, name="member"),
    path("leagues/<slug:slug>/members/import/", views_roster.members_import, name="members-import"),
    path("leagues/<slug:slug>/members/export.<str:fmt>", views_roster.members_export, name="members-export"),
    path("leagues/<slug:slug>/members/merge/", views_roster.members_merge, name="members-merge"),
    path("api/leagues/<slug:slug>/members/", api_roster.MembersView.as_view(), name="api-members"),
    path("api/leagues/<slug:slug>/members/<int:player_id>/", api_roster.MemberView.as_view(), name="api-member"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("seasons/<int:season_id>/matchdays/", views.match_day_list, name="matchday-list"),
    path("seasons/<int:season_id>/matchdays/add/", views.match_day_add, name="matchday-add"),
    path("seasons/<int:season_id>/calendar.ics", views.season_calendar, name="season-calendar"),
    path("players/<int:player_id>/calendar.ics", views.player_calendar, name="player-calendar"),
    path("matchdays/<int:match_day_id>/", views.match_day_detail, name="matchday"),
    path("matchdays/<int:match_day_id>/generate/", views.seating_generate, name="matchday-generate"),
    path("matchdays/<int:match_day_id>/swap/", views.seating_swap, name="matchday-swap"),
    path("matchdays/<int:match_day_id>/publish/", views.seating_publish, name="matchday-publish"),
    path("matchdays/<int:match_day_id>/attendance/", views.attendance_mark, name="matchday-attendance"),
    path("matchdays/<int:match_day_id>/attendance/roster/", views.attendance_roster, name="matchday-attendance-roster"),
    path("matchdays/<int:match_day_id>/substitute/", views.substitute, name="matchday-substitute"),
    path("matchdays/<int:match_day_id>/tables/<int:table>/sheet/", views.table_sheet, name="matchday-sheet"),
]

from django.urls import path

from . import views

urlpatterns = [
    path("rules/", views.rules_tables, name="scoring-rules"),
    path("games/<int:game_id>/scorekeeper/", views.scorekeeper, name="scorekeeper"),
]

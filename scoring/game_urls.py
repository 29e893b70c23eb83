"""The scoring app's pages outside /scoring/: a game's page keeps its short address."""

from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/", views.game_detail, name="game"),
]

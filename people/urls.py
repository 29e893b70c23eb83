from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/claims/", views.league_claims, name="league-claims"),
    path("claim/<str:token>/", views.claim_link, name="claim"),
    path("me/claim/", views.my_claim, name="me-claim"),
    path("me/player/new/", views.my_player_new, name="me-player-new"),
    path("me/data/", views.my_data, name="me-data"),
    path("me/close/", views.my_close, name="me-close"),
]

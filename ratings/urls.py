from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/ratings/", views.league_ratings, name="ratings-league"),
]

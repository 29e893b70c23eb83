from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/import/", views.game_import, name="online-game-import"),
    path("applications/<int:application_id>/records/", views.application_records, name="online-application-records"),
]

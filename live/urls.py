from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:event_id>/board", views.board_stream, name="live-board"),
    path("events/<int:event_id>/desk", views.desk_stream, name="live-desk"),
    path("tables/<int:game_id>", views.table_stream, name="live-table"),
    path("inbox", views.inbox_stream, name="live-inbox"),
]

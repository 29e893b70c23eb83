from django.urls import path, re_path

from . import api

urlpatterns = [
    path("events/<int:pk>/board", api.BoardView.as_view(), name="api-event-board"),
    path("events/<int:pk>/ranking", api.RankingView.as_view(), name="api-event-ranking"),
    path("events/<int:pk>/cut", api.CutView.as_view(), name="api-event-cut"),
    re_path(
        r"^events/tables/(?P<pk>\d+)/(?P<action>report|confirm|dispute)$",
        api.TableReportView.as_view(),
        name="api-event-table",
    ),
    path("events/tables/<int:pk>/hands/", api.TableHandsView.as_view(), name="api-event-table-hands"),
    path(
        "events/tables/<int:pk>/hands/preview/",
        api.TableHandPreviewView.as_view(),
        name="api-event-table-hands-preview",
    ),
    path(
        "events/tables/<int:pk>/hands/finish/", api.TableHandsFinishView.as_view(), name="api-event-table-hands-finish"
    ),
    path(
        "events/tables/<int:pk>/hands/<int:sequence>/", api.TableHandDetailView.as_view(), name="api-event-table-hand"
    ),
    path("events/rounds/<int:pk>/clock", api.ClockView.as_view(), name="api-event-clock"),
]

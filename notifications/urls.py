from django.urls import path

from . import views

urlpatterns = [
    path("me/notifications/", views.inbox, name="notifications-inbox"),
    path("me/notifications/settings/", views.preferences, name="notifications-preferences"),
    path("notifications/unsubscribe/", views.unsubscribe, name="notifications-unsubscribe"),
    path("leagues/<slug:slug>/notifications/", views.league_sends, name="notifications-league"),
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
]

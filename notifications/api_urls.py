from django.urls import path

from . import api

urlpatterns = [
    path("me/notifications/", api.InboxView.as_view(), name="api-notifications"),
    path("me/notifications/read/", api.MarkReadView.as_view(), name="api-notifications-read"),
    path("me/push-subscriptions/", api.PushSubscriptionView.as_view(), name="api-push-subscriptions"),
    path("push/key/", api.PushKeyView.as_view(), name="api-push-key"),
]

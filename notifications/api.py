"""My notifications over the API (the inbox's reads and marks) and my phones' push subscriptions."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import LOGGED_IN, PUBLIC, route
from kyoku.principals import request_user_actor

from . import selectors, services
from .shared_phone import PUSH_SESSION_KEY


class NotificationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    subject = serializers.CharField()
    body = serializers.CharField()
    link = serializers.CharField()
    created = serializers.DateTimeField()
    read_at = serializers.DateTimeField(allow_null=True)


class ReadSerializer(serializers.Serializer):
    ids = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=500, required=False)
    all = serializers.BooleanField(required=False, default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("all") and not attrs.get("ids"):
            raise serializers.ValidationError({"ids": ["the notifications to mark read, or all: true"]})
        return attrs


class SubscriptionSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=600)
    keys = serializers.DictField(child=serializers.CharField(max_length=200))
    # PushSubscription.toJSON() sends it too (static/app.js); taken so the body has no unknown key
    expirationTime = serializers.IntegerField(required=False, allow_null=True)  # noqa: N815 - the browser's name

    def validate_keys(self, value: dict[str, str]) -> dict[str, str]:
        if not value.get("p256dh") or not value.get("auth"):
            raise serializers.ValidationError("p256dh and auth")
        return value


def _bounded(value: str | None, default: int, top: int) -> int:
    return min(int(value), top) if value and value.isdigit() else default


class InboxView(APIView):
    access = route(GET=LOGGED_IN)

    @extend_schema(
        parameters=[
            OpenApiParameter("unread", OpenApiTypes.BOOL),
            OpenApiParameter("limit", OpenApiTypes.INT),
            OpenApiParameter("offset", OpenApiTypes.INT),
        ],
        responses=OpenApiTypes.OBJECT,
    )
    def get(self, request: Request) -> Response:
        page = selectors.inbox_page(
            user=request.user,
            offset=_bounded(request.query_params.get("offset"), 0, 100_000),
            limit=max(1, _bounded(request.query_params.get("limit"), selectors.PAGE, 200)),
            unread_only=request.query_params.get("unread") in ("1", "true"),
        )
        return Response(
            {
                "count": page["total"],
                "unread": page["unread"],
                "next_offset": page["next_offset"],
                "results": NotificationSerializer(page["notifications"], many=True).data,
            }
        )


class MarkReadView(APIView):
    access = route(POST=LOGGED_IN)

    @extend_schema(request=ReadSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        data = ReadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = None if data.validated_data["all"] else data.validated_data["ids"]
        marked = services.notifications_mark_read(user=request.user, ids=ids, actor=request_user_actor(request))
        return Response({"marked": marked, "unread": selectors.unread_count(user=request.user)})


class PushSubscriptionView(APIView):
    """POST: this browser's subscription (the Push API's ``PushSubscription.toJSON()``); DELETE:
    forget it."""

    access = route(POST=LOGGED_IN, DELETE=LOGGED_IN)

    @extend_schema(request=SubscriptionSerializer, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        data = SubscriptionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        sub = services.push_subscribe(
            user=request.user,
            endpoint=data.validated_data["endpoint"],
            p256dh=data.validated_data["keys"]["p256dh"],
            auth=data.validated_data["keys"]["auth"],
            actor=request_user_actor(request),
        )
        # this browser's subscriptions end with its session's logout (notifications.shared_phone)
        held = [int(i) for i in request.session.get(PUSH_SESSION_KEY, []) if str(i).isdigit()]
        request.session[PUSH_SESSION_KEY] = sorted({*held, sub.pk})[-20:]
        return Response({"id": sub.pk}, status=status.HTTP_201_CREATED)

    @extend_schema(request=SubscriptionSerializer, responses=OpenApiTypes.OBJECT)
    def delete(self, request: Request) -> Response:
        endpoint = str(request.data.get("endpoint", "")) if isinstance(request.data, dict) else ""
        if not endpoint:
            return Response({"endpoint": ["the subscription's endpoint"]}, status=status.HTTP_400_BAD_REQUEST)
        services.push_unsubscribe(user=request.user, endpoint=endpoint, actor=request_user_actor(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushKeyView(APIView):
    """The server's VAPID public key, for ``pushManager.subscribe``."""

    access = route(GET=PUBLIC)
    authentication_classes: list[Any] = []

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request) -> Response:
        return Response({"public_key": settings.VAPID_PUBLIC_KEY})

"""REST API of a league's roster, for its admins: the same services as the members page
(league.services.roster).

- ``GET /api/leagues/<slug>/members/?q=&shown=&page=``: a page of members (search as on the page);
- ``POST /api/leagues/<slug>/members/``: add a member (201), or, for a number held by a player of
  another league and a ``division``, invite them (202: they join when they accept);
- ``GET``/``PATCH /api/leagues/<slug>/members/<player_id>/``: one member; PATCH changes the fields
  given (audited in every league of the player)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from kyoku.access import ADMIN, object_for_request, route
from kyoku.idempotency import idempotent
from kyoku.models import League
from kyoku.parsers import SafeJSONParser

from . import roster_selectors as selectors
from .models import Division, LeagueMembership
from .services import roster


def _text(**kwargs: Any) -> serializers.CharField:
    # the service puts each value in its normal form and names what it refuses
    return serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, max_length=300, **kwargs)


class MemberSerializer(serializers.Serializer):
    player = serializers.IntegerField(read_only=True)
    membership_number = _text()
    display_name = _text()
    native_name = _text()
    family_name = _text()
    given_name = _text()
    name_order = _text()
    email = _text()
    tenhou_id = _text()
    mahjong_soul_id = _text()
    archived_at = serializers.DateTimeField(read_only=True)

    @staticmethod
    def of(membership: LeagueMembership) -> dict[str, Any]:
        p = membership.player
        return {
            "player": p.pk,
            **{f: getattr(p, f) for f in roster.PLAYER_FIELDS},
            "email": membership.contact_email,
            "archived_at": membership.archived_at,
        }


class MembersPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    page = serializers.IntegerField()
    pages = serializers.IntegerField()
    results = MemberSerializer(many=True)


class InvitedSerializer(serializers.Serializer):
    invitation = serializers.IntegerField()


class MemberAddSerializer(MemberSerializer):
    division = serializers.IntegerField(required=False, min_value=1, max_value=2**31 - 1)


class MembersView(APIView):
    access = route("league", GET=ADMIN, POST=ADMIN)
    parser_classes = [SafeJSONParser]

    @extend_schema(responses=MembersPageSerializer, tags=["roster"], operation_id="leagues_members_list")
    def get(self, request, slug):
        league = object_for_request(request, League, slug=slug)
        query = selectors.RosterQuery.of(request.query_params)
        page = selectors.roster_page(league=league, query=query, page=request.query_params.get("page", 1))
        return Response(
            {
                "count": page.paginator.count,
                "page": page.number,
                "pages": page.paginator.num_pages,
                "results": [MemberSerializer.of(m) for m in page.object_list],
            }
        )

    @extend_schema(
        request=MemberAddSerializer, responses={201: MemberSerializer, 202: InvitedSerializer}, tags=["roster"]
    )
    @idempotent
    def post(self, request, slug):
        league = object_for_request(request, League, slug=slug)
        ser = MemberAddSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        values = dict(ser.validated_data)
        division = None
        if "division" in values:
            division = Division.objects.filter(pk=values.pop("division"), season__league=league).first()
            if division is None:
                raise serializers.ValidationError({"division": [_("not a division of this league")]})
        added = roster.member_add(league=league, values=values, actor=request.user, division=division)
        if added.invitation is not None:
            return Response({"invitation": added.invitation.pk}, status=status.HTTP_202_ACCEPTED)
        assert added.membership is not None
        return Response(MemberSerializer.of(added.membership), status=status.HTTP_201_CREATED)


class MemberView(APIView):
    access = route("member", GET=ADMIN, PATCH=ADMIN)
    parser_classes = [SafeJSONParser]

    def _membership(self, request, slug: str, player_id: int) -> LeagueMembership:
        from django.http import Http404

        league = object_for_request(request, League, slug=slug)
        membership = selectors.member_for(league=league, player_id=player_id)
        if membership is None:
            raise Http404
        return membership

    @extend_schema(responses=MemberSerializer, tags=["roster"], operation_id="leagues_member_retrieve")
    def get(self, request, slug, player_id):
        return Response(MemberSerializer.of(self._membership(request, slug, player_id)))

    @extend_schema(request=MemberSerializer, responses=MemberSerializer, tags=["roster"])
    def patch(self, request, slug, player_id):
        membership = self._membership(request, slug, player_id)
        ser = MemberSerializer(data=request.data, partial=True)
        ser.is_valid(raise_exception=True)
        roster.member_edit(membership=membership, values=dict(ser.validated_data), actor=request.user)
        membership.refresh_from_db()
        membership.player.refresh_from_db()
        return Response(MemberSerializer.of(membership))

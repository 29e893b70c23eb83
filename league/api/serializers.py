from rest_framework import serializers

from kyoku.authz import player_private_visible
from kyoku.body_keys import ConfirmField

from league.models import (
    Division,
    Entry,
    Game,
    GameResult,
    GameSeat,
    LeagueInvitation,
    Penalty,
    Player,
    QualificationApplication,
    QualificationTier,
    RuleSet,
    Season,
    Standing,
)


class PlayerSerializer(serializers.ModelSerializer):
    """A player; the private fields only for readers the privacy rule allows
    (``kyoku.authz.player_private_visible``, docs/privacy.md)."""

    PRIVATE_FIELDS = ("membership_number", "tenhou_id", "mahjong_soul_id")
    # null for readers the rule does not allow (the key stays, so every client sees one shape)
    membership_number = serializers.CharField(read_only=True, allow_null=True)
    tenhou_id = serializers.CharField(read_only=True, allow_null=True)
    mahjong_soul_id = serializers.CharField(read_only=True, allow_null=True)

    class Meta:
        model = Player
        fields = ["id", "display_name", "native_name", "membership_number", "tenhou_id", "mahjong_soul_id", "active"]

    def to_representation(self, instance: Player) -> dict:
        data = super().to_representation(instance)
        request = self.context.get("request")
        if not player_private_visible(getattr(request, "user", None), instance):
            for field in self.PRIVATE_FIELDS:
                data[field] = None
        return data


class RuleSetSerializer(serializers.ModelSerializer):
    class Meta:
        model = RuleSet
        fields = [
            "id",
            "name",
            "slug",
            "version",
            "system",
            "preset",
            "overrides",
            "options",
            "is_template",
            "created_at",
        ]


class DivisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Division
        fields = ["id", "season", "code", "name", "name_zh", "order"]


class SeasonSerializer(serializers.ModelSerializer):
    divisions = DivisionSerializer(many=True, read_only=True)
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = Season
        fields = ["id", "league", "year", "number", "starts_on", "ends_on", "status", "rule_set", "divisions"]


class StandingSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Standing
        fields = [
            "rank",
            "player",
            "games",
            "game_points",
            "penalty_points",
            "total_points",
            "average_place",
            "firsts",
            "seconds",
            "thirds",
            "fourths",
            "computed_at",
        ]


class GameSeatSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = GameSeat
        fields = ["seat", "player", "raw_score", "points", "place"]


class GameSerializer(serializers.ModelSerializer):
    seats = GameSeatSerializer(many=True, read_only=True)
    division_code = serializers.CharField(source="division.code", read_only=True)

    class Meta:
        model = Game
        fields = ["id", "season", "division", "division_code", "match_day", "table", "scheduled_at", "status", "seats"]


class GameResultInputSerializer(serializers.Serializer):
    scores = serializers.ListField(
        child=serializers.IntegerField(min_value=-10_000_000, max_value=10_000_000),
        min_length=4,
        max_length=4,
        help_text="Final raw scores of seats 0..3 (East, South, West, North at the start).",
    )
    deposits_left = serializers.IntegerField(
        min_value=0, max_value=20, default=0, help_text="Riichi sticks still on the table at the end."
    )
    replace = ConfirmField(default=False, help_text="Correct an existing, different result (JSON true only).")


class GameResultSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameResult
        fields = ["game", "scores", "deposits_left", "points", "places", "rule_set", "entered_at"]


class TierSerializer(serializers.ModelSerializer):
    class Meta:
        model = QualificationTier
        fields = [
            "id",
            "code",
            "description",
            "description_zh",
            "division_code",
            "effective_year",
            "effective_number",
            "validity",
            "requirements",
            "active",
        ]


class ApplicationSerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)
    tier_code = serializers.CharField(source="tier.code", read_only=True)
    proof_url = serializers.SerializerMethodField(
        help_text="The evidence file, served only to the player and " "this league's admins and referees; null if none."
    )

    class Meta:
        model = QualificationApplication
        fields = [
            "id",
            "player",
            "season",
            "tier",
            "tier_code",
            "status",
            "platform",
            "account_id",
            "rank",
            "rating",
            "games_in_year",
            "room",
            "evidence_year",
            "proof_url",
            "proof_type",
            "note",
            "submitted_at",
            "decided_at",
            "reason",
        ]
        read_only_fields = ["status", "submitted_at", "decided_at", "reason"]

    def get_proof_url(self, obj) -> str | None:
        from django.urls import reverse

        return reverse("application-proof", args=[obj.pk]) if obj.proof else None


class ApplicationInputSerializer(serializers.Serializer):
    season = serializers.PrimaryKeyRelatedField(queryset=Season.objects.all())
    tier = serializers.PrimaryKeyRelatedField(queryset=QualificationTier.objects.all())
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(), required=False, help_text="Admins only: apply on a player's behalf."
    )
    platform = serializers.ChoiceField(choices=["tenhou", "mahjongsoul", "league"], required=False, allow_blank=True)
    account_id = serializers.CharField(required=False, allow_blank=True, max_length=40)
    rank = serializers.CharField(required=False, allow_blank=True, max_length=20)
    rating = serializers.IntegerField(required=False, min_value=0, max_value=10_000)
    games_in_year = serializers.IntegerField(required=False, min_value=0, max_value=100_000)
    room = serializers.CharField(required=False, allow_blank=True, max_length=20)
    evidence_year = serializers.IntegerField(required=False, min_value=2000, max_value=2100)
    note = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    proof = serializers.FileField(required=False, help_text="PNG, JPEG, WebP or PDF, at most 10 MiB by default.")


class ApplicationDecisionSerializer(serializers.Serializer):
    approve = serializers.BooleanField()
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)


class EntrySerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "season", "division", "player", "basis"]


class InvitationSerializer(serializers.ModelSerializer):
    """An invitation into a season's division, awaiting the player's answer (the player is
    represented as everywhere: private fields empty for a league the player has not joined)."""

    player = PlayerSerializer(read_only=True)

    class Meta:
        model = LeagueInvitation
        fields = ["id", "league", "season", "division", "player", "status", "created_at", "decided_at"]


class PenaltySerializer(serializers.ModelSerializer):
    player = PlayerSerializer(read_only=True)

    class Meta:
        model = Penalty
        fields = [
            "id",
            "season",
            "player",
            "game",
            "hand_number",
            "offence",
            "sanction",
            "points",
            "ruling",
            "assigned_at",
            "cancelled_at",
            "cancel_reason",
        ]


class PlayerHistoryRowSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    season = serializers.IntegerField()
    seat = serializers.IntegerField()
    raw_score = serializers.IntegerField(allow_null=True)
    points = serializers.DecimalField(max_digits=7, decimal_places=1, allow_null=True)
    place = serializers.IntegerField(allow_null=True)
    running = serializers.DecimalField(max_digits=9, decimal_places=1)

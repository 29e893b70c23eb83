"""Qualification tiers (seed 003): category 1 yearly, category 1A by online account evidence."""

import pytest
from django.core.exceptions import ValidationError

from league import services
from league.models import Entry, QualificationTier
from league.qualification import validate_requirements
from kyoku.principals import SYSTEM

TIER_1A = {
    "accounts": [
        {"platform": "tenhou", "min_rank": "7-dan", "min_rating": 2000, "min_games_in_year": 40, "min_room": "phoenix"},
        {"platform": "mahjongsoul", "min_rank": "celestial", "min_games_in_year": 40, "min_room": "throne"},
    ]
}
GOOD_TENHOU = {
    "platform": "tenhou",
    "account_id": "ace",
    "rank": "7-dan",
    "rating": 2000,
    "games_in_year": 40,
    "room": "phoenix",
}


@pytest.fixture
def tier_1a(league):
    return QualificationTier.objects.create(
        league=league,
        code="1A",
        description="1A",
        validity="season",
        effective_year=2023,
        effective_number=3,
        requirements=TIER_1A,
    )


@pytest.fixture
def tier_1(league):
    return QualificationTier.objects.create(
        league=league,
        code="1",
        description="1",
        validity="yearly",
        effective_year=2023,
        effective_number=3,
        requirements={},
    )


def test_tenhou_7dan_r2000_40_phoenix_games_is_accepted(season, players, tier_1a, admin):
    b_player = players[5]
    application = services.application_submit(
        player=b_player, season=season, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM
    )
    services.application_decide(application=application, approve=True, actor=admin)
    entry = Entry.objects.get(season=season, player=b_player)
    assert (entry.division.code, entry.basis, entry.application_id) == ("A", "qualification", application.pk)


def test_mahjong_soul_celestial_is_the_other_route(season, players, tier_1a):
    services.application_submit(
        player=players[5],
        season=season,
        tier=tier_1a,
        evidence={
            "platform": "mahjongsoul",
            "account_id": "1234",
            "rank": "celestial",
            "games_in_year": 40,
            "room": "throne",
        },
        actor=SYSTEM,
    )


@pytest.mark.parametrize(
    "field,value", [("rank", "6-dan"), ("rating", 1999), ("games_in_year", 39), ("room", "special")]
)
def test_evidence_below_the_bar_names_the_field(season, players, tier_1a, field, value):
    with pytest.raises(ValidationError) as err:
        services.application_submit(
            player=players[5],
            season=season,
            tier=tier_1a,
            evidence={**GOOD_TENHOU, field: value},
            actor=SYSTEM,
        )
    assert field in err.value.message_dict


def test_wrong_platform_is_refused(season, players, tier_1a):
    with pytest.raises(ValidationError) as err:
        services.application_submit(
            player=players[5],
            season=season,
            tier=tier_1a,
            evidence={**GOOD_TENHOU, "platform": "league"},
            actor=SYSTEM,
        )
    assert "platform" in err.value.message_dict


def test_yearly_qualification_runs_to_the_fourth_season_of_its_year(league, mleague_rules, players, tier_1):
    s4 = services.season_create(league=league, year=2026, number=4, rule_set=mleague_rules, actor=SYSTEM)
    services.application_submit(
        player=players[0], season=s4, tier=tier_1, evidence={"evidence_year": 2026}, actor=SYSTEM
    )
    next_year = services.season_create(league=league, year=2027, number=1, rule_set=mleague_rules, actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.application_submit(
            player=players[0], season=next_year, tier=tier_1, evidence={"evidence_year": 2026}, actor=SYSTEM
        )
    assert "expired" in err.value.message_dict["evidence_year"][0]


def test_tier_not_yet_in_force(league, mleague_rules, players, tier_1a):
    old = services.season_create(league=league, year=2023, number=2, rule_set=mleague_rules, actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.application_submit(player=players[0], season=old, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM)
    assert "tier" in err.value.message_dict


def test_rejection_needs_a_reason_and_creates_no_entry(season, players, tier_1a, admin):
    application = services.application_submit(
        player=players[5], season=season, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM
    )
    with pytest.raises(ValidationError) as err:
        services.application_decide(application=application, approve=False, actor=admin)
    assert "reason" in err.value.message_dict
    services.application_decide(application=application, approve=False, reason="screenshot unreadable", actor=admin)
    assert Entry.objects.get(season=season, player=players[5]).division.code == "B"


def test_expired_when_season_closed_before_approval(season, players, tier_1a, admin):
    application = services.application_submit(
        player=players[5], season=season, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM
    )
    services.season_status_set(season=season, status="closed", actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.application_decide(application=application, approve=True, actor=admin)
    assert "expired" in str(err.value)


def test_one_live_application_per_tier(season, players, tier_1a):
    services.application_submit(player=players[5], season=season, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM)
    with pytest.raises(ValidationError) as err:
        services.application_submit(player=players[5], season=season, tier=tier_1a, evidence=GOOD_TENHOU, actor=SYSTEM)
    assert "tier" in err.value.message_dict


@pytest.mark.parametrize(
    "requirements,field",
    [
        ({"accounts": [{"platform": "bogus"}]}, "requirements.accounts[0]"),
        ({"accounts": [{"platform": "tenhou", "min_rank": "god"}]}, "requirements.accounts[0].min_rank"),
        ({"accounts": [{"platform": "tenhou", "min_rating": -1}]}, "requirements.accounts[0].min_rating"),
        ({"extra": 1}, "requirements"),
    ],
)
def test_tier_requirements_are_validated(requirements, field):
    with pytest.raises(ValidationError) as err:
        validate_requirements(requirements)
    assert field in err.value.message_dict


def test_a_player_applies_only_once_registration_opens(league, mleague_rules, players, tier_1a, admin):
    """A draft season is still being prepared: its player is refused in words, and nothing is
    stored; the admin may still file for a player; once open, the player's own application goes in."""
    from league.models import QualificationApplication
    from tests.actors import make_player_user

    draft = services.season_create(league=league, year=2026, number=3, rule_set=mleague_rules, actor=SYSTEM)
    user = make_player_user("drafty", players[6])
    with pytest.raises(ValidationError) as err:
        services.application_submit(player=players[6], season=draft, tier=tier_1a, evidence=GOOD_TENHOU, actor=user)
    assert "season" in err.value.message_dict and "not opened" in str(err.value)
    assert not QualificationApplication.objects.filter(season=draft).exists()
    services.application_submit(player=players[7], season=draft, tier=tier_1a, evidence=GOOD_TENHOU, actor=admin)
    services.season_status_set(season=draft, status="open", actor=SYSTEM)
    services.application_submit(player=players[6], season=draft, tier=tier_1a, evidence=GOOD_TENHOU, actor=user)
    assert QualificationApplication.objects.filter(season=draft).count() == 2

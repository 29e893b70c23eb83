"""Incidents, rulings, penalties, escalation, appeals: the service layer."""

from decimal import Decimal

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from league import services as league_services
from kyoku.models import AuditLog
from league.models import Penalty, Standing
from referee import services
from referee.engine import ENGINE_VERSION, default_catalogue
from referee.models import Appeal, Incident, PenaltyCatalogue, Ruling
from kyoku.principals import SYSTEM


def log(game, referee, events, **kw):
    return services.incident_log(
        game=game,
        hand_number=kw.pop("hand_number", 3),
        dealer=kw.pop("dealer", 0),
        kind=kw.pop("kind", "early_play"),
        events=events,
        description=kw.pop("description", "South played during the deal"),
        private_notes=kw.pop("private_notes", "South was rude to the referee"),
        reporter=referee,
    )


def standing(game, seat):
    player = game.seats.get(seat=seat).player
    league_services.standings_recompute(division=game.division)
    return Standing.objects.get(division=game.division, player=player)


def test_incident_log_validates_timeline_with_engine(game, referee, tl):
    bad = tl.incident_1()
    bad[2]["t"] = 10
    with pytest.raises(ValidationError) as err:
        log(game, referee, bad)
    assert "events[2].t" in err.value.message_dict
    bad = tl.incident_1([tl.ev(3100, 3, "harm", by=7, kind="missed_call")])
    with pytest.raises(ValidationError) as err:
        log(game, referee, bad)
    assert "events[4].by" in err.value.message_dict
    assert not Incident.objects.exists()
    incident = log(game, referee, tl.incident_1())
    assert incident.status == "open" and incident.events == tl.incident_1()
    assert AuditLog.objects.filter(action="incident.log", object_id=str(incident.pk)).exists()


def test_propose_uses_season_rules_and_reaction_time(game, referee, tl):
    rule_set = game.season.rule_set
    rule_set.options = {**rule_set.options, "reaction_time_ms": 1000}
    rule_set.save()
    incident = log(game, referee, tl.incident_2(late_t=5800))  # 1200 ms after the first ron
    proposed = services.ruling_propose(incident=incident)
    assert proposed["settings"]["reaction_time_ms"] == 1000
    assert proposed["winners"] == [2] and proposed["invalid_declarations"] == [9]
    assert not Ruling.objects.exists()  # pure


def test_accept_issues_penalty_and_standings_deduct(played, referee, tl):
    before = standing(played, 1)
    incident = log(played, referee, tl.harmful())
    ruling = services.ruling_decide(incident=incident, referee=referee, accept=True, penalties=[])
    incident.refresh_from_db()
    assert incident.status == "ruled"
    assert ruling.decision == "accepted" and ruling.final == ruling.proposed
    assert ruling.engine_version == ENGINE_VERSION and ruling.rule_set == played.season.rule_set
    assert ruling.rules["preset"] == "wrc" and ruling.rules["reaction_time_ms"] == 1500
    (penalty,) = Penalty.objects.filter(ruling=ruling)
    assert penalty.player == played.seats.get(seat=1).player
    assert (penalty.offence, penalty.sanction, penalty.points) == ("early_play_harm", "yellow_card", Decimal("0"))
    assert penalty.game == played and penalty.hand_number == 3
    assert "catalogue v1" in penalty.note
    assert PenaltyCatalogue.objects.get(league=played.season.league).version == 1
    assert standing(played, 1).total_points == before.total_points  # a yellow card deducts nothing


def test_false_win_chombo_deducts_league_points(played, referee, tl):
    before = standing(played, 2).total_points
    events = [
        tl.ev(0, 0, "discard"),
        tl.ev(800, 1, "draw"),
        tl.ev(1500, 1, "discard"),
        tl.ev(2200, 2, "draw"),
        tl.ev(3000, 2, "discard"),
        tl.ev(3600, 3, "touch_wall"),
        tl.ev(3700, 3, "draw"),
        tl.ev(4000, 3, "discard"),
        tl.ev(4500, 2, "ron"),
        tl.ev(9000, 2, "false_win_found"),
    ]
    incident = log(played, referee, events, kind="false_win")
    ruling = services.ruling_decide(incident=incident, referee=referee, accept=True)
    (penalty,) = ruling.penalties.all()
    assert (penalty.sanction, penalty.points) == ("chombo", Decimal("20.0"))  # 20000 table points
    after = standing(played, 2)
    assert after.penalty_points == Decimal("20.0")
    assert after.total_points == before - Decimal("20.0")


def test_override_requires_reason(game, referee, tl):
    incident = log(game, referee, tl.incident_1())
    with pytest.raises(ValidationError) as err:
        services.ruling_decide(
            incident=incident,
            referee=referee,
            accept=False,
            override={"penalties": [{"seat": 1, "offence": "early_play_harm"}]},
            override_reason=" ",
        )
    assert "override_reason" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        services.ruling_decide(
            incident=incident, referee=referee, accept=False, override={"verdict": 1}, override_reason="x"
        )
    assert "override.verdict" in err.value.message_dict
    assert not Ruling.objects.exists()
    ruling = services.ruling_decide(
        incident=incident,
        referee=referee,
        accept=False,
        override={"penalties": [{"seat": 1, "offence": "early_play_harm"}]},
        override_reason="North did miss a pon on South's discard",
    )
    assert ruling.decision == "overridden" and ruling.override_reason.startswith("North did")
    assert ruling.proposed["penalties"] == [] and ruling.final["penalties"][0]["seat"] == 1
    assert ruling.penalties.get().sanction == "yellow_card"


def test_ruling_made_once(game, referee, tl):
    incident = log(game, referee, tl.incident_1())
    services.ruling_decide(incident=incident, referee=referee, accept=True)
    with pytest.raises(ValidationError) as err:
        services.ruling_decide(incident=incident, referee=referee, accept=True)
    assert "status" in err.value.message_dict


def test_non_referee_cannot_decide(game, referee, member, tl):
    incident = log(game, referee, tl.incident_1())
    with pytest.raises(PermissionDenied):
        services.ruling_decide(incident=incident, referee=member, accept=True)


def test_second_yellow_in_game_becomes_red(played, referee, tl):
    first = services.ruling_decide(incident=log(played, referee, tl.harmful()), referee=referee, accept=True)
    assert first.penalties.get().sanction == "yellow_card"
    before = standing(played, 1).total_points
    second = services.ruling_decide(incident=log(played, referee, tl.harmful()), referee=referee, accept=True)
    red = second.penalties.get()
    assert red.sanction == "red_card" and red.points == Decimal("20.0")
    assert "escalated from yellow_card" in red.note
    assert standing(played, 1).total_points == before - Decimal("20.0")


def test_yellow_in_another_game_of_the_season_escalates_too(game, game2, referee, tl):
    services.ruling_decide(incident=log(game, referee, tl.harmful()), referee=referee, accept=True)
    second = services.ruling_decide(incident=log(game2, referee, tl.harmful()), referee=referee, accept=True)
    assert second.penalties.get().sanction == "red_card"  # default catalogue: 2nd yellow in a season


def test_catalogue_revision_is_versioned_and_used(game, referee, admin, tl):
    league = game.season.league
    data = default_catalogue()
    data["version"] = "2026.1"
    data["escalation"] = [{"from": "yellow_card", "to": "red_card", "game": 3, "season": None}]
    with pytest.raises(ValidationError) as err:
        services.penalty_catalogue_revise(league=league, data={**data, "offences": {}}, actor=admin)
    assert "offences" in err.value.message_dict
    revised = services.penalty_catalogue_revise(league=league, data=data, actor=admin)
    assert revised.version == 2 and PenaltyCatalogue.objects.filter(league=league).count() == 2
    services.ruling_decide(incident=log(game, referee, tl.harmful()), referee=referee, accept=True)
    second = services.ruling_decide(incident=log(game, referee, tl.harmful()), referee=referee, accept=True)
    assert second.penalties.get().sanction == "yellow_card"  # the revised catalogue needs a third
    assert "catalogue v2 (2026.1)" in second.penalties.get().note


def test_extra_penalties_from_the_referee(game, referee, tl):
    incident = log(game, referee, tl.incident_1())
    with pytest.raises(ValidationError) as err:
        services.ruling_decide(
            incident=incident, referee=referee, accept=True, penalties=[{"seat": 2, "offence": "shouting"}]
        )
    assert "penalties[0].offence" in err.value.message_dict
    ruling = services.ruling_decide(
        incident=incident, referee=referee, accept=True, penalties=[{"seat": 2, "offence": "slow_play"}]
    )
    assert ruling.final == ruling.proposed
    assert ruling.penalties.get().sanction == "warning"


def test_appeal_reversed_by_another_referee_restores_standings(played, referee, referee2, member, players, tl):
    before = standing(played, 1).total_points
    ruling = services.ruling_decide(
        incident=log(played, referee, tl.harmful()),
        referee=referee,
        accept=False,
        override={"penalties": [{"seat": 1, "offence": "false_win"}]},
        override_reason="South's win was false",
    )
    assert standing(played, 1).total_points == before - Decimal("20.0")
    # only a player of the game may appeal
    with pytest.raises(PermissionDenied):
        services.appeal_file(ruling=ruling, player=players[5], reason="not fair", actor=SYSTEM)
    with pytest.raises(ValidationError):
        services.appeal_file(ruling=ruling, player=players[1], reason="  ", actor=SYSTEM)
    appeal = services.appeal_file(ruling=ruling, player=players[1], reason="My win was not false", actor=SYSTEM)
    assert appeal.ruling.incident.status == "appealed" or Incident.objects.get().status == "appealed"
    with pytest.raises(ValidationError) as err:  # one pending appeal at a time
        services.appeal_file(ruling=ruling, player=players[0], reason="me too", actor=SYSTEM)
    assert "status" in err.value.message_dict
    # the referee who ruled may not decide the appeal
    with pytest.raises(ValidationError) as err:
        services.appeal_decide(appeal=appeal, referee=referee, uphold=False, reason="I was wrong")
    assert "referee" in err.value.message_dict
    with pytest.raises(ValidationError) as err:
        services.appeal_decide(appeal=appeal, referee=referee2, uphold=False, reason="")
    assert "reason" in err.value.message_dict
    services.appeal_decide(appeal=appeal, referee=referee2, uphold=False, reason="The hand was complete")
    appeal.refresh_from_db()
    assert appeal.status == "reversed" and appeal.decided_by == referee2
    old = ruling.penalties.get()
    assert old.cancelled_at is not None and "appeal" in old.cancel_reason
    new = Ruling.objects.get(appeal_of=appeal)
    assert new.final["penalties"] == [] and new.referee == referee2 and not new.penalties.exists()
    assert Incident.objects.get().status == "closed"
    assert standing(played, 1).total_points == before
    with pytest.raises(ValidationError):
        services.appeal_decide(appeal=appeal, referee=referee2, uphold=True, reason="again")
    with pytest.raises(ValidationError) as err:
        services.appeal_file(ruling=new, player=players[1], reason="more", actor=SYSTEM)
    assert "closed" in err.value.message_dict["status"][0]


def test_appeal_reversed_with_a_new_penalty(game, referee, referee2, players, tl):
    ruling = services.ruling_decide(incident=log(game, referee, tl.harmful()), referee=referee, accept=True)
    appeal = services.appeal_file(ruling=ruling, player=players[1], reason="I did not harm North", actor=SYSTEM)
    services.appeal_decide(
        appeal=appeal,
        referee=referee2,
        uphold=False,
        reason="It was West",
        new_final={"penalties": [{"seat": 2, "offence": "early_play_harm", "clauses": ["1.1"]}]},
    )
    new = Ruling.objects.get(appeal_of=appeal)
    assert [(p.player, p.sanction) for p in new.penalties.all()] == [(players[2], "yellow_card")]
    assert not Penalty.objects.filter(player=players[1], cancelled_at__isnull=True).exists()


def test_appeal_upheld(game, referee, referee2, players, tl):
    ruling = services.ruling_decide(incident=log(game, referee, tl.harmful()), referee=referee, accept=True)
    appeal = services.appeal_file(ruling=ruling, player=players[1], reason="no", actor=SYSTEM)
    services.appeal_decide(appeal=appeal, referee=referee2, uphold=True, reason="The timeline is clear")
    assert Appeal.objects.get().status == "upheld"
    assert ruling.penalties.get().active
    assert Ruling.objects.count() == 1 and Incident.objects.get().status == "closed"


def test_status_transitions(game, referee, players, tl):
    incident = log(game, referee, tl.incident_1())
    with pytest.raises(ValidationError) as err:
        services.incident_close(incident=incident, actor=referee)
    assert "status" in err.value.message_dict
    ruling = services.ruling_decide(incident=incident, referee=referee, accept=True)
    services.incident_close(incident=incident, actor=referee)
    with pytest.raises(ValidationError) as err:
        services.appeal_file(ruling=ruling, player=players[0], reason="late", actor=SYSTEM)
    assert "closed" in err.value.message_dict["status"][0]

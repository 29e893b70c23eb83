"""The matrix world (contract: the end of kyoku/access.py): two leagues on one instance, with
every kind of object in league A, and the named actors who probe them."""

from __future__ import annotations

from types import SimpleNamespace

from django.core.files.uploadedfile import SimpleUploadedFile

from league import services
from kyoku.models import League, LeagueRole
from league.models import Player, QualificationTier
from tests.actors import make_player_user, make_role_user, open_season
from tests.riichi_game import ALL_READY, CHOMBO
from kyoku.principals import SYSTEM

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def world_build() -> SimpleNamespace:
    w = SimpleNamespace()
    w.league = League.objects.create(name="Matrix League", slug="matrix", promotion_count=1)
    w.other_league = League.objects.create(name="Other League", slug="other", promotion_count=1)
    w.admin = make_role_user("m-admin", w.league, LeagueRole.Role.ADMIN)
    w.referee = make_role_user("m-referee", w.league, LeagueRole.Role.REFEREE)
    w.director = make_role_user("m-director", w.league, LeagueRole.Role.DIRECTOR)  # runs its events only
    w.other_admin = make_role_user("o-admin", w.other_league, LeagueRole.Role.ADMIN)
    w.other_referee = make_role_user("o-referee", w.other_league, LeagueRole.Role.REFEREE)
    w.players = [Player.objects.create(display_name=f"M{i}", membership_number=f"MX{i:03d}") for i in range(8)]
    w.owner = make_player_user("m-owner", w.players[0])
    w.other_player = make_player_user("m-other-player", w.players[5])
    rules = services.rule_set_create(name="WRC", slug="wrc-matrix", preset="wrc", is_template=True, actor=SYSTEM)
    w.season = open_season(w.league, rules, w.players, per_division=8)
    w.division = w.season.divisions.get(code="A")
    w.game = services.game_create(division=w.division, match_day=1, table=1, players=w.players[:4], actor=SYSTEM)
    # a second game, played hand by hand and finished (hands, result, standings)
    from scoring import services as scoring

    w.hand_game = services.game_create(division=w.division, match_day=1, table=2, players=w.players[4:8], actor=SYSTEM)
    for record in (CHOMBO, ALL_READY):
        scoring.hand_record_add(game=w.hand_game, record=record, actor=w.admin)
    w.hand = w.hand_game.hands.get(sequence=1)
    w.result_game = services.game_create(division=w.division, match_day=2, table=1, players=w.players[:4], actor=SYSTEM)
    services.game_result_record(game=w.result_game, scores=[48000, 35800, 21000, 15200], actor=w.admin)
    services.standings_recompute(division=w.division)
    w.tier = QualificationTier.objects.create(
        league=w.league,
        code="1",
        description="Open tier",
        division_code="A",
        effective_year=2020,
        validity=QualificationTier.Validity.YEARLY,
        requirements={},
    )
    w.application = services.application_submit(
        player=w.players[0],
        season=w.season,
        tier=w.tier,
        evidence={"note": "mine"},
        proof=SimpleUploadedFile("shot.png", PNG, content_type="image/png"),
        actor=w.owner,
    )
    w.penalty = services.penalty_assign(
        season=w.season, player=w.players[0], offence="slow_play", sanction="warning", actor=w.admin
    )
    _referee_objects(w)
    return w


def _referee_objects(w) -> None:
    from referee import services as referee

    def ev(t, seat, act, **kw):
        return {"t": t, "seat": seat, "act": act, **kw}

    timeline = [
        ev(0, 0, "discard", settled_t=300),
        ev(1000, 1, "draw"),
        ev(2000, 1, "discard", settled_t=2200),
        ev(3000, 3, "claim_deal_incomplete", kind="short"),
    ]
    w.incident = referee.incident_log(
        game=w.game,
        hand_number=1,
        dealer=0,
        kind="deal_error",
        events=timeline,
        private_notes="referees only",
        reporter=w.referee,
    )
    ruled = referee.incident_log(
        game=w.game, hand_number=2, dealer=0, kind="deal_error", events=timeline, reporter=w.referee
    )
    w.ruling = referee.ruling_decide(incident=ruled, referee=w.referee, accept=True)
    appealed = referee.incident_log(
        game=w.game, hand_number=3, dealer=0, kind="deal_error", events=timeline, reporter=w.referee
    )
    appealed_ruling = referee.ruling_decide(incident=appealed, referee=w.referee, accept=True)
    w.appeal = referee.appeal_file(ruling=appealed_ruling, player=w.players[0], reason="I was not short", actor=w.owner)

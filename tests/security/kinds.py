"""The objects a declared route's ``obj`` names, built in the matrix world (tests/security/world.py):
kind → the URL arguments that point at it, under every name a URL gives them (``pk`` in the API,
``game_id`` on pages …); the probe passes those its pattern takes. A "?" entry is a query string
the probe adds."""

from __future__ import annotations

import datetime

from kyoku.principals import SYSTEM


def _event(world):
    """A tournament in world.league, running: the owner and three others of the league, and four
    players entered for the event alone, checked in; both rounds seated, round 1 in play (its clock
    started), the owning player at the probed table. ``world.other_player`` is not in the event.
    The table principals the matrix probes are set on ``world``: a player seated at another table
    of round 1, and the table codes a phone may hold (this table's, another table's of the round,
    a round-2 table's, another event's)."""
    import datetime as dt

    from events import services as events
    from league.models import Game, Player
    from tests.actors import make_player_user

    def running(name, slug, players, rounds):
        event = events.event_create(
            league=world.league,
            name=name,
            slug=slug,
            starts_on=dt.date(2026, 12, 1),
            ends_on=dt.date(2026, 12, 1),
            rule_set=world.season.rule_set,
            capacity=len(players),
            rounds=rounds,
            cut=4 if rounds > 1 else 0,
            actor=SYSTEM,
        )
        for p in players:
            events.checkin_set(
                registration=events.registration_add(event=event, player=p, actor=SYSTEM), present=True, actor=SYSTEM
            )
        events.event_status_set(event=event, status="running", actor=SYSTEM)
        events.seating_plan(event=event, time_limit=0.5, actor=SYSTEM)
        events.round_clock_set(round_=event.round_set.get(number=1), action="start", actor=SYSTEM)
        return event

    guests = [Player.objects.create(display_name=f"Guest {i}", membership_number=f"MXG{i:02d}") for i in range(8)]
    event = running("Matrix Open", "matrix-open", world.players[:4] + guests[:4], 2)
    table = Game.objects.get(season=event.season, match_day=1, seats__player=world.players[0])
    neighbour = Game.objects.filter(season=event.season, match_day=1).exclude(pk=table.pk).get()
    # a guest of the event: a league player seated elsewhere would own the league games' incidents
    elsewhere = neighbour.seats.filter(player__in=guests).order_by("seat").first().player
    world.seated_elsewhere = getattr(elsewhere, "user", None) or make_player_user(f"m-seat-{elsewhere.pk}", elsewhere)
    later = Game.objects.filter(season=event.season, match_day=2).first()
    other_event = running("Matrix Cup", "matrix-cup", guests[4:], 1)
    elsewhere_table = Game.objects.get(season=other_event.season, match_day=1)
    world.phone_codes = {
        "phone_here": table,
        "phone_other_table": neighbour,
        "phone_other_round": later,
        "phone_other_event": elsewhere_table,
    }
    return event, event.round_set.get(number=1), table


def matrix_objects(world) -> dict:
    from ratings.services import league_ratings_rebuild

    hand_game = world.hand_game.pk  # a game kept hand by hand, its first hand entered
    player = world.players[0].pk  # the owning player
    game = world.game.pk  # a game with neither hands nor result (its incidents are the referee's)
    result = world.result_game.pk  # a game whose final scores are recorded (no hands)
    season, division = world.season.pk, world.division
    spare = _spare_entry(world)  # an entry without games, so removing it is allowed for the admin
    day = _match_day(world)
    # the league's ratings computed from whatever results it holds (no game or result is created,
    # so other probes see the world unchanged)
    league_ratings_rebuild(league=world.league, actor=SYSTEM)
    event, round_, table = _event(world)
    csv = "csv"  # the format a download's URL asks for
    return {
        "game": {"pk": game, "game_id": game},
        "result_game": {"pk": result, "game_id": result},
        "hand_game": {"pk": hand_game, "game_id": hand_game},
        "hand": {"pk": hand_game, "game_id": hand_game, "sequence": world.hand.sequence, "hand_id": world.hand.pk},
        "season": {"pk": season, "season_id": season, "fmt": csv},
        "division": {"pk": division.pk, "season_id": season, "code": division.code, "fmt": csv},
        "entry": {"pk": season, "season_id": season, "entry_id": spare.pk},
        "ruleset": {"pk": world.season.rule_set_id},
        "tier": {"pk": world.tier.pk},
        "penalty": {"pk": world.penalty.pk},  # the owner's
        "league": {"slug": world.league.slug, "league_id": world.league.pk, "fmt": csv},
        "player": {"pk": player, "player_id": player, "fmt": csv},
        "member": {"slug": world.league.slug, "player_id": player},  # the owning player, a member of world.league
        "matchday": {"pk": day.pk, "match_day_id": day.pk, "table": 1},  # its seating published
        "incident": {"pk": world.incident.pk, "incident_id": world.incident.pk},  # open, with private notes
        "ruling": {"pk": world.ruling.pk, "ruling_id": world.ruling.pk},  # on the owner's game
        "appeal": {"pk": world.appeal.pk, "appeal_id": world.appeal.pk},  # the owner's, pending
        "application": {"pk": world.application.pk, "application_id": world.application.pk},  # the owner's
        "event": {"pk": event.pk, "event_id": event.pk},
        "event_round": {"pk": round_.pk, "round_id": round_.pk},
        "event_table": {"pk": table.pk, "game_id": table.pk, "action": "report"},
        "event_table_hand": {"pk": table.pk, "sequence": 1},
        "role_invitation": {"token": _role_invitation(world)},  # an open invitation to world.league
        # accounts (allauth): a waiting email-verification link (then on to the home page), and a
        # password-reset link that matches nothing; every login holds a second factor, so the
        # pages that manage one open for each
        "email_key": {"key": _accounts_prepare(world)},
        "reset_key": {"uidb36": "zz", "key": "matrix-no-such-key"},
        "claim_invitation": {"token": _claim_token(world)},  # people: a waiting invitation's link
    }


def _accounts_prepare(world) -> str:
    """Each principal's login gets an authenticator app and recovery codes; returns the key of a
    verification link waiting for a throwaway account's address."""
    from allauth.account.models import EmailAddress, EmailConfirmationHMAC
    from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
    from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret

    from tests.actors import make_user

    for name in (
        "owner",
        "seated_elsewhere",
        "other_player",
        "admin",
        "referee",
        "director",
        "other_admin",
        "other_referee",
    ):
        user = getattr(world, name, None)
        if user is not None:
            TOTP.activate(user, generate_totp_secret())
            RecoveryCodes.activate(user)
    waiting = make_user("m-unverified", email="m-unverified@example.org")
    address = EmailAddress.objects.create(user=waiting, email=waiting.email, verified=False, primary=True)
    return EmailConfirmationHMAC(address).key


def _claim_token(world):
    """A waiting claim invitation of world.league for a member with no account (its token)."""
    from league.models import LeagueMembership, Player
    from people.services import claim_invitation_send

    player = Player.objects.create(display_name="Claimable", membership_number="MX-CLAIM")
    LeagueMembership.objects.create(league=world.league, player=player, via=LeagueMembership.Via.SYSTEM)
    sent = claim_invitation_send(
        league=world.league, player=player, email="claim@example.org", base_url="http://testserver/", actor=SYSTEM
    )
    return sent.token


def _role_invitation(world) -> str:
    """The token of an open invitation to referee world.league, sent to an address none of the
    matrix's accounts holds (so accepting it is refused with words, a 400, for each of them)."""
    from kyoku import roles

    _invitation, token = roles.role_invite(
        league=world.league, role="referee", email="invitee@matrix.example", actor=SYSTEM
    )
    return token


def _match_day(world):
    from matchdays import services
    from matchdays.models import MatchDay

    day = MatchDay.objects.filter(division=world.division, number=90).first()
    if day is None:
        day = services.match_day_create(
            division=world.division, number=90, date=datetime.date(2026, 12, 1), venue="Matrix hall", actor=SYSTEM
        )
        services.seating_generate(match_day=day, seed=0, actor=SYSTEM)
        services.seating_publish(plan=day.seating, actor=SYSTEM)
    return day


def _spare_entry(world):
    from league.models import Entry, Player

    player = Player.objects.create(display_name="Office spare", membership_number="OFFICE-SPARE")
    return Entry.objects.create(season=world.season, division=world.division, player=player)

"""The demo exercises every page (issue 11): a game entered hand by hand and finished from its
hands, incidents with rulings, an appeal and one waiting, and the player login's rulings."""

import re
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Game, Penalty
from referee.models import Appeal, Incident, Ruling
from scoring.demo import DEMO_HANDS
from scoring.models import HandRecord


def login(client, username):
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_a_game_was_entered_hand_by_hand_and_finished_from_its_hands(demo, client):
    # the Hong Kong league's one game kept hand by hand (the Kowloon club's season is played hand by
    # hand too, for its players' statistics)
    kept = HandRecord.objects.filter(game__season__league__slug="hkrl").values_list("game_id", flat=True)
    game = Game.objects.get(pk=kept.distinct().get())
    hands = list(HandRecord.objects.filter(game=game).order_by("sequence"))
    assert len(hands) == len(DEMO_HANDS) and hands[-1].ends_game and game.status == Game.Status.FINISHED
    assert game.result.scores == hands[-1].scores_after
    assert sum(Decimal(str(p)) for p in game.result.points) == 0
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert len(re.findall(r'<li class="gp-hand card" data-sequence="\d+"', page)) == len(DEMO_HANDS)


def test_the_referee_desk_has_incidents_in_every_state(demo, client):
    assert sorted(Incident.objects.values_list("status", flat=True)) == ["closed", "open", "ruled"]
    assert list(Appeal.objects.values_list("status", flat=True)) == ["upheld"]
    chombo = Penalty.objects.get(sanction="chombo", ruling__isnull=False)
    assert chombo.points == Decimal("20.0") and chombo.ruling.incident.kind == "false_win"
    desk = login(client, "referee").get(reverse("referee-dashboard")).content.decode()
    assert all(f'href="/referee/incidents/{pk}/"' in desk for pk in Incident.objects.values_list("pk", flat=True))


def test_the_player_login_sees_the_rulings_that_concern_them(demo, client):
    page = login(client, "player").get(reverse("referee-mine")).content.decode()
    ruled = Ruling.objects.values_list("pk", flat=True)
    assert ruled and all(f'id="ruling-{pk}"' in page for pk in ruled)

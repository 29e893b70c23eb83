"""The demo has a season waiting for promotion (issue 11): the Kowloon Riichi Club's 2026 S1 is
played out and closed, its 2026 S2 exists without entries, so the promotion page previews real
moves and Confirm enters all sixteen players in S2, the top two of B in A and the bottom two of A in B."""

import re

from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Entry, Game, Season, Standing


def test_the_kowloon_season_waits_for_promotion(demo, client):
    finished = Season.objects.get(league__slug="krc", year=2026, number=1)
    following = Season.objects.get(league__slug="krc", year=2026, number=2)
    assert finished.status == "closed" and finished.promoted_at is None
    assert not Game.objects.filter(season=finished).exclude(status="finished").exists()
    assert Game.objects.filter(season=finished).count() == 16 and not following.entries.exists()
    # the README's examples still name the Hong Kong league's open season as season 2: the second
    # season the demo creates (its id on a fresh database; PostgreSQL's sequences do not restart
    # between tests, so the id itself cannot be asserted here)
    second = Season.objects.order_by("pk")[1]
    assert (second.league.slug, second.status) == ("hkrl", "open")

    client.force_login(get_user_model().objects.get(username="admin"))
    url = reverse("office-promotion", args=[finished.pk])
    page = client.get(url).content.decode()
    assert 'id="promotion-confirm"' in page
    assert (
        len(re.findall(r'class="move-promoted"', page)) == 2 and len(re.findall(r'class="move-relegated"', page)) == 2
    )

    def ranked(code):
        return list(
            Standing.objects.filter(division__season=finished, division__code=code)
            .order_by("rank")
            .values_list("player_id", flat=True)
        )

    a, b = ranked("A"), ranked("B")
    assert len(a) == len(b) == 8
    response = client.post(url)
    assert response.status_code == 302
    placed = dict(Entry.objects.filter(season=following).values_list("player_id", "division__code"))
    assert len(placed) == 16
    assert {placed[p] for p in b[:2]} == {"A"} and {placed[p] for p in a[-2:]} == {"B"}
    assert {placed[p] for p in a[:6]} == {"A"} and {placed[p] for p in b[2:]} == {"B"}
    finished.refresh_from_db()
    assert finished.promoted_at is not None
    assert "already has 16 entries" in client.get(url).content.decode()

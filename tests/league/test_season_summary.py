"""The season page's stored per-division summary: moved by each change in its transaction, equal
to the full recount after any of them; the page reads it instead of counting the season's games."""

from django.contrib.auth import get_user_model
from django.test import Client

from league import office, services
from league.models import DivisionSummary, Game, Player
from league.services import SUMMARY_FIELDS
from league.summary import division_summary_rows
from ratings.reconcile import derived_reconcile
from kyoku.principals import SYSTEM


def _same(season):
    full = division_summary_rows(season_id=season.pk)
    stored = {
        row[0]: dict(zip(SUMMARY_FIELDS, row[1:]))
        for row in DivisionSummary.objects.filter(season=season).values_list("division_id", *SUMMARY_FIELDS)
    }
    assert stored == full
    return stored


def test_summary_follows_games_results_and_entries(season, players, admin, league):
    a, b = season.divisions.get(code="A"), season.divisions.get(code="B")
    stored = _same(season)
    assert stored[a.pk] == {"entrants": 4, "finished": 0, "to_play": 0, "void": 0, "last_match_day": None}
    games = [
        services.game_create(division=a, match_day=day, table=1, players=players[:4], actor=SYSTEM) for day in (1, 2, 3)
    ]
    assert _same(season)[a.pk]["to_play"] == 3
    services.game_result_record(game=games[1], scores=[45000, 30000, 15000, 10000], actor=admin)
    assert _same(season)[a.pk] == {"entrants": 4, "finished": 1, "to_play": 2, "void": 0, "last_match_day": 2}
    services.game_result_record(game=games[0], scores=[45000, 30000, 15000, 10000], actor=admin)
    assert _same(season)[a.pk]["last_match_day"] == 2  # an earlier day does not move the last one back
    games[1].refresh_from_db()
    services.game_result_record(game=games[1], scores=[10000, 15000, 30000, 45000], actor=admin, replace=True)
    assert _same(season)[a.pk]["finished"] == 2  # a correction counts nothing twice
    # an entry added and removed
    newcomer = Player.objects.create(display_name="Newcomer", membership_number="N001")
    entry = services.entry_create(division=b, player=newcomer, actor=SYSTEM)
    assert _same(season)[b.pk]["entrants"] == 5
    office.entry_remove(entry=entry, actor=admin)
    assert _same(season)[b.pk]["entrants"] == 4
    # a finished game removed around the services (the reconciliation recounts it), then none left to repair
    Game.objects.filter(pk=games[1].pk).delete()
    assert derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]["summaries"] == 1
    assert _same(season)[a.pk] == {"entrants": 4, "finished": 1, "to_play": 1, "void": 0, "last_match_day": 1}
    assert derived_reconcile(leagues=[league], actor=SYSTEM)[league.slug]["summaries"] == 0


def test_a_game_removed_through_the_service_path_moves_the_summary(season, players):
    a = season.divisions.get(code="A")
    game = services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.division_summary_game_moved(game=game, before=game.status, after=None)
    game.seats.all().delete()
    game.delete()
    _same(season)
    # a row lost is rebuilt by the next change of its division
    DivisionSummary.objects.filter(division=a).delete()
    services.game_create(division=a, match_day=2, table=1, players=players[:4], actor=SYSTEM)
    assert _same(season)[a.pk]["to_play"] == 1


def test_the_season_page_shows_the_stored_counts_and_pages_by_them(season, players, admin):
    a = season.divisions.get(code="A")
    for day in range(1, 4):
        game = services.game_create(division=a, match_day=day, table=1, players=players[:4], actor=SYSTEM)
        if day < 3:
            services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    page = Client().get(f"/seasons/{season.pk}/").content.decode()
    summary = page[page.index('id="season-summary"') : page.index("</table>", page.index('id="season-summary"'))]
    assert '<td class="num">4</td><td class="num">2</td><td class="num">1</td><td class="num">2</td>' in summary
    games = page[page.index('id="season-games"') :]
    assert games.index("<td>3</td>") < games.index("<td>2</td>") < games.index("<td>1</td>")  # latest day first
    assert Client().get(f"/seasons/{season.pk}/?division=Z").status_code == 200


def test_admin_edits_keep_the_summary(season, players, admin):
    a = season.divisions.get(code="A")
    game = services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    root = get_user_model().objects.create_superuser("root", password="x")
    client = Client()
    client.force_login(root)
    r = client.post(f"/admin/league/game/{game.pk}/delete/", {"post": "yes"})
    assert r.status_code == 302 and not Game.objects.filter(pk=game.pk).exists()
    assert _same(season)[a.pk]["to_play"] == 0


def test_rows_built_in_python_escape_what_players_typed(season, players, admin):
    """The season's games and a player's history are built as HTML in Python (league.views): a name
    or a division code with markup is shown as text, never run."""
    a = season.divisions.get(code="A")
    players[0].display_name = '<script>alert("x")</script>'
    players[0].save()
    game = services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    for url in (f"/seasons/{season.pk}/", f"/players/{players[0].pk}/"):
        page = Client().get(url).content.decode()
        assert '<script>alert("x")</script>' not in page, url
    assert (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in Client().get(f"/seasons/{season.pk}/").content.decode()
    )


def test_a_status_changed_outside_the_services_is_counted_again_not_stored_below_zero(season, players, admin):
    """A result deleted and its game set back to scheduled by hand (a shell, a data fix) leaves
    the summary behind; the next result counts the division again instead of failing on a
    negative count."""
    from league.models import GameResult

    a = season.divisions.get(code="A")
    game = services.game_create(division=a, match_day=1, table=1, players=players[:4], actor=SYSTEM)
    services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    GameResult.objects.filter(game=game).delete()
    Game.objects.filter(pk=game.pk).update(status=Game.Status.SCHEDULED)
    game.refresh_from_db()
    services.game_result_record(game=game, scores=[45000, 30000, 15000, 10000], actor=admin)
    assert _same(season)[a.pk]["finished"] == 1

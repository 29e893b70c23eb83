"""The rating arithmetic: the library's documented figures, a win raises the winner's rating,
ties are ties, and the stored events chain (each game starts where the last one ended)."""

import pytest
from openskill.models import PlackettLuce

from ratings import engine
from ratings.models import PlayerRating, RatingEvent
from tests.ratings.conftest import new_game


def test_model_is_the_documented_plackett_luce_with_its_published_figures():
    # openskill 6.2.0 README "Limited Example": two teams of two fresh players, first team wins.
    model = engine.MODEL
    assert isinstance(model, PlackettLuce)
    assert (model.rating().mu, model.rating().sigma) == (25.0, 8.333333333333334)
    [[a, b], [x, y]] = model.rate([[model.rating(), model.rating()], [model.rating(), model.rating()]])
    assert a.mu == pytest.approx(26.964294621803063, abs=1e-12)
    assert a.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert x.mu == pytest.approx(23.035705378196937, abs=1e-12)
    assert x.sigma == pytest.approx(8.177962604389991, abs=1e-12)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)
    # The same model through our one-player-per-seat call: a fresh winner over a fresh loser.
    [(w_mu, w_sigma), (l_mu, l_sigma)] = engine.rate_game([engine.START, engine.START], [1, 2])
    [[w], [lo]] = model.rate([[model.rating()], [model.rating()]])
    assert (w_mu, w_sigma, l_mu, l_sigma) == (w.mu, w.sigma, lo.mu, lo.sigma)


def test_four_fresh_players_order_of_places_orders_the_ratings():
    after = engine.rate_game([engine.START] * 4, [1, 2, 3, 4])
    ordinals = [engine.ordinal(mu, s) for mu, s in after]
    assert ordinals == sorted(ordinals, reverse=True) and len(set(ordinals)) == 4
    assert sum(mu for mu, _ in after) == pytest.approx(100.0)  # equal priors: what one gains another loses
    assert after[0][0] > 25.0 > after[3][0]


def test_a_tie_gives_equal_posteriors_to_equal_priors():
    after = engine.rate_game([engine.START] * 4, [1, 2, 2, 4])
    assert after[1] == after[2]
    assert after[0][0] > after[1][0] > after[3][0]
    all_tied = engine.rate_game([(30.0, 4.0)] * 4, [1, 1, 1, 1])
    assert len(set(all_tied)) == 1 and all_tied[0][0] == pytest.approx(30.0)


def test_winning_raises_the_winners_displayed_rating_even_when_the_winner_is_the_favourite():
    strong, weak = (35.0, 2.0), (18.0, 3.0)
    before = [strong, weak, weak, weak]
    after = engine.rate_game(before, [1, 2, 3, 4])
    assert engine.ordinal(*after[0]) > engine.ordinal(*strong)
    upset = engine.rate_game([weak, strong, strong, strong], [1, 2, 3, 4])
    # beating stronger players is worth more than beating weaker ones
    assert upset[0][0] - weak[0] > after[0][0] - strong[0]


def test_a_league_win_raises_the_winners_stored_rating_and_ties_stay_ties(game, players, record, season):
    record(game, [45000, 30000, 15000, 10000])
    first = {e.player_id: e for e in RatingEvent.objects.filter(game=game)}
    assert first[players[0].pk].ordinal > first[players[0].pk].ordinal_before
    assert first[players[3].pk].ordinal < first[players[3].pk].ordinal_before
    # match day 2: seats 1 and 2 (players 2 and 3) tie for second, having had other priors;
    # players 5-8 of division B tie from equal (fresh) priors
    tie = new_game(season, "A", 2, 1, players[:4])
    record(tie, [40000, 25000, 25000, 10000])
    b = new_game(season, "B", 1, 1, players[4:])
    record(b, [25000, 25000, 25000, 25000])
    fresh = {e.player_id: e for e in RatingEvent.objects.filter(game=b)}
    assert len({(e.mu_after, e.sigma_after) for e in fresh.values()}) == 1
    assert all(e.place == 1 for e in fresh.values())
    rows = {e.player_id: e for e in RatingEvent.objects.filter(game=tie)}
    assert rows[players[1].pk].place == rows[players[2].pk].place == 2
    # a player's events chain: each game starts from the state the previous one left
    p1 = list(RatingEvent.objects.filter(player=players[0]).order_by("order_key"))
    assert (p1[1].mu_before, p1[1].sigma_before) == (p1[0].mu_after, p1[0].sigma_after)
    current = PlayerRating.objects.get(player=players[0])
    assert (current.mu, current.sigma, current.games, current.last_game_id) == (
        p1[1].mu_after,
        p1[1].sigma_after,
        2,
        tie.pk,
    )
    assert current.ordinal == pytest.approx(current.mu - 3 * current.sigma)

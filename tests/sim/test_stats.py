"""The statistics: Wilson intervals, spreads and Bradley–Terry ratings against known values."""

from __future__ import annotations

import math
import random

import pytest

from kafeneio.sim.runner import GameResult
from kafeneio.sim.simulate import tallies
from kafeneio.sim.stats import Spread, bradley_terry, rate, wilson


def test_wilson_intervals_match_the_textbook_values() -> None:
    half = wilson(5, 10)
    assert half.low == pytest.approx(0.2366, abs=1e-4)
    assert half.high == pytest.approx(0.7634, abs=1e-4)
    none = wilson(0, 10)
    assert none.low == 0 and none.high == pytest.approx(0.2775, abs=1e-4)
    every = wilson(10, 10)
    assert every.high == 1 and every.low == pytest.approx(0.7225, abs=1e-4)


def test_a_wilson_interval_narrows_with_more_games_and_takes_shared_wins() -> None:
    few, many = wilson(2.5, 10), wilson(250, 1000)
    assert few.low < many.low < 0.25 < many.high < few.high
    assert wilson(0, 0).low == 0 and wilson(0, 0).high == 1


def test_a_spread_is_the_sample_mean_and_deviation() -> None:
    spread = Spread.of([2, 4, 4, 4, 5, 5, 7, 9])
    assert spread.mean == 5
    assert spread.sd == pytest.approx(math.sqrt(32 / 7))
    assert (spread.low, spread.high) == (2, 9)
    one = Spread.of([3])  # one value has no spread: undefined, not 0
    assert one.sd is None and (one.mean, one.low, one.high) == (3, 3, 3)


def test_bradley_terry_recovers_the_odds_of_a_pairing() -> None:
    outcomes = [(0, 1, 1.0)] * 300 + [(0, 1, 0.0)] * 100  # odds 3:1
    first, second = bradley_terry(outcomes, 2)
    # one virtual draw each way: odds 300.5 : 100.5
    assert first - second == pytest.approx(400 * math.log10(300.5 / 100.5), abs=0.01)
    assert first + second == pytest.approx(0, abs=1e-6)


def test_a_long_match_gets_an_interval_as_wide_as_its_sampling_error() -> None:
    # 300 wins to 100: a lead of 190 Elo (odds 3:1), each rating half of it; the log-odds'
    # standard error sqrt(1/300 + 1/100) = 0.115 is 20 Elo of lead, 10 of each rating
    first, second = rate(["a", "b"], [[(0, 1, 1.0)]] * 300 + [[(0, 1, 0.0)]] * 100, seed=3)
    assert first.elo == pytest.approx(95.2, abs=0.5)
    assert first.high - first.low == pytest.approx(2 * 1.96 * 10, rel=0.3)
    assert second.elo == pytest.approx(-first.elo) and second.high == pytest.approx(-first.low)


def test_ratings_order_the_players_and_bracket_their_point_estimates() -> None:
    games = [[(0, 1, 1.0)], [(1, 2, 1.0)], [(0, 2, 1.0)]] * 20 + [[(1, 0, 1.0)], [(2, 1, 1.0)]]
    ratings = rate(["strong", "middle", "weak"], games, seed=1, resamples=100)
    assert [r.name for r in sorted(ratings, key=lambda r: -r.elo)] == ["strong", "middle", "weak"]
    for rating in ratings:
        assert rating.low <= rating.elo <= rating.high
    assert rate(["strong", "middle", "weak"], games, seed=1, resamples=100) == ratings


def test_a_clean_sweep_is_bounded_below_and_not_above() -> None:
    """Six games won of six: resampling the games would give the sweep every time and an
    interval of no width; six games prove the winner better, not by how much (the win rate's
    own interval runs from 0.61 to 1), and the interval says so on both sides of the point."""
    winner, loser = rate(["greedy", "random"], [[(0, 1, 1.0)]] * 6, seed=2)
    assert winner.low <= winner.elo <= winner.high and loser.low <= loser.elo <= loser.high
    assert winner.elo - winner.low > 50 and winner.high - winner.elo > 200
    assert winner.low > 0 > loser.high  # better, surely


def game_won_by(index: int, winner: int) -> GameResult:
    """A game of three seats, the bot 'a' in two of them and 'b' in the third (seat 2)."""
    returns = tuple(1.0 if seat == winner else 0.0 for seat in range(3))
    return GameResult(index, ("a", "a", "b"), (0, 0, 0), returns, None, 1, 1, 1)


def test_a_bot_in_several_seats_of_a_game_gets_the_interval_of_its_games() -> None:
    """Its seats' results in one game are no independent trials (one of them wins at most): the
    interval of the seat-games, taking them for such, was too wide. Now it is that of its share
    of each game's win, shared among its seats: it says of the games what its rival's says, it
    keeps to 95% of the time, and a bot in every seat gets its exact 1/players."""
    rng = random.Random(4)
    covered = narrower = 0
    trials = 400
    for _ in range(trials):  # b wins a game with chance 0.4: a's seats 0.3 each
        results = [game_won_by(g, 2 if rng.random() < 0.4 else rng.randrange(2)) for g in range(20)]
        a, b = tallies(results, lambda r, seat: r.seats[seat])
        assert (a.low, a.high) == pytest.approx(((1 - b.high) / 2, (1 - b.low) / 2))
        covered += a.low <= 0.3 <= a.high
        seat_games = wilson(a.wins, a.games)
        narrower += a.high - a.low < seat_games.high - seat_games.low
    assert covered / trials >= 0.93 and narrower == trials
    everywhere = [
        GameResult(g, ("h",) * 4, (0,) * 4, (0.0, 1.0, 0.0, 0.0), None, 1, 1, 1) for g in range(8)
    ]
    (h,) = tallies(everywhere, lambda r, seat: r.seats[seat])
    assert (h.win_rate, h.low, h.high) == (0.25, 0.25, 0.25)  # the seat-games' was [0.13, 0.42]
    seat_games = wilson(h.wins, h.games)
    assert (round(seat_games.low, 2), round(seat_games.high, 2)) == (0.13, 0.42)

"""The statistics of simulations: win rates with Wilson intervals, spreads, Bradley–Terry ratings.

Pure Python (no numpy): the figures must come out the same on every machine and back end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True)
class Interval:
    low: float
    high: float


def wilson(wins: float, games: int, z: float = Z95) -> Interval:
    """The Wilson score interval of a win rate. Shared wins make `wins` fractional: the rate is
    still wins / games, an average of values in [0, 1], for which the interval holds as well."""
    if games <= 0:
        return Interval(0.0, 1.0)
    rate = min(max(wins / games, 0.0), 1.0)
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    low = 0.0 if rate == 0 else max(0.0, centre - half)  # exact at the ends, not rounded off
    high = 1.0 if rate == 1 else min(1.0, centre + half)
    return Interval(low, high)


def seat_win_interval(wins: float, seat_games: int, seats: int, players: int) -> Interval:
    """The 95% interval of the win rate of a bot that fills `seats` of the `players` seats of
    every game, over `seat_games` seat-games, its seats' shares of the wins summing to `wins`.

    Its seats' results in one game are no independent trials (at most one of them wins, so
    they move against each other): the trials are the games, each the bot's share of the win
    (in [0, 1], summed over its seats), and the interval is their Wilson interval shared among
    its seats. With one seat a game it is the Wilson interval of the seat-games, as before; a
    bot in every seat takes every win, exactly 1/players a seat."""
    if seats == players:
        return Interval(1 / players, 1 / players)
    shares = wilson(wins, seat_games // seats)
    return Interval(shares.low / seats, shares.high / seats)


@dataclass(frozen=True)
class Spread:
    """Mean, standard deviation (of the sample), least and greatest of some numbers."""

    mean: float
    sd: float | None
    """None for fewer than two numbers: one value has no spread to measure (it was 0.0, and a
    single game read "111.0 ± 0.0", as if the score were certain)."""
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread:
        if not values:
            return cls(0.0, None, 0.0, 0.0)
        mean = sum(values) / len(values)
        if len(values) < 2:
            return cls(mean, None, min(values), max(values))
        variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        return cls(mean, math.sqrt(variance), min(values), max(values))


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    """Bradley–Terry strength on the Elo scale (400 per factor of 10 in odds), mean 0."""
    low: float
    high: float
    """A 95% interval of `elo`, from draws of each pairing's chance (see `rate`)."""


Outcome = tuple[int, int, float]
"""A pairwise result: player i, player j, and i's share of the point between them (0..1)."""


def bradley_terry(outcomes: Sequence[Outcome], players: int, rounds: int = 2000) -> list[float]:
    """Bradley–Terry strengths fitted by Hunter's MM algorithm, as Elo-scale ratings of mean 0.

    Every pair that met gets one virtual drawn game (half a point each way), so that a player
    who won or lost every game still has a finite rating."""
    wins = _wins(outcomes, players)
    for i in range(players):
        for j in range(players):
            if i != j and wins[i][j] + wins[j][i] > 0:
                wins[i][j] += 0.5
    return _fit(wins, rounds)


def _wins(outcomes: Sequence[Outcome], players: int) -> list[list[float]]:
    """`wins[i][j]`: the points player i took from player j."""
    wins = [[0.0] * players for _ in range(players)]
    for i, j, share in outcomes:
        wins[i][j] += share
        wins[j][i] += 1 - share
    return wins


def _fit(wins: list[list[float]], rounds: int) -> list[float]:
    """The Bradley–Terry strengths of a table of points taken (Hunter's MM), on the Elo scale."""
    players = len(wins)
    games = [[wins[i][j] + wins[j][i] for j in range(players)] for i in range(players)]
    strength = [1.0] * players
    for _ in range(rounds):
        updated = []
        for i in range(players):
            total = sum(wins[i])
            denominator = sum(
                games[i][j] / (strength[i] + strength[j]) for j in range(players) if j != i
            )
            updated.append(total / denominator if denominator > 0 else strength[i])
        mean_log = sum(math.log(s) for s in updated) / players
        updated = [s / math.exp(mean_log) for s in updated]
        change = max(abs(a - b) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-10:
            break
    return [400 * math.log10(s) for s in strength]


def rate(
    names: Sequence[str],
    outcomes_by_game: Sequence[Sequence[Outcome]],
    seed: int = 0,
    resamples: int = 200,
) -> list[Rating]:
    """Ratings of `names` with 95% intervals drawn from what the results say of each pairing:
    in each of `resamples` draws, every pair's chance is drawn from its posterior given its
    points (a Beta, with Jeffreys' prior of half a point each way) and the ratings fitted to
    those chances. A clean sweep is then bounded below and not above, as it should be: 6 wins
    of 6 prove a bot better but not by how much. (Resampling the games gave the sweep every
    time, an interval of no width; drawing them from the fitted ratings, one that stopped at
    the point.)"""
    flat = [outcome for game in outcomes_by_game for outcome in game]
    count = len(names)
    point = bradley_terry(flat, count)
    taken = _wins(flat, count)
    pairs = [(i, j) for i in range(count) for j in range(i + 1, count) if taken[i][j] + taken[j][i]]
    rng = random.Random(seed)
    samples: list[list[float]] = [[] for _ in names]
    for _ in range(resamples):
        drawn = [[0.0] * count for _ in range(count)]
        for i, j in pairs:
            games = taken[i][j] + taken[j][i]
            chance = rng.betavariate(taken[i][j] + 0.5, taken[j][i] + 0.5)
            drawn[i][j], drawn[j][i] = chance * games, (1 - chance) * games
        for player, value in enumerate(_fit(drawn, rounds=300)):
            samples[player].append(value)
    ratings = []
    for player, name in enumerate(names):
        ordered = sorted(samples[player])
        low = ordered[int(0.025 * (len(ordered) - 1))] if ordered else point[player]
        high = ordered[math.ceil(0.975 * (len(ordered) - 1))] if ordered else point[player]
        # to a hundredth of a point: an even rating read 4.98e-09, the sums' rounding, not 0
        ratings.append(Rating(name, round(point[player], 2) + 0.0, round(low, 2), round(high, 2)))
    return ratings

"""`kafeneio bench`: the speed of random play, clone and determinize on one core."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from kafeneio.core import Game, State
from kafeneio.core.play import play, random_player


@dataclass(frozen=True)
class BenchResult:
    game: str
    players: int
    seconds: float
    games: int
    decisions: int
    decisions_per_second: float
    games_per_second: float
    mean_decisions_per_game: float
    clone_microseconds: float
    determinize_microseconds: float

    def to_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def play_random(state: State, rng: random.Random) -> int:
    """Play `state` to the end with uniformly random legal actions (chance by its real
    probabilities); the number of decisions."""
    before = state.ply
    player = random_player(rng)
    play(state, [player] * state.num_players, rng)
    return state.ply - before


def bench(game: Game, players: int, seconds: float, seed: int = 0) -> BenchResult:
    """Random play for about `seconds`, then clone and determinize on mid-game states."""
    rng = random.Random(seed)
    games = decisions = 0
    samples: list[State] = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        state = game.new_state(players, seed=seed + games)
        decisions += play_random(state, rng)
        games += 1
    elapsed = time.perf_counter() - start
    for index in range(20):
        state = game.new_state(players, seed=seed + index)
        play(state, [random_player(rng)] * players, rng, max_steps=30)
        samples.append(state)
    return BenchResult(
        game=game.info.name,
        players=players,
        seconds=round(elapsed, 3),
        games=games,
        decisions=decisions,
        decisions_per_second=round(decisions / elapsed),
        games_per_second=round(games / elapsed, 1),
        mean_decisions_per_game=round(decisions / games, 1),
        clone_microseconds=round(_mean_micros(lambda s: s.clone(), samples), 2),
        determinize_microseconds=round(_mean_micros(lambda s: s.determinize(0, rng), samples), 2),
    )


def _mean_micros(
    operation: Callable[[State], object], states: list[State], repeat: int = 200
) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6

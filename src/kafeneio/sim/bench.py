"""`kafeneio bench`: the speed of random play, clone and determinize on one core."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from operator import methodcaller

from kafeneio.core import CHANCE, Game, KafeneioError, State
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
    observation_key_microseconds: float | None
    """The cost of `observation_key(0)`; None for a game without one."""

    def to_dict(self) -> dict[str, float | int | str | None]:
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
        observation_key_microseconds=_key_micros(samples),
    )


def _key_micros(states: list[State]) -> float | None:
    if not all(hasattr(state, "observation_key") for state in states):
        return None
    return round(_mean_micros(methodcaller("observation_key", 0), states), 2)


def _mean_micros(
    operation: Callable[[State], object], states: list[State], repeat: int = 200
) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.perf_counter() - start) / (repeat * len(states)) * 1e6


@dataclass(frozen=True)
class SearchBenchResult:
    game: str
    players: int
    bot: str
    decisions: int
    """Searched decisions timed (forced ones are not searched)."""
    iterations_per_second: float
    mean_iterations_per_decision: float
    mean_seconds_per_decision: float
    rollout_microseconds: float
    """One rollout and its evaluation from a mid-game sample, as the bot's search runs it."""

    def to_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def bench_search(
    game: Game, players: int, spec: str, positions: int = 10, seed: int = 0
) -> SearchBenchResult:
    """Time the search bot `spec` on `positions` mid-game positions reached by heuristic play,
    and the cost of one of its rollouts there."""
    from kafeneio.bots import make_bot  # sim depends on bots, the engines do not
    from kafeneio.bots.mcts import MctsBot

    bot = make_bot(spec, seed)
    if not isinstance(bot, MctsBot):
        raise KafeneioError(f"bench --bot times a search bot (mcts), not {spec!r}")
    states = _searchable_positions(game, players, positions, seed)
    iterations, seconds = 0, 0.0
    for state in states:
        start = time.perf_counter()
        bot.choose(state)
        seconds += time.perf_counter() - start
        iterations += bot.last_iterations
    rollout = _mean_micros(lambda s: bot.rollout_from(s), states, repeat=5)
    return SearchBenchResult(
        game=game.info.name,
        players=players,
        bot=spec,
        decisions=len(states),
        iterations_per_second=round(iterations / seconds),
        mean_iterations_per_decision=round(iterations / len(states), 1),
        mean_seconds_per_decision=round(seconds / len(states), 3),
        rollout_microseconds=round(rollout, 1),
    )


def _searchable_positions(game: Game, players: int, count: int, seed: int) -> list[State]:
    """Positions with a real choice, 20 to 60 decisions into games of heuristic bots."""
    from kafeneio.bots import make_bot

    rng = random.Random(seed)
    found: list[State] = []
    index = 0
    while len(found) < count:
        state = game.new_state(players, seed=seed + index)
        bots = [make_bot("heuristic", seed + index * 8 + p) for p in range(players)]
        play(state, bots, rng, max_steps=rng.randrange(20, 60))
        while not state.is_terminal() and (
            state.current_player() == CHANCE or len(state.legal_actions()) < 2
        ):
            play(state, bots, rng, max_steps=1)
        if not state.is_terminal():
            found.append(state)
        index += 1
    return found

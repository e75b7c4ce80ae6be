"""`kafeneio bench`: the speed of random play, clone and determinize on one core.

Random play is timed by the process's CPU time (`time.process_time`), which a busy machine
disturbs less than the clock on the wall; a decision is an action applied (a player's or a
chance outcome), and making each new game is part of the timed loop. By default the states
collect their events in words, as terminal play does; ``quiet`` switches them off, as search
and simulations play.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from operator import methodcaller
from typing import Any

from kafeneio.core import CHANCE, Game, KafeneioError, State
from kafeneio.core.play import play, random_player
from kafeneio.sim.analysis import is_forced


class Figures:
    """What a bench measured, as JSON-ready data (for dataclasses)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)  # type: ignore[call-overload, no-any-return]


@dataclass(frozen=True)
class BenchResult(Figures):
    game: str
    players: int
    quiet: bool
    """Whether the states collected no events (search and simulations play so)."""
    seconds: float
    """CPU seconds of random play."""
    games: int
    decisions: int
    decisions_per_second: float
    games_per_second: float
    mean_decisions_per_game: float
    clone_microseconds: float
    determinize_microseconds: float
    observation_key_microseconds: float | None
    """The cost of `observation_key(0)`; None for a game without one."""


def play_random(state: State, rng: random.Random) -> int:
    """Play `state` to the end with uniformly random legal actions (chance by its real
    probabilities); the number of decisions."""
    before = state.ply
    player = random_player(rng)
    play(state, [player] * state.num_players, rng)
    return state.ply - before


def bench(
    game: Game, players: int, seconds: float, seed: int = 0, *, quiet: bool = False
) -> BenchResult:
    """Random play for about `seconds` of CPU time, then clone and determinize on mid-game
    states."""
    rng = random.Random(seed)
    games = decisions = 0
    samples: list[State] = []
    start = time.process_time()
    while time.process_time() - start < seconds or games == 0:
        state = game.new_state(players, seed=seed + games)
        decisions += play_random(state.quiet(quiet), rng)
        games += 1
    elapsed = time.process_time() - start
    for index in range(20):
        state = game.new_state(players, seed=seed + index)
        play(state, [random_player(rng)] * players, rng, max_steps=30)
        samples.append(state)
    return BenchResult(
        game=game.info.name,
        players=players,
        quiet=quiet,
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


@dataclass(frozen=True)
class OpenSpielComparison(Figures):
    """Random play of a game and of OpenSpiel's pure-Python tic-tac-toe in one run."""

    game: str
    players: int
    quiet: bool
    decisions_per_second: float
    tic_tac_toe_decisions_per_second: float
    ratio: float
    """The game's decisions/s over tic-tac-toe's."""
    seconds: float
    """CPU seconds each of the two played."""


OPENSPIEL_GAME = "python_tic_tac_toe"
"""OpenSpiel's tic-tac-toe written in Python (`open_spiel.python.games.tic_tac_toe`)."""


def against_openspiel(
    game: Game, players: int, seconds: float, seed: int = 0, *, quiet: bool = False
) -> OpenSpielComparison:
    """Random play of `game` and of OpenSpiel's Python tic-tac-toe for about `seconds` of CPU
    time each, in alternation (a game of ours, then tic-tac-toe games until tic-tac-toe has had
    as much CPU time), so that a change in the machine's load falls on both alike.

    Both loops have the same shape, that of `kafeneio.core.play.play`: while the game is not
    over, ask who moves, draw a chance outcome by its probabilities or let the player choose
    uniformly among the legal actions, apply it. A decision is an action applied; making each
    new game is timed too. Our states collect their events as in terminal play unless `quiet`
    (see `bench`). `KafeneioError` when open_spiel is not installed."""
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # registers the Python games
    except ImportError as err:
        raise KafeneioError(
            f"--against-openspiel needs open_spiel (pip install 'kafeneio[rl]'): {err}"
        ) from None
    del _python_games
    tic_tac_toe = pyspiel.load_game(OPENSPIEL_GAME)
    rng = random.Random(seed)
    ours = [0, 0.0]
    theirs = [0, 0.0]
    index = 0
    while min(ours[1], theirs[1]) < seconds:
        start = time.process_time()
        ours[0] += play_random(game.new_state(players, seed=seed + index).quiet(quiet), rng)
        ours[1] += time.process_time() - start
        index += 1
        while theirs[1] < ours[1]:
            start = time.process_time()
            theirs[0] += _play_openspiel_random(tic_tac_toe.new_initial_state(), rng)
            theirs[1] += time.process_time() - start
    rate, other_rate = ours[0] / ours[1], theirs[0] / theirs[1]
    return OpenSpielComparison(
        game=game.info.name,
        players=players,
        quiet=quiet,
        decisions_per_second=round(rate),
        tic_tac_toe_decisions_per_second=round(other_rate),
        ratio=round(rate / other_rate, 2),
        seconds=round(min(ours[1], theirs[1]), 3),
    )


def _play_openspiel_random(state: Any, rng: random.Random) -> int:
    """`play_random` for an OpenSpiel state: the same loop, through OpenSpiel's own API."""
    chance = -1  # pyspiel.PlayerId.CHANCE

    def choose(state: Any) -> int:
        return rng.choice(state.legal_actions())  # type: ignore[no-any-return]

    players = [choose, choose]
    steps = 0
    while not state.is_terminal():
        mover = state.current_player()
        if mover == chance:
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = players[mover](state)
        state.apply_action(action)
        steps += 1
    return steps


def _key_micros(states: list[State]) -> float | None:
    if not all(hasattr(state, "observation_key") for state in states):
        return None
    return round(_mean_micros(methodcaller("observation_key", 0), states), 2)


def _mean_micros(
    operation: Callable[[State], object], states: list[State], repeat: int = 200
) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


@dataclass(frozen=True)
class SearchBenchResult(Figures):
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
    states = searchable_positions(game, players, positions, seed)
    iterations, seconds = 0, 0.0
    for state in states:
        # the search's budget is its thread's CPU time: so is this, on a busy machine too
        start = time.thread_time()
        bot.analyse(state)  # a search even where the game calls the decision routine
        seconds += time.thread_time() - start
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


def searchable_positions(game: Game, players: int, count: int, seed: int) -> list[State]:
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
            state.current_player() == CHANCE or is_forced(len(state.legal_actions()))
        ):
            play(state, bots, rng, max_steps=1)
        if not state.is_terminal():
            found.append(state)
        index += 1
    return found

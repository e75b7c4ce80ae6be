"""Many games between bots, and what they say about seats, bots and roles (shops).

Each game is seeded by its index, so a simulation is reproducible and can be split among worker
processes without changing its result.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Any

from kafeneio.bots import make_bot
from kafeneio.core.play import play
from kafeneio.games import get_game


@dataclass(frozen=True)
class GameResult:
    scores: list[int]
    winners: list[int]
    roles: list[str] | None
    decisions: int
    turns: int


@dataclass
class SimulationReport:
    game: str
    players: int
    seats: list[str]
    games: int
    seconds: float
    seat_win_share: list[float]
    seat_mean_score: list[float]
    role_games: dict[str, int] = field(default_factory=dict)
    role_win_share: dict[str, float] = field(default_factory=dict)
    mean_decisions: float = 0.0
    mean_turns: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def play_game(
    game_name: str,
    seats: Sequence[str],
    index: int,
    seed: int,
    options: Mapping[str, Any],
    deal_roles: bool,
) -> GameResult:
    """Game number `index` of a simulation: its seed is `seed + index`."""
    game = get_game(game_name, options)
    game_seed = seed + index
    rng = random.Random(game_seed)
    if deal_roles:
        game = game.deal_roles(len(seats), rng)
    state = game.new_state(len(seats), seed=game_seed)
    bots = [make_bot(name, game_seed * 8 + seat) for seat, name in enumerate(seats)]
    play(state, bots, rng)
    return GameResult(
        scores=state.scores(),
        winners=state.winners(),
        roles=game.roles(state),
        decisions=state.ply,
        turns=state.turns_completed(),
    )


def _play_chunk(args: tuple[str, list[str], range, int, dict[str, Any], bool]) -> list[GameResult]:
    game_name, seats, indices, seed, options, deal_roles = args
    return [play_game(game_name, seats, i, seed, options, deal_roles) for i in indices]


def simulate(
    game_name: str,
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    deal_roles: bool = False,
    workers: int = 1,
) -> SimulationReport:
    """Play `games` games; `workers` > 1 spreads them over processes with the same result."""
    options = dict(options or {})
    start = time.perf_counter()
    chunks = [range(i, games, workers) for i in range(workers)]
    jobs = [(game_name, list(seats), chunk, seed, options, deal_roles) for chunk in chunks]
    if workers == 1:
        results = _play_chunk(jobs[0])
    else:
        with ProcessPoolExecutor(workers) as pool:
            results = [r for chunk in pool.map(_play_chunk, jobs) for r in chunk]
    return _report(game_name, list(seats), results, time.perf_counter() - start)


def _report(
    game: str, seats: list[str], results: list[GameResult], seconds: float
) -> SimulationReport:
    n = len(seats)
    wins = [0.0] * n
    totals = [0.0] * n
    role_games: dict[str, int] = {}
    role_wins: dict[str, float] = {}
    for result in results:
        share = 1.0 / len(result.winners)
        for seat in range(n):
            totals[seat] += result.scores[seat]
        for seat in result.winners:
            wins[seat] += share
        for seat, role in enumerate(result.roles or []):
            role_games[role] = role_games.get(role, 0) + 1
            role_wins[role] = role_wins.get(role, 0.0) + (share if seat in result.winners else 0)
    count = len(results)
    return SimulationReport(
        game=game,
        players=n,
        seats=seats,
        games=count,
        seconds=round(seconds, 2),
        seat_win_share=[round(w / count, 3) for w in wins],
        seat_mean_score=[round(t / count, 2) for t in totals],
        role_games=dict(sorted(role_games.items())),
        role_win_share={r: round(role_wins[r] / role_games[r], 3) for r in sorted(role_games)},
        mean_decisions=round(sum(r.decisions for r in results) / count, 1),
        mean_turns=round(sum(r.turns for r in results) / count, 1),
    )

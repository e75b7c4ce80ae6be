"""A position bench for Café International search: how much win chance a bot's choices give
away, measured against a long search.

Plays `--games` seeded games of `heuristic` seats and keeps about one decision in six that has
a choice. The reference rates every legal action of each kept position by one search of
`--reference-seconds` (default 5) CPU seconds of the default `mcts`; it is worked out once,
on `--workers` processes, and kept in the `--reference` file. Each bot spec given is then asked
for its choice in every position: its regret is the reference's best estimate less the
reference's estimate of the choice, and the mean regret over the positions is printed.

    .venv/bin/python scripts/bench_cafe_search.py --players 2 --games 14 \
        --reference /tmp/ref2.json --workers 2 heuristic mcts mcts:width=12

The reference is a search of the same kind as the bots it judges (it can favour them), and the
noise between two runs of one spec is about 0.05-0.1 points of regret at 172 positions; read a
difference as a hint for a game run (`kafeneio simulate`), not as a result.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from multiprocessing import Pool
from pathlib import Path

from kafeneio.bots import make_bot
from kafeneio.bots.mcts import MctsBot
from kafeneio.core import State
from kafeneio.games import get_game

KEEP = 1 / 6
"""The share of decisions with a choice that become bench positions."""


def positions(players: int, games: int) -> list[State]:
    """The bench's positions: the same ones for the same arguments."""
    rng = random.Random(players)
    found: list[State] = []
    for game in range(games):
        state = get_game("cafe").new_state(players, seed=5000 + game)
        bots = [make_bot("heuristic", 7000 + 10 * game + p) for p in range(players)]
        while not state.is_terminal():
            if len(state.legal_actions()) > 1 and rng.random() < KEEP:
                found.append(state.clone())
            state.apply(bots[state.current_player()].choose(state))
    return found


def rate(job: tuple[int, State, float]) -> tuple[int, dict[str, float]]:
    """The reference's estimate of every legal action of one position."""
    index, state, seconds = job
    bot = make_bot(f"mcts:seconds={seconds}", 10 + index)
    assert isinstance(bot, MctsBot)
    analysis = bot.analyse(state)
    return index, {str(e.action.code): e.win_chance for e in analysis.actions}


def reference(
    found: list[State], path: Path, seconds: float, workers: int
) -> dict[int, dict[str, float]]:
    if path.exists():
        return {int(k): v for k, v in json.loads(path.read_text()).items()}
    with Pool(workers) as pool:
        rated = dict(pool.map(rate, [(i, s, seconds) for i, s in enumerate(found)]))
    path.write_text(json.dumps(rated))
    return rated


def regret(spec: str, found: list[State], rated: dict[int, dict[str, float]], seed: int) -> float:
    bot = make_bot(spec, seed)
    lost = []
    for index, state in enumerate(found):
        estimates = rated[index]
        choice = bot.choose(state.clone())
        lost.append(max(estimates.values()) - estimates[str(choice.code)])
    return statistics.mean(lost)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="+", help="bot specs to judge, such as mcts:width=12")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=14)
    parser.add_argument("--reference", type=Path, required=True)
    parser.add_argument("--reference-seconds", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1, help="the judged bots' seed")
    args = parser.parse_args()
    found = positions(args.players, args.games)
    rated = reference(found, args.reference, args.reference_seconds, args.workers)
    for spec in args.bots:
        lost = regret(spec, found, rated, args.seed)
        print(f"{spec}: mean regret {lost:.4f} over {len(found)} positions")


if __name__ == "__main__":
    main()

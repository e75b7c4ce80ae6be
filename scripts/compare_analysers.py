"""Compare analysers of `kafeneio analyse` on the same games (docs/analysis.md, "why the search
is the default").

Plays `--games` 2-player games (heuristic against greedy, greedy against heuristic, heuristic
against itself, in turn; game i has seed `--seed` + i), analyses every decision of each with
each analyser (``NAME@SECONDS``), and prints for each: how well the mover's "before" win chance
predicts who won (Brier score and log loss over every decision; a coin scores 0.25 and 0.693),
the time taken, and the win chance the analysis says each kind of seat lost in a game on average.

    .venv/bin/python scripts/compare_analysers.py --game cafe --games 9 --seed 4100 \\
        --analysers flat@1,mcts@1,flat@0.2,mcts@0.2 --workers 2
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import defaultdict

from kafeneio.bots import make_bot
from kafeneio.core.game import JSON
from kafeneio.core.play import play
from kafeneio.games import get_game
from kafeneio.sim.analysis import Budget, analyse_game

LINEUPS = (("heuristic", "greedy"), ("greedy", "heuristic"), ("heuristic", "heuristic"))


def games(name: str, count: int, seed: int) -> list[JSON]:
    records = []
    for index in range(count):
        game_seed = seed + index
        state = get_game(name).new_state(2, seed=game_seed)
        lineup = LINEUPS[index % len(LINEUPS)]
        bots = [make_bot(bot, game_seed * 10 + seat) for seat, bot in enumerate(lineup)]
        play(state, bots, random.Random(game_seed))
        records.append({**state.to_record(), "seats": list(lineup)})
    return records


def score(records: list[JSON], analyser: str, seconds: float, workers: int) -> str:
    brier = loss = 0.0
    decisions = 0
    lost: dict[str, list[float]] = defaultdict(list)
    beyond: dict[str, list[float]] = defaultdict(list)
    started = time.perf_counter()
    for record in records:
        result = analyse_game(record, analyser, Budget(seconds), seed=1, workers=workers)
        for decision in result.decisions:
            won = 1 / len(result.winners) if decision.player in result.winners else 0.0
            chance = min(max(decision.before, 0.01), 0.99)
            brier += (decision.before - won) ** 2
            loss -= won * math.log(chance) + (1 - won) * math.log(1 - chance)
            decisions += 1
        if len(set(record["seats"])) > 1:  # a game between two kinds of bot
            for player, bot in enumerate(record["seats"]):
                lost[bot].append(result.total_lost(player))
                own = [d for d in result.decisions if d.player == player]
                beyond[bot].append(sum(max(0.0, d.lost - d.margin) for d in own))
    took = time.perf_counter() - started
    by_bot = ", ".join(f"{bot} {sum(v) / len(v):.2f}" for bot, v in sorted(lost.items()))
    clear = ", ".join(f"{bot} {sum(v) / len(v):.2f}" for bot, v in sorted(beyond.items()))
    return (
        f"{analyser}@{seconds:g}: Brier {brier / decisions:.4f}, log loss {loss / decisions:.4f}"
        f" over {decisions} decisions; {took:.0f} s; win chance lost a game: {by_bot}; "
        f"beyond its margin: {clear}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cafe")
    parser.add_argument("--games", type=int, default=9)
    parser.add_argument("--seed", type=int, default=4100)
    parser.add_argument("--analysers", default="flat@1,mcts@1,flat@0.2,mcts@0.2")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    records = games(args.game, args.games, args.seed)
    for spec in args.analysers.split(","):
        analyser, _, seconds = spec.partition("@")
        print(score(records, analyser, float(seconds or 1), args.workers), flush=True)


if __name__ == "__main__":
    main()

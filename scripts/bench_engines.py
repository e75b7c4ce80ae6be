"""Fixed work for comparing two commits of the engines: the same random games, timed by CPU.

Runs on whatever `kafeneio` is first on the path, including the project's original commit
(whose `new_state` still took the options), so that

    PYTHONPATH=/path/to/old/src .venv/bin/python scripts/bench_engines.py souvlaki --games 200 \
        -o food_play=needed -o big_phone_order_draw=draft

and the same without PYTHONPATH play the same games (seeds 0 to N-1, one random generator
seeded 0, chance drawn by its probabilities) and print the same number of decisions: a rate
of one is comparable with the other's. `kafeneio bench` plays for a time instead, so its games
differ from run to run. Prints one JSON object: decisions, CPU seconds, decisions per CPU
second, and the mean cost of clone and determinize on 20 states 30 random actions into a game
(as `kafeneio bench` measures them).
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import time
from typing import Any

from kafeneio.core import CHANCE, sample_chance
from kafeneio.games import get_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--option", "-o", action="append", default=[], help="name=value")
    parser.add_argument("--quiet", action="store_true", help="events off (if the engine has them)")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for pair in args.option:
        name, _, value = pair.partition("=")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    legacy = "options" in inspect.signature(get_game(args.game).new_state).parameters
    game = get_game(args.game) if legacy else get_game(args.game, options)

    def new_state(seed: int) -> Any:
        if legacy:
            return game.new_state(args.players, options, seed=seed)
        state = game.new_state(args.players, seed=seed)
        return state.quiet(args.quiet)

    rng = random.Random(0)
    decisions = 0
    start = time.process_time()
    for seed in range(args.games):
        decisions += play_random(new_state(seed), rng)
    seconds = time.process_time() - start
    samples = []
    for seed in range(20):
        state = new_state(seed)
        play_random(state, rng, 30)
        samples.append(state)
    result = {
        "engine": "original" if legacy else "now",
        "game": args.game,
        "quiet": args.quiet and not legacy,
        "decisions": decisions,
        "cpu_seconds": round(seconds, 3),
        "decisions_per_second": round(decisions / seconds),
        "clone_microseconds": round(mean_micros(lambda s: s.clone(), samples), 2),
        "determinize_microseconds": round(
            mean_micros(lambda s: s.determinize(0, rng), samples), 2
        ),
    }
    print(json.dumps(result))


def play_random(state: Any, rng: random.Random, most: int | None = None) -> int:
    steps = 0
    while not state.is_terminal() and (most is None or steps < most):
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def mean_micros(operation: Any, states: list[Any], repeat: int = 200) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


if __name__ == "__main__":
    main()

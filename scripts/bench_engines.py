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

With ``--digest`` it times nothing: it plays random games of every option set of `DIGESTS`
(or of the options given) with 2 to 4 players and prints one SHA-256 over every legal-action
list in order, every action chosen, every event in words and every record. A change that should
not change the games (a faster engine) must leave it as it was.
"""

from __future__ import annotations

import argparse
import hashlib
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
    parser.add_argument("--digest", action="store_true", help="a digest of games, not a time")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for pair in args.option:
        name, _, value = pair.partition("=")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    if args.digest:
        sets = [options] if options else DIGESTS.get(args.game, [{}])
        print(json.dumps({"game": args.game, "games": args.games, "digest": digest(args, sets)}))
        return
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
        "determinize_microseconds": round(mean_micros(lambda s: s.determinize(0, rng), samples), 2),
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


DIGESTS: dict[str, list[dict[str, Any]]] = {
    "cafe": [
        {},
        {"first_move": "pair-scores-both"},
        {"bar_unpaid": "forbid", "bar_draw": "extra"},
        {"single_nation_draw": "choose", "joker_exchange": "own-gender"},
        {"joker_native_both": False, "hand_size": 7, "end_bag": 0},
        {"birthday": True, "birthday_threshold": 10},
        {"dance": True},
        {"dance": True, "birthday": True, "single_nation_draw": "choose", "hand_size": 8},
        {"hand_size": 2, "first_move": "pair-scores-both", "joker_exchange": "own-gender"},
    ]
}
"""Option sets whose games `--digest` plays: the variants, the rulings and odd hand sizes."""


def digest(args: argparse.Namespace, option_sets: list[dict[str, Any]]) -> str:
    """SHA-256 over random games of each option set: their legal actions, choices, events and
    records (today's engine only: it reads `history_for` and `to_record`)."""
    sha = hashlib.sha256()
    for options in option_sets:
        game = get_game(args.game, options)
        for seed in range(args.games):
            players = 2 + seed % 3
            if not game.info.min_players <= players <= game.info.max_players:
                players = game.info.min_players
            state = game.new_state(players, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.current_player() == CHANCE:
                    action = sample_chance(state, rng)
                else:
                    legal = state.legal_actions()
                    sha.update(repr([a.code for a in legal]).encode())
                    action = rng.choice(legal)
                sha.update(str(action.code).encode())
                state.apply(action)
            for entry in state.history_for(0):
                sha.update(repr(entry).encode())
            sha.update(json.dumps(state.to_record(), sort_keys=True).encode())
            sha.update(repr(state.scores()).encode())
    return sha.hexdigest()


def mean_micros(operation: Any, states: list[Any], repeat: int = 200) -> float:
    start = time.process_time()
    for _ in range(repeat):
        for state in states:
            operation(state)
    return (time.process_time() - start) / (repeat * len(states)) * 1e6


if __name__ == "__main__":
    main()

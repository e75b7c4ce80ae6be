"""Fit the weights of Café International's search evaluation (`bots/cafe.py`, `OddsWeights`).

Plays seeded games (greedy seats, and in every third two-player game one heuristic seat),
records the features of every player at about half the decisions, and fits a conditional logit
of the eventual winner (a shared win is a shared target) by Newton's method. Games are split
4:1 into fitting and checking sets; the log loss on the checking set is printed for the fitted
weights, for the weights in the package now and for the greedy evaluation (softmax of
standings at temperature 8).

    .venv/bin/python scripts/fit_cafe_odds.py --games 3000 --players 2 --seed 100000
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Callable
from multiprocessing import Pool
from typing import cast

import numpy as np

from kafeneio.bots import make_bot
from kafeneio.bots.cafe import ODDS, TEMPERATURE, odds_features, standings
from kafeneio.core import Action, State
from kafeneio.core.play import play
from kafeneio.games import get_game
from kafeneio.games.cafe.state import CafeState

NAMES = [field.name for field in dataclasses.fields(ODDS)]
Position = tuple[list[list[float]], list[bool], list[float]]
"""Per player: the features (in `NAMES` order), thrown out or not, the greedy standing."""


def features(state: CafeState) -> Position:
    out = [state.is_out(player) for player in range(state.num_players)]
    return odds_features(state), out, standings(state)


def one_game(args: tuple[int, int]) -> tuple[list[Position], list[float]]:
    seed, players = args
    rng = random.Random(seed)
    state = get_game("cafe").new_state(players, seed=seed)
    state.quiet()
    kinds = ["greedy"] * players
    if players == 2 and seed % 3 == 0:
        kinds[seed % 2] = "heuristic"
    positions = []

    def recorded(kind: str, seat: int) -> Callable[[State], Action]:
        bot = make_bot(kind, seed * 10 + seat)

        def choose(position: State) -> Action:
            if rng.random() < 0.5:
                positions.append(features(cast(CafeState, position)))
            return bot(position)

        return choose

    end = play(state, [recorded(kind, seat) for seat, kind in enumerate(kinds)], rng)
    return positions, end.returns()


def arrays(games: list[tuple[list[Position], list[float]]]) -> tuple[np.ndarray, ...]:
    rows = [(pos, ret) for positions, ret in games for pos in positions]
    x = np.array([pos[0] for pos, _ in rows], float)
    out = np.array([pos[1] for pos, _ in rows], bool)
    greedy = np.array([pos[2] for pos, _ in rows], float)
    target = np.array([ret for _, ret in rows], float)
    return x, out, greedy, target


def chances(logits: np.ndarray, out: np.ndarray) -> np.ndarray:
    logits = np.where(out, -1e9, logits)
    logits = logits - logits.max(axis=1, keepdims=True)
    weights = np.exp(logits)
    found: np.ndarray = weights / weights.sum(axis=1, keepdims=True)
    return found


def log_loss(p: np.ndarray, target: np.ndarray) -> float:
    return float(-(target * np.log(np.maximum(p, 1e-12))).sum() / len(target))


def fit(x: np.ndarray, out: np.ndarray, target: np.ndarray) -> np.ndarray:
    """Newton's method on the conditional-logit likelihood (convex: a few steps suffice)."""
    beta = np.zeros(x.shape[2])
    x = np.where(out[:, :, None], 0.0, x)
    for _ in range(30):
        p = chances(x @ beta, out)
        mean = np.einsum("ij,ijk->ik", p, x)
        centred = x - mean[:, None, :]
        gradient = np.einsum("ij,ijk->k", target - p, x)
        hessian = np.einsum("ij,ijk,ijl->kl", p, centred, centred)
        step = np.linalg.solve(hessian + 1e-6 * np.eye(len(beta)), gradient)
        beta += step
        if np.abs(step).max() < 1e-7:
            break
    return beta


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=100000)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    work = [(args.seed + g, args.players) for g in range(args.games)]
    with Pool(args.workers) as pool:
        games = pool.map(one_game, work, chunksize=8)
    cut = args.games * 4 // 5
    x, out, _, target = arrays(games[:cut])
    beta = fit(x, out, target)
    cx, cout, cgreedy, ctarget = arrays(games[cut:])
    now = np.array([getattr(ODDS, name) for name in NAMES])
    print(f"{len(x):,} positions fitted, {len(cx):,} checked ({args.players} players)")
    print(f"log loss, fitted weights:   {log_loss(chances(cx @ beta, cout), ctarget):.4f}")
    print(f"log loss, package weights:  {log_loss(chances(cx @ now, cout), ctarget):.4f}")
    greedy = chances(cgreedy / TEMPERATURE, cout)
    print(f"log loss, greedy's softmax: {log_loss(greedy, ctarget):.4f}")
    for name, value in zip(NAMES, beta, strict=True):
        print(f"    {name}: float = {value:.4f}")


if __name__ == "__main__":
    main()

"""Fit the weights of Café International's evaluation (`bots/cafe_plan.py`, `RaceWeights`).

Plays seeded games (greedy seats; with ``--heuristic-every N`` one heuristic seat in every Nth
game; with ``--seats a,b,...`` those bots, rotated a seat each game), records every player's
race features (`race_features`) at every turn start, and fits a conditional logit of the
eventual winner (a shared win is a shared target) by Newton's method. Games are split 4:1 into
fitting and checking sets; the log loss on the checking set is printed for the fitted weights
and for the weights in the package now. With ``--search`` the features include the dead cards
(`dead_cards`), as the search's weights (`SEARCH_WEIGHTS_BY_PLAYERS`) read them.

    .venv/bin/python scripts/fit_cafe_race.py --games 1000 --players 2 --seed 300000
    .venv/bin/python scripts/fit_cafe_race.py --games 700 --players 2 --seed 700000 \
        --seats heuristic,heuristic --search --workers 2
"""

from __future__ import annotations

import argparse
import dataclasses
from multiprocessing import Pool
from typing import cast

import numpy as np

from kafeneio.bots import make_bot
from kafeneio.bots.cafe import lateness
from kafeneio.bots.cafe_plan import (
    RACE_FIELDS,
    SEARCH_WEIGHT_VECTORS,
    WEIGHT_VECTORS,
    RaceWeights,
    race_features,
)
from kafeneio.games import get_game
from kafeneio.games.cafe.state import CafeState

NAMES = [field.name for field in dataclasses.fields(RaceWeights)]
Position = tuple[list[list[float]], list[bool]]


def one_game(
    args: tuple[int, int, int, tuple[str, ...], bool],
) -> tuple[list[Position], list[float]]:
    seed, players, heuristic_every, seats, search = args
    state = cast(CafeState, get_game("cafe").new_state(players, seed=seed))
    state.quiet()
    kinds = ["greedy"] * players
    if seats:
        turn = seed % players
        kinds = [*seats[turn:], *seats[:turn]]
    elif heuristic_every and seed % heuristic_every == 0:
        kinds[seed % players] = "heuristic"
    bots = [make_bot(kind, seed * 10 + p) for p, kind in enumerate(kinds)]
    positions: list[Position] = []
    while not state.is_terminal():
        player = state.current_player()
        if state.phase == "turn":
            out = [state.is_out(p) for p in range(players)]
            positions.append((race_features(state, lateness(state), dead=search), out))
        state.apply(bots[player].choose(state))
    return positions, state.returns()


def arrays(games: list[tuple[list[Position], list[float]]]) -> tuple[np.ndarray, ...]:
    rows = [(pos, ret) for positions, ret in games for pos in positions]
    x = np.array([pos[0] for pos, _ in rows], float)
    out = np.array([pos[1] for pos, _ in rows], bool)
    target = np.array([ret for _, ret in rows], float)
    return x, out, target


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
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=300000)
    parser.add_argument("--heuristic-every", type=int, default=0)
    parser.add_argument("--seats", default="", help="bots a,b,... (one per player), rotated")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--search", action="store_true", help="fit the search's weights")
    args = parser.parse_args()
    seats = tuple(args.seats.split(",")) if args.seats else ()
    if seats and len(seats) != args.players:
        parser.error(f"--seats names {len(seats)} bots for {args.players} players")
    work = [
        (args.seed + g, args.players, args.heuristic_every, seats, args.search)
        for g in range(args.games)
    ]
    with Pool(args.workers) as pool:
        games = pool.map(one_game, work, chunksize=8)
    cut = args.games * 4 // 5
    x, out, target = arrays(games[:cut])
    beta = fit(x, out, target)
    cx, cout, ctarget = arrays(games[cut:])
    now = np.array((SEARCH_WEIGHT_VECTORS if args.search else WEIGHT_VECTORS)[args.players])
    print(f"{len(x):,} positions fitted, {len(cx):,} checked ({args.players} players)")
    print(f"log loss, fitted weights:   {log_loss(chances(cx @ beta, cout), ctarget):.4f}")
    print(f"log loss, package weights:  {log_loss(chances(cx @ now, cout), ctarget):.4f}")
    for name, value in zip(NAMES if args.search else RACE_FIELDS, beta, strict=True):
        print(f"    {name}: float = {value:.4f}")


if __name__ == "__main__":
    main()

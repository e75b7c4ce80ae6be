"""Fit the weights of Café International's luck of the draws (`bots/cafe.py`, `CafeLuck`).

The search may subtract from each reward the luck of the draws in its sampled world: a sum
whose expectation is 0, so the mean reward stays what it was while its spread shrinks. How
much of each kind of luck to subtract is the regression slope of the reward on it. This
script finds positions with a choice in seeded games of the heuristic against itself, and for
each of a few of their decisions plays many sampled worlds as the search does (the decision,
then the rollout policy to the cut-off, then the evaluation), counting each player's luck with
`CafeLuck`. It fits the reward of the player to move on their own luck and on the other
players' (summed), within each decision (the decision's mean taken out), and prints the
weights, the share of the reward's variance they explain on every decision, and the same on
the positions kept apart from the fit (one in five).

    .venv/bin/python scripts/fit_cafe_luck.py --players 2 --positions 60 --seed 11
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np

from kafeneio.bots.cafe import CafeLuck, cafe_luck
from kafeneio.bots.mcts import MctsBot
from kafeneio.core import Action, State
from kafeneio.games import get_game
from kafeneio.sim.bench import searchable_positions


def one_world(
    bot: MctsBot, state: State, action: Action, new_tally: Callable[[], CafeLuck]
) -> list[float]:
    """The reward of the mover after `action` in one sampled world played on as the search
    plays it, and the luck of the draws there (a tally from `new_tally`): the mover's own (a
    card that fits, a joker) and the other players' summed."""
    me = state.current_player()
    tally = new_tally()
    reward = bot.rollout_from(state, action, tally)[me]
    luck = tally.luck
    own_fit, own_joker = luck[2 * me], luck[2 * me + 1]
    return [reward, own_fit, own_joker, sum(luck[0::2]) - own_fit, sum(luck[1::2]) - own_joker]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--decisions", type=int, default=4, help="decisions tried a position")
    parser.add_argument("--worlds", type=int, default=120, help="sampled worlds a decision")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    game = get_game("cafe")
    states = searchable_positions(game, args.players, args.positions, args.seed)
    bot = MctsBot(args.seed)
    groups: list[tuple[int, np.ndarray]] = []
    for index, state in enumerate(states):
        new_tally = cafe_luck(state, state.current_player(), weights=(0.0, 0.0, 0.0, 0.0))
        assert new_tally is not None
        for action in state.legal_actions()[: args.decisions]:
            rows = [one_world(bot, state, action, new_tally) for _ in range(args.worlds)]
            block = np.array(rows)
            groups.append((index, block - block.mean(axis=0)))
    fit = [block for index, block in groups if index % 5]
    kept = [block for index, block in groups if not index % 5]
    weights = _slopes(np.concatenate(fit))
    print(f"{args.players} players: weights", tuple(round(w, 3) for w in weights))
    for label, blocks in (("fitted positions", fit), ("positions kept apart", kept)):
        data = np.concatenate(blocks)
        print(f"  variance explained on the {label}: {_explained(data, weights):.3f}")
    print(
        "  on all positions, refitted:",
        tuple(round(w, 3) for w in _slopes(np.concatenate([block for _, block in groups]))),
    )


def _slopes(data: np.ndarray) -> list[float]:
    solution, *_ = np.linalg.lstsq(data[:, 1:], data[:, 0], rcond=None)
    return [float(w) for w in solution]


def _explained(data: np.ndarray, weights: list[float]) -> float:
    residual = data[:, 0] - data[:, 1:] @ np.array(weights)
    return 1 - float((residual**2).sum() / (data[:, 0] ** 2).sum())


if __name__ == "__main__":
    main()

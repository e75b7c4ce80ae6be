"""Café International's rollout policy against variants of it, as players.

The search's rollout (`CafeKnowledge.rollout`) plays the decision that scores most at once and
breaks ties at random. Each variant here breaks those ties another way; one variant seat plays
against the package's rollout in every other seat, the variant's seat rotating from game to
game, and the script prints the variant's share of the wins (shared wins shared) with its
Wilson 95% interval. A variant that wins more is a stronger player, which is not the same as
a better rollout for the search (docs/bots-log.md, "rollouts that play the guest hardest to seat").

    .venv/bin/python scripts/cafe_rollout_duel.py --variant hardest --games 4000 --players 2
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import cast

from kafeneio.bots.cafe import KNOWLEDGE, best_decisions
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeAction, CafeState
from kafeneio.games.cafe.actions import BAR, PLACE
from kafeneio.sim.stats import wilson

Policy = Callable[[CafeState, random.Random], CafeAction]


def tie_broken_by(kinds: frozenset[str], fewest: bool) -> Policy:
    """The rollout, its ties between guests (of the decisions of `kinds`) broken toward the
    guest who fits the fewest free chairs now (or the most)."""

    def policy(state: CafeState, rng: random.Random) -> CafeAction:
        legal = cast(Sequence[CafeAction], state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        best = best_decisions(state, rng)
        fitting = {
            action.card: state.fitting_chairs(action.card).bit_count()
            for action in best
            if action.kind in kinds
        }
        if len(fitting) > 1:
            chosen = min(fitting.values()) if fewest else max(fitting.values())
            best = [action for action in best if fitting.get(action.card, chosen) == chosen]
        return rng.choice(best)

    return policy


VARIANTS: dict[str, Policy] = {
    "hardest": tie_broken_by(frozenset({PLACE, BAR}), fewest=True),
    "hardest-bar": tie_broken_by(frozenset({BAR}), fewest=True),
    "hardest-tables": tie_broken_by(frozenset({PLACE}), fewest=True),
    "easiest": tie_broken_by(frozenset({PLACE, BAR}), fewest=False),
}


def package_rollout(state: CafeState, rng: random.Random) -> CafeAction:
    return cast(CafeAction, KNOWLEDGE.rollout(state, rng))


def duel(variant: Policy, games: int, players: int, seed: int) -> float:
    """The variant's wins over `games` games, its seat rotating."""
    rng = random.Random(seed)
    game = get_game("cafe")
    wins = 0.0
    for index in range(games):
        state = cast(CafeState, game.new_state(players, seed=seed + index))
        seat = index % players
        while not state.is_terminal():
            mover = state.current_player()
            policy = variant if mover == seat else package_rollout
            state.apply(policy(state, rng))
        winners = state.winners()
        wins += 1 / len(winners) if seat in winners else 0.0
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=sorted(VARIANTS), default="hardest")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seed", type=int, default=10000)
    args = parser.parse_args()
    wins = duel(VARIANTS[args.variant], args.games, args.players, args.seed)
    interval = wilson(wins, args.games)
    print(
        f"{args.variant} against the package's rollout, {args.players} players: "
        f"{wins:g}/{args.games} ({wins / args.games:.3f}, "
        f"[{interval.low:.3f}, {interval.high:.3f}]); "
        f"an even share is {1 / args.players:.3f}"
    )


if __name__ == "__main__":
    main()

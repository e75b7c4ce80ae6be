"""How much of Café International is the luck of the draws? A search that sees the bag.

A diagnostic, not a bot to play: the `clairvoyant` seat is today's `mcts` searching the true
state instead of samples of it. Every world it searches is the real one, the bag's order
included (and so is the heuristic's look-ahead it starts from), so it plans for the draws that
will really come. It plays against `heuristic` seats through `kafeneio simulate`'s own
machinery, its seat rotating from game to game, and the script prints its wins with their
Wilson 95% interval. The draws' luck correction (`luck`) is off: with the bag known there is no
luck left to correct for.

Against the same heuristic today's `mcts`, which samples the bag from what it has seen, wins
about two games in three at 2 players (docs/bots.md).

    .venv/bin/python scripts/cafe_clairvoyant.py --games 200 --players 2 --seed 2026
"""

from __future__ import annotations

import argparse
import random
from typing import Self

from kafeneio.bots import BOTS
from kafeneio.bots.mcts import MctsBot
from kafeneio.core.actions import Action
from kafeneio.core.game import State
from kafeneio.games.cafe import CafeState
from kafeneio.sim.runner import Backend
from kafeneio.sim.simulate import simulate


class SeenBag(CafeState):
    """A Café state whose every sample is itself: the hidden bag as it really lies."""

    def _determinize(self, player: int, rng: random.Random) -> Self:
        return self.clone()


class ClairvoyantBot(MctsBot):
    """`mcts` searching the true state (a copy of it that samples as itself)."""

    name = "clairvoyant"

    def choose(self, state: State) -> Action:
        seen = state.clone()
        seen.__class__ = SeenBag  # the same fields; only its samples differ
        return super().choose(seen)


# At import, so that the simulation's worker processes know the seat too.
BOTS["clairvoyant"] = ClairvoyantBot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seats = ["clairvoyant:luck=false", *["heuristic"] * (args.players - 1)]
    report = simulate("cafe", seats, args.games, args.seed, backend=Backend(workers=args.workers))
    for tally in report.by_bot:
        share = tally.win_rate * args.players
        print(
            f"{tally.name}: {tally.wins:g}/{tally.games} ({tally.win_rate:.3f}, "
            f"{share:.2f}x the even share) [{tally.low:.3f}, {tally.high:.3f}], "
            f"mean score {tally.mean_score:.1f}"
        )


if __name__ == "__main__":
    main()

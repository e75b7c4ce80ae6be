"""The best rule-of-thumb player for each game: Souvlaki Wars' shopkeeper, else greedy play."""

from __future__ import annotations

import random

from kafeneio.bots.base import Bot
from kafeneio.bots.greedy import GreedyBot
from kafeneio.bots.souvlaki_heuristic import SouvlakiPolicy
from kafeneio.core import Action, State


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.greedy = GreedyBot(seed)
        self.souvlaki = SouvlakiPolicy(random.Random(seed))

    def choose(self, state: State) -> Action:
        if state.game.info.name == "souvlaki":
            return self.souvlaki.choose(state)
        return self.greedy.choose(state)

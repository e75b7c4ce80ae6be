"""One-step greedy play: the action that most raises the bot's own score right now.

It looks only at the result of each legal action on a determinized copy, so it sees nothing the
player could not. Ties are broken at random.
"""

from __future__ import annotations

import random

from kafeneio.bots.base import Bot
from kafeneio.core import Action, State


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Action:
        me = state.current_player()
        sample = state.determinize(me, self.rng)
        base = sample.scores()[me]
        best: list[Action] = []
        best_gain = float("-inf")
        for action in sample.legal_actions():
            child = sample.clone()
            child.apply(action)
            gain = child.scores()[me] - base
            if gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return self.rng.choice(best)

"""The best rule-based player of each game: the game's own policy from its bot module."""

from __future__ import annotations

from kafeneio.bots.base import Bot, seeded_rng
from kafeneio.bots.knowledge import knowledge_for
from kafeneio.core import Action, State


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = seeded_rng(seed)

    def decide(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return knowledge_for(state).policy(state, self.rng)

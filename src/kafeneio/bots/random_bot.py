"""Uniformly random legal play: the baseline every other bot must beat."""

from __future__ import annotations

from kafeneio.bots.base import Bot, seeded_rng
from kafeneio.core import Action, State


class RandomBot(Bot):
    name = "random"

    def __init__(self, seed: int) -> None:
        self.rng = seeded_rng(seed)

    def decide(self, state: State) -> Action:
        return self.rng.choice(state.legal_actions())

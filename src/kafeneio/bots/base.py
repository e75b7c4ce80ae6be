"""What a bot is."""

from __future__ import annotations

from abc import ABC, abstractmethod

from kafeneio.core import Action, State


class Bot(ABC):
    name: str

    @abstractmethod
    def choose(self, state: State) -> Action:
        """The action to play at `state`, whose current player is this bot."""

    def __call__(self, state: State) -> Action:
        """A bot is a player of `kafeneio.core.play.play`."""
        return self.choose(state)

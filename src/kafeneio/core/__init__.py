"""The game contract shared by every game: states, actions, errors, records."""

from kafeneio.core.actions import Action
from kafeneio.core.errors import (
    IllegalActionError,
    KafeneioError,
    NotationError,
    OptionsError,
    RecordError,
)
from kafeneio.core.game import CHANCE, JSON, TERMINAL, Game, GameInfo, State, sample_chance

__all__ = [
    "CHANCE",
    "JSON",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "KafeneioError",
    "NotationError",
    "OptionsError",
    "RecordError",
    "State",
    "sample_chance",
]

"""The game contract shared by every game: states, actions, events, errors, records."""

from kafeneio.core.actions import Action
from kafeneio.core.errors import (
    IllegalActionError,
    KafeneioError,
    NotationError,
    OptionsError,
    RecordError,
    ViewerError,
)
from kafeneio.core.events import Event, HistoryEntry
from kafeneio.core.game import (
    CHANCE,
    JSON,
    SPECTATOR,
    TERMINAL,
    Game,
    GameInfo,
    State,
    check_seed,
    sample_chance,
)

__all__ = [
    "CHANCE",
    "JSON",
    "SPECTATOR",
    "TERMINAL",
    "Action",
    "Event",
    "Game",
    "GameInfo",
    "HistoryEntry",
    "IllegalActionError",
    "KafeneioError",
    "NotationError",
    "OptionsError",
    "RecordError",
    "State",
    "ViewerError",
    "check_seed",
    "sample_chance",
]

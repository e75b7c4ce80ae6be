"""The fields every JSON result of `simulate`, `tournament`, `analyse` and `bench` begins with,
so a file found later says what it is and what made it (as a game record does)."""

from __future__ import annotations

from typing import Any

from kafeneio import __version__
from kafeneio.games import get_game

RESULT_VERSION = 3
"""The layout of these results; raised when a field changes meaning or goes (3: an analysis's
`mean_lost` is over the moves with a choice, where it was over every move, and a simulation's
by-bot `low` and `high` of a bot in several seats of a game are the Wilson interval of its share
of each game's win, where its seat-games were counted as independent trials)."""


def stamp(kind: str, game_name: str) -> dict[str, Any]:
    """``{"format": "kafeneio-<kind>", "version": 3, "kafeneio": "0.1.0", "engine": 1}``:
    the result's kind, its layout's version, the package and the game engine that made it."""
    return {
        "format": f"kafeneio-{kind}",
        "version": RESULT_VERSION,
        "kafeneio": __version__,
        "engine": get_game(game_name).info.engine_version,
    }

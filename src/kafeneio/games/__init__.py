"""The games, by the short name used on the command line and in records."""

from __future__ import annotations

from collections.abc import Callable

from kafeneio.core import Game, KafeneioError, RecordError
from kafeneio.core.game import JSON, State
from kafeneio.core.record import replay


def _cafe() -> Game:
    from kafeneio.games.cafe import CafeGame

    return CafeGame()


def _souvlaki() -> Game:
    from kafeneio.games.souvlaki import SouvlakiGame

    game: Game = SouvlakiGame()
    return game


GAMES: dict[str, Callable[[], Game]] = {"cafe": _cafe, "souvlaki": _souvlaki}
"""Factories, so that importing one game does not import the others."""


def get_game(name: str) -> Game:
    """The game called `name`; `KafeneioError` naming the known games otherwise."""
    try:
        return GAMES[name]()
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KafeneioError(f"unknown game {name!r}; known games: {known}") from None


def load_record(record: JSON) -> State:
    """Replay a record of any known game."""
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise RecordError(f"field 'game' must name a known game ({', '.join(sorted(GAMES))})")
    return replay(get_game(name), record)

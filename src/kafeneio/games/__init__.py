"""The games, by the short name used on the command line and in records."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kafeneio.core import Game, KafeneioError, RecordError
from kafeneio.core.game import JSON, State
from kafeneio.core.record import replay

Options = Mapping[str, Any]


def _cafe(options: Options) -> Game:
    from kafeneio.games.cafe import CafeGame

    return CafeGame()


def _souvlaki(options: Options) -> Game:
    from kafeneio.games.souvlaki import SouvlakiGame

    game: Game = SouvlakiGame(cards_dir=options.get("cards_dir"))
    return game


GAMES: dict[str, Callable[[Options], Game]] = {"cafe": _cafe, "souvlaki": _souvlaki}
"""Factories, so that importing one game does not import the others. A factory reads the
options that shape the game itself (Souvlaki Wars' ``cards_dir``: the card files)."""


def get_game(name: str, options: Options | None = None) -> Game:
    """The game called `name`; `KafeneioError` naming the known games otherwise."""
    try:
        factory = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KafeneioError(f"unknown game {name!r}; known games: {known}") from None
    return factory(options or {})


def load_record(record: JSON) -> State:
    """Replay a record of any known game."""
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise RecordError(f"field 'game' must name a known game ({', '.join(sorted(GAMES))})")
    options = record.get("options")
    try:
        game = get_game(name, options if isinstance(options, Mapping) else None)
    except KafeneioError as err:
        raise RecordError(f"cannot make the game of field 'options': {err}") from None
    return replay(game, record)

"""The games, by the short name used on the command line and in records."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from kafeneio.core import Game, KafeneioError, OptionsError, RecordError
from kafeneio.core.errors import shown
from kafeneio.core.game import JSON, State
from kafeneio.core.record import not_an_object, replay

Options = Mapping[str, Any]

__all__ = ["GAMES", "get_game", "load_record"]
"""What the docs use: the games by name, a game by its name and options, a record replayed.
`title_of` (the server's pages, the simulations' tables and reports) and `game_from_parts`
(records, the server's stored games, a simulation's jobs) serve the package, not a user of the
API."""


def _cafe(options: Options, data: Options) -> Game:
    from kafeneio.games.cafe import CafeGame

    return CafeGame.from_parts(options, data)


def _souvlaki(options: Options, data: Options) -> Game:
    from kafeneio.games.souvlaki import SouvlakiGame

    return SouvlakiGame.from_parts(options, data)


GAMES: dict[str, Callable[[Options, Options], Game]] = {"cafe": _cafe, "souvlaki": _souvlaki}
"""Factories, so that importing one game does not import the others. A factory takes the rules
options and the game's record data (Souvlaki Wars: its card set); the options may also name
what shapes the game itself (Souvlaki Wars' ``cards_dir``: a directory of card files)."""


def get_game(name: str, options: Options | None = None) -> Game:
    """The game called `name` bound to `options`; `KafeneioError` naming the known games or the
    bad option otherwise. Names are not case-sensitive."""
    return game_from_parts(name, options or {}, {})


@functools.cache
def title_of(name: str) -> str:
    """The title of the game called `name`, as people know it (``cafe``: Café International);
    made once a name, since a title does not depend on the options."""
    return get_game(name).info.title


def game_from_parts(name: str, options: Options, data: Options) -> Game:
    """The game `name` with its options and record data (see `Game.record_data`)."""
    if not isinstance(name, str) or name.lower() not in GAMES:
        known = ", ".join(sorted(GAMES))
        raise KafeneioError(f"unknown game {name!r}; known games: {known}")
    if not isinstance(options, Mapping):
        raise OptionsError(f"{name} options must be an object of name: value, not {shown(options)}")
    return GAMES[name.lower()](options, data)


def load_record(record: JSON) -> State:
    """Replay a record of any known game, on the options and card data it carries;
    `RecordError` naming the first malformed field."""
    if not isinstance(record, Mapping):
        raise RecordError(not_an_object(record))
    name = record.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise RecordError(
            f"field 'game' must name a known game as records write it ({', '.join(sorted(GAMES))}),"
            f" not {shown(name)}"
        )
    options = record.get("options")
    if not isinstance(options, Mapping):
        options = {}
    try:
        game = game_from_parts(name, options, record)
    except RecordError:  # a field of the record data (Souvlaki's 'cards'), named by it
        raise
    except KafeneioError as err:
        raise RecordError(f"cannot make the game of field 'options': {err}") from None
    return replay(game, record)

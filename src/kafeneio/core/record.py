"""JSON game records: options, seed or explicitly stacked decks, and the actions in notation.

A record replays to the same state: the same initial state (from the seed or the stacked decks)
and the same actions. Format::

    {"format": "kafeneio-record", "version": 1, "game": "cafe", "players": 2,
     "options": {...}, "seed": 7, "setup": null, "seats": ["human", "random"],
     "actions": ["USm@16", "USf@17", ...]}

Exactly one of `seed` and `setup` is set. `seats` is optional metadata.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kafeneio.core.errors import KafeneioError, RecordError
from kafeneio.core.game import JSON, Game, State

FORMAT = "kafeneio-record"
VERSION = 1


def make_record(
    state: State,
    options: Mapping[str, Any],
    seed: int | None,
    setup: Mapping[str, Any] | None,
) -> JSON:
    """The record of `state`'s game so far."""
    record: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": state.game.info.name,
        "players": state.num_players,
        "options": dict(options),
        "seed": seed,
        "setup": dict(setup) if setup is not None else None,
        "actions": [action.notation for action in state.history],
    }
    return record


def read_record_file(path: Path) -> JSON:
    """The JSON object in `path`; `RecordError` if it cannot be read or is not an object."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    except json.JSONDecodeError as err:
        raise RecordError(f"{path} is not JSON: {err}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} holds a JSON {type(data).__name__}, not a record object")
    return data


def check_header(record: JSON, game: Game) -> None:
    """Raise `RecordError` naming the first field of `record` that is malformed."""
    if record.get("format") != FORMAT:
        raise RecordError(f"field 'format' must be {FORMAT!r}")
    if record.get("game") != game.info.name:
        raise RecordError(f"field 'game' is {record.get('game')!r}, not {game.info.name!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"field 'version' must be {VERSION}, not {record.get('version')!r}")
    players = record.get("players")
    info = game.info
    if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        raise RecordError(
            f"field 'players' must be a whole number from {info.min_players} to "
            f"{info.max_players}, not {players!r}"
        )
    if not isinstance(record.get("options", {}), dict):
        raise RecordError("field 'options' must be an object")
    seed, setup = record.get("seed"), record.get("setup")
    if (seed is None) == (setup is None):
        raise RecordError("exactly one of the fields 'seed' and 'setup' must be set")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError(f"field 'seed' must be a whole number, not {seed!r}")
    if setup is not None and not isinstance(setup, dict):
        raise RecordError("field 'setup' must be an object")
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("field 'actions' must be a list of strings in the game's notation")


def replay(game: Game, record: JSON) -> State:
    """The state that `record` describes. A bad field or action raises `RecordError`."""
    check_header(record, game)
    try:
        state = game.new_state(
            record["players"], record.get("options"), record.get("seed"), record.get("setup")
        )
    except KafeneioError as err:
        raise RecordError(f"cannot set up the game: {err}") from None
    for index, text in enumerate(record["actions"]):
        if state.is_terminal():
            raise RecordError(f"{text!r} comes after the end of the game", index)
        try:
            state.apply(state.parse_legal(text))
        except KafeneioError as err:
            raise RecordError(f"{text!r}: {err}", index) from None
    return state

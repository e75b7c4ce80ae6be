"""JSON game records: options, seed or explicitly stacked decks, and the actions in notation.

A record replays to the same state: the same initial state (from the seed or the stacked decks)
and the same actions. Format::

    {"format": "kafeneio-record", "version": 2, "game": "cafe", "engine": 1, "players": 2,
     "options": {...}, "seed": 7, "setup": null, "seats": ["human", "random"],
     "actions": ["USm@16", "USf@17", ...]}

Exactly one of `seed` and `setup` is set. `seats` is optional metadata: one name a player.
`engine` is the game's engine version (`GameInfo.engine_version`): a record of another version
replays only if its actions are still legal, and says so. A game may add fields of its own
(`Game.record_data`: Souvlaki Wars' card set), so that a record replays on any machine.
Version 1 records (no `engine`, engine 1) are still read.

A record file is at most `MAX_RECORD_BYTES` of UTF-8 JSON, nested at most `MAX_DEPTH` deep; a
file that is not is refused with `RecordError` before anything reads its fields.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kafeneio.core.errors import IllegalActionError, KafeneioError, RecordError, shown
from kafeneio.core.game import JSON, Game, State, check_seed

FORMAT = "kafeneio-record"
VERSION = 2
READABLE_VERSIONS = (1, 2)
MAX_RECORD_BYTES = 50_000_000
MAX_DEPTH = 32
"""Records are shallow (a setup's lists of lists); a deeper one is not a record, and could
overflow the stack of whatever walks it."""


def make_record(state: State, seed: int | None, setup: Mapping[str, Any] | None) -> JSON:
    """The record of `state`'s game so far."""
    game = state.game
    record: JSON = {
        "format": FORMAT,
        "version": VERSION,
        "game": game.info.name,
        "engine": game.info.engine_version,
        "players": state.num_players,
        "options": game.options.to_dict(),
        **game.record_data(),
        "seed": seed,
        "setup": dict(setup) if setup is not None else None,
        "actions": [action.notation for action in state.history],
    }
    return record


def read_record_file(path: Path) -> JSON:
    """The JSON object in `path`; `RecordError` if it cannot be read or is not an object."""
    try:
        with path.open("rb") as stream:
            raw = stream.read(MAX_RECORD_BYTES + 1)
    except OSError as err:
        raise RecordError(f"cannot read {path}: {err.strerror}") from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"{path} is longer than a record may be ({MAX_RECORD_BYTES:,} bytes)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"{path} is not UTF-8 text (byte {err.start})") from None
    return parse_record_text(text, str(path))


def parse_record_text(text: str, name: str = "the record") -> JSON:
    """The record object written `text`; `RecordError` naming `name` if it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{name} is not JSON: {err}") from None
    except RecursionError:
        raise RecordError(f"{name} is nested deeper than a record ({MAX_DEPTH} levels)") from None
    except ValueError:  # a number of more digits than Python converts
        limit = sys.get_int_max_str_digits()
        raise RecordError(f"{name} holds a number of more than {limit} digits") from None
    if not isinstance(data, dict):
        raise RecordError(f"{name} holds a JSON {type(data).__name__}, not a record object")
    if _depth(data) > MAX_DEPTH:
        raise RecordError(f"{name} is nested deeper than a record ({MAX_DEPTH} levels)")
    return data


def _depth(data: Any) -> int:
    """How deep lists and objects nest in `data` (walked without recursion)."""
    deepest, pending = 0, [(data, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, dict | list):
            deepest = max(deepest, depth)
            items = value.values() if isinstance(value, dict) else value
            pending.extend((item, depth + 1) for item in items)
    return deepest


def check_header(record: JSON, game: Game) -> None:
    """Raise `RecordError` naming the first field of `record` that is malformed."""
    if not isinstance(record, Mapping):
        raise RecordError(not_an_object(record))
    if record.get("format") != FORMAT:
        raise RecordError(f"field 'format' must be {FORMAT!r}")
    if record.get("game") != game.info.name:
        raise RecordError(f"field 'game' is {shown(record.get('game'))}, not {game.info.name!r}")
    if record.get("version") not in READABLE_VERSIONS:
        raise RecordError(f"field 'version' must be {VERSION}, not {shown(record.get('version'))}")
    engine = record.get("engine", 1)
    if type(engine) is not int or engine < 1:
        raise RecordError(f"field 'engine' must be a whole number ≥ 1, not {shown(engine)}")
    players = record.get("players")
    info = game.info
    if not isinstance(players, int) or not info.min_players <= players <= info.max_players:
        raise RecordError(
            f"field 'players' must be a whole number from {info.min_players} to "
            f"{info.max_players}, not {shown(players)}"
        )
    if not isinstance(record.get("options", {}), dict):
        raise RecordError("field 'options' must be an object")
    seed, setup = record.get("seed"), record.get("setup")
    if (seed is None) == (setup is None):
        raise RecordError("exactly one of the fields 'seed' and 'setup' must be set")
    if seed is not None:
        try:
            check_seed(seed)
        except KafeneioError as err:
            raise RecordError(f"field 'seed': {err}") from None
    if setup is not None and not isinstance(setup, dict):
        raise RecordError("field 'setup' must be an object")
    actions = record.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise RecordError("field 'actions' must be a list of strings in the game's notation")
    check_seats(record.get("seats"), players)


def not_an_object(record: object) -> str:
    """Why `record` (a value given in place of a record) is none."""
    return f"a record is a JSON object of field: value, not {shown(record, 40)}"


def check_seats(seats: Any, players: int) -> None:
    """`seats`, if set, names each of `players` seats with a string."""
    if seats is None:
        return
    named = isinstance(seats, list) and all(isinstance(name, str) for name in seats)
    if not named or len(seats) != players:
        raise RecordError(
            f"field 'seats' must be a list of {players} seat names (like \"human\"), "
            f"not {shown(seats)}"
        )


def engine_note(game: Game, record: JSON) -> str | None:
    """What to tell a user replaying a record made by another engine version; None if same."""
    engine = record.get("engine", 1)
    current = game.info.engine_version
    if engine == current:
        return None
    return (
        f"this record was made by {game.info.title} engine version {engine}; this is version "
        f"{current}, whose rules or defaults differ (the record's own options are used)"
    )


def replay(game: Game, record: JSON) -> State:
    """The state that `record` describes, under the record's own options. A bad field or
    action raises `RecordError` (naming the engine version if the record's is another)."""
    check_header(record, game)
    note = engine_note(game, record)
    suffix = f" ({note})" if note else ""
    for name, value in game.record_data().items():
        if name in record and record[name] != value:
            raise RecordError(
                f"field {name!r} is not this game's: replay the record with "
                "kafeneio.games.load_record, which makes the game it carries"
            )
    try:
        bound = game.with_options(game.record_options(record))
        state = bound.new_state(
            record["players"], seed=record.get("seed"), setup=record.get("setup")
        )
    except KafeneioError as err:
        raise RecordError(f"cannot set up the game: {err}{suffix}") from None
    for index, text in enumerate(record["actions"]):
        if state.is_terminal():
            raise RecordError(f"{shown(text)} comes after the end of the game{suffix}", index)
        try:
            state.apply(state.parse_legal(text))
        except KafeneioError as err:
            rule = err.rule if isinstance(err, IllegalActionError) else None
            raise RecordError(f"{shown(text)}: {err}{suffix}", index, rule) from None
    return state

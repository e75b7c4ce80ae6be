"""Malformed records, made by mutating real ones: replay refuses each with a RecordError (never
another exception), or replays it to a state whose own record replays again."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from kafeneio.core import RecordError
from kafeneio.core.record import replay
from kafeneio.games import get_game, load_record
from kafeneio.sim.bench import play_random

JUNK: list[Any] = [None, True, -1, 0, 2**40, 1.5, "", "x", "USm@16", "pass", [], {}, [1], {"a": 1}]


def mutate(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    choice = rng.randrange(5)
    if choice == 0:  # drop or replace a top-level field
        key = rng.choice(list(bad))
        if rng.random() < 0.5:
            del bad[key]
        else:
            bad[key] = rng.choice(JUNK)
    elif choice == 1 and bad["actions"]:  # a junk or misplaced action
        index = rng.randrange(len(bad["actions"]))
        bad["actions"][index] = rng.choice([*JUNK[6:9], rng.choice(bad["actions"])])
    elif choice == 2 and bad["actions"]:  # cut, repeat or swap actions
        i, j = sorted(rng.sample(range(len(bad["actions"])), 2))
        actions = bad["actions"]
        actions[i], actions[j] = actions[j], actions[i]
    elif choice == 3:  # a bad option value
        name = rng.choice(list(bad["options"]))
        bad["options"][name] = rng.choice(JUNK)
    else:  # a bad option name or player count
        bad["options"]["no_such_option"] = 1
    return bad


@pytest.mark.parametrize("name", ["cafe", "souvlaki"])
def test_mutated_records_are_refused_cleanly(name: str) -> None:
    game = get_game(name)
    rng = random.Random(11)
    state = game.new_state(2, seed=11)
    play_random(state, rng)
    record = state.to_record()
    refused = 0
    for _ in range(150):
        bad = mutate(record, rng)
        try:
            replayed = load_record(bad)
        except RecordError:
            refused += 1
            continue
        assert load_record(replayed.to_record()) == replayed
    assert refused > 100


@pytest.mark.parametrize("name", ["cafe", "souvlaki"])
@pytest.mark.parametrize("record", [None, [], "x", 7, ["actions"]])
def test_a_record_that_is_no_object_is_a_record_error(name: str, record: Any) -> None:
    """A JSON list or text where a record belongs is refused as such, by the game's `replay`
    and by `load_record` alike (it was an AttributeError of `.get`)."""
    for rebuild in (load_record, lambda r: replay(get_game(name), r)):
        with pytest.raises(RecordError, match="a record is a JSON object"):
            rebuild(record)

"""Cheap states for learners: a pickled state carries its game by name and options only, and an
OpenSpiel state serializes through that."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pyspiel
import pytest

from kafeneio.core.play import play, random_player
from kafeneio.games import get_game
from kafeneio.rl.openspiel_game import register


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_a_pickled_state_does_not_copy_its_game(game_name: str) -> None:
    game = get_game(game_name)
    state = play(
        game.new_state(3, seed=4),
        [random_player(random.Random(1))] * 3,
        random.Random(2),
        max_steps=60,
    )
    data = pickle.dumps(state)
    fields = state.__getstate__()
    history = pickle.dumps(fields.pop("_trail"))
    fields.pop("game")
    # the state's own fields and its history: the game is a reference by name and options
    assert len(data) < len(pickle.dumps(fields)) + len(history) + 1_000
    copy = pickle.loads(data)
    assert copy == state
    assert copy.legal_actions() == state.legal_actions()


def test_an_openspiel_state_round_trips_through_serialization() -> None:
    register()
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": 2})
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(120):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    text = state.serialize()
    assert len(text) < 40_000
    copy = game.deserialize_state(text)
    assert str(copy) == str(state)
    assert copy.information_state_string(0) == state.information_state_string(0)
    assert copy.legal_actions() == state.legal_actions()


UNPICKLE = """
import pickle, sys
state = pickle.loads(sys.stdin.buffer.read())
print(state.get_game(), state.information_state_string(0), state.legal_actions())
"""


def test_an_openspiel_game_and_state_pickle_even_into_a_process_without_register() -> None:
    """As OpenSpiel's own Python games do, for multiprocessing and Ray workers."""
    register()
    game = pyspiel.load_game("kafeneio_cafe", {"players": 3, "hand_size": 4})
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game)
    state = game.new_initial_state()
    state.apply_action(5)
    shown = f"{game} {state.information_state_string(0)} {state.legal_actions()}\n"
    elsewhere = subprocess.run(
        [sys.executable, "-c", UNPICKLE],
        input=pickle.dumps(state),
        capture_output=True,
        check=True,
        timeout=300,
    )
    assert elsewhere.stdout.decode() == shown

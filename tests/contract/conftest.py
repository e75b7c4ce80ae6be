"""Builders for the contract suite: every registered game, and states reached by random play."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from kafeneio.core import Game, State
from kafeneio.core.play import play, random_player
from kafeneio.games import GAMES, get_game

GAME_NAMES = sorted(GAMES)


@pytest.fixture(params=GAME_NAMES)
def game(request: pytest.FixtureRequest) -> Game:
    """Each registered game with its default options: a new game gets the suite for free."""
    return get_game(request.param)


def random_states(game: Game, players: int, seed: int, every: int = 7) -> Iterator[State]:
    """States along one seeded random game: the start, every `every`-th decision, the end."""
    rng = random.Random(seed)
    state = game.new_state(players, seed=seed)
    yield state.clone()
    while not state.is_terminal():
        play(state, [random_player(rng)] * players, rng, max_steps=every)
        yield state.clone()


def finished_game(game: Game, players: int, seed: int) -> State:
    rng = random.Random(seed)
    state = game.new_state(players, seed=seed)
    return play(state, [random_player(rng)] * players, rng)

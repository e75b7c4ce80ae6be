"""`kafeneio bench GAME --rl`: its three loops play the same games, the same at every run."""

from __future__ import annotations

import pytest

from kafeneio.rl.bench import env_game, raw_game


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_three_loops_play_the_same_cafe_games(seed: int) -> None:
    """The observing loop drew its moves from numpy and played other games (67 decisions where
    the others played 84): a rate per decision still, but not the games the docs said."""
    raw = raw_game("cafe", 2, seed)()
    assert env_game("cafe", 2, seed, observe=False)() == raw
    assert env_game("cafe", 2, seed, observe=True)() == raw


def test_the_environment_loops_play_the_same_souvlaki_games_at_every_run() -> None:
    """Its chance (a card taken at random) came from an unseeded generator: each run another."""
    for observe in (False, True):
        first = env_game("souvlaki", 2, 4, observe=observe)()
        assert env_game("souvlaki", 2, 4, observe=observe)() == first

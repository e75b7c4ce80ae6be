"""The Ray back end plays the same games as the local one: a local Ray of 2 CPUs."""

from __future__ import annotations

import random

import pytest

from kafeneio.core import KafeneioError
from kafeneio.core.play import play
from kafeneio.games import get_game
from kafeneio.sim.analysis import Budget, analyse_game
from kafeneio.sim.runner import Backend, make_seat_bot
from kafeneio.sim.simulate import simulate


def test_ray_gives_the_results_of_local_processes_for_the_same_seed() -> None:
    ray = pytest.importorskip("ray")
    seats = ["heuristic", "random"]
    local = simulate("souvlaki", seats, 8, seed=11, backend=Backend("local", workers=1))
    told: list[int] = []
    on_ray = simulate(
        "souvlaki", seats, 8, seed=11, backend=Backend("ray", workers=2), progress=told.append
    )
    assert on_ray.outcome() == local.outcome()
    assert on_ray.backend == "ray" and sum(told) == 8
    assert not ray.is_initialized()  # the local Ray started for the run is stopped after it


def test_an_address_needs_the_ray_back_end() -> None:
    with pytest.raises(KafeneioError, match="--backend ray"):
        Backend("local", address="127.0.0.1:6379")


def test_an_analysis_on_ray_is_the_analysis_on_local_processes() -> None:
    pytest.importorskip("ray")
    state = get_game("cafe").new_state(2, seed=4)
    bots = [make_seat_bot("heuristic", 1), make_seat_bot("random", 2)]
    play(state, bots, random.Random(4), max_steps=6)
    record = state.to_record()
    local = analyse_game(record, budget=Budget(None, 6), seed=3)
    on_ray = analyse_game(record, budget=Budget(None, 6), seed=3, backend=Backend("ray", 2))
    assert len(on_ray.decisions) == 6 and on_ray.decisions == local.decisions

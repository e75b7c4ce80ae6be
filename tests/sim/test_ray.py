"""The Ray back end plays the same games as the local one: a local Ray of 2 CPUs."""

from __future__ import annotations

import pytest

from kafeneio.core import KafeneioError
from kafeneio.sim.runner import Backend
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

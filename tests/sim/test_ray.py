"""The Ray back end plays the same games as the local one: a local Ray of 2 CPUs, and a cluster
of one node on loopback that a run joins by its address."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kafeneio.core import KafeneioError
from kafeneio.core.play import play
from kafeneio.games import get_game
from kafeneio.sim.analysis import Budget, analyse_game
from kafeneio.sim.ray_backend import LOOPBACK, ONE_MACHINE, deferred_signals, is_loopback
from kafeneio.sim.runner import Backend, make_seat_bot, plan, run
from kafeneio.sim.simulate import simulate

from .own_cards import RICH_SHOP, rich_shop_cards

# Found, not imported: the back end must be the first to import Ray (see sim/ray_backend.py).
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="needs Ray")
SEATS = ["heuristic", "random"]
START_SECONDS = 120
"""How long a `ray start` may take on a loaded machine before the test gives up."""


def node_address() -> str:
    """The address of the Ray node this driver is on (Ray is running)."""
    import ray

    return str(ray.util.get_node_ip_address())


@needs_ray
def test_ray_gives_the_results_of_local_processes_for_the_same_seed() -> None:
    local = simulate("souvlaki", SEATS, 8, seed=11, backend=Backend("local", workers=1))
    told: list[int] = []
    addresses: set[str] = set()

    def progress(count: int) -> None:
        told.append(count)
        addresses.add(node_address())

    on_ray = simulate(
        "souvlaki", SEATS, 8, seed=11, backend=Backend("ray", workers=2), progress=progress
    )
    assert on_ray.outcome() == local.outcome()
    assert on_ray.backend == "ray" and sum(told) == 8
    assert addresses == {LOOPBACK}  # the local Ray is on loopback, not the machine's address
    import ray

    assert not ray.is_initialized()  # the local Ray started for the run is stopped after it


@needs_ray
def test_ray_tasks_play_the_card_set_of_the_jobs_not_of_a_directory(tmp_path: Path) -> None:
    cards = rich_shop_cards(tmp_path / "cards")
    options = {"cards_dir": str(cards), "shops": [RICH_SHOP, "thanasis"]}
    jobs = plan("souvlaki", ["heuristic"] * 2, 4, seed=5, options=options, deal_roles=False)
    shutil.rmtree(cards)  # as on another machine of a cluster
    results = run(jobs, Backend("ray", workers=2))
    assert all(result.roles == (RICH_SHOP, "thanasis") for result in results)
    assert all(result.returns[0] == 1 for result in results)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def loopback_cluster(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A Ray head of 2 CPUs on 127.0.0.1 (its own temporary directory, short enough for Ray's
    socket paths; Ray's token authentication on), stopped after the test: its process group
    is ended, never `ray stop` (which ends every Ray of the machine)."""
    port = free_port()
    temp = Path(tempfile.mkdtemp(prefix="kr", dir="/tmp"))
    ray_cli = Path(sys.executable).with_name("ray")
    command = [
        str(ray_cli), "start", "--head", "--block", f"--node-ip-address={LOOPBACK}",
        f"--port={port}", "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
        f"--temp-dir={temp}",
    ]  # fmt: skip
    # `ray start` authenticates with Ray's token (its default); a driver must say it does too.
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    environment = {**os.environ, ONE_MACHINE: "0"}
    head = subprocess.Popen(
        command,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for_port(port, head)
        yield f"{LOOPBACK}:{port}"
    finally:
        stop_group(head)
        shutil.rmtree(temp, ignore_errors=True)


def wait_for_port(port: int, head: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if head.poll() is not None:
            pytest.fail(f"ray start ended with {head.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex((LOOPBACK, port)) == 0:
                return
        time.sleep(0.5)
    pytest.fail(f"ray start did not listen on {LOOPBACK}:{port} in {START_SECONDS} s")


def stop_group(head: subprocess.Popen[bytes]) -> None:
    """End the head and every process it started (they share its process group): asked first,
    then killed, since some of Ray's servers outlive a SIGTERM."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=15)


@needs_ray
def test_a_run_joins_a_ray_cluster_by_its_address(loopback_cluster: str) -> None:
    local = simulate("souvlaki", SEATS, 6, seed=5, backend=Backend("local", workers=1))
    addresses: set[str] = set()
    joined = simulate(
        "souvlaki",
        SEATS,
        6,
        seed=5,
        backend=Backend("ray", address=loopback_cluster),
        progress=lambda count: addresses.add(node_address()),
    )
    assert joined.outcome() == local.outcome() and joined.backend == "ray"
    assert addresses == {LOOPBACK}
    import ray

    assert not ray.is_initialized()


def test_an_address_needs_the_ray_back_end() -> None:
    with pytest.raises(KafeneioError, match="--backend ray"):
        Backend("local", address="127.0.0.1:6379")


@needs_ray
def test_an_address_where_nothing_answers_fails_at_once() -> None:
    port = free_port()  # closed again: nothing listens there
    started = time.monotonic()
    with pytest.raises(KafeneioError, match=f"127.0.0.1:{port}: nothing answers there"):
        simulate(
            "cafe",
            ["random", "random"],
            2,
            seed=1,
            backend=Backend("ray", address=f"127.0.0.1:{port}"),
        )
    assert time.monotonic() - started < 10  # Ray alone retried for minutes
    import ray

    assert not ray.is_initialized()


def test_loopback_addresses_are_told_apart_from_others() -> None:
    assert is_loopback("127.0.0.1:6379") and is_loopback("ray://localhost:10001")
    assert is_loopback("[::1]:6379")
    assert not is_loopback("192.0.2.7:6379") and not is_loopback("head.example:6379")


@needs_ray
def test_an_analysis_on_ray_is_the_analysis_on_local_processes() -> None:
    state = get_game("cafe").new_state(2, seed=4)
    bots = [make_seat_bot("heuristic", 1), make_seat_bot("random", 2)]
    play(state, bots, random.Random(4), max_steps=6)
    record = state.to_record()
    local = analyse_game(record, budget=Budget(None, 6), seed=3)
    on_ray = analyse_game(record, budget=Budget(None, 6), seed=3, backend=Backend("ray", 2))
    assert len(on_ray.decisions) == 6 and on_ray.decisions == local.decisions


@needs_ray
def test_a_bot_entered_at_run_time_plays_on_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray's workers import the package anew, without the entries a script made in `BOTS`:
    its games failed there as an unknown bot's. They now go with the tasks."""
    from kafeneio.bots import BOTS
    from kafeneio.bots.base import Bot, seeded_rng
    from kafeneio.core import Action, State

    class LowestCode(Bot):  # defined here, as in a script: no worker can import it
        name = "lowest"

        def __init__(self, seed: int) -> None:
            self.rng = seeded_rng(seed)

        def decide(self, state: State) -> Action:
            return min(state.legal_actions(), key=lambda action: action.code)

    monkeypatch.setitem(BOTS, "lowest", LowestCode)
    seats = ["lowest", "random"]
    local = simulate("cafe", seats, 4, seed=5, backend=Backend("local", workers=1))
    on_ray = simulate("cafe", seats, 4, seed=5, backend=Backend("ray", workers=2))
    assert on_ray.outcome() == local.outcome()


def test_a_signal_during_rays_wait_stops_the_run_once_it_returns() -> None:
    """A handler that raised inside Ray's compiled wait left its error there ("SystemError:
    ... returned a result with an exception set"): the signal is noted, then given to the
    run's handler once the wait is over."""

    class Stop(BaseException):
        pass

    def stop(signum: int, _frame: object) -> None:
        raise Stop(signum)

    before = signal.signal(signal.SIGTERM, stop)
    try:
        reached = False
        with pytest.raises(Stop), deferred_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # a handler runs here unless deferred
            reached = True
        assert reached  # the wait ran to its end, then the run was stopped
        assert signal.getsignal(signal.SIGTERM) is stop  # the run's handler, back
    finally:
        signal.signal(signal.SIGTERM, before)

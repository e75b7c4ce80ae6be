"""The Ray back end: the same chunks of games as the local one, played as Ray tasks.

Ray is an optional extra (``pip install 'kafeneio[sim]'``). Without an address a new local Ray
is started for the run and stopped after it (never a Ray that happens to run on the machine
already); with one, the run joins that cluster (whose nodes need kafeneio installed, or get this
package shipped to them as a Ray runtime module).

A Ray on this machine (the local one, or a cluster at a loopback address) listens on 127.0.0.1
only: Ray on Linux otherwise turns a node address of 127.0.0.1 into the machine's outward one and
offers its workers to the network. That needs Ray's one-machine switch set when Ray is imported,
so it holds when this module is the first to import Ray in the process (as in the command line).
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from kafeneio.core import KafeneioError
from kafeneio.sim.runner import KILLS, STOPPING, handled

LOOPBACK = "127.0.0.1"
LOOPBACK_HOSTS = ("localhost", "::1", "[::1]")
ONE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray's switch for clusters of more than one machine (named after the platforms where it is off
by default). Off ("0") when Ray is imported, Ray takes this node's address to be loopback and
binds every server to it; on, it replaces 127.0.0.1 by the address other machines see."""
REACH_SECONDS = 10.0
"""How long to wait for a cluster's address to answer before giving up."""
LOCAL_OBJECT_STORE = 128 * 1024 * 1024
"""Bytes of object store for a local Ray: results are small, and the machine is shared."""


def is_loopback(address: str) -> bool:
    """Whether a Ray address (``host:port``, ``ray://host:port``) is on this machine only."""
    host = address.split("://", 1)[-1].rsplit(":", 1)[0]
    return host.startswith("127.") or host in LOOPBACK_HOSTS


def check_reachable(address: str, seconds: float = REACH_SECONDS) -> None:
    """Fail at once, saying so, where nothing answers at a ``host:port`` address: Ray itself
    would retry for minutes, deaf to Ctrl-C. Other forms (``auto``) are left to Ray."""
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as err:
        raise KafeneioError(
            f"cannot join the Ray cluster at {address}: nothing answers there ({err}); "
            "is a Ray head running (ray start --head)?"
        ) from None


@contextmanager
def _one_machine(on: bool) -> Iterator[None]:
    """Ray's one-machine switch set while Ray is imported and started (the processes it starts
    inherit it), and the environment as it was afterwards."""
    before = os.environ.get(ONE_MACHINE)
    if on and before is None:
        os.environ[ONE_MACHINE] = "0"
    try:
        yield
    finally:
        if on and before is None:
            del os.environ[ONE_MACHINE]


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise KafeneioError(
            "the ray back end needs Ray: pip install 'kafeneio[sim]' (or bash scripts/setup)"
        ) from None
    return ray


Item = TypeVar("Item")
Result = TypeVar("Result")


def run_on_ray(
    work: Callable[[Item], Result],
    items: Sequence[Item],
    address: str | None,
    num_cpus: int | None,
) -> Generator[Result, None, None]:
    """`work` on each item (a chunk of games, a decision to analyse) as one Ray task; the
    results are yielded as they finish."""
    with _one_machine(address is None or is_loopback(address)):
        ray = _ray()
        started_here = not ray.is_initialized()
        if started_here:
            with _signals_kept():
                _start(ray, address, num_cpus)
    try:
        task = ray.remote(work)
        pending = [task.remote(item) for item in items]
        while pending:
            with deferred_signals():
                done, pending = ray.wait(pending, num_returns=1, timeout=WAIT_SECONDS)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


WAIT_SECONDS = 0.25
"""How long a wait for Ray's results defers the signals that stop a run."""


@contextmanager
def deferred_signals() -> Iterator[None]:
    """The signals that stop a run noted while Ray waits, and given to the run's own handlers
    once it has returned: a handler that raised inside Ray's compiled wait left its error there
    ("SystemError: ... returned a result with an exception set") instead of stopping the run
    in one line."""
    caught: list[int] = []
    try:
        with handled(STOPPING, lambda signum, _frame: caught.append(signum)):
            yield
    finally:
        if caught:
            signal.raise_signal(caught[0])  # to the handler the run had: stopped here


@contextmanager
def _signals_kept() -> Iterator[None]:
    """The process's SIGTERM and SIGHUP handlers as they were before `ray.init`, which puts its
    own in (a `sys.exit`): a run stopped by a signal is stopped as on the local back end, in
    one line, with the signal's exit status."""
    if threading.current_thread() is not threading.main_thread():  # only it sets handlers
        yield
        return
    before = {number: signal.getsignal(number) for number in KILLS}
    try:
        yield
    finally:
        for number, handler in before.items():
            if handler is not None:
                signal.signal(number, handler)


def _start(ray: Any, address: str | None, num_cpus: int | None) -> None:
    if address is None:
        ray.init(
            address="local",  # a new Ray, not one found running on the machine
            num_cpus=num_cpus,
            include_dashboard=False,
            _node_ip_address=LOOPBACK,
            object_store_memory=LOCAL_OBJECT_STORE,
            log_to_driver=False,
            configure_logging=False,
        )
        return
    check_reachable(address)
    import kafeneio

    package = Path(kafeneio.__file__).parent
    try:
        ray.init(address=address, runtime_env={"py_modules": [str(package)]}, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise KafeneioError(f"cannot join the Ray cluster at {address}: {err}") from None

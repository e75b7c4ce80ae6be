"""The Ray back end: the same chunks of games as the local one, played as Ray tasks.

Ray is an optional extra (``pip install 'kafeneio[sim]'``). Without an address a local Ray is
started for the run and stopped after it; with one, the run joins that cluster (whose nodes need
kafeneio installed, or get this package shipped to them as a Ray runtime module).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from kafeneio.core import KafeneioError

LOCAL_OBJECT_STORE = 128 * 1024 * 1024
"""Bytes of object store for a local Ray: results are small, and the machine is shared."""


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
) -> Iterator[Result]:
    """`work` on each item (a chunk of games, a decision to analyse) as one Ray task; the
    results are yielded as they finish."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        _start(ray, address, num_cpus)
    try:
        task = ray.remote(work)
        pending = [task.remote(item) for item in items]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def _start(ray: Any, address: str | None, num_cpus: int | None) -> None:
    if address is None:
        ray.init(
            num_cpus=num_cpus,
            include_dashboard=False,
            object_store_memory=LOCAL_OBJECT_STORE,
            log_to_driver=False,
            configure_logging=False,
        )
        return
    import kafeneio

    package = Path(kafeneio.__file__).parent
    try:
        ray.init(address=address, runtime_env={"py_modules": [str(package)]}, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as err:
        raise KafeneioError(f"cannot join the Ray cluster at {address}: {err}") from None

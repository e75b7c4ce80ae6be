"""Conformance checks of the observations for machines: `observation_key` and
`observation_tensor` (issue 6 item 5), for the harness to call at every state it checks.

A game whose states have neither is skipped; a game whose states have them must name the
tensor's pieces in the contract's `Game.observation_spec` and keep, for every player: the key
is hashable and the same in a determinized sample (whose observation is the player's own); the
tensor is as long as `game.observation_spec` says, holds only finite floats, and is
identical in every determinized sample for that player, so it carries nothing the player cannot
see. (That keys are equal exactly when observations are is tested over many states in
tests/test_machine_observations.py.)
"""

from __future__ import annotations

import math
import random
from typing import Any

from kafeneio.core.errors import KafeneioError
from kafeneio.core.events import seat
from kafeneio.core.game import State
from kafeneio.core.tensor import Spec


class MachineObservationError(KafeneioError, AssertionError):
    """A state whose observation key or tensor breaks the contract."""


def check_machine_observations(state: State, rng: random.Random, samples: int = 2) -> None:
    """Check the key and tensor of every player at `state`; `MachineObservationError`."""
    key_of: Any = getattr(state, "observation_key", None)
    tensor_of: Any = getattr(state, "observation_tensor", None)
    if key_of is None or tensor_of is None:
        return
    size = sum(math.prod(shape) for shape in _spec(state).values())
    for player in range(state.num_players):
        key = key_of(player)
        hash(key)
        tensor = tensor_of(player)
        _expect(len(tensor) == size, f"{seat(player)}'s tensor has the spec's {size} entries")
        _expect(all(map(math.isfinite, tensor)), f"{seat(player)}'s tensor is finite")
        for _ in range(samples):
            sample: Any = state.determinize(player, rng)
            _expect(
                sample.observation_key(player) == key,
                f"a determinized sample keeps {seat(player)}'s observation key",
            )
            _expect(
                sample.observation_tensor(player) == tensor,
                f"a determinized sample keeps {seat(player)}'s tensor",
            )


def _spec(state: State) -> Spec:
    """The spec of `state`'s tensor, from the contract's `Game.observation_spec`: a game whose
    states have a tensor must name its pieces there, where the research interfaces read them."""
    try:
        return state.game.observation_spec(state.num_players)
    except KafeneioError as err:
        raise MachineObservationError(f"a state has an observation tensor, but {err}") from None


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise MachineObservationError(what)

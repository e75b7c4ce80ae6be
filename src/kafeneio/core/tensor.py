"""The shape every game's observation tensor takes (issue 6 item 5), shared by the games.

A game names the pieces of its tensor with their shapes (a `Spec`, in the order of the flat
tensor) and encodes an observation as `Entries`: the flat tensor's non-zero entries. Most of a
tensor is zero (one-hot cards on chairs, counts of kinds), so the entries are what an encoder
writes and what a numpy front end scatters into an array; `Entries.dense` is the flat list.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from kafeneio.core.options import RulesOptions

Spec = dict[str, tuple[int, ...]]
"""Each piece of the tensor by name, with its shape, in the order of the flat tensor."""


@dataclass(frozen=True)
class Layout:
    """Where each piece of a `Spec` starts in the flat tensor."""

    spec: Spec
    offsets: dict[str, int]
    size: int


def layout(spec: Spec) -> Layout:
    offsets, size = {}, 0
    for name, shape in spec.items():
        offsets[name] = size
        size += math.prod(shape)
    return Layout(spec, offsets, size)


@dataclass
class Entries:
    """A flat tensor of `size` floats by its non-zero entries: 1.0 added at each index of `ones`
    (an index may repeat: a count), and each of `values` set at its index (disjoint from
    `ones`; a value may be 0). Every other entry is 0."""

    size: int
    ones: list[int] = field(default_factory=list)
    values: dict[int, float] = field(default_factory=dict)

    def dense(self) -> list[float]:
        tensor = [0.0] * self.size
        for index in self.ones:
            tensor[index] += 1.0
        for index, value in self.values.items():
            tensor[index] = value
        return tensor


def options_row(options: RulesOptions, names: Sequence[str]) -> tuple[int, ...]:
    """The options `names` of `options` as whole numbers, for a tensor's ``rules`` piece: a
    choice by the index of its value in the options' `CHOICES` (0 the default), a flag as 0
    or 1, a number as itself; so that a learner played across rules variants knows which it
    plays."""
    row = []
    for name in names:
        value = getattr(options, name)
        choices = options.CHOICES.get(name)
        row.append(choices.index(value) if choices is not None else int(value))
    return tuple(row)

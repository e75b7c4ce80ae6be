"""Seeded randomness, fast: shuffling is on the hot path of new games and of determinize.

`shuffle(rng, items)` puts `items` in exactly the order `rng.shuffle(items)` would (CPython's
Fisher-Yates over `getrandbits`, which a test checks against the running Python), without a
method call per card.
"""

from __future__ import annotations

import random
from typing import Any


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle `items` in place, as `rng.shuffle(items)` does, drawing the same numbers."""
    if type(rng) is not random.Random:  # a subclass may draw otherwise: let it
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1  # `Random._randbelow_with_getrandbits(n)`, written out
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]

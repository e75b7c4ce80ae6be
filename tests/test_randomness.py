"""The engines' fast shuffle draws exactly what `random.Random.shuffle` draws, so that games,
records and determinized samples are what they were with the standard library's."""

from __future__ import annotations

import random

from kafeneio.core.randomness import shuffle


def test_the_fast_shuffle_gives_the_standard_order_and_leaves_the_same_generator() -> None:
    for seed in range(60):
        for length in (0, 1, 2, 3, 7, 31, 32, 33, 100, 129):
            ours, theirs = random.Random(seed), random.Random(seed)
            mine, standard = list(range(length)), list(range(length))
            shuffle(ours, mine)
            theirs.shuffle(standard)
            assert mine == standard, (seed, length)
            assert ours.getstate() == theirs.getstate()


def test_a_generator_of_another_kind_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    items = [1, 2, 3]
    shuffle(Reversing(0), items)
    assert items == [3, 2, 1]

"""Where a guest may start a table move (CI-T.1-T.5), for every chair at once, on bit masks.

Move generation is the hot path of random play and search, and asking each chair in turn costs
a Python loop per chair. Here chair c is bit c of a chair mask and table t bit t of a table
mask; the state keeps, per gender, the tables seating at least one and at least two guests of
that gender, and the free chairs (`CafeState` updates them as guests sit down and stand up).
From those, a handful of integer operations find every chair where a guest of one gender may be
placed so that the move can end legally: at once (`at_once_starts`, which depends on the board
only, so the state keeps its answer until a guest sits down or stands up), or after a second
guest from the hand (`mended_starts`). A second placement that mends a move is one that is
legal at once at the table left without a group.

The rules read (the state's `_table_ok` and the test's reference generator say the same):

* CI-T.1-T.3: the chair is free, of the guest's nation, and no table of it holds 2 guests of
  the guest's gender already.
* CI-T.4 at once: every table of the chair then seats a lady and a man, except that a shared
  chair may join an empty table while its other table gets its group.
* CI-T.5 otherwise: a guest of the other gender from the hand (`mates`, a mask of nations) can
  mend the table left without a group, on a free chair other than this one where it keeps
  CI-T.2-T.4 at that chair's other table (it forms a group there, or sits alone at an empty one).
  A shared chair whose tables both lack a group needs the mate at one of them while the other
  one is empty.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, reduce
from operator import or_

from kafeneio.games.cafe.actions import NUM_CHAIRS, NUM_TABLES
from kafeneio.games.cafe.board import (
    JOKER_LADY,
    JOKER_NATION,
    NUM_CARD_TYPES,
    is_joker,
    load_board,
    nation_of,
)


@dataclass(frozen=True)
class Masks:
    """The board as bit masks."""

    chair_bit: tuple[int, ...]
    table_chairs: tuple[int, ...]
    """Per table: its 4 chairs."""
    chair_tables: tuple[int, ...]
    """Per chair: its 1 or 2 tables."""
    touching: tuple[tuple[int, ...], tuple[int, ...]]
    """For the low and the high 12 bits of a table mask, by their value: the chairs of those
    tables. The chairs touching a set of tables are two look-ups (`touch`) ..."""
    apart: tuple[tuple[int, ...], tuple[int, ...]]
    """... and the chairs apart from them, the complements of the same look-ups: the hot paths
    take no complement (``~``) of a chair mask, as a negative number is slow to mask with."""
    all_chairs: int
    all_tables: int
    lone: int
    """The chairs of one table ..."""
    shared: int
    """... and those shared by two."""
    card_chairs: tuple[int, ...]
    """Per card type: the chairs of its nation (CI-T.2); a joker's are all."""
    card_tables: tuple[int, ...]
    """Per card type: the tables of those chairs."""
    nation_chairs_low: tuple[int, ...]
    nation_chairs_high: tuple[int, ...]
    """The chairs where a guest of some nation of a nation mask may sit: the look-up of the mask's
    low 7 bits and of its high bits (bit 12, a joker, is every chair) ..."""
    nation_chairs: tuple[int, ...]
    """... and the same, by the whole mask (of 13 bits) ..."""
    nation_tables: tuple[int, ...]
    """... and the tables of those chairs."""
    chair_guests: tuple[int, ...]
    """Per chair: the card types, as a mask by type, of the nations that may sit there (no
    jokers: what may take a joker's place, CI-M.4)."""
    card_bits: tuple[int, ...]
    """Per card type: its nation's bit (bit 12: a joker), shifted by 16 for a man, and its own
    bit shifted by 32, so that the nations of a hand's ladies and of its men and the types it
    holds are one union."""


@cache
def masks() -> Masks:
    board = load_board()
    nation = [t.nation for t in board.tables]
    chair_bit = tuple(1 << c for c in range(NUM_CHAIRS))
    table_chairs = tuple(sum(chair_bit[c] for c in t.chairs) for t in board.tables)
    chair_tables = tuple(sum(1 << t for t in c.tables) for c in board.chairs)

    def chairs_of(tables: int) -> int:
        return union(table_chairs[t] for t in range(NUM_TABLES) if tables >> t & 1)

    def nation_chairs(nations: int) -> int:
        if nations >> JOKER_NATION & 1:
            return (1 << NUM_CHAIRS) - 1
        return chairs_of(sum(1 << t for t in range(NUM_TABLES) if nations >> nation[t] & 1))

    def card_nations(card: int) -> int:
        return 1 << JOKER_NATION if is_joker(card) else 1 << nation_of(card)

    card_chairs = tuple(nation_chairs(card_nations(k)) for k in range(NUM_CARD_TYPES))
    all_chairs = (1 << NUM_CHAIRS) - 1
    low_touch = tuple(chairs_of(b) for b in range(4096))
    high_touch = tuple(chairs_of(b << 12) for b in range(4096))
    low = tuple(nation_chairs(b) for b in range(128))
    high = tuple(nation_chairs(b << 7) for b in range(64))
    every_nation = tuple(low[b & 127] | high[b >> 7] for b in range(1 << (JOKER_NATION + 1)))

    def tables_of(chairs: int) -> int:
        return union(chair_tables[c] for c in range(NUM_CHAIRS) if chairs >> c & 1)

    one_nation = [tables_of(every_nation[1 << n]) for n in range(JOKER_NATION + 1)]
    nation_tables = [0] * len(every_nation)
    for b in range(1, len(every_nation)):  # a mask's tables: its lowest nation's and the rest's
        lowest = b & -b
        nation_tables[b] = one_nation[lowest.bit_length() - 1] | nation_tables[b ^ lowest]

    return Masks(
        chair_bit=chair_bit,
        table_chairs=table_chairs,
        chair_tables=chair_tables,
        touching=(low_touch, high_touch),
        apart=(
            tuple(all_chairs ^ chairs for chairs in low_touch),
            tuple(all_chairs ^ chairs for chairs in high_touch),
        ),
        all_chairs=all_chairs,
        all_tables=(1 << NUM_TABLES) - 1,
        lone=sum(chair_bit[c.index] for c in board.chairs if len(c.tables) == 1),
        shared=sum(chair_bit[c.index] for c in board.chairs if len(c.tables) == 2),
        card_chairs=card_chairs,
        card_tables=tuple(tables_of(chairs) for chairs in card_chairs),
        nation_chairs_low=low,
        nation_chairs_high=high,
        nation_chairs=every_nation,
        nation_tables=tuple(nation_tables),
        chair_guests=tuple(
            sum(1 << k for k in range(JOKER_LADY) if card_chairs[k] >> c & 1)
            for c in range(NUM_CHAIRS)
        ),
        card_bits=tuple(
            card_nations(k) << 16 * (k & 1) | 1 << (32 + k) for k in range(NUM_CARD_TYPES)
        ),
    )


def union(masks: Iterable[int]) -> int:
    return reduce(or_, masks, 0)


def touch(m: Masks, tables: int) -> int:
    """The chairs with at least one table in `tables`."""
    low, high = m.touching
    return low[tables & 4095] | high[tables >> 12]


def at_once_starts(
    m: Masks, present: list[int], pairs: list[int], free: int
) -> tuple[int, int, int, int]:
    """Per gender (ladies, then men): the chairs where a guest of that gender may be placed so
    that the move is legal at once; then, per gender, the chairs where one fits (CI-T.1, CI-T.3;
    the nation of the guest is the caller's to apply, `Masks.card_chairs`).

    `present[g]` and `pairs[g]` are the tables seating at least one and at least two guests of
    gender g; `free` the free chairs. At once, every table of the chair seats a lady and a man
    then, except that a shared chair may join an empty table while its other table gets its
    group (CI-T.4)."""
    low, high = m.touching  # `touch`, written out: this is the hot path
    not_low, not_high = m.apart
    ladies, men = present
    full_ladies, full_men = pairs
    only_ladies, only_men = ladies ^ (ladies & men), men ^ (ladies & men)  # of one gender
    fits_lady = free & not_low[full_ladies & 4095] & not_high[full_ladies >> 12]
    fits_man = free & not_low[full_men & 4095] & not_high[full_men >> 12]
    return (
        fits_lady
        & (low[men & 4095] | high[men >> 12])
        & not_low[only_ladies & 4095]
        & not_high[only_ladies >> 12],
        fits_man
        & (low[ladies & 4095] | high[ladies >> 12])
        & not_low[only_men & 4095]
        & not_high[only_men >> 12],
        fits_lady,
        fits_man,
    )


def mended_starts(
    m: Masks,
    present: list[int],
    pairs: list[int],
    free: int,
    gender: int,
    rest: int,
    mates: int,
    tables: int,
) -> int:
    """Of the chairs `rest` where a guest of `gender` fits but the move is not legal at once
    (`at_once_starts`), those where a second guest from the hand can make it legal (CI-T.5).

    `mates` is the mask of nations (bit 12: a joker) of the hand's guests of the other gender,
    and `tables` the tables of the chairs in `rest` the caller asks about.

    A lone chair, or a shared chair with a group at its other table, is mended if a mate can
    join this chair's table; a shared chair with no group at either table, if a mate can join
    one of them while the other is empty. A mate sits on a free chair of its nation, where at
    its other table it forms a group (a guest of the first guest's gender there, fewer than 2
    of the mate's) or sits alone at an empty table; at the table it mends it always does."""
    other = present[1 - gender]
    # A table still to mend has no guest of the other gender, room for this one, and a chair
    # of a mate's nation (so it is empty or seats the first guest's gender).
    tables &= m.nation_tables[mates] & (m.all_tables ^ (other | pairs[gender]))
    if not tables:
        return 0
    not_low, not_high = m.apart
    mine = present[gender]
    empty = m.all_tables ^ (mine | other)
    bad = m.all_tables ^ (mine & (m.all_tables ^ pairs[1 - gender]) | empty)
    mate_in = free & m.nation_chairs[mates] & (m.lone | not_low[bad & 4095] & not_high[bad >> 12])
    if not mate_in:
        return 0
    # The chairs each table to mend can have mended by a mate on another of its chairs: every
    # chair of a table with two mate chairs or more, all but that one of a table with one; at
    # empty tables and at tables that seat the first guest's gender apart, as a shared chair
    # of no group needs its other table empty (below).
    table_chairs = m.table_chairs
    at_empty = at_full = 0
    while tables:
        bit = tables & -tables
        tables ^= bit
        chairs = table_chairs[bit.bit_length() - 1]
        found = chairs & mate_in
        if found:
            mendable = chairs if found & (found - 1) else chairs ^ found
            if empty & bit:
                at_empty |= mendable
            else:
                at_full |= mendable
    low, high = m.touching
    by_own_table = m.lone | low[other & 4095] | high[other >> 12]
    mended = at_empty | at_full
    if rest & by_own_table == rest:  # no shared chair of no group at either table
        return rest & mended
    full = m.all_tables ^ empty
    empty_in = not_low[full & 4095] & not_high[full >> 12]  # chairs whose tables are empty
    empty_out = low[empty & 4095] | high[empty >> 12]  # chairs with an empty table
    # The chairs of `rest` apart from `by_own_table` take the second kind only; the others take
    # either, and the second kind is a part of `mended`.
    return rest & (by_own_table & mended | at_empty & empty_in | at_full & empty_out)

"""Café International observations for machines: a hashable key and a flat float tensor.

`CafeObservationKey` holds exactly what `observation(player)` shows (everything but the bag's order,
CI-S.1) as plain ints and tuples, so two keys of one game's states are equal exactly when the
observations are (the observation's `rules`, the game's options, are the same in them all; the
key holds those the tensor shows: `bar_values` and `RULES`). The tensor is made from the key
alone, so it cannot carry anything the observation does not; its pieces and shapes
(`observation_spec`) follow the board data and the options. docs/cafe-international.md documents
every piece.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from kafeneio.core.tensor import Entries, Layout, Spec, layout, options_row
from kafeneio.games.cafe.board import NUM_CARD_TYPES, Board
from kafeneio.games.cafe.options import CafeOptions

PHASES = ("turn", "second", "birthday", "draw", "over")
"""The `phase` of the observation, one-hot in this order."""
RULES = (
    "first_move",
    "bar_unpaid",
    "bar_draw",
    "single_nation_draw",
    "joker_exchange",
    "joker_native_both",
    "hand_size",
    "end_bag",
    "birthday",
    "birthday_threshold",
    "dance",
)
"""The rules options the tensor's `rules` piece shows, in its order (a choice by its index in
`CafeOptions.CHOICES`, a flag as 0 or 1): a learner played across rules variants knows which
it plays. The bar's values are a piece of their own (`bar_values`)."""


@cache  # a game's options are one object: made once, not at every observation
def rules_row(options: CafeOptions) -> tuple[int, ...]:
    """`RULES` of `options` as whole numbers (`options_row`)."""
    return options_row(options, RULES)


class CafeObservationKey(NamedTuple):
    """What one player may know of a Café position, in the state's own codes: whole numbers
    and tuples of them only, so that its hash is the same in every process."""

    player: int
    to_move: int
    """A player, or the contract's TERMINAL."""
    phase: int
    """The index of the phase in `PHASES`."""
    turn: int
    chairs: tuple[int, ...]
    """The card type on each chair, -1 for a free chair."""
    bar: tuple[int, ...]
    """The card types on the bar, seat 1 first."""
    bar_values: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    """Each player's hand: card types in ascending order."""
    scores: tuple[int, ...]
    hand_targets: tuple[int, ...]
    out: tuple[bool, ...]
    placed: tuple[tuple[int, int], ...]
    """(card, chair) placed so far this turn."""
    bag: tuple[int, ...]
    """The card types in the bag, sorted: its contents, not its order."""
    birthday_table: int
    """The birthday table's index, -1 before one is chosen."""
    birthday_claimed: bool
    """The birthday choice made (CI-V.1: once a game), a table chosen or none: with none, the
    position alone did not tell it from one where the choice is still to come."""
    passes: int
    """The passes in succession so far (CI-M.5: when every player still in has passed, the
    game ends)."""
    dance_tables: tuple[int, ...]
    rules: tuple[int, ...]
    """`rules_row` of the game's options: the same in every state of a game."""


def observation_spec(board: Board, num_players: int, bar_seats: int) -> Spec:
    """The tensor's pieces for `num_players` on `board` with `bar_seats` bar seats."""
    return dict(_layout(len(board.chairs), len(board.tables), num_players, bar_seats).spec)


@cache
def _layout(chairs: int, tables: int, num_players: int, bar_seats: int) -> Layout:
    n, cards = num_players, NUM_CARD_TYPES
    return layout(
        {
            "player": (n,),
            "to_move": (n,),
            "phase": (len(PHASES),),
            "turn": (1,),
            "chairs": (chairs, cards),
            "placed_this_turn": (chairs,),
            "bar": (bar_seats, cards),
            "bar_values": (bar_seats,),
            "hands": (n, cards),
            "scores": (n,),
            "hand_targets": (n,),
            "out": (n,),
            "bag": (cards,),
            "birthday_table": (tables,),
            "birthday_claimed": (1,),
            "passes": (1,),
            "dance_tables": (tables,),
            "rules": (len(RULES),),
        }
    )


def observation_entries(board: Board, key: CafeObservationKey) -> Entries:
    """The non-zero entries of `key`'s flat tensor, laid out as `observation_spec` says."""
    lay = _layout(len(board.chairs), len(board.tables), len(key.scores), len(key.bar_values))
    at = lay.offsets
    cards = NUM_CARD_TYPES
    entries = Entries(lay.size)
    one, values = entries.ones.append, entries.values
    if key.player >= 0:  # not a spectator
        one(at["player"] + key.player)
    if key.to_move >= 0:
        one(at["to_move"] + key.to_move)
    one(at["phase"] + key.phase)
    values[at["turn"]] = float(key.turn)
    base = at["chairs"]
    for chair, card in enumerate(key.chairs):
        if card >= 0:
            one(base + chair * cards + card)
    for _, chair in key.placed:
        one(at["placed_this_turn"] + chair)
    for seat, card in enumerate(key.bar):
        one(at["bar"] + seat * cards + card)
    for seat, value in enumerate(key.bar_values):
        values[at["bar_values"] + seat] = float(value)
    for player, hand in enumerate(key.hands):
        base = at["hands"] + player * cards
        for card in hand:
            one(base + card)
    for player in range(len(key.scores)):
        values[at["scores"] + player] = float(key.scores[player])
        values[at["hand_targets"] + player] = float(key.hand_targets[player])
        values[at["out"] + player] = float(key.out[player])
    base = at["bag"]
    for card in key.bag:
        one(base + card)
    if key.birthday_table >= 0:
        one(at["birthday_table"] + key.birthday_table)
    if key.birthday_claimed:
        one(at["birthday_claimed"])
    if key.passes:
        values[at["passes"]] = float(key.passes)
    for table in key.dance_tables:
        one(at["dance_tables"] + table)
    for index, value in enumerate(key.rules):
        if value:
            values[at["rules"] + index] = float(value)
    return entries

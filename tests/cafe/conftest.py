"""Helpers for the Café International tests: stacked positions and short move sequences.

A position is built from only the cards a test cares about (hands, chairs, bar, the first cards
of the bag); every other card of the 100 goes into the bag after them in a fixed order (nation by
nation, jokers last), so each card is somewhere exactly once, as the engine's setup requires.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from kafeneio.games.cafe import CafeAction, CafeGame, CafeState
from kafeneio.games.cafe.board import load_board

GAME = CafeGame()
BOARD = load_board()
CODES = BOARD.nation_codes
"""The two-letter nation codes: AF GB CN CU FR DE IN IT RU ES TR US."""

ALL_CARDS: tuple[str, ...] = (
    *(f"{code}{gender}" for code in CODES for gender in "fm" for _ in range(4)),
    "Jf",
    "Jf",
    "Jm",
    "Jm",
)
"""CI-0.1: the 100 guest cards, nation by nation, jokers last."""

SHARED = Path(__file__).resolve().parents[3] / "shared"
"""The project's shared folder (rules, board data), beside the repository."""


def rest_of_deck(*used: Iterable[str]) -> list[str]:
    """Every card of the deck not in `used`, in the order of `ALL_CARDS`.

    Fails if `used` holds a card more often than the deck does.
    """
    left = Counter(ALL_CARDS)
    for group in used:
        for card in group:
            assert left[card] > 0, f"the deck has no more {card}"
            left[card] -= 1
    rest = []
    for card in ALL_CARDS:
        if left[card]:
            rest.append(card)
            left[card] -= 1
    return rest


def make_setup(
    hands: Sequence[Sequence[str]],
    chairs: Mapping[int, str] | None = None,
    *,
    bar: Sequence[str] = (),
    bag_top: Sequence[str] = (),
    scores: Sequence[int] | None = None,
    hand_targets: Sequence[int] | None = None,
    to_move: int = 0,
    bag_limit: int | None = None,
) -> dict[str, Any]:
    """A complete stacked setup: `bag_top` are the first cards drawn, the rest of the deck follows.

    `bag_limit` keeps only that many cards in the bag; the surplus goes to the end of the last
    player's hand (the bag can only be short if the cards are somewhere else).
    """
    hands = [list(hand) for hand in hands]
    chairs = dict(chairs or {})
    used = [card for hand in hands for card in hand]
    bag = [*bag_top, *rest_of_deck(used, chairs.values(), bar, bag_top)]
    if bag_limit is not None:
        bag, surplus = bag[:bag_limit], bag[bag_limit:]
        hands[-1].extend(surplus)
    setup: dict[str, Any] = {
        "bag": bag,
        "hands": hands,
        "chairs": {str(chair): card for chair, card in chairs.items()},
        "bar": list(bar),
        "to_move": to_move,
    }
    if scores is not None:
        setup["scores"] = list(scores)
    if hand_targets is not None:
        setup["hand_targets"] = list(hand_targets)
    return setup


def new_position(
    hands: Sequence[Sequence[str]],
    chairs: Mapping[int, str] | None = None,
    options: Mapping[str, Any] | None = None,
    **fields: Any,
) -> CafeState:
    """A state set up with `make_setup`; the number of players is the number of hands."""
    return GAME.with_options(options or {}).new_state(
        len(hands), setup=make_setup(hands, chairs, **fields)
    )


@cache
def _full_board() -> tuple[tuple[int, str], ...]:
    """Every chair filled so that each table holds 2 ladies and 2 men (CI-T.2 and CI-T.3 hold,
    and CI-T.4 at every table): found by a small depth-first search over the chairs in order."""
    chairs = BOARD.chairs
    per_table: Counter[tuple[int, str]] = Counter()
    used: Counter[str] = Counter()
    seated: dict[int, str] = {}

    def fill(i: int) -> bool:
        if i == len(chairs):
            return True
        chair = chairs[i]
        for gender in "fm":
            if any(per_table[t, gender] >= 2 for t in chair.tables):
                continue
            for table in chair.tables:
                card = CODES[BOARD.tables[table].nation] + gender
                if used[card] >= 4:
                    continue
                used[card] += 1
                per_table.update((t, gender) for t in chair.tables)
                seated[chair.id] = card
                if fill(i + 1):
                    return True
                used[card] -= 1
                per_table.subtract((t, gender) for t in chair.tables)
                del seated[chair.id]
        return False

    assert fill(0)
    return tuple(sorted(seated.items()))


def full_board(free_tables: Iterable[str] = ()) -> dict[int, str]:
    """A board with every chair taken (2 ladies and 2 men of fitting nations at each table),
    except the chairs of `free_tables` (table ids like ``US1``)."""
    free = {c + 1 for t in free_tables for c in BOARD.table_by_id(t).chairs}
    return {chair: card for chair, card in _full_board() if chair not in free}


def play(state: CafeState, *moves: str) -> CafeState:
    """Apply the moves written in notation, in order; returns the state for chaining."""
    for move in moves:
        state.apply_notation(move)
    return state


def legal(state: CafeState) -> set[str]:
    """The notations of the legal actions."""
    return {action.notation for action in state.legal_actions()}


def placements(state: CafeState) -> set[str]:
    """The notations of the legal placements at tables (``USm@16``)."""
    return {action.notation for action in state.legal_actions() if action.kind == "place"}


def hand_text(state: CafeState, player: int) -> list[str]:
    """A player's hand in notation, sorted."""
    return sorted(BOARD.card_text(card) for card in state.hand(player))


def chair_guest(state: CafeState, chair: int) -> str | None:
    """The guest on a chair (numbered 1-68) in notation, or None."""
    return state.observation(0)["chairs"][chair - 1]


def chairs_of(table_id: str) -> list[int]:
    """The chair numbers (1-68) of a table."""
    return [c + 1 for c in BOARD.table_by_id(table_id).chairs]


def pick(rng: random.Random, state: CafeState) -> CafeAction:
    """A random legal action that prefers the tables to the bar (9 times in 10), so that random
    games last and fill the board instead of ending soon with a full bar."""
    actions = list(state.legal_actions())
    seated = [a for a in actions if a.kind != "bar"]
    return rng.choice(seated if seated and rng.random() < 0.9 else actions)

"""Helpers for the Souvlaki Wars tests: stacked positions and short action sequences.

A position names only the cards a test cares about (hands, queues, the top of each deck);
every other card goes into its deck after them in card-set order, so each card is somewhere
exactly once, as the engine's setup requires.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from kafeneio.games.souvlaki import SouvlakiGame, SouvlakiState
from kafeneio.games.souvlaki.cards import CardSet

GAME = SouvlakiGame()
CARDS = GAME.cards


def every_card(cards: CardSet) -> dict[str, tuple[str, ...]]:
    """Each deck's cards by notation, in card-set order."""
    return {
        "food": tuple(card.text for card in cards.foods for _ in range(card.count)),
        "customers": tuple(card.text for card in cards.customers for _ in range(card.count)),
        "unforeseen": tuple(kind.id for kind in cards.unforeseen for _ in range(kind.count)),
    }


ALL_FOOD, ALL_CUSTOMERS, ALL_UNFORESEEN = every_card(CARDS).values()

Customer = str | dict[str, Any]


def rest(everything: Sequence[str], *used: Iterable[str]) -> list[str]:
    """The cards of `everything` not in `used`, in card-set order; fails on a card used twice."""
    left = Counter(everything)
    for group in used:
        for card in group:
            assert left[card] > 0, f"there is no more {card}"
            left[card] -= 1
    out = []
    for card in everything:
        if left[card]:
            out.append(card)
            left[card] -= 1
    return out


def queue_cards(queues: Sequence[Sequence[Customer]]) -> list[str]:
    """The customer cards that the queues hold (a Big Phone Order holds its 2 cards and BIG)."""
    cards = []
    for queue in queues:
        for customer in queue:
            if isinstance(customer, str):
                cards.append(customer)
            elif "big" in customer:
                cards.extend([*customer["big"], "BIG"])
            else:
                cards.append(customer["card"])
    return cards


def position(
    players: int = 2,
    *,
    phase: str = "service",
    round: int = 1,
    food_hands: Sequence[Sequence[str]] | None = None,
    unforeseen_hands: Sequence[Sequence[str]] | None = None,
    queues: Sequence[Sequence[Customer]] | None = None,
    food_top: Sequence[str] = (),
    customers_top: Sequence[str] = (),
    unforeseen_top: Sequence[str] = (),
    discards: dict[str, list[str]] | None = None,
    money: Sequence[int] | None = None,
    reputation: Sequence[int] | None = None,
    loans: Sequence[int] | None = None,
    decks: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
    game: SouvlakiGame = GAME,
) -> SouvlakiState:
    """A stacked position at the start of `phase` of `round`.

    `decks` keeps only that many cards in a deck; the surplus goes to its discard pile.
    """
    food_hands = [list(h) for h in food_hands or [[] for _ in range(players)]]
    unforeseen_hands = [list(h) for h in unforeseen_hands or [[] for _ in range(players)]]
    queues = [list(q) for q in queues or [[] for _ in range(players)]]
    discards = {name: list(cards) for name, cards in (discards or {}).items()}
    for name in ("food", "customers", "unforeseen"):
        discards.setdefault(name, [])
    all_cards = every_card(game.cards)
    used = {
        "food": [card for hand in food_hands for card in hand],
        "customers": queue_cards(queues),
        "unforeseen": [card for hand in unforeseen_hands for card in hand],
    }
    tops = {"food": food_top, "customers": customers_top, "unforeseen": unforeseen_top}
    setup: dict[str, Any] = {}
    for name, everything in all_cards.items():
        deck = [*tops[name], *rest(everything, used[name], tops[name], discards[name])]
        limit = (decks or {}).get(name)
        if limit is not None:
            deck, surplus = deck[:limit], deck[limit:]
            discards[name].extend(surplus)
        setup[name] = deck
    setup.update(
        round=round,
        phase=phase,
        food_hands=food_hands,
        unforeseen_hands=unforeseen_hands,
        queues=queues,
        discards=discards,
    )
    for name, values in (("money", money), ("reputation", reputation), ("loans", loans)):
        if values is not None:
            setup[name] = list(values)
    return game.with_options(options or {}).new_state(players, setup=setup)


def stacked_start(
    players: int = 2,
    *,
    food_top: Sequence[str] = (),
    customers_top: Sequence[str] = (),
    unforeseen_top: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> SouvlakiState:
    """A game from its very start (deal, mulligan) with the named cards on top of the decks."""
    setup = {
        "food": [*food_top, *rest(ALL_FOOD, food_top)],
        "customers": [*customers_top, *rest(ALL_CUSTOMERS, customers_top)],
        "unforeseen": [*unforeseen_top, *rest(ALL_UNFORESEEN, unforeseen_top)],
    }
    return GAME.with_options(options or {}).new_state(players, setup=setup)


def play(state: SouvlakiState, *moves: str) -> None:
    """Apply each move, written in notation; a move that is not legal fails the test."""
    for move in moves:
        state.apply(state.parse_legal(move))


def legal(state: SouvlakiState) -> set[str]:
    return {action.notation for action in state.legal_actions()}


def finish_service_of_all(state: SouvlakiState) -> None:
    """Everyone finishes their service at once (phase 4 ends)."""
    while state.phase == "service":
        play(state, "finish")


def queue_text(state: SouvlakiState, player: int) -> list[str]:
    """Each customer of the queue as ``order money/influence`` with its marks."""
    out = []
    for customer in state.observation(player)["queues"][player]:
        marks = [name for name in ("phone", "big", "annoyed") if customer[name]] + customer[
            "attached"
        ]
        text = f"{customer['order']} {customer['money']}/{customer['influence']}"
        out.append(" ".join([text, *marks]))
    return out

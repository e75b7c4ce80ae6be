"""Stacked setups: explicit deck orders, and optionally a position at the start of a phase.

A setup is JSON::

    {"food": ["GF", "S", ...], "customers": ["SF 1/2", "BIG", ...],
     "unforeseen": ["queue-jump", ...], "shuffle_seed": 0}

Each deck lists its cards in draw order, first drawn first. With only these fields the game
starts as usual (the hands are dealt from the decks, SW-S.4) and each deck must hold every card
of its kind. `shuffle_seed` (default 0) fixes the order of later reshuffles (SW-S.3).

Position fields set up the start of a phase of any round instead, with no dealing or mulligan:
``round``, ``phase`` (``maintenance``, ``customers``, ``unforeseen`` or ``service``),
``money``, ``reputation``, ``loans`` (one number a player), ``food_hands``,
``unforeseen_hands`` (one list a player), ``queues`` (one list a player, each customer written
``"SF 1/2"`` or ``{"card": "SD 2/1", "phone": true, "annoyed": true}`` or a Big Phone Order
``{"big": ["SF 1/2", "G 2/1"]}``) and ``discards`` (``{"food": [...], ...}``). Then every card
must be somewhere exactly once: in a deck, a hand, a queue or a discard pile.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kafeneio.core.errors import KafeneioError
from kafeneio.games.souvlaki.cards import CardSet
from kafeneio.games.souvlaki.customer import Customer, make_customer

FOOD, CUSTOMERS, UNFORESEEN = range(3)
DECKS = ("food", "customers", "unforeseen")
SETUP_PHASES = ("maintenance", "customers", "unforeseen", "service")
"""The phases a set-up position may start at."""
POSITION_FIELDS = (
    "round",
    "phase",
    "money",
    "reputation",
    "loans",
    "food_hands",
    "unforeseen_hands",
    "queues",
    "discards",
)
SETUP_FIELDS = (*DECKS, "shuffle_seed", *POSITION_FIELDS)


@dataclass
class Position:
    """The start of a phase: everything that lasts between phases."""

    round: int
    phase: str
    money: list[int]
    reputation: list[int]
    loans: list[int]
    food_hands: list[list[int]]
    """Per player, how many of each food card kind."""
    unforeseen_hands: list[list[int]]
    queues: list[list[Customer]]
    discards: list[list[int]]
    """Per deck (`FOOD`, `CUSTOMERS`, `UNFORESEEN`), how many of each kind."""


@dataclass
class Stacked:
    decks: list[list[int]]
    """Per deck, the card kinds in draw order, first drawn first."""
    shuffle_seed: int
    position: Position | None


def parse_setup(
    cards: CardSet, num_players: int, start: list[tuple[int, int]], setup: Mapping[str, Any]
) -> Stacked:
    """Check and read `setup`; `start` is each seat's starting (money, reputation)."""
    if not isinstance(setup, Mapping):
        raise KafeneioError("setup must be an object")
    unknown = sorted(set(setup) - set(SETUP_FIELDS))
    if unknown:
        raise KafeneioError(f"setup has unknown field {unknown[0]!r}; it takes {SETUP_FIELDS}")
    decks = [
        [
            _kind(cards, deck, text, f"setup.{name}[{i}]")
            for i, text in enumerate(_list(setup, name))
        ]
        for deck, name in enumerate(DECKS)
    ]
    seed = setup.get("shuffle_seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise KafeneioError(f"setup.shuffle_seed must be a whole number, not {seed!r}")
    position = None
    if any(name in setup for name in POSITION_FIELDS):
        position = _position(cards, num_players, start, setup)
    _check_every_card_once(cards, decks, position)
    return Stacked(decks, seed, position)


def _kind(cards: CardSet, deck: int, text: Any, where: str) -> int:
    """The kind of the card of `deck` written `text`; `KafeneioError` naming `where` if none."""
    if not isinstance(text, str):
        raise KafeneioError(f"{where} must be a card written as text, not {text!r}")
    find = (cards.food_index, cards.customer_index, cards.unforeseen_index)[deck]
    try:
        return find(text)
    except KafeneioError as err:
        raise KafeneioError(f"{where}: {err}") from None


def _list(data: Mapping[str, Any], name: str, where: str = "setup") -> list[Any]:
    value = data.get(name, [])
    if not isinstance(value, list):
        raise KafeneioError(f"{where}.{name} must be a list")
    return value


def _numbers(setup: Mapping[str, Any], name: str, n: int, default: list[int]) -> list[int]:
    values = setup.get(name, default)
    if (
        not isinstance(values, list)
        or len(values) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)
    ):
        raise KafeneioError(f"setup.{name} must be a list of {n} whole numbers ≥ 0")
    return list(values)


def _position(
    cards: CardSet, n: int, start: list[tuple[int, int]], setup: Mapping[str, Any]
) -> Position:
    round_number = setup.get("round", 1)
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise KafeneioError("setup.round must be a whole number ≥ 1")
    phase = setup.get("phase", "customers" if round_number == 1 else "maintenance")
    if phase not in SETUP_PHASES:
        raise KafeneioError(f"setup.phase must be one of {', '.join(SETUP_PHASES)}")
    if phase == "maintenance" and round_number == 1:
        raise KafeneioError("setup: there is no shop maintenance in round 1 (SW-R.1)")
    return Position(
        round=round_number,
        phase=phase,
        money=_numbers(setup, "money", n, [money for money, _ in start]),
        reputation=_numbers(setup, "reputation", n, [rep for _, rep in start]),
        loans=_numbers(setup, "loans", n, [0] * n),
        food_hands=_hands(cards, FOOD, n, setup.get("food_hands")),
        unforeseen_hands=_hands(cards, UNFORESEEN, n, setup.get("unforeseen_hands")),
        queues=_queues(cards, n, setup),
        discards=_discards(cards, setup.get("discards", {})),
    )


def _hands(cards: CardSet, deck: int, n: int, raw: Any) -> list[list[int]]:
    name = "food_hands" if deck == FOOD else "unforeseen_hands"
    hands = raw or [[] for _ in range(n)]
    if (
        not isinstance(hands, list)
        or len(hands) != n
        or not all(isinstance(h, list) for h in hands)
    ):
        raise KafeneioError(f"setup.{name} must be a list of {n} lists of cards")
    return [_counts(cards, deck, hand, f"setup.{name}[{p}]") for p, hand in enumerate(hands)]


def _discards(cards: CardSet, raw: Any) -> list[list[int]]:
    if not isinstance(raw, dict) or set(raw) - set(DECKS):
        raise KafeneioError(f"setup.discards must be an object with lists {DECKS}")
    return [
        _counts(cards, deck, _list(raw, name, "setup.discards"), f"setup.discards.{name}")
        for deck, name in enumerate(DECKS)
    ]


def _counts(cards: CardSet, deck: int, texts: list[Any], where: str) -> list[int]:
    """How many of each kind `texts` name."""
    size = len((cards.foods, cards.customers, cards.unforeseen)[deck])
    counts = [0] * size
    for i, text in enumerate(texts):
        counts[_kind(cards, deck, text, f"{where}[{i}]")] += 1
    return counts


def _queues(cards: CardSet, n: int, setup: Mapping[str, Any]) -> list[list[Customer]]:
    raw = _list(setup, "queues") or [[] for _ in range(n)]
    if len(raw) != n or not all(isinstance(queue, list) for queue in raw):
        raise KafeneioError(f"setup.queues must be a list of {n} queues (lists of customers)")
    return [
        [_customer(cards, item, f"setup.queues[{p}][{i}]") for i, item in enumerate(queue)]
        for p, queue in enumerate(raw)
    ]


def _customer(cards: CardSet, item: Any, where: str) -> Customer:
    if isinstance(item, str):
        item = {"card": item}
    if not isinstance(item, dict) or set(item) - {"card", "big", "phone", "annoyed"}:
        raise KafeneioError(
            f'{where} must be "SF 1/2" or an object with card or big, phone, annoyed'
        )
    annoyed, phone = item.get("annoyed", False), item.get("phone", False)
    if not isinstance(annoyed, bool) or not isinstance(phone, bool):
        raise KafeneioError(f"{where}: phone and annoyed must be true or false")
    if ("card" in item) == ("big" in item):
        raise KafeneioError(f"{where} needs either a card or big (a Big Phone Order's 2 cards)")
    if "card" in item:
        kind = _kind(cards, CUSTOMERS, item["card"], where)
        if cards.customers[kind].big:
            raise KafeneioError(f"{where}: write a Big Phone Order as big: [2 cards]")
        return make_customer(cards, (kind,), phone).with_annoyed(annoyed)
    parts = item["big"]
    if not isinstance(parts, list) or len(parts) != 2:
        raise KafeneioError(f"{where}.big must list the 2 customer cards of the order (SW-2.7)")
    kinds = tuple(
        _kind(cards, CUSTOMERS, text, f"{where}.big[{i}]") for i, text in enumerate(parts)
    )
    if any(cards.customers[kind].big for kind in kinds):
        raise KafeneioError(f"{where}.big: a Big Phone Order is made of ordinary cards (SW-2.10)")
    bigs = [i for i, card in enumerate(cards.customers) if card.big]
    if not bigs:
        raise KafeneioError(f"{where}: this card set has no Big Phone Order card")
    return make_customer(cards, kinds, True, bigs[0]).with_annoyed(annoyed)


def _check_every_card_once(
    cards: CardSet, decks: list[list[int]], position: Position | None
) -> None:
    """Without a position, each deck holds all its cards; with one, every zone together does."""
    totals = [
        [card.count for card in cards.foods],
        [card.count for card in cards.customers],
        [kind.count for kind in cards.unforeseen],
    ]
    names = [
        [card.text for card in cards.foods],
        [card.text for card in cards.customers],
        [kind.id for kind in cards.unforeseen],
    ]
    for deck, name in enumerate(DECKS):
        counts = [0] * len(totals[deck])
        for kind in decks[deck]:
            counts[kind] += 1
        if position is not None:
            _add_position(position, deck, counts)
        for kind, (have, want) in enumerate(zip(counts, totals[deck], strict=True)):
            if have != want:
                where = "setup" if position else f"setup.{name}"
                raise KafeneioError(
                    f"{where} must hold each {name} card as often as the game has it"
                    f"{', in decks, hands, queues and discards together' if position else ''}: "
                    f"{names[deck][kind]} {want} times, not {have}"
                )


def _add_position(position: Position, deck: int, counts: list[int]) -> None:
    zones: list[list[int]] = [position.discards[deck]]
    if deck == FOOD:
        zones += position.food_hands
    elif deck == UNFORESEEN:
        zones += position.unforeseen_hands
    for zone in zones:
        for kind, count in enumerate(zone):
            counts[kind] += count
    if deck == CUSTOMERS:
        for queue in position.queues:
            for customer in queue:
                for kind in (*customer.cards, *((customer.big,) if customer.big >= 0 else ())):
                    counts[kind] += 1

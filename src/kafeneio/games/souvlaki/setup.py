"""Stacked setups: explicit deck orders, and optionally a position at the start of a phase.

A setup is JSON (the doc page's "Setting up a position" has every field and an example)::

    {"food": ["GF", "S", ...], "customers": ["SF 1/2", "BIG", ...],
     "unforeseen": ["queue-jump", ...], "shuffle_seed": 0}

Each deck lists its cards in draw order, first drawn first. With only these fields the game
starts as usual (the hands are dealt from the decks, SW-S.4) and each deck must hold every card
of its kind. `shuffle_seed` (default 0) fixes the order of later reshuffles (SW-S.3).

Position fields set up the start of a phase of any round instead (the mulligan, maintenance,
new customers with its draft row, unforeseen factors with cards in play, or service). Then every
card must be somewhere exactly once: in a deck, a hand, the row, a queue, in play or a discard
pile. With ``rest: {"seed": N}`` only part of it need be written: the cards not listed are
shuffled with that seed, dealt to any hand given as a number of cards, and put in their decks
after the listed tops.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kafeneio.core.errors import KafeneioError
from kafeneio.core.randomness import shuffle
from kafeneio.core.setup import rest_shuffle
from kafeneio.games.souvlaki.cards import CardSet
from kafeneio.games.souvlaki.customer import Customer, make_customer

FOOD, CUSTOMERS, UNFORESEEN = range(3)
DECKS = ("food", "customers", "unforeseen")
SETUP_PHASES = ("mulligan", "maintenance", "customers", "unforeseen", "service")
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
    "row",
    "in_play",
)
SETUP_FIELDS = (*DECKS, "shuffle_seed", "rest", *POSITION_FIELDS)
IN_PLAY_PHASES = ("unforeseen", "service")
"""SW-3.3: cards are played in phase 3, and those that last the round leave at its end."""


@dataclass(frozen=True)
class InPlay:
    """An unforeseen card whose effect lasts the round, and on whom it acts."""

    kind: int
    players: tuple[int, ...] = ()
    """Whose served customers pay or please more or less (served-money, served-reputation)."""
    customer: tuple[int, int] | None = None
    """The (player, place in queue) of the customer it tips."""


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
    row: list[int] | None = None
    """The draft row of the new-customers phase, a customer kind or -1 (taken) per slot."""
    in_play: list[InPlay] = field(default_factory=list)
    food_to_deal: list[int] = field(default_factory=list)
    """Per player, the food cards still to deal from the rest (a hand given as a number)."""
    unforeseen_to_deal: list[int] = field(default_factory=list)


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
    rest = rest_shuffle(setup)
    position = None
    if any(name in setup for name in POSITION_FIELDS):
        position = _position(cards, num_players, start, setup, rest is not None)
    if rest is not None:
        _deal_rest(cards, decks, position, rest)
    _check_every_card_once(cards, decks, position)
    return Stacked(decks, seed, position)


def _deal_rest(
    cards: CardSet, decks: list[list[int]], position: Position | None, rng: random.Random
) -> None:
    """Shuffle each deck's unlisted cards, deal the hands given as a number of cards, and put
    the rest under the deck's listed top."""
    totals = _totals(cards)
    for deck, name in enumerate(DECKS):
        left = _unplaced(decks, position, deck, totals[deck])
        for kind, count in enumerate(left):
            if count < 0:
                raise KafeneioError(
                    f"setup lists the {name} card {_names(cards)[deck][kind]} "
                    f"{totals[deck][kind] - count} times; the game has it {totals[deck][kind]}"
                )
        unlisted = [kind for kind, count in enumerate(left) for _ in range(count)]
        shuffle(rng, unlisted)
        if position is not None and deck != CUSTOMERS:
            hands = position.food_hands if deck == FOOD else position.unforeseen_hands
            wanted = position.food_to_deal if deck == FOOD else position.unforeseen_to_deal
            for hand, count in zip(hands, wanted, strict=True):
                for kind in unlisted[:count]:
                    hand[kind] += 1
                del unlisted[:count]
        decks[deck].extend(unlisted)


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


LEAST_MONEY = -1000
"""The least money a set-up shop may have. Money below 0 is a position play reaches (SW-1.3's
and SW-1.5's options pay into debt); the bound keeps the loans that pay it off (SW-1.5) few."""


def _numbers(
    setup: Mapping[str, Any], name: str, n: int, default: list[int], least: int = 0
) -> list[int]:
    values = setup.get(name, default)
    if (
        not isinstance(values, list)
        or len(values) != n
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= least for v in values)
    ):
        raise KafeneioError(f"setup.{name} must be a list of {n} whole numbers ≥ {least}")
    return list(values)


def _position(
    cards: CardSet, n: int, start: list[tuple[int, int]], setup: Mapping[str, Any], rest: bool
) -> Position:
    round_number = setup.get("round", 1)
    if not isinstance(round_number, int) or isinstance(round_number, bool) or round_number < 1:
        raise KafeneioError("setup.round must be a whole number ≥ 1")
    phase = setup.get("phase", "customers" if round_number == 1 else "maintenance")
    if phase not in SETUP_PHASES:
        raise KafeneioError(f"setup.phase must be one of {', '.join(SETUP_PHASES)}")
    if phase == "maintenance" and round_number == 1:
        raise KafeneioError("setup: there is no shop maintenance in round 1 (SW-R.1)")
    if phase == "mulligan" and round_number != 1:
        raise KafeneioError("setup: the mulligan comes before round 1 only (SW-S.6)")
    food_hands, food_to_deal = _hands(cards, FOOD, n, setup.get("food_hands"), rest)
    unforeseen_hands, unforeseen_to_deal = _hands(
        cards, UNFORESEEN, n, setup.get("unforeseen_hands"), rest
    )
    queues = _queues(cards, n, setup)
    return Position(
        round=round_number,
        phase=phase,
        money=_numbers(setup, "money", n, [money for money, _ in start], LEAST_MONEY),
        reputation=_numbers(setup, "reputation", n, [rep for _, rep in start]),
        loans=_numbers(setup, "loans", n, [0] * n),
        food_hands=food_hands,
        unforeseen_hands=unforeseen_hands,
        queues=queues,
        discards=_discards(cards, setup.get("discards", {})),
        row=_row(cards, n, phase, setup),
        in_play=_in_play(cards, n, phase, queues, setup),
        food_to_deal=food_to_deal,
        unforeseen_to_deal=unforeseen_to_deal,
    )


def _row(cards: CardSet, n: int, phase: str, setup: Mapping[str, Any]) -> list[int] | None:
    """SW-2.1, SW-2.2: the 2N+1 customers revealed; null for a slot already picked."""
    if "row" not in setup:
        return None
    if phase != "customers":
        raise KafeneioError("setup.row: the draft row is laid out in the customers phase (SW-2.1)")
    raw = setup["row"]
    if not isinstance(raw, list) or len(raw) > 2 * n + 1:
        raise KafeneioError(f"setup.row must be a list of at most {2 * n + 1} customers (SW-2.1)")
    row = [
        -1 if text is None else _kind(cards, CUSTOMERS, text, f"setup.row[{i}]")
        for i, text in enumerate(raw)
    ]
    if row.count(-1) > 2 * n:
        raise KafeneioError(f"setup.row: {n} players pick {2 * n} customers at most (SW-2.2)")
    return row


def _in_play(
    cards: CardSet, n: int, phase: str, queues: list[list[Customer]], setup: Mapping[str, Any]
) -> list[InPlay]:
    """SW-3.3: unforeseen cards whose effects last until the end of the round."""
    raw = setup.get("in_play", [])
    if not isinstance(raw, list):
        raise KafeneioError("setup.in_play must be a list of cards in play")
    if raw and phase not in IN_PLAY_PHASES:
        raise KafeneioError(
            "setup.in_play: cards are played in phase 3 and leave at the end of the round (SW-3.3)"
        )
    return [
        _card_in_play(cards, n, queues, item, f"setup.in_play[{i}]") for i, item in enumerate(raw)
    ]


def _card_in_play(
    cards: CardSet, n: int, queues: list[list[Customer]], item: Any, where: str
) -> InPlay:
    fields = {"card", "player", "customer"}
    if not isinstance(item, dict) or "card" not in item or set(item) - fields:
        raise KafeneioError(
            f'{where} must be an object like {{"card": "good-review", "player": 1}}'
        )
    kind = _kind(cards, UNFORESEEN, item["card"], f"{where}.card")
    unforeseen = cards.unforeseen[kind]
    if unforeseen.duration != "round":
        raise KafeneioError(f"{where}: {unforeseen.id} does not last the round (SW-3.3)")
    dos = {effect.do for effect in unforeseen.effects}
    players: tuple[int, ...] = ()
    if dos & {"served-money", "served-reputation"}:
        player = item.get("player")
        if unforeseen.target.kind == "everyone":
            players = tuple(range(n))
        elif isinstance(player, int) and not isinstance(player, bool) and 0 <= player < n:
            players = (player,)
        else:
            raise KafeneioError(f"{where}.player must say whom it acts on: 0 to {n - 1}")
    customer = None
    if "tip" in dos:
        place = item.get("customer")
        if (
            not isinstance(place, list)
            or len(place) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in place)
            or not 0 <= place[0] < n
            or not 0 <= place[1] < len(queues[place[0]])
        ):
            raise KafeneioError(
                f"{where}.customer must be [player, place in queue from 0] of the tipped customer"
            )
        customer = (place[0], place[1])
    return InPlay(kind, players, customer)


def _hands(
    cards: CardSet, deck: int, n: int, raw: Any, rest: bool
) -> tuple[list[list[int]], list[int]]:
    """Per player, how many of each kind, and how many more to deal from the rest: a hand may
    be a number of cards with `rest`."""
    name = "food_hands" if deck == FOOD else "unforeseen_hands"
    hands = raw or [[] for _ in range(n)]
    if not isinstance(hands, list) or len(hands) != n:
        raise KafeneioError(f"setup.{name} must be a list of {n} lists of cards")
    size = len((cards.foods, cards.customers, cards.unforeseen)[deck])
    counted, to_deal = [], []
    for p, hand in enumerate(hands):
        where = f"setup.{name}[{p}]"
        if isinstance(hand, list):
            counted.append(_counts(cards, deck, hand, where))
            to_deal.append(0)
            continue
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 0:
            raise KafeneioError(f"{where} must be a list of cards or, with rest, a number ≥ 0")
        if not rest:
            raise KafeneioError(
                f"{where}: a number of cards is dealt from the rest, so the setup needs "
                'rest: {"seed": N}'
            )
        counted.append([0] * size)
        to_deal.append(hand)
    return counted, to_deal


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


def _totals(cards: CardSet) -> list[list[int]]:
    return [
        [card.count for card in cards.foods],
        [card.count for card in cards.customers],
        [kind.count for kind in cards.unforeseen],
    ]


def _names(cards: CardSet) -> list[list[str]]:
    return [
        [card.text for card in cards.foods],
        [card.text for card in cards.customers],
        [kind.id for kind in cards.unforeseen],
    ]


def _check_every_card_once(
    cards: CardSet, decks: list[list[int]], position: Position | None
) -> None:
    """Without a position, each deck holds all its cards; with one, every zone together does."""
    totals, names = _totals(cards), _names(cards)
    zones = ", in decks, hands, queues and discards together (with the row and cards in play)"
    for deck, name in enumerate(DECKS):
        left = _unplaced(decks, position, deck, totals[deck])
        for kind, (missing, want) in enumerate(zip(left, totals[deck], strict=True)):
            if missing:
                where = "setup" if position else f"setup.{name}"
                raise KafeneioError(
                    f"{where} must hold each {name} card as often as the game has it"
                    f"{zones if position else ''}: {names[deck][kind]} {want} times, "
                    f"not {want - missing}"
                )


def _unplaced(
    decks: list[list[int]], position: Position | None, deck: int, totals: list[int]
) -> list[int]:
    """How many cards of each kind of `deck` the setup leaves out (negative: listed too often)."""
    left = list(totals)
    for kind in decks[deck]:
        left[kind] -= 1
    if position is None:
        return left
    zones: list[list[int]] = [position.discards[deck]]
    if deck == FOOD:
        zones += position.food_hands
    elif deck == UNFORESEEN:
        zones += position.unforeseen_hands
    for zone in zones:
        for kind, count in enumerate(zone):
            left[kind] -= count
    if deck == CUSTOMERS:
        for queue in position.queues:
            for customer in queue:
                for kind in (*customer.cards, *((customer.big,) if customer.big >= 0 else ())):
                    left[kind] -= 1
        for kind in position.row or []:
            if kind >= 0:
                left[kind] -= 1
    if deck == UNFORESEEN:
        for card in position.in_play:
            left[card.kind] -= 1
    return left


def tip_amount(cards: CardSet, kind: int) -> int:
    """The tip an unforeseen kind in play adds to its customer (SW-E.5)."""
    return sum(effect.amount for effect in cards.unforeseen[kind].effects if effect.do == "tip")

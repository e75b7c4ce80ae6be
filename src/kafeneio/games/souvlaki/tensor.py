"""Souvlaki Wars observations for machines: a hashable key and a flat float tensor.

`SouvlakiObservationKey` holds exactly what `observation(player)` shows (no other player's hand, no
deck's order, SW-S.3, SW-S.4) as plain ints and tuples, so two keys of one game's states are equal
exactly when the observations are (the observation's `rules`, the game's options, are the same in
them all; the key holds only those the tensor needs). The tensor is made from the key alone, so it
cannot carry anything the observation does not; its pieces and shapes (`observation_spec`) follow
the card set, which is user data. docs/souvlaki-wars.md documents every piece.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from kafeneio.core.tensor import Entries, Spec, layout, options_row
from kafeneio.games.souvlaki.actions import MAX_QUEUE
from kafeneio.games.souvlaki.cards import CardSet
from kafeneio.games.souvlaki.customer import Customer
from kafeneio.games.souvlaki.observe import IDENTITY_FIELDS
from kafeneio.games.souvlaki.options import SouvlakiOptions

NUM_PHASES = 6
"""mulligan, maintenance, customers, unforeseen, service, over."""
SEAT_COLUMNS = (
    "money",
    "loans",
    "net_money",
    "reputation",
    "food_cards",
    "unforeseen_cards",
    "served_reputation",
    "served_money",
)
RULES = (
    "round_limit",
    "win_money",
    "win_reputation",
    "first_game",
    "loan_penalty",
    "hand_limit",
    "hand_limit_discard",
    "reshuffle",
    "tie_break",
    "purchases_into_debt",
    "loan_trigger",
    "loan_amount",
    "loan_in_tiebreak",
    "big_phone_order_draw",
    "food_play",
    "send_away",
    "phone_markers",
)
"""The rules options the key and the tensor's `rules` piece hold, in their order (a choice by
its index in `SouvlakiOptions.CHOICES`, a flag as 0 or 1): every option but the shops, which
the observation shows as each seat's own, so that a learner played across rules variants knows
which it plays (the first six alone were there: `food_play` and the loans' rules were not)."""


@cache  # a game's options are one object: made once, not at every observation
def rules_row(options: SouvlakiOptions) -> tuple[int, ...]:
    """`RULES` of `options` as whole numbers (`options_row`)."""
    return options_row(options, RULES)


CUSTOMER_COLUMNS = (
    "present",
    "order_G",
    "order_S",
    "order_F",
    "order_D",
    "money",
    "influence",
    "phone",
    "big",
    "annoyed",
    "tip",
    "waiting",
)
"""The fixed columns of a queue entry; the counts of its customer cards and of the unforeseen
cards attached to it follow."""


class SouvlakiObservationKey(NamedTuple):
    """What one player may know of a Souvlaki Wars position, in the state's own codes: whole
    numbers, flags and tuples of them only, so that its hash is the same in every process.
    No field is ever None: Python 3.11 hashes None by its address, which differs from run to
    run, so an absent part is an empty tuple or -1."""

    player: int
    to_move: int
    """A player, or the contract's CHANCE or TERMINAL."""
    round: int
    phase: int
    """The index of the phase in `NUM_PHASES`' order."""
    turn_order: tuple[int, ...]
    picking_order: tuple[int, ...]
    """The snake of draft picks during the customers phase; empty otherwise."""
    turn: int
    shops: tuple[int, ...]
    """Each seat's shop, by index in the card set."""
    money: tuple[int, ...]
    loans: tuple[int, ...]
    reputation: tuple[int, ...]
    food_cards: tuple[int, ...]
    unforeseen_cards: tuple[int, ...]
    served_reputation: tuple[int, ...]
    served_money: tuple[int, ...]
    hand_food: tuple[int, ...]
    """The player's food cards: a count per food card kind (empty for a spectator)."""
    hand_unforeseen: tuple[int, ...]
    known_in_other_hands: tuple[tuple[int, int], ...]
    """(holder, food card kind) the player saw go into another hand and knows is still there."""
    queues: tuple[tuple[Customer, ...], ...]
    row: tuple[int, ...]
    """The draft row: a customer card kind per slot, -1 once taken."""
    pool: tuple[int, ...]
    played: tuple[int, ...]
    served: int
    maintenance: tuple[int, bool] | tuple[()]
    """(supplies left to buy, advertised) during maintenance; empty otherwise."""
    decks: tuple[int, ...]
    """Cards left in the food, customer and unforeseen decks."""
    discards: tuple[tuple[int, ...], ...]
    in_play: tuple[int, ...]
    cancels: int
    resolving: int
    """The unforeseen kind waiting for chance, -1 if none."""
    random_pending: tuple[tuple[int, int], ...]
    """Food cards still to take at random: (from, to or -1 the discard)."""
    winners: tuple[int, ...]
    rules: tuple[int, ...]
    """`rules_row` of the game's options: the same in every state of a game."""


class CardLayout:
    """Where each piece starts in the flat tensor, for one card set and player count, and the
    shops' identity numbers."""

    def __init__(self, cards: CardSet, num_players: int) -> None:
        n = num_players
        foods, customers, kinds = len(cards.foods), len(cards.customers), len(cards.unforeseen)
        self.cards = cards
        self.layout = layout(
            {
                "player": (n,),
                "to_move": (n,),
                "chance": (1,),
                "phase": (NUM_PHASES,),
                "round": (1,),
                "rules": (len(RULES),),
                "turn": (1,),
                "turn_order": (n, n),
                "picking_order": (2 * n, n),
                "shops": (n, len(cards.shops)),
                "identity": (n, len(IDENTITY_FIELDS)),
                "seats": (n, len(SEAT_COLUMNS)),
                "hand_food": (foods,),
                "hand_unforeseen": (kinds,),
                "known_in_other_hands": (n, foods),
                "queues": (n, MAX_QUEUE, len(CUSTOMER_COLUMNS) + customers + kinds),
                "row": (2 * n + 1, customers),
                "pool": (4,),
                "played": (foods,),
                "served_this_service": (1,),
                "maintenance": (2,),
                "decks": (3,),
                "discard_food": (foods,),
                "discard_customers": (customers,),
                "discard_unforeseen": (kinds,),
                "in_play": (kinds,),
                "cancels_pending": (1,),
                "resolving": (kinds,),
                "random_pending": (n, n + 1),
                "winners": (n,),
            }
        )
        self.identity = tuple(
            tuple(float(getattr(shop, name)) for name in IDENTITY_FIELDS) for shop in cards.shops
        )
        self.customer_width = self.layout.spec["queues"][2]


_LAYOUTS: dict[tuple[int, int], CardLayout] = {}


def card_layout(cards: CardSet, num_players: int) -> CardLayout:
    """The layout for `cards` (kept while the card set lives: it is the game's)."""
    found = _LAYOUTS.get((id(cards), num_players))
    if found is None or found.cards is not cards:
        found = _LAYOUTS[id(cards), num_players] = CardLayout(cards, num_players)
    return found


def observation_spec(cards: CardSet, num_players: int) -> Spec:
    """The tensor's pieces for `num_players` with the card set `cards`."""
    return dict(card_layout(cards, num_players).layout.spec)


def observation_entries(cards: CardSet, key: SouvlakiObservationKey) -> Entries:
    """The non-zero entries of `key`'s flat tensor, laid out as `observation_spec` says."""
    n = len(key.money)
    lay = card_layout(cards, n)
    at = lay.layout.offsets
    entries = Entries(lay.layout.size)
    one, values = entries.ones.append, entries.values
    if key.player >= 0:  # not a spectator
        one(at["player"] + key.player)
    if key.to_move >= 0:
        one(at["to_move"] + key.to_move)
    elif key.to_move == -1:  # the contract's CHANCE
        one(at["chance"])
    one(at["phase"] + key.phase)
    values[at["round"]] = float(key.round)
    _row(values, at["rules"], key.rules)
    values[at["turn"]] = float(key.turn)
    for position, seat in enumerate(key.turn_order):
        one(at["turn_order"] + position * n + seat)
    for position, seat in enumerate(key.picking_order):
        one(at["picking_order"] + position * n + seat)
    _seats(entries, lay, key)
    _row(values, at["hand_food"], key.hand_food)
    _row(values, at["hand_unforeseen"], key.hand_unforeseen)
    for holder, kind in key.known_in_other_hands:
        one(at["known_in_other_hands"] + holder * len(cards.foods) + kind)
    for seat, queue in enumerate(key.queues):
        for position, customer in enumerate(queue[:MAX_QUEUE]):
            start = at["queues"] + (seat * MAX_QUEUE + position) * lay.customer_width
            _customer(entries, start, len(cards.customers), customer)
    for slot, card in enumerate(key.row):
        if card >= 0:
            one(at["row"] + slot * len(cards.customers) + card)
    _row(values, at["pool"], key.pool)
    _row(values, at["played"], key.played)
    values[at["served_this_service"]] = float(key.served)
    _row(values, at["maintenance"], key.maintenance)
    _row(values, at["decks"], key.decks)
    for name, counts in zip(
        ("discard_food", "discard_customers", "discard_unforeseen"), key.discards, strict=True
    ):
        _row(values, at[name], counts)
    _row(values, at["in_play"], key.in_play)
    values[at["cancels_pending"]] = float(key.cancels)
    if key.resolving >= 0:
        one(at["resolving"] + key.resolving)
    for victim, receiver in key.random_pending:
        one(at["random_pending"] + victim * (n + 1) + (receiver if receiver >= 0 else n))
    for seat in key.winners:
        one(at["winners"] + seat)
    return entries


def _seats(entries: Entries, lay: CardLayout, key: SouvlakiObservationKey) -> None:
    at, values = lay.layout.offsets, entries.values
    penalty = key.rules[RULES.index("loan_penalty")]
    for seat, shop in enumerate(key.shops):
        entries.ones.append(at["shops"] + seat * len(lay.identity) + shop)
        _row(values, at["identity"] + seat * len(IDENTITY_FIELDS), lay.identity[shop])
        row = (
            key.money[seat],
            key.loans[seat],
            key.money[seat] - penalty * key.loans[seat],
            key.reputation[seat],
            key.food_cards[seat],
            key.unforeseen_cards[seat],
            key.served_reputation[seat],
            key.served_money[seat],
        )
        _row(values, at["seats"] + seat * len(SEAT_COLUMNS), row)


def _customer(entries: Entries, start: int, customer_kinds: int, customer: Customer) -> None:
    order = customer.order
    row = (
        1,
        order[0],
        order[1],
        order[2],
        order[3],
        customer.money,
        customer.influence,
        customer.phone,
        customer.big >= 0,
        customer.annoyed,
        customer.tip,
        customer.waiting,
    )
    _row(entries.values, start, row)
    cards = start + len(CUSTOMER_COLUMNS)
    for kind in customer.cards:
        entries.ones.append(cards + kind)
    for kind in customer.attached:
        entries.ones.append(cards + customer_kinds + kind)


def _row(values: dict[int, float], start: int, row: tuple[float, ...]) -> None:
    """Set the non-zero numbers of `row` from `start` on."""
    for index, number in enumerate(row):
        if number:
            values[start + index] = float(number)

"""A customer waiting in a queue: its order, payment, influence and state (SW-0.3, SW-2.4)."""

from __future__ import annotations

from typing import NamedTuple

from kafeneio.games.souvlaki.cards import NO_FOOD, CardSet, Foods

SEND_AWAY_COST = 5
"""SW-4.6: reputation lost for sending a customer away."""
LEAVING_LOSS_MINIMUM = 2
"""SW-4.8: an annoyed customer who leaves costs at least 2 reputation."""


class Customer(NamedTuple):
    """One order in a queue. Immutable: a change makes a new one, so cloning a queue is cheap.
    A named tuple rather than a frozen dataclass: customers are made and changed on the hot
    path of play (drafted, annoyed, tipped), and a tuple is made five times faster.

    A Big Phone Order (SW-2.7) is one customer made of the cards in `cards`, with `big` the
    index of its Big Phone Order card; from the draft until its cards are drawn in the
    phone-order step (the default ``big_phone_order_draw = "phone-step"``) it is `waiting` and
    orders nothing.
    """

    cards: tuple[int, ...]
    """Customer card kinds whose order, money and influence this customer sums."""
    order: Foods
    money: int
    influence: int
    phone: bool
    big: int = -1
    annoyed: bool = False
    tip: int = 0
    """Extra money paid to whoever serves this customer this round (SW-E.5, SW-U.5)."""
    attached: tuple[int, ...] = ()
    """Unforeseen kinds in play on this customer until it leaves (SW-3.4)."""
    waiting: bool = False

    def leaving_loss(self) -> int:
        """SW-4.8: the reputation this customer costs if it leaves unserved, annoyed: twice its
        influence, at least `LEAVING_LOSS_MINIMUM` (before SW-4.9 stops a loss at 0)."""
        return max(LEAVING_LOSS_MINIMUM, 2 * self.influence)

    def with_annoyed(self, annoyed: bool) -> Customer:
        cards, order, money, influence, phone, big, _, tip, attached, waiting = self
        return Customer(cards, order, money, influence, phone, big, annoyed, tip, attached, waiting)

    def with_tip(self, tip: int) -> Customer:
        return self._replace(tip=tip)

    def with_attached(self, attached: tuple[int, ...]) -> Customer:
        return self._replace(attached=attached)

    def with_order(self, order: Foods) -> Customer:
        return self._replace(order=order)

    def without_tip(self) -> Customer:
        cards, order, money, influence, phone, big, annoyed, _, attached, waiting = self
        return Customer(cards, order, money, influence, phone, big, annoyed, 0, attached, waiting)


def make_customer(cards: CardSet, kinds: tuple[int, ...], phone: bool, big: int = -1) -> Customer:
    """The customer made of customer card `kinds` (two for a Big Phone Order)."""
    order = [0, 0, 0, 0]
    money = influence = 0
    for kind in kinds:
        card = cards.customers[kind]
        for food in range(4):
            order[food] += card.order[food]
        money += card.money
        influence += card.influence
    return Customer(kinds, (order[0], order[1], order[2], order[3]), money, influence, phone, big)


def waiting_big_order(big: int) -> Customer:
    """A drafted Big Phone Order whose cards are drawn later, in the phone-order step."""
    return Customer((), NO_FOOD, 0, 0, True, big, waiting=True)

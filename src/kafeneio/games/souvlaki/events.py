"""Souvlaki Wars events in words, as each viewer may see them.

Food and unforeseen hands are private (SW-S.4): a card drawn is named to its owner and counted
to everyone else, and which card a Ninja or Rats took is told only to the players concerned
(SW-E.11, SW-E.15). Everything else (money, reputation, queues, cards played) is public.

Each function is the wording of one kind of event, called with the event's facts and the
viewer; the state emits them (`State.emit`), so nothing is formatted unless somebody reads it.


`game_over` (the `end` event) is worded in `kafeneio.core.events`, the same in every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kafeneio.core.events import RUNS, packed, plural, seat, winners_text
from kafeneio.core.events import game_over as game_over  # the `end` event, re-exported
from kafeneio.games.souvlaki.actions import Targets
from kafeneio.games.souvlaki.cards import FOOD_NAMES, CardSet, Foods
from kafeneio.games.souvlaki.customer import Customer

Args = tuple[Any, ...]


def customer_text(cards: CardSet, customer: Customer) -> str:
    """A customer as the queues show it: its card (or cards), and what kind of order it is."""
    texts = _cards_text(cards, customer)
    if customer.big >= 0:
        return f"Big Phone Order {texts}"
    return f"phone order {texts}" if customer.phone else texts


def _cards_text(cards: CardSet, customer: Customer) -> str:
    """A customer's card, or a Big Phone Order's two: ``GSF 4/2 + F 1/1``."""
    return " + ".join(cards.customers[kind].text for kind in customer.cards) or "BIG"


def counted(card: str, count: int) -> str:
    """A card held `count` times, as the board and the refusals name it: ``queue-jump x2``."""
    return card if count == 1 else f"{card} x{count}"


def foods_words(foods: Foods) -> str:
    """``GGF`` as "2 pita gyros + fries"."""
    named = [
        name if count == 1 else f"{count} {name}"
        for name, count in zip(FOOD_NAMES, foods, strict=True)
        if count
    ]
    return " + ".join(named) or "nothing"


def customer_words(customer: Customer) -> str:
    """A customer in a queue, as a player names it: the order and what it pays."""
    if customer.waiting:
        return "a Big Phone Order whose cards are still to come"
    return order_words(customer.order, customer.money, customer.influence, customer.big >= 0)


def order_words(order: Foods, money: int, influence: int, big: bool) -> str:
    if big and not any(order):
        return "a Big Phone Order"
    return f"{foods_words(order)} ({money} money, {influence} influence)"


def targets_words(targets: Targets, queue: Callable[[int], Sequence[Customer]]) -> str:
    """An unforeseen card's targets (`queue(player)` gives a queue): "" for none, "P2", or
    "P2's customer 3, souvlaki + fries (1 money, 2 influence)" for each customer."""
    if len(targets) < 2:
        return seat(targets[0]) if targets else ""
    reached = []
    for i in range(0, len(targets), 2):
        owner, position = targets[i], targets[i + 1]
        customer = customer_words(queue(owner)[position])
        reached.append(f"{seat(owner)}'s customer {position + 1}, {customer}")
    return " and on ".join(reached)


def _signed(amount: int, what: str) -> str:
    return f"{amount:+d} {what}"


def drew_food(args: Args, viewer: int) -> str:
    cards, player, kinds = args
    if viewer == player:
        names = ", ".join(cards.foods[kind].text for kind in kinds)
        return f"You draw {names}" if kinds else "You draw no food card: none is left"
    return f"{seat(player)} draws {plural(len(kinds), 'food card')}"


def drew_unforeseen(args: Args, viewer: int) -> str:
    cards, player, kinds = args
    if viewer == player:
        names = ", ".join(cards.unforeseen[kind].name for kind in kinds)
        return f"You draw the unforeseen {names}" if kinds else "You draw no unforeseen card"
    return f"{seat(player)} draws {plural(len(kinds), 'unforeseen card')}"


def mulligan(args: Args, viewer: int) -> str:
    player, redraw = args
    if redraw:
        return f"{seat(player)} discards their food cards and draws 5 new ones (SW-S.6)"
    return f"{seat(player)} keeps their food cards (SW-S.6)"


def operating_cost(args: Args, viewer: int) -> str:
    player, cost, money = args
    return f"{seat(player)} pays the operating cost of {cost}: {money} money left (SW-1.1)"


def loan(args: Args, viewer: int) -> str:
    player, amount = args
    return f"{seat(player)} takes a loan of {amount} (SW-1.5)"


def bought(args: Args, viewer: int) -> str:
    player, cost, count = args
    return f"{seat(player)} buys supplies for {cost}: {plural(count, 'food card')} (SW-1.3)"


def advertised(args: Args, viewer: int) -> str:
    player, cost, gain = args
    return f"{seat(player)} advertises for {cost}: {_signed(gain, 'reputation')} (SW-1.3)"


def discarded(args: Args, viewer: int) -> str:
    cards, player, kind = args
    return f"{seat(player)} discards {cards.foods[kind].text}: too many food cards (SW-1.4)"


def picked(args: Args, viewer: int) -> str:
    cards, player, slot, card = args
    return f"{seat(player)} drafts {cards.customers[card].text} from slot {slot + 1} (SW-2.3)"


def left_in_row(args: Args, viewer: int) -> str:
    cards, card = args
    # "left", not "nobody drafted": the row may have held two alike, one of them drafted
    return f"Left in the row: {cards.customers[card].text}, discarded (SW-2.11)"


def phone_order(args: Args, viewer: int) -> str:
    player, customer = args
    return f"{seat(player)} receives a {customer_text(*customer)} (SW-2.6)"


def phone_orders(runs: Sequence[Args], viewer: int) -> str:
    """Phone orders dealt one after another (SW-2.6) told together, each player's in a row in
    the order dealt, in lines of 76 columns (a terminal's 80 less the indent of what a decision
    caused), an order never broken: six lines of them at a 4-player draft's end did not let the
    turn fit 24 rows. ``Phone orders: P2 GD 2/1; P1 Big Phone Order GSF 4/2 + F 1/1, GD 2/1
    (SW-2.6)``."""
    orders: dict[int, list[str]] = {}
    for player, (cards, customer) in runs:
        text = _cards_text(cards, customer)
        orders.setdefault(player, []).append(
            f"Big Phone Order {text}" if customer.big >= 0 else text
        )
    items = [
        f"{seat(player) + ' ' if i == 0 else ''}{text}{',' if i < len(texts) - 1 else ';'}"
        for player, texts in orders.items()
        for i, text in enumerate(texts)
    ]
    items[-1] = items[-1].removesuffix(";") + " (SW-2.6)"
    return "\n".join(packed("Phone orders: ", items, " ", PHONE_WIDTH))


PHONE_WIDTH = 76
"""The width of the phone orders told together: a terminal's 80 less the indent of what a
decision caused."""

RUNS[phone_order] = phone_orders


def used(args: Args, viewer: int) -> str:
    cards, player, card, on = args  # `on`: its targets in words, as they were (targets_words)
    name = cards.unforeseen[card].name
    return f"{seat(player)} plays the unforeseen {name}{f' on {on}' if on else ''} (SW-3.1)"


def cancelled(args: Args, viewer: int) -> str:
    cards, player, card = args
    name = cards.unforeseen[card].name
    return f"{seat(player)}'s {name} is cancelled by Change of Plans (SW-E.1)"


def money(args: Args, viewer: int) -> str:
    player, amount, now, why = args
    return f"{seat(player)}: {_signed(amount, 'money')} ({why}), now {now}"


def reputation(args: Args, viewer: int) -> str:
    player, amount, now, why = args
    return f"{seat(player)}: {_signed(amount, 'reputation')} ({why}), now {now}"


def took(args: Args, viewer: int) -> str:
    """A random food card taken from `victim`: by `taker` (a Ninja) or discarded (Rats)."""
    cards, victim, taker, kind = args
    if viewer in (victim, taker):
        card = cards.foods[kind].text
        if taker < 0:
            return f"Rats take {card} from {_whose(victim, viewer)} hand (SW-E.15)"
        steals = "You steal" if taker == viewer else f"{seat(taker)} steals"
        return f"{steals} {card} from {_whose(victim, viewer)} hand (SW-E.11)"
    if taker < 0:
        return f"Rats take a food card from {seat(victim)}'s hand (SW-E.15)"
    return f"{seat(taker)} steals a food card from {seat(victim)}'s hand (SW-E.11)"


def _whose(player: int, viewer: int) -> str:
    return "your" if player == viewer else f"{seat(player)}'s"


def played(args: Args, viewer: int) -> str:
    cards, player, kind = args
    return f"{seat(player)} plays {cards.foods[kind].text} (SW-4.2)"


def served(args: Args, viewer: int) -> str:
    player, customer, paid, gain = args
    return (
        f"{seat(player)} serves {customer_text(*customer)}: {_signed(paid, 'money')}, "
        f"{_signed(gain, 'reputation')} (SW-4.3)"
    )


def sent_away(args: Args, viewer: int) -> str:
    player, customer, loss = args
    text = customer_text(*customer)
    return f"{seat(player)} sends {text} away: {_lost(loss)} (SW-4.6)"


def treat(args: Args, viewer: int) -> str:
    (player,) = args
    return f"{seat(player)} treats the queue with the food left over: +1 reputation (SW-4.4)"


def annoyed(args: Args, viewer: int) -> str:
    player, customer = args
    text = customer_text(*customer)
    return f"{text} in {seat(player)}'s queue was not served and is annoyed (SW-4.7)"


def walked_out(args: Args, viewer: int) -> str:
    player, customer, loss = args
    return (
        f"{customer_text(*customer)} walks out of {seat(player)}'s shop annoyed: "
        f"{_lost(loss)} (SW-4.8)"
    )


def _lost(loss: int) -> str:
    """The reputation a shop lost, as taken: "-4 reputation"; at 0 already it loses none
    (SW-4.9), which "+0 reputation" told as if a gain."""
    return f"-{loss} reputation" if loss else "reputation stays at 0"


def round_over(args: Args, viewer: int) -> str:
    (number,) = args
    return f"Round {number} is over (SW-5.1)"


def result(args: Args, viewer: int) -> str:
    winners, sums = args
    return f"{winners_text(winners)} with money + reputation {sums[winners[0]]} (SW-5.3)"

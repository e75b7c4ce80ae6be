"""Souvlaki Wars events in words, as each viewer may see them.

Food and unforeseen hands are private (SW-S.4): a card drawn is named to its owner and counted
to everyone else, and which card a Ninja took is told only to the players concerned
(SW-E.11). Everything else (money, reputation, queues, cards played, and cards discarded,
Rats' included, SW-E.15) is public.

Each function is the wording of one kind of event, called with the event's facts and the
viewer; the state emits them (`State.emit`), so nothing is formatted unless somebody reads it.


`game_over` (the `end` event) is worded in `kafeneio.core.events`, the same in every game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

from kafeneio.core.events import (
    RUNS,
    SUBJECTS,
    Event,
    Words,
    packed,
    plural,
    seat,
    subject_of,
    winners_text,
)
from kafeneio.core.events import game_over as game_over  # the `end` event, re-exported
from kafeneio.core.rulebook import package_rulebook
from kafeneio.games.souvlaki.actions import Targets
from kafeneio.games.souvlaki.cards import FOOD_NAMES, CardSet, Foods, foods_text
from kafeneio.games.souvlaki.customer import Customer

Args = tuple[Any, ...]


def customer_text(cards: CardSet, customer: Customer) -> str:
    """A customer as the queues show it: what it orders now, with its money and influence (a
    Same Again customer orders what the one ahead did, not its card: the card's text named
    another order than the board), or a Big Phone Order's cards; and what kind of order it is."""
    if customer.big >= 0:
        return f"Big Phone Order {_cards_text(cards, customer)}"
    text = f"{foods_text(customer.order)} {customer.money}/{customer.influence}"
    return f"phone order {text}" if customer.phone else text


def _subject(event: Event) -> int:
    """The player an event of a run is about (`SUBJECTS`, registered below with each run)."""
    player = subject_of(event)
    assert player is not None, event.kind  # every wording of `supplies` and `service` has one
    return player


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
    player, amount, penalty = args
    return (
        f"{seat(player)} takes a loan of {amount} (SW-1.5), which takes {penalty} from their "
        "money when the win is counted (SW-1.6)"
    )


def bought(args: Args, viewer: int) -> str:
    player, cost, count = args
    return f"{seat(player)} buys supplies for {cost}: {plural(count, 'food card')} (SW-1.3)"


def advertised(args: Args, viewer: int) -> str:
    player, cost, gain = args
    return f"{seat(player)} advertises for {cost}: {_signed(gain, 'reputation')} (SW-1.3)"


def discarded(args: Args, viewer: int) -> str:
    cards, player, kind = args
    return f"{seat(player)} discards {cards.foods[kind].text}: too many food cards (SW-1.4)"


def supplies(events: Sequence[Event], viewer: int) -> str:
    """A shop's operating cost, its purchase and the cards it draws (SW-1.1, SW-1.2, SW-1.3),
    told on a line for each player, named once: ``P3 pays the operating cost of 2: 21 money
    left (SW-1.1); draws 1 food card and 1 unforeseen card`` (three rows of a terminal's 24);
    a purchase with the draw it causes, ``P2 buys supplies for 2: draws 2 food cards (SW-1.3)``
    (``P2 buys supplies for 2: 2 food cards (SW-1.3)``, then ``P2 draws 2 food cards``). To the
    player who draws, the cards are named as `drew_food` and `drew_unforeseen` name them."""
    lines: list[str] = []
    whose = None
    i = 0
    while i < len(events):
        event, after = events[i], events[i + 1] if i + 1 < len(events) else None
        player = _subject(event)
        mine = viewer == player
        if after is not None and _subject(after) == player and (both := _told_with(event, after)):
            clause = both(event.args, after.args, mine)
            i += 2
        else:
            clause = _clause(event.text_for(viewer) or "", player)
            i += 1
        if player != whose:
            lines.append(
                clause[0].upper() + clause[1:]
                if clause.startswith("you ")
                else f"{seat(player)} {clause}"
            )
            whose = player
        else:
            lines[-1] += f"; {clause}"
    return "\n".join(lines)


def _clause(text: str, player: int) -> str:
    """An event's text without its subject (``P2 ``), or with ``You`` lowered: to follow another
    of the same player's after a semicolon."""
    if text.startswith("You "):
        return "you " + text[4:]
    return text.removeprefix(f"{seat(player)} ")


def _told_with(event: Event, after: Event) -> Callable[[Args, Args, bool], str] | None:
    """How two events of one player are told as one clause, if they are: a purchase and the
    food cards it draws, all of them; a food card and an unforeseen card drawn (some of each)."""
    if event.words is bought and after.words is drew_food and after.args[2]:
        return _bought_and_drew if len(after.args[2]) == event.args[2] else None
    if event.words is drew_food and after.words is drew_unforeseen:
        return _drew_both if event.args[2] and after.args[2] else None
    return None


def _bought_and_drew(buy: Args, draw: Args, mine: bool) -> str:
    cards, _, kinds = draw
    names = ", ".join(cards.foods[kind].text for kind in kinds)
    drew = f"you draw {names}" if mine else f"draws {plural(len(kinds), 'food card')}"
    return f"buys supplies for {buy[1]}: {drew} (SW-1.3)"


def _drew_both(food: Args, unforeseen: Args, mine: bool) -> str:
    cards, _, foods = food
    kinds = unforeseen[2]
    if mine:
        names = ", ".join(cards.foods[kind].text for kind in foods)
        others = ", ".join(cards.unforeseen[kind].name for kind in kinds)
        return f"you draw {names} and the unforeseen {others}"
    return f"draws {plural(len(foods), 'food card')} and {plural(len(kinds), 'unforeseen card')}"


RUNS.update(
    dict.fromkeys(
        (operating_cost, advertised, bought, drew_food, drew_unforeseen, discarded), supplies
    )
)
# Who each is about: first in its facts, after the card set of a draw or a discard
SUBJECTS.update(dict.fromkeys((operating_cost, advertised, bought), itemgetter(0)))
SUBJECTS.update(dict.fromkeys((drew_food, drew_unforeseen, discarded), itemgetter(1)))


def picked(args: Args, viewer: int) -> str:
    cards, player, slot, card = args
    return f"{seat(player)} drafts {cards.customers[card].text} from slot {slot + 1} (SW-2.2)"


def left_in_row(args: Args, viewer: int) -> str:
    cards, card = args
    left = cards.customers[card]
    rule = "SW-2.11" if left.big else "SW-2.2"  # the Big Phone Order's own rule, or the draft's
    # "left", not "nobody drafted": the row may have held two alike, one of them drafted
    return f"Left in the row: {left.text}, discarded ({rule})"


def phone_order(args: Args, viewer: int) -> str:
    player, customer = args
    return f"{seat(player)} receives a {customer_text(*customer)} (SW-2.6)"


def phone_orders(events: Sequence[Event], viewer: int) -> str:
    """Phone orders dealt one after another (SW-2.6) told together, each player's in a row in
    the order dealt, in lines of 76 columns (a terminal's 80 less the indent of what a decision
    caused), an order never broken: six lines of them at a 4-player draft's end did not let the
    turn fit 24 rows. ``Phone orders: P2 GD 2/1; P1 Big Phone Order GSF 4/2 + F 1/1, GD 2/1
    (SW-2.6)``."""
    orders = []
    for event in events:
        player, (cards, customer) = event.args
        text = _cards_text(cards, customer)
        orders.append((player, f"Big Phone Order {text}" if customer.big >= 0 else text))
    return _by_player("Phone orders: ", orders, "SW-2.6")


def _by_player(label: str, items: Sequence[tuple[int, str]], rule: str) -> str:
    """What happened to several players' customers, told together after `label`: each player's
    in a row in the order told, the player named once, in lines of `PHONE_WIDTH`, an item never
    broken, the rule at the end: ``label P2 GD 2/1; P1 GSF 4/2, GD 2/1 (rule)``."""
    texts: dict[int, list[str]] = {}
    for player, text in items:
        texts.setdefault(player, []).append(text)
    listed = [
        f"{seat(player) + ' ' if i == 0 else ''}{text}{',' if i < len(told) - 1 else ';'}"
        for player, told in texts.items()
        for i, text in enumerate(told)
    ]
    listed[-1] = listed[-1].removesuffix(";") + f" ({rule})"
    return "\n".join(packed(label, listed, " ", PHONE_WIDTH))


DISCARDED = -1
"""Where a food card taken at random by an effect goes when nobody takes it (Rats in the
Kitchen, SW-E.15): the discard pile, face up."""

OVER_THE_LIMIT = -2
"""Where a food card discarded at random for the hand limit goes (SW-1.4, option
hand_limit_discard = random): the discard pile, face up, as the holder's own discard."""

PHONE_WIDTH = 76
"""The width of the phone orders told together: a terminal's 80 less the indent of what a
decision caused."""

RUNS[phone_order] = phone_orders
SUBJECTS[phone_order] = itemgetter(0)


def used(args: Args, viewer: int) -> str:
    cards, player, card, on = args  # `on`: its targets in words, as they were (targets_words)
    kind = cards.unforeseen[card]
    # the card's own rule, which says what it does (the log and the page open it), not SW-3.1's
    # "one card a round", which told the others nothing of what was done to them; a card file
    # of one's own may name no rule of the book ("house rule 2"): then SW-3.1
    rule = kind.rule if kind.rule in package_rulebook(__package__ or "") else "SW-3.1"
    return f"{seat(player)} plays the unforeseen {kind.name}{f' on {on}' if on else ''} ({rule})"


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
    """A random food card taken from `victim`: by `taker` (a Ninja), or discarded (Rats,
    `DISCARDED`; the hand limit, `OVER_THE_LIMIT`). A discarded card goes to the discard pile
    face up, for everyone to see (the observation's discards show it too); a Ninja's is seen
    only by the two players concerned."""
    cards, victim, taker, kind = args
    card = cards.foods[kind].text
    if taker == OVER_THE_LIMIT:
        return f"{seat(victim)} discards {card} at random: too many food cards (SW-1.4)"
    if taker < 0:
        return f"Rats take {card} from {_whose(victim, viewer)} hand (SW-E.15)"
    if viewer in (victim, taker):
        steals = "You steal" if taker == viewer else f"{seat(taker)} steals"
        return f"{steals} {card} from {_whose(victim, viewer)} hand (SW-E.11)"
    return f"{seat(taker)} steals a food card from {seat(victim)}'s hand (SW-E.11)"


def _whose(player: int, viewer: int) -> str:
    return "your" if player == viewer else f"{seat(player)}'s"


def played(args: Args, viewer: int) -> str:
    return _service_text(played, args)


def served(args: Args, viewer: int) -> str:
    return _service_text(served, args)


def sent_away(args: Args, viewer: int) -> str:
    return _service_text(sent_away, args)


def treat(args: Args, viewer: int) -> str:
    return _service_text(treat, args)


def _food_played(args: Args) -> str:
    cards, _, kind = args
    return cards.foods[kind].text  # type: ignore[no-any-return]


def _plays(args: Args) -> str:
    return f"plays {_food_played(args)}"


def _serves(args: Args) -> str:
    _, customer, paid, gain = args
    gained = f"{_signed(paid, 'money')}, {_signed(gain, 'reputation')}"
    return f"serves {customer_text(*customer)}: {gained}"


def _sends_away(args: Args) -> str:
    _, customer, loss, cost = args
    return f"sends {customer_text(*customer)} away: {_lost(loss, cost)}"


def _treats(args: Args) -> str:
    """SW-4.4: the treat is earned by a service that served someone and left food over, with
    or without customers still waiting to be treated."""
    _, waiting = args
    if not waiting:
        return "treats with the food left over, though nobody is left waiting: +1 reputation"
    return "treats the queue with the food left over: +1 reputation"


def annoyed(args: Args, viewer: int) -> str:
    player, customer = args
    text = customer_text(*customer)
    return f"{text} in {seat(player)}'s queue was not served and is annoyed (SW-4.7)"


def walked_out(args: Args, viewer: int) -> str:
    player, customer, loss, cost = args
    return (
        f"{customer_text(*customer)} walks out of {seat(player)}'s shop annoyed: "
        f"{_lost(loss, cost)} (SW-4.8)"
    )


def _lost(loss: int, cost: int) -> str:
    """The reputation a shop lost, as taken, and the rule's `cost` where the floor took less
    (SW-4.9): "-4 reputation", "-3 reputation of 5 (it stops at 0)", which "-3" alone read as
    a rule misapplied; at 0 already it loses none, which "+0 reputation" told as if a gain."""
    if not loss:
        return "reputation stays at 0"
    return f"-{loss} reputation" + (f" of {cost} (it stops at 0)" if loss < cost else "")


def service(events: Sequence[Event], viewer: int) -> str:
    """A shop's service told on a line for each player, named once, each card it plays and
    each customer it serves or sends away in the order done, the rules after them: ``P3 plays
    S, GF; serves phone order SF 1/2: +1 money, +2 reputation; plays SD; treats the queue with
    the food left over: +1 reputation (SW-4.2, SW-4.3, SW-4.4)``. A bot's service took a row of
    the terminal's 24 for each card and each customer (a front end may tell a run of one
    player's decisions together: `kafeneio.cli`). Each clause and rule is read from the
    event's facts (`SERVICE_CLAUSES`), as its own text is."""
    lines: list[tuple[int, list[str], list[str]]] = []  # (player, clauses, rules)
    after: Words | None = None  # the wording of the line's last event
    for event in events:
        player = _subject(event)
        if not lines or lines[-1][0] != player:
            lines.append((player, [], []))
            after = None
        _, clauses, rules = lines[-1]
        clause, rule = SERVICE_CLAUSES[event.words]
        if rule not in rules:
            rules.append(rule)
        if event.words is played and after is played:
            clauses[-1] += f", {_food_played(event.args)}"
        else:
            clauses.append(clause(event.args))
        after = event.words
    return "\n".join(
        f"{seat(player)} {'; '.join(clauses)} ({', '.join(rules)})"
        for player, clauses, rules in lines
    )


def _service_text(words: Words, args: Args) -> str:
    """One event of a service (`SERVICE_CLAUSES`) on its own: ``P2 plays GF (SW-4.2)``."""
    clause, rule = SERVICE_CLAUSES[words]
    return f"{seat(SUBJECTS[words](args))} {clause(args)} ({rule})"


SERVICE_CLAUSES: dict[Words, tuple[Callable[[Args], str], str]] = {
    played: (_plays, "SW-4.2"),
    served: (_serves, "SW-4.3"),
    sent_away: (_sends_away, "SW-4.6"),
    treat: (_treats, "SW-4.4"),
}
"""What each wording of a service's events says after the player (from the event's facts),
and the rule it cites."""
RUNS.update(dict.fromkeys((played, served, sent_away, treat), service))
SUBJECTS.update({played: itemgetter(1), served: itemgetter(0)})
SUBJECTS.update({sent_away: itemgetter(0), treat: itemgetter(0)})


def annoyed_customers(events: Sequence[Event], viewer: int) -> str:
    """Customers left unserved at a round's end (SW-4.7) told together, as `phone_orders` are:
    a line each took nine rows of a 4-player round's end. ``Not served, annoyed: P3
    SD 2/1, phone order F 1/1; P2 GS 3/1 (SW-4.7)``."""
    items = [(event.args[0], customer_text(*event.args[1])) for event in events]
    return _by_player("Not served, annoyed: ", items, "SW-4.7")


def _lost_briefly(loss: int, cost: int) -> str:
    """`_lost` in a list of walk-outs: "-4", "-1 of 4 (stops at 0)"."""
    if not loss:
        return _lost(loss, cost)
    return f"-{loss}" + (f" of {cost} (stops at 0)" if loss < cost else "")


def walked_out_customers(events: Sequence[Event], viewer: int) -> str:
    """Annoyed customers walking out (SW-4.8) told together, each with the reputation its
    shop lost (a shop at 0 already loses none, SW-4.9): ``Walk out annoyed, reputation lost:
    P2 GS 3/1 -2, G 2/1 reputation stays at 0 (SW-4.8)``."""
    items = [
        (player, f"{customer_text(*customer)} {_lost_briefly(loss, cost)}")
        for player, customer, loss, cost in (event.args for event in events)
    ]
    return _by_player("Walk out annoyed, reputation lost: ", items, "SW-4.8")


RUNS[annoyed] = annoyed_customers
RUNS[walked_out] = walked_out_customers


def round_over(args: Args, viewer: int) -> str:
    (number,) = args
    return f"Round {number} is over (SW-5.1)"


def result(args: Args, viewer: int) -> str:
    winners, sums = args
    return f"{winners_text(winners)} with money + reputation {sums[winners[0]]} (SW-5.3)"

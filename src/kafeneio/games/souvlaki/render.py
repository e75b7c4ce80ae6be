"""A plain-text picture of a Souvlaki Wars position, drawn from one player's observation only,
so it never shows what that player may not see.

The picture holds what a player decides with, and fits a terminal of 80 x 24 with room above
it for the last turn's moves: the round and phase, whose turn (and the picks left), the draft
row, the service pool or what is left of a maintenance, each shop's money, reputation and hand
sizes (with the food cards the viewer saw go into that hand) and its queue below, the cards in
play, and the viewer's own hand. What a player looks up now and then is `reference_text`: what
each unforeseen card does, the decks and discards, the shops' identity cards and the legend of
the customers' notation (which the picture gives once, on the first screen of a game).
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Sequence
from typing import Any

from kafeneio.core.events import packed, plural
from kafeneio.games.souvlaki.cards import FOOD_LETTERS, FOOD_NAMES, CardSet
from kafeneio.games.souvlaki.events import counted

WIDTH = 80
"""A terminal's columns: no line of the picture is longer."""
PHASE_TITLES = {
    "mulligan": "keep or redraw the starting food cards",
    "maintenance": "Shop Maintenance",
    "customers": "New Customers",
    "unforeseen": "Unforeseen Factors",
    "service": "Customer Service",
    "over": "the game is over",
}
"""The phases as the rules name them (SW-R.1; `notation_help` numbers them)."""
LEGEND = "Customer: order money/influence; " + ", ".join(
    f"{letter} {name}" for letter, name in zip(FOOD_LETTERS, FOOD_NAMES, strict=True)
)
MARKS = (
    "A customer's marks: phone, a phone order; BIG, a Big Phone Order, its two cards served "
    "as one; ANNOYED, it walks out if not served this round, costing reputation (SW-4.8); "
    "tip +N, it pays N more money if served this round; a card's id, an unforeseen card on it."
)
"""What the marks after a customer (`_customer`) say, for the reference."""
PLAYED_THIS_ROUND = "Played this round, discarded at its end"
"""The cards whose effect may last the round (SW-3.3), which wait for the discard until it ends
(SW-3.4) whether or not they still act: a Generous Tip paid out, a Change of Plans that has
cancelled its card. What one still does is shown where it acts: a customer's tip, what a shop's
customers give, the cancels to come."""
QUEUE = "   queue: "
"""The label of a shop's queue, under the shop's line."""
EMPTY = "; no customers"
"""An empty queue, said on the shop's line where it fits there."""


def render_observation(obs: dict[str, Any]) -> str:
    lines = [*_heading(obs), *_phase(obs)]
    for seat in range(len(obs["players"])):
        lines.extend(_player(obs, seat))
    lines.extend(_effects(obs))
    if obs["hand"] is not None:
        # the only moves of a hand over the limit are discards, once it is the holder's turn
        to_discard = obs["to_move"] == obs["player"]
        lines.extend(_hand(obs["hand"], obs["first_game"], obs["rules"]["hand_limit"], to_discard))
    if obs["phase"] == "mulligan":  # the game's first screen: the legend, once
        lines.append(LEGEND)
    return "\n".join(lines)


def _name(obs: dict[str, Any], seat: int) -> str:
    return f"P{seat + 1} {obs['players'][seat]['shop_name']}"


def _heading(obs: dict[str, Any]) -> list[str]:
    """The round and phase, whose turn it is, the turn order, and in a draft the picks left in
    their order: on one line where it holds them. The game's name and mode head the setup, the
    first screen of a game."""
    title = PHASE_TITLES[obs["phase"]]
    if obs["round"]:
        when = f"Round {obs['round']} of at most {obs['round_limit']}, {title}."
    else:
        mode = " (first game)" if obs["first_game"] else ""  # no unforeseen cards: none shown
        when = f"Souvlaki Wars{mode}, setup: {title}."
    return packed("", [when, *_turns(obs)], " ")


def _turns(obs: dict[str, Any]) -> list[str]:
    if obs["phase"] == "over":
        winners = ", ".join(_name(obs, seat) for seat in obs["winners"])
        return [f"Won by {winners}."]
    mover = obs["to_move"]
    if mover >= 0:
        who = f"P{mover + 1}"
    else:
        task = obs["random_pending"][0]
        who = f"chance, a random food card from P{task['from'] + 1}"
    order = " ".join(f"P{seat + 1}" for seat in obs["turn_order"])
    items = [f"To move: {who}.", f"Turn order: {order}."]
    if obs["picking_order"]:
        picks = " ".join(f"P{seat + 1}" for seat in obs["picking_order"][obs["turn"] :])
        items.append(f"Picks left: {picks}")
    return items


def _phase(obs: dict[str, Any]) -> list[str]:
    """What the phase under way has on the table: the draft row's customers (by slot, the
    slots taken left out), the service pool, or what is left of a shop's maintenance."""
    phase = obs["phase"]
    if phase == "customers":
        slots = [f"{i + 1}. {card}" for i, card in enumerate(obs["row"]) if card is not None]
        return packed("Draft row: ", slots or ["empty"], "   ")
    if phase == "service":
        played = " ".join(obs["played"]) or "none"
        served = obs["served_this_service"]
        if not (obs["pool"] or obs["played"] or served):  # a service not begun: nothing to say
            return []
        items = [f"{obs['pool'] or 'empty'};", f"cards played: {played};", f"served: {served}"]
        return packed("Service pool: ", items, " ")
    if obs["maintenance"]:
        m = obs["maintenance"]
        bought = "advertised" if m["advertised"] else "not advertised"
        return [f"Maintenance: supplies left to buy {m['buys_left']}, {bought}"]
    return []


def _player(obs: dict[str, Any], seat: int) -> list[str]:
    """A shop's line, then its queue below (an empty one said on the shop's line where it
    fits there)."""
    shop = _shop(obs["players"][seat], obs["first_game"], _known_in(obs, seat))
    lines = packed(f"{_name(obs, seat)}: ", shop, " ")
    queue = [f"{i + 1}. {_customer(c)}" for i, c in enumerate(obs["queues"][seat])]
    if queue:
        return [*lines, *packed(QUEUE, queue, " | ")]
    if len(lines[-1]) + len(EMPTY) <= WIDTH:
        lines[-1] += EMPTY
        return lines
    return [*lines, QUEUE + "empty"]


def _known_in(obs: dict[str, Any], seat: int) -> list[str]:
    """The food cards the viewer saw go into `seat`'s hidden hand and knows are still there
    (a Ninja's loot, to its victim): nobody else's knowledge, and none for a spectator."""
    if obs["hand"] is None:
        return []
    return [card["food"] for card in obs["hand"]["known_in_other_hands"] if card["player"] == seat]


def _shop(player: dict[str, Any], first_game: bool, known: list[str]) -> list[str]:
    """A shop's money (and loans), reputation, the sizes of its hands (no unforeseen cards in
    the first game) with the food cards the viewer knows in it, and what its customers give
    this round where a card changed it."""
    money = f"money {player['money']}"
    if player["loans"]:
        money += f" ({plural(player['loans'], 'loan')}: {player['net_money']} net)"
    food = plural(player["food_cards"], "food card")
    if known:
        food += f" (you know {' '.join(known)})"
    items = [money, f"reputation {player['reputation']}", food]
    if not first_game:
        items.append(f"{player['unforeseen_cards']} unforeseen")
    changed = []
    if player["served_reputation"]:
        changed.append(
            f"each customer served gives {_more(player['served_reputation'])} reputation"
        )
    if player["served_money"]:
        changed.append(f"each customer served pays {_more(player['served_money'])} money")
    said = _with_commas(items)
    for item in changed:
        said[-1] += ";"
        said.append(item)
    return said


def _more(change: int) -> str:
    """A change to what a customer gives, as a player says it: "1 more", "2 less"."""
    return f"{abs(change)} {'more' if change > 0 else 'less'}"


def _customer(customer: dict[str, Any]) -> str:
    if customer["waiting"]:
        return "Big Phone Order (its cards come in the phone step)"
    text = f"{customer['order'] or '-'} {customer['money']}/{customer['influence']}"
    marks = []
    if customer["big"]:
        marks.append("BIG: " + " + ".join(customer["cards"]))  # the card the row calls BIG
    elif customer["phone"]:
        marks.append("phone")
    if customer["annoyed"]:
        marks.append("ANNOYED")
    if customer["tip"]:
        marks.append(f"tip +{customer['tip']}")
    marks.extend(customer["attached"])
    return f"{text} ({', '.join(marks)})" if marks else text


def _effects(obs: dict[str, Any]) -> list[str]:
    """Unforeseen cards played this round that wait for its end (`PLAYED_THIS_ROUND`), and
    the cancels to come."""
    lines = []
    in_play = [counted(card, count) for card, count in obs["in_play"].items()]
    if in_play:
        lines.extend(packed(f"{PLAYED_THIS_ROUND}: ", _with_commas(in_play), " "))
    cancels = obs["cancels_pending"]
    if cancels:
        cards = f"{cancels} unforeseen cards" if cancels > 1 else "unforeseen card"
        lines.append(f"The next {cards} played {'have' if cancels > 1 else 'has'} no effect")
    return lines


def _with_commas(items: list[str]) -> list[str]:
    """`items` to be `packed` as a list: each but the last with its comma, which stays at the
    end of a line where the list goes on to the next."""
    return [f"{item}," for item in items[:-1]] + items[-1:]


def _hand(hand: dict[str, Any], first_game: bool, limit: int, to_discard: bool) -> list[str]:
    """The viewer's own cards: their food cards, then their unforeseen cards (none in the
    first game), on one line where it holds both. A hand over the limit says so (SW-1.4), and
    that the holder discards when it is their turn (chance discards for them where the rules
    option says so, and another player may be discarding first)."""
    food = hand["food"] or ["none"]
    over = len(hand["food"]) - limit
    label = "Your food cards: "
    if over > 0:
        then = ": discard" if to_discard else ""
        label = f"Your food cards ({over} over the limit of {limit}{then}): "
    if first_game:
        return packed(label, food, " ")
    counts = Counter(hand["unforeseen"])
    unforeseen = [counted(card, n) for card, n in counts.items()] or ["none"]
    both = f"{label}{' '.join(food)} | unforeseen: {', '.join(unforeseen)}"
    if len(both) <= WIDTH:
        return [both]
    return [
        *packed(label, food, " "),
        *packed("Your unforeseen: ", _with_commas(unforeseen), " "),
    ]


def reference_text(obs: dict[str, Any], cards: CardSet) -> str:
    """What a player of the observed position may look up beside the picture, all of it
    public or their own: what their unforeseen cards and those in play or on a customer do,
    the food cards they saw go into another hand, the decks (their sizes, never their order)
    and discards, the shops' identity cards, the legend and the customers' marks."""
    texts = {kind.id: kind.text for kind in cards.unforeseen}
    lines = []
    if obs["hand"] is not None:
        lines.extend(_card_texts("Your unforeseen cards", obs["hand"]["unforeseen"], texts))
    lines.extend(_card_texts(PLAYED_THIS_ROUND, list(obs["in_play"]), texts))
    on_customers = [card for queue in obs["queues"] for c in queue for card in c["attached"]]
    lines.extend(_card_texts("On customers", on_customers, texts))
    lines.extend(_known_hands(obs))
    lines.extend(_piles(obs))
    lines.append("Shops (identity cards, SW-0.4):")
    for seat, player in enumerate(obs["players"]):
        lines.extend(_wrapped(f"{_name(obs, seat)}: {_identity(player['identity'])}"))
    lines.append(LEGEND)
    lines.extend(textwrap.wrap(MARKS, WIDTH, subsequent_indent="  "))
    return "\n".join(lines)


def _card_texts(title: str, ids: Sequence[str], texts: dict[str, str]) -> list[str]:
    if not ids:
        return []
    lines = [f"{title}:"]
    for card in dict.fromkeys(ids):  # each kind once, in the order held
        lines.extend(_wrapped(f"{card}: {texts[card]}"))
    return lines


def _known_hands(obs: dict[str, Any]) -> list[str]:
    """The food cards the viewer knows to be in other hands, by holder (none: no lines)."""
    holders = [seat for seat in range(len(obs["players"])) if _known_in(obs, seat)]
    if not holders:
        return []
    lines = ["Food cards you know are in other hands (you saw them go in):"]
    for seat in holders:
        lines.extend(_wrapped(f"{_name(obs, seat)} holds {' '.join(_known_in(obs, seat))}"))
    return lines


def _wrapped(text: str) -> list[str]:
    """`text` as lines of at most `WIDTH`, indented under a heading."""
    return textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="      ")


def _piles(obs: dict[str, Any]) -> list[str]:
    decks = obs["decks"]
    discards = {name: sum(pile.values()) for name, pile in obs["discards"].items()}
    return [
        f"Decks: food {decks['food']}, customers {decks['customers']}, "
        f"unforeseen {decks['unforeseen']}.",
        f"Discards: food {discards['food']}, customers {discards['customers']}, "
        f"unforeseen {discards['unforeseen']}.",
    ]


def _identity(shop: dict[str, Any]) -> str:
    return (
        f"operating cost {shop['operating_cost']} a round; supplies: "
        f"{plural(shop['supplies_cards'], 'food card')} for {shop['supplies_cost']} money, "
        f"{_times(shop['supplies_per_round'])} a round at most; advertising: "
        f"+{shop['advertising_reputation']} reputation for {shop['advertising_cost']} money"
    )


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")

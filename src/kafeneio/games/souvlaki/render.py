"""A plain-text picture of a Souvlaki Wars position, drawn from one player's observation only,
so it never shows what that player may not see."""

from __future__ import annotations

from typing import Any

from kafeneio.core.events import packed, plural
from kafeneio.games.souvlaki.cards import FOOD_LETTERS, FOOD_NAMES

PHASE_TITLES = {
    "mulligan": "before round 1: keep or redraw the starting food cards",
    "maintenance": "phase 1, Shop Maintenance",
    "customers": "phase 2, New Customers",
    "unforeseen": "phase 3, Unforeseen Factors",
    "service": "phase 4, Customer Service",
    "over": "the game is over",
}
LEGEND = "Customers: order money/influence; " + ", ".join(
    f"{letter} {name}" for letter, name in zip(FOOD_LETTERS, FOOD_NAMES, strict=True)
)


def render_observation(obs: dict[str, Any]) -> str:
    players = obs["players"]
    lines = [_title(obs), _turns(obs), ""]
    for seat, player in enumerate(players):
        lines.extend(_player(obs, seat, player))
    lines.append("")
    if obs["phase"] == "customers":
        lines.append(_row(obs))
    if obs["phase"] == "service":
        lines.append(_service(obs))
    lines.extend(_table(obs))
    if obs["hand"] is not None:
        lines.extend(_hand(obs))
    lines.append(LEGEND)
    return "\n".join(lines)


def _name(obs: dict[str, Any], seat: int) -> str:
    return f"P{seat + 1} {obs['players'][seat]['shop_name']}"


def _title(obs: dict[str, Any]) -> str:
    when = f"round {obs['round']} of at most {obs['round_limit']}" if obs["round"] else "setup"
    mode = " (first game: no unforeseen cards)" if obs["first_game"] else ""
    return f"Souvlaki Wars{mode}, {when}: {PHASE_TITLES[obs['phase']]}"


def _turns(obs: dict[str, Any]) -> str:
    if obs["phase"] == "over":
        winners = ", ".join(_name(obs, seat) for seat in obs["winners"])
        return f"Won by {winners}"
    order = " > ".join(_name(obs, seat) for seat in obs["turn_order"])
    mover = obs["to_move"]
    if mover >= 0:
        who = _name(obs, mover)
    else:
        task = obs["random_pending"][0]
        who = f"chance, a random food card from P{task['from'] + 1}"
    line = f"Turn order: {order}. To move: {who}"
    if obs["picking_order"]:
        picks = " ".join(f"P{seat + 1}" for seat in obs["picking_order"][obs["turn"] :])
        line += f". Picks left: {picks}"
    return line


def _player(obs: dict[str, Any], seat: int, player: dict[str, Any]) -> list[str]:
    money = f"money {player['money']}"
    if player["loans"]:
        money += f" ({player['loans']} loans: {player['net_money']} net)"
    mods = []
    if player["served_reputation"]:
        mods.append(f"customers give {player['served_reputation']:+d} reputation this round")
    if player["served_money"]:
        mods.append(f"customers pay {player['served_money']:+d} this round")
    head = (
        f"{_name(obs, seat)}: {money}, reputation {player['reputation']}, "
        f"{plural(player['food_cards'], 'food card')}, {player['unforeseen_cards']} unforeseen"
    )
    if mods:
        head += "; " + "; ".join(mods)
    queue = obs["queues"][seat]
    shown = [f"{i + 1}. {_customer(c)}" for i, c in enumerate(queue)]
    return [head, *packed("   queue: ", shown or ["empty"], " | ")]


def _customer(customer: dict[str, Any]) -> str:
    if customer["waiting"]:
        return "Big Phone Order (its cards come in the phone step)"
    text = f"{customer['order'] or '-'} {customer['money']}/{customer['influence']}"
    marks = []
    if customer["big"]:
        marks.append("BIG phone order of " + " + ".join(customer["cards"]))
    elif customer["phone"]:
        marks.append("phone")
    if customer["annoyed"]:
        marks.append("ANNOYED")
    if customer["tip"]:
        marks.append(f"tip +{customer['tip']}")
    marks.extend(customer["attached"])
    return f"{text} ({', '.join(marks)})" if marks else text


def _row(obs: dict[str, Any]) -> str:
    slots = [f"{i + 1}. {card or '-'}" for i, card in enumerate(obs["row"])]
    return "Draft row: " + ("   ".join(slots) if slots else "empty")


def _service(obs: dict[str, Any]) -> str:
    played = " ".join(obs["played"]) or "none"
    return (
        f"Service pool: {obs['pool'] or 'empty'} (cards played: {played}; "
        f"customers served: {obs['served_this_service']})"
    )


def _table(obs: dict[str, Any]) -> list[str]:
    decks = obs["decks"]
    discards = {name: sum(pile.values()) for name, pile in obs["discards"].items()}
    lines = [
        f"Decks: food {decks['food']}, customers {decks['customers']}, "
        f"unforeseen {decks['unforeseen']}. Discards: food {discards['food']}, "
        f"customers {discards['customers']}, unforeseen {discards['unforeseen']}."
    ]
    in_play = [f"{card} x{count}" for card, count in obs["in_play"].items()]
    if in_play:
        lines.append("In play until the end of the round: " + ", ".join(in_play))
    if obs["cancels_pending"]:
        lines.append(f"The next {obs['cancels_pending']} unforeseen card(s) played have no effect")
    if obs["maintenance"]:
        m = obs["maintenance"]
        bought = "advertised" if m["advertised"] else "not advertised"
        lines.append(f"Maintenance: supplies left to buy {m['buys_left']}, {bought}")
    return lines


def _hand(obs: dict[str, Any]) -> list[str]:
    hand = obs["hand"]
    food = " ".join(hand["food"]) or "none"
    unforeseen = ", ".join(hand["unforeseen"]) or "none"
    rules = [f"  {card}: {text}" for card, text in hand["unforeseen_text"].items()]
    return [f"Your food cards: {food}", f"Your unforeseen cards: {unforeseen}", *rules]

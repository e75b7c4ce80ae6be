"""What one player may know of a Souvlaki Wars position, as JSON-ready data.

Public: customers, queues, the draft row, money, loans, reputation, the service pool, discard
piles, cards in play, deck and hand sizes. Hidden: the food and unforeseen hands of the other
players and the order of every deck (SW-S.3, SW-S.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafeneio.core.game import JSON
from kafeneio.games.souvlaki.cards import foods_text
from kafeneio.games.souvlaki.customer import SEND_AWAY_COST, Customer
from kafeneio.games.souvlaki.setup import CUSTOMERS, DECKS, FOOD, UNFORESEEN

if TYPE_CHECKING:
    from kafeneio.games.souvlaki.state import SouvlakiState


IDENTITY_FIELDS = (
    "start_money",
    "start_reputation",
    "operating_cost",
    "supplies_cost",
    "supplies_cards",
    "supplies_per_round",
    "advertising_cost",
    "advertising_reputation",
)
"""The identity card lies face up (SW-0.4): everyone sees every shop's numbers."""


def observe(state: SouvlakiState, viewer: int | None) -> JSON:
    """`viewer`'s view; None is a spectator, who sees no hand."""
    cards = state.cards
    options = state.options
    phase = state.phase
    return {
        "game": "souvlaki",
        "player": viewer,
        "to_move": state.current_player(),
        "round": state.round,
        "round_limit": options.round_limit,
        "rules": {
            "win_money": options.win_money,
            "win_reputation": options.win_reputation,
            "send_away_cost": SEND_AWAY_COST,
        },
        "phase": phase,
        "first_game": options.first_game,
        "turn_order": state.turn_order,
        "picking_order": list(state._order) if phase == "customers" else None,
        "turn": state._turn,
        "players": [_player(state, p) for p in range(state.num_players)],
        "hand": _hand(state, viewer) if viewer is not None else None,
        "queues": [[_customer(state, c) for c in queue] for queue in state._queues],
        "row": [cards.customers[card].text if card >= 0 else None for card in state._row],
        "pool": foods_text((state._pool[0], state._pool[1], state._pool[2], state._pool[3])),
        "played": _names(state._played, [card.text for card in cards.foods]),
        "served_this_service": state._served,
        "maintenance": {"buys_left": state._buys_left, "advertised": state._advertised}
        if phase == "maintenance"
        else None,
        "decks": {name: len(state._decks[deck]) for deck, name in enumerate(DECKS)},
        "discards": {
            "food": _counted(state._discards[FOOD], [card.text for card in cards.foods]),
            "customers": _counted(state._discards[CUSTOMERS], [c.text for c in cards.customers]),
            "unforeseen": _counted(state._discards[UNFORESEEN], [k.id for k in cards.unforeseen]),
        },
        "in_play": _counted(state._in_play, [kind.id for kind in cards.unforeseen]),
        "cancels_pending": state._cancels,
        "resolving": cards.unforeseen[state._effect[0]].id if state._effect else None,
        "random_pending": [
            {"from": v, "to": r if r >= 0 else None} for v, r in state._random_tasks
        ],
        "winners": state.winners(),
    }


def _player(state: SouvlakiState, player: int) -> JSON:
    shop = state.cards.shops[state._shops[player]]
    return {
        "shop": shop.id,
        "shop_name": shop.name,
        "identity": {name: getattr(shop, name) for name in IDENTITY_FIELDS},
        "money": state._money[player],
        "loans": state._loans[player],
        "net_money": state.net_money(player),
        "reputation": state._reputation[player],
        "food_cards": state._food_size[player],
        "unforeseen_cards": sum(state._unforeseen[player]),
        "served_reputation": state._served_reputation[player],
        "served_money": state._served_money[player],
    }


def _hand(state: SouvlakiState, viewer: int) -> JSON:
    kinds = state.cards.unforeseen
    return {
        "food": state.food_hand(viewer),
        "unforeseen": _names(state._unforeseen[viewer], [kind.id for kind in kinds]),
        "known_in_other_hands": [
            {"player": holder, "food": state.cards.foods[kind].text}
            for holder, kind, knower in state._revealed
            if knower == viewer
        ],
        "unforeseen_text": {
            kind.id: kind.text
            for kind, count in zip(kinds, state._unforeseen[viewer], strict=True)
            if count
        },
    }


def _customer(state: SouvlakiState, customer: Customer) -> JSON:
    cards = state.cards
    return {
        "order": foods_text(customer.order),
        "money": customer.money,
        "influence": customer.influence,
        "phone": customer.phone,
        "big": customer.big >= 0,
        "annoyed": customer.annoyed,
        "tip": customer.tip,
        "cards": [cards.customers[kind].text for kind in customer.cards],
        "attached": [cards.unforeseen[kind].id for kind in customer.attached],
        "waiting": customer.waiting,
    }


def _names(counts: list[int], names: list[str]) -> list[str]:
    return [names[kind] for kind, count in enumerate(counts) for _ in range(count)]


def _counted(counts: list[int], names: list[str]) -> dict[str, int]:
    return {names[kind]: count for kind, count in enumerate(counts) if count}


def where_cards_are(state: SouvlakiState) -> list[list[int]]:
    """Per deck, how many of each kind are anywhere: deck, hands, row, queues, pool, discards,
    in play, or on the card being resolved. Equal to the card set's counts in a sound state."""
    sizes = [len(state.cards.foods), len(state.cards.customers), len(state.cards.unforeseen)]
    counts = [[0] * size for size in sizes]
    for deck, cards in enumerate(state._decks):
        for kind in cards:
            counts[deck][kind] += 1
    zones = [
        (FOOD, [*state._food, state._played, state._discards[FOOD]]),
        (UNFORESEEN, [*state._unforeseen, state._in_play, state._discards[UNFORESEEN]]),
        (CUSTOMERS, [state._discards[CUSTOMERS]]),
    ]
    for deck, zone_counts in zones:
        for zone in zone_counts:
            for kind, count in enumerate(zone):
                counts[deck][kind] += count
    for card in state._row:
        if card >= 0:
            counts[CUSTOMERS][card] += 1
    for queue in state._queues:
        for customer in queue:
            for kind in (*customer.cards, *((customer.big,) if customer.big >= 0 else ())):
                counts[CUSTOMERS][kind] += 1
            for kind in customer.attached:
                counts[UNFORESEEN][kind] += 1
    if state._effect is not None:
        counts[UNFORESEEN][state._effect[0]] += 1
    return counts


def card_counts(state: SouvlakiState) -> dict[str, int]:
    """How many cards of each deck are in the game, wherever they are."""
    return {name: sum(kinds) for name, kinds in zip(DECKS, where_cards_are(state), strict=True)}


def knowledge(state: SouvlakiState, viewer: int) -> list[tuple[int, str]]:
    """What `viewer` knows to be in another player's hidden hand: (holder, food card)."""
    foods = state.cards.foods
    return [
        (holder, foods[kind].text) for holder, kind, knower in state._revealed if knower == viewer
    ]


def inconsistencies(state: SouvlakiState) -> list[str]:
    """What makes `state` an impossible world: a card lost or made up, a hand size that is not
    its cards, or a player knowing a card to be in a hand that does not hold it."""
    problems = []
    totals = (state.cards.foods, state.cards.customers, state.cards.unforeseen)
    for deck, counts in enumerate(where_cards_are(state)):
        for kind, count in enumerate(counts):
            if count != totals[deck][kind].count:
                problems.append(
                    f"{DECKS[deck]} kind {kind}: {count} cards, not {totals[deck][kind].count}"
                )
    for player, (food, unforeseen) in enumerate(zip(state._food, state._unforeseen, strict=True)):
        if min(food + unforeseen) < 0 or sum(food) != state._food_size[player]:
            problems.append(f"player {player}'s hands {food} {unforeseen} are not sound")
    for deck, drawn in ((FOOD, state._food_drawn), (UNFORESEEN, state._unforeseen_drawn)):
        kinds = len(state._deck_origin[deck])
        accounted = [0] * kinds
        for kind in state._decks[deck]:
            accounted[kind] += 1
        for index, count in enumerate(drawn):
            accounted[index % kinds] += count
        if min(drawn) < 0 or tuple(accounted) != state._deck_origin[deck]:
            problems.append(
                f"the {DECKS[deck]} deck and the cards drawn from it are not what it was made of"
            )
    known: dict[tuple[int, int, int], int] = {}
    for entry in state._revealed:
        known[entry] = known.get(entry, 0) + 1
    for (holder, kind, knower), count in known.items():
        held = state._food[holder][kind]
        if held < count:
            card = state.cards.foods[kind].text
            problems.append(
                f"player {knower} knows {count} {card} in player {holder}'s hand: {held}"
            )
    return problems

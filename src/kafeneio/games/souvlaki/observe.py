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

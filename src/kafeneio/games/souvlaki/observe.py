"""What one player may know of a Souvlaki Wars position, as JSON-ready data.

Public: customers, queues, the draft row, money, loans, reputation, the service pool, discard
piles, cards in play, deck and hand sizes. Hidden: the food and unforeseen hands of the other
players and the order of every deck (SW-S.3, SW-S.4).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafeneio.core.events import seat
from kafeneio.core.game import JSON
from kafeneio.games.souvlaki.cards import foods_text
from kafeneio.games.souvlaki.customer import SEND_AWAY_COST, Customer
from kafeneio.games.souvlaki.setup import CUSTOMERS, DECKS, FOOD, UNFORESEEN

if TYPE_CHECKING:
    from kafeneio.games.souvlaki.cards import CardSet
    from kafeneio.games.souvlaki.options import SouvlakiOptions


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


def _names(counts: list[int], names: list[str]) -> list[str]:
    return [names[kind] for kind, count in enumerate(counts) for _ in range(count)]


def _counted(counts: list[int], names: list[str]) -> dict[str, int]:
    return {names[kind]: count for kind, count in enumerate(counts) if count}


class SouvlakiObservation:
    """What each viewer of a `SouvlakiState` may know (`_view`), and the card bookkeeping the
    conformance harness checks. A mixin of the state, so that it reads the state's own fields."""

    if TYPE_CHECKING:  # what the mixin uses of the state; `SouvlakiState` declares the fields
        cards: CardSet
        options: SouvlakiOptions
        num_players: int
        _advertised: bool
        _buys_left: int
        _cancels: int
        _deck_origin: tuple[tuple[int, ...], ...]
        _decks: list[list[int]]
        _discards: list[list[int]]
        _effect: tuple[int, int, tuple[int, ...], int] | None
        _food: list[list[int]]
        _food_drawn: list[int]
        _food_size: list[int]
        _in_play: list[int]
        _loans: list[int]
        _money: list[int]
        _order: list[int]
        _played: list[int]
        _pool: list[int]
        _queues: list[list[Customer]]
        _random_tasks: list[tuple[int, int]]
        _reputation: list[int]
        _revealed: list[tuple[int, int, int]]
        _row: list[int]
        _served: int
        _served_money: list[int]
        _served_reputation: list[int]
        _shops: tuple[int, ...]
        _turn: int
        _unforeseen: list[list[int]]
        _unforeseen_drawn: list[int]

        @property
        def phase(self) -> str: ...
        @property
        def round(self) -> int: ...
        @property
        def turn_order(self) -> list[int]: ...
        def current_player(self) -> int: ...
        def food_hand(self, player: int) -> list[str]: ...
        def net_money(self, player: int) -> int: ...
        def winners(self) -> list[int]: ...

    def _view(self, viewer: int | None) -> JSON:
        """`viewer`'s view; None is a spectator, who sees no hand."""
        cards = self.cards
        options = self.options
        phase = self.phase
        return {
            "game": "souvlaki",
            "player": viewer,
            "to_move": self.current_player(),
            "round": self.round,
            "round_limit": options.round_limit,
            # every option: the players agree on them, so every viewer sees them all
            "rules": {**options.to_dict(), "send_away_cost": SEND_AWAY_COST},
            "phase": phase,
            "first_game": options.first_game,
            "turn_order": self.turn_order,
            "picking_order": list(self._order) if phase == "customers" else None,
            "turn": self._turn,
            "players": [self._view_player(p) for p in range(self.num_players)],
            "hand": self._view_hand(viewer) if viewer is not None else None,
            "queues": [[self._view_customer(c) for c in queue] for queue in self._queues],
            "row": [cards.customers[card].text if card >= 0 else None for card in self._row],
            "pool": foods_text((self._pool[0], self._pool[1], self._pool[2], self._pool[3])),
            "played": _names(self._played, [card.text for card in cards.foods]),
            "served_this_service": self._served,
            "maintenance": {"buys_left": self._buys_left, "advertised": self._advertised}
            if phase == "maintenance"
            else None,
            "decks": {name: len(self._decks[deck]) for deck, name in enumerate(DECKS)},
            "discards": {
                "food": _counted(self._discards[FOOD], [card.text for card in cards.foods]),
                "customers": _counted(self._discards[CUSTOMERS], [c.text for c in cards.customers]),
                "unforeseen": _counted(
                    self._discards[UNFORESEEN], [k.id for k in cards.unforeseen]
                ),
            },
            "in_play": _counted(self._in_play, [kind.id for kind in cards.unforeseen]),
            "cancels_pending": self._cancels,
            "resolving": cards.unforeseen[self._effect[0]].id if self._effect else None,
            "random_pending": [
                {"from": v, "to": r if r >= 0 else None} for v, r in self._random_tasks
            ],
            "winners": self.winners(),
        }

    def _view_player(self, player: int) -> JSON:
        shop = self.cards.shops[self._shops[player]]
        return {
            "shop": shop.id,
            "shop_name": shop.name,
            "identity": {name: getattr(shop, name) for name in IDENTITY_FIELDS},
            "money": self._money[player],
            "loans": self._loans[player],
            "net_money": self.net_money(player),
            "reputation": self._reputation[player],
            "food_cards": self._food_size[player],
            "unforeseen_cards": sum(self._unforeseen[player]),
            "served_reputation": self._served_reputation[player],
            "served_money": self._served_money[player],
        }

    def _view_hand(self, viewer: int) -> JSON:
        kinds = self.cards.unforeseen
        held = [kind for kind, count in zip(kinds, self._unforeseen[viewer], strict=True) if count]
        return {
            "food": self.food_hand(viewer),
            "unforeseen": _names(self._unforeseen[viewer], [kind.id for kind in kinds]),
            "known_in_other_hands": [
                {"player": holder, "food": self.cards.foods[kind].text}
                for holder, kind, knower in self._revealed
                if knower == viewer
            ],
            "unforeseen_text": {kind.id: kind.text for kind in held},
            "unforeseen_names": {kind.id: kind.name for kind in held},  # as the log says them
        }

    def _view_customer(self, customer: Customer) -> JSON:
        cards = self.cards
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
            "attached_names": [cards.unforeseen[kind].name for kind in customer.attached],
            "waiting": customer.waiting,
            "leaves_for": customer.leaving_loss(),  # if it leaves annoyed (SW-4.8)
        }

    def _where_cards_are(self) -> list[list[int]]:
        """Per deck, how many of each kind are anywhere: deck, hands, row, queues, pool, discards,
        in play, or on the card being resolved. Equal to the card set's counts in a sound self."""
        sizes = [len(self.cards.foods), len(self.cards.customers), len(self.cards.unforeseen)]
        counts = [[0] * size for size in sizes]
        for deck, cards in enumerate(self._decks):
            for kind in cards:
                counts[deck][kind] += 1
        zones = [
            (FOOD, [*self._food, self._played, self._discards[FOOD]]),
            (UNFORESEEN, [*self._unforeseen, self._in_play, self._discards[UNFORESEEN]]),
            (CUSTOMERS, [self._discards[CUSTOMERS]]),
        ]
        for deck, zone_counts in zones:
            for zone in zone_counts:
                for kind, count in enumerate(zone):
                    counts[deck][kind] += count
        for card in self._row:
            if card >= 0:
                counts[CUSTOMERS][card] += 1
        for queue in self._queues:
            for customer in queue:
                for kind in (*customer.cards, *((customer.big,) if customer.big >= 0 else ())):
                    counts[CUSTOMERS][kind] += 1
                for kind in customer.attached:
                    counts[UNFORESEEN][kind] += 1
        if self._effect is not None:
            counts[UNFORESEEN][self._effect[0]] += 1
        return counts

    def _card_counts_of(self) -> dict[str, int]:
        """How many cards of each deck are in the game, wherever they are."""
        return {
            name: sum(kinds) for name, kinds in zip(DECKS, self._where_cards_are(), strict=True)
        }

    def _knowledge_of(self, viewer: int) -> list[tuple[int, str]]:
        """What `viewer` knows to be in another player's hidden hand: (holder, food card)."""
        foods = self.cards.foods
        return [
            (holder, foods[kind].text)
            for holder, kind, knower in self._revealed
            if knower == viewer
        ]

    def _inconsistencies_of(self) -> list[str]:
        """What makes `state` an impossible world: a card lost or made up, a hand size that is not
        its cards, or a player knowing a card to be in a hand that does not hold it."""
        problems = []
        totals = (self.cards.foods, self.cards.customers, self.cards.unforeseen)
        for deck, counts in enumerate(self._where_cards_are()):
            for kind, count in enumerate(counts):
                if count != totals[deck][kind].count:
                    problems.append(
                        f"{DECKS[deck]} kind {kind}: {count} cards, not {totals[deck][kind].count}"
                    )
        for player, (food, unforeseen) in enumerate(zip(self._food, self._unforeseen, strict=True)):
            if min(food + unforeseen) < 0 or sum(food) != self._food_size[player]:
                problems.append(f"{seat(player)}'s hands {food} {unforeseen} are not sound")
        for deck, drawn in ((FOOD, self._food_drawn), (UNFORESEEN, self._unforeseen_drawn)):
            kinds = len(self._deck_origin[deck])
            accounted = [0] * kinds
            for kind in self._decks[deck]:
                accounted[kind] += 1
            for index, count in enumerate(drawn):
                accounted[index % kinds] += count
            if min(drawn) < 0 or tuple(accounted) != self._deck_origin[deck]:
                what = f"the {DECKS[deck]} deck and the cards drawn from it"
                problems.append(f"{what} are not what it was made of")
        known: dict[tuple[int, int, int], int] = {}
        for entry in self._revealed:
            known[entry] = known.get(entry, 0) + 1
        for (holder, kind, knower), count in known.items():
            held = self._food[holder][kind]
            if held < count:
                card = self.cards.foods[kind].text
                problems.append(
                    f"{seat(knower)} knows {count} {card} in {seat(holder)}'s hand: {held}"
                )
        return problems

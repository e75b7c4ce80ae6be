"""Unforeseen cards (SW-3, SW-E): who a card may be played on, and its effect primitives.

A card kind is data (`cards.UnforeseenKind`): a target and a list of primitives. Playing one
runs its primitives in order; a primitive that takes food cards at random leaves chance to pick
them, and the card's remaining primitives run once chance has (`run_effects`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kafeneio.games.souvlaki import events as ev
from kafeneio.games.souvlaki.actions import MAX_QUEUE, SouvlakiAction, Targets
from kafeneio.games.souvlaki.cards import CUSTOMER_EFFECTS, CardSet, Effect, Target, UnforeseenKind
from kafeneio.games.souvlaki.customer import Customer
from kafeneio.games.souvlaki.setup import UNFORESEEN

if TYPE_CHECKING:
    from kafeneio.core.events import Words
    from kafeneio.games.souvlaki import SouvlakiGame


def customer_misfit(
    target: Target, player: int, owner: int, position: int, customer: Customer
) -> str | None:
    """Why the customer at `position` of `owner`'s queue is not a target; None if it is."""
    if target.phone == "normal" and customer.phone:
        return "is a phone order, and the card needs a normal customer"
    if target.phone == "phone" and not customer.phone:
        return "is not a phone order"
    if target.annoyed == "yes" and not customer.annoyed:
        return "is not annoyed"
    if target.annoyed == "no" and customer.annoyed:
        return "is already annoyed"
    if target.position == "not-first" and position == 0:
        return "is first in its queue"
    if target.owner == "opponent" and owner == player:
        return "is in your own queue, and the card needs an opponent's customer"
    if target.owner == "yours" and owner != player:
        return "is in another player's queue"
    return None


class UnforeseenEffects:
    """The unforeseen-card rules of `SouvlakiState`, kept in their own module: who a card may be
    played on (`legal_uses`), and playing it (`play_card`, `run_effects`). A mixin, so that its
    methods work on the state's own fields."""

    if TYPE_CHECKING:  # what the mixin uses of the state; `SouvlakiState` declares the fields
        game: SouvlakiGame
        cards: CardSet
        num_players: int
        _unforeseen: list[list[int]]
        _queues: list[list[Customer]]
        _discards: list[list[int]]
        _order: list[int]
        _in_play: list[int]
        _random_tasks: list[tuple[int, int]]
        _served_reputation: list[int]
        _served_money: list[int]
        _cancels: int
        _effect: tuple[int, int, tuple[int, ...], int] | None

        @property
        def is_quiet(self) -> bool: ...
        def emit(self, kind: str, words: Words, *args: Any) -> None: ...
        def queue(self, player: int) -> list[Customer]: ...
        def change_money(self, player: int, amount: int, why: str) -> None: ...
        def change_reputation(self, player: int, amount: int, why: str | None = None) -> None: ...
        def add_phone_order(self, player: int) -> None: ...
        def _draw_food(self, player: int, count: int) -> None: ...

    def legal_uses(self, player: int) -> list[SouvlakiAction]:
        """SW-3.1, SW-3.2: each card in hand on each target it may take."""
        space = self.game.space
        kinds = self.cards.unforeseen
        actions = []
        for card, count in enumerate(self._unforeseen[player]):
            if count:
                for targets in self.target_choices(player, kinds[card].target):
                    actions.append(space.use(card, targets))
        return actions

    def target_choices(self, player: int, target: Target) -> list[Targets]:
        """SW-3.2: "a player" may be the one playing; "an opponent" may not; a customer is
        anyone's."""
        kind = target.kind
        players = range(self.num_players)
        if kind in ("none", "yourself", "everyone"):
            return [()]
        if kind == "player":
            return [(p,) for p in players]
        if kind == "opponent":
            return [(p,) for p in players if p != player]
        customers: list[Targets] = [
            (p, i)
            for p in players
            for i, customer in enumerate(self._queues[p][:MAX_QUEUE])
            if customer_misfit(target, player, p, i, customer) is None
        ]
        if kind == "customer":
            return customers
        return [
            (*a, *b) for x, a in enumerate(customers) for b in customers[x + 1 :] if a[0] != b[0]
        ]

    def play_card(self, owner: int, action: SouvlakiAction) -> None:
        """Play unforeseen kind `action.card` from `owner`'s hand on `action.targets`."""
        card = action.card
        on = "" if self.is_quiet else ev.targets_words(action.targets, self.queue)  # words cost
        self._unforeseen[owner][card] -= 1
        self.emit("use", ev.used, self.cards, owner, card, on)
        if self._cancels:  # SW-E.1, SW-U.1: cancelled by an earlier Change of Plans
            self._cancels -= 1
            self._discards[UNFORESEEN][card] += 1
            self.emit("cancelled", ev.cancelled, self.cards, owner, card)
            return
        self._effect = (card, owner, action.targets, 0)
        self.run_effects()

    def run_effects(self) -> None:
        """Run the card's primitives from where it stopped; stop again when chance must pick."""
        assert self._effect is not None
        card, owner, targets, index = self._effect
        kind = self.cards.unforeseen[card]
        while index < len(kind.effects):
            targets = self._apply(kind, owner, targets, kind.effects[index])
            index += 1
            if self._random_tasks:
                self._effect = (card, owner, targets, index)
                return
        self._effect = None
        self._settle(kind, card, targets)

    def _settle(self, kind: UnforeseenKind, card: int, targets: Targets) -> None:
        """SW-3.4: the card is discarded when its effect ends: now, at the end of the round
        (SW-3.3) or when the customer it lies on leaves."""
        duration = kind.duration
        if duration == "instant":
            self._discards[UNFORESEEN][card] += 1
        elif duration == "round":
            self._in_play[card] += 1
        else:
            owner, position = targets[0], targets[1]
            customer = self._queues[owner][position]
            self._queues[owner][position] = customer.with_attached((*customer.attached, card))

    def _apply(self, kind: UnforeseenKind, owner: int, targets: Targets, effect: Effect) -> Targets:
        """One primitive; returns where the targeted customer is afterwards."""
        do = effect.do
        if do in CUSTOMER_EFFECTS:
            return self._on_customer(owner, targets, effect)
        if do == "swap-pair":  # SW-E.3, SW-U.3: both keep their state
            queues = self._queues
            first, second = queues[targets[0]], queues[targets[2]]
            first[targets[1]], second[targets[3]] = second[targets[3]], first[targets[1]]
        elif do == "cancel-next":  # SW-E.1
            self._cancels += effect.amount
        else:
            for player in self._players(kind, owner, targets, effect):
                self._on_player(owner, player, effect, kind.name)
        return targets

    def _players(
        self, kind: UnforeseenKind, owner: int, targets: Targets, effect: Effect
    ) -> list[int]:
        """Whom a player primitive acts on: the card's player, or the targeted player(s)."""
        target = kind.target.kind
        if effect.to == "you" or target == "yourself":
            return [owner]
        if target == "everyone":
            return list(self._order)  # in turn order (SW-R.2)
        if target == "customer-pair":
            return [targets[0], targets[2]]
        return [targets[0]]  # a player, an opponent, or the owner of the targeted customer

    def _on_player(self, owner: int, player: int, effect: Effect, kind_name: str) -> None:
        do, amount = effect.do, effect.amount
        if do == "money":
            self.change_money(player, amount, kind_name)
        elif do == "reputation":
            self.change_reputation(player, amount, kind_name)
        elif do == "draw-food":
            self._draw_food(player, amount)
        elif do == "phone-order":
            for _ in range(amount):
                self.add_phone_order(player)
        elif do in ("take-random-food", "discard-random-food"):
            receiver = owner if do == "take-random-food" else ev.DISCARDED
            self._random_tasks.extend([(player, receiver)] * amount)
        elif do == "served-reputation":
            self._served_reputation[player] += amount
        else:  # served-money
            self._served_money[player] += amount

    def _on_customer(self, owner: int, targets: Targets, effect: Effect) -> Targets:
        player, position = targets[0], targets[1]
        queue = self._queues[player]
        customer = queue[position]
        do = effect.do
        if do in ("annoy", "calm"):
            queue[position] = customer.with_annoyed(do == "annoy")
        elif do == "tip":  # SW-E.5, SW-U.5: the tip goes with the customer to whoever serves it
            queue[position] = customer.with_tip(customer.tip + effect.amount)
        elif do == "copy-order-ahead":  # SW-E.4, SW-U.4: money and influence stay
            queue[position] = customer.with_order(queue[position - 1].order)
        elif do == "swap-ahead":
            queue[position - 1], queue[position] = customer, queue[position - 1]
            return player, position - 1
        else:  # move-to-your-queue, keeping its state
            del queue[position]
            self._queues[owner].append(customer)
            return owner, len(self._queues[owner]) - 1
        return targets

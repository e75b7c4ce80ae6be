"""Unforeseen cards (SW-3, SW-E): who a card may be played on, and its effect primitives.

A card kind is data (`cards.UnforeseenKind`): a target and a list of primitives. Playing one
runs its primitives in order; a primitive that takes food cards at random leaves chance to pick
them, and the card's remaining primitives run once chance has (`run_effects`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from kafeneio.games.souvlaki import events as ev
from kafeneio.games.souvlaki.actions import MAX_QUEUE, SouvlakiAction, Targets
from kafeneio.games.souvlaki.cards import CUSTOMER_EFFECTS, Effect, Target, UnforeseenKind
from kafeneio.games.souvlaki.customer import Customer
from kafeneio.games.souvlaki.setup import UNFORESEEN

if TYPE_CHECKING:
    from kafeneio.games.souvlaki.state import SouvlakiState


def legal_uses(state: SouvlakiState, player: int) -> list[SouvlakiAction]:
    """SW-3.1, SW-3.2: each card in hand on each target it may take."""
    space = state.game.space
    kinds = state.cards.unforeseen
    actions = []
    for card, count in enumerate(state._unforeseen[player]):
        if count:
            for targets in target_choices(state, player, kinds[card].target):
                actions.append(space.use(card, targets))
    return actions


def target_choices(state: SouvlakiState, player: int, target: Target) -> list[Targets]:
    """SW-3.2: "a player" may be the one playing; "an opponent" may not; a customer is anyone's."""
    kind = target.kind
    players = range(state.num_players)
    if kind in ("none", "yourself", "everyone"):
        return [()]
    if kind == "player":
        return [(p,) for p in players]
    if kind == "opponent":
        return [(p,) for p in players if p != player]
    customers: list[Targets] = [
        (p, i)
        for p in players
        for i, customer in enumerate(state._queues[p][:MAX_QUEUE])
        if customer_misfit(target, player, p, i, customer) is None
    ]
    if kind == "customer":
        return customers
    return [(*a, *b) for x, a in enumerate(customers) for b in customers[x + 1 :] if a[0] != b[0]]


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


def play_card(state: SouvlakiState, owner: int, action: SouvlakiAction) -> None:
    """Play unforeseen kind `action.card` from `owner`'s hand on `action.targets`."""
    card = action.card
    state._unforeseen[owner][card] -= 1
    state.emit("use", ev.used, state.cards, owner, action)
    if state._cancels:  # SW-E.1, SW-U.1: cancelled by an earlier Change of Plans
        state._cancels -= 1
        state._discards[UNFORESEEN][card] += 1
        state.emit("cancelled", ev.cancelled, state.cards, owner, card)
        return
    state._effect = (card, owner, action.targets, 0)
    run_effects(state)


def run_effects(state: SouvlakiState) -> None:
    """Run the card's primitives from where it stopped; stop again when chance must pick."""
    assert state._effect is not None
    card, owner, targets, index = state._effect
    kind = state.cards.unforeseen[card]
    while index < len(kind.effects):
        targets = _apply(state, kind, owner, targets, kind.effects[index])
        index += 1
        if state._random_tasks:
            state._effect = (card, owner, targets, index)
            return
    state._effect = None
    _settle(state, kind, card, targets)


def _settle(state: SouvlakiState, kind: UnforeseenKind, card: int, targets: Targets) -> None:
    """SW-3.4: the card is discarded when its effect ends: now, at the end of the round
    (SW-3.3) or when the customer it lies on leaves."""
    duration = kind.duration
    if duration == "instant":
        state._discards[UNFORESEEN][card] += 1
    elif duration == "round":
        state._in_play[card] += 1
    else:
        owner, position = targets[0], targets[1]
        customer = state._queues[owner][position]
        state._queues[owner][position] = replace(customer, attached=(*customer.attached, card))


def _apply(
    state: SouvlakiState, kind: UnforeseenKind, owner: int, targets: Targets, effect: Effect
) -> Targets:
    """One primitive; returns where the targeted customer is afterwards."""
    do = effect.do
    if do in CUSTOMER_EFFECTS:
        return _on_customer(state, owner, targets, effect)
    if do == "swap-pair":  # SW-E.3, SW-U.3: both keep their state
        queues = state._queues
        first, second = queues[targets[0]], queues[targets[2]]
        first[targets[1]], second[targets[3]] = second[targets[3]], first[targets[1]]
    elif do == "cancel-next":  # SW-E.1
        state._cancels += effect.amount
    else:
        for player in _players(state, kind, owner, targets, effect):
            _on_player(state, owner, player, effect, kind.name)
    return targets


def _players(
    state: SouvlakiState, kind: UnforeseenKind, owner: int, targets: Targets, effect: Effect
) -> list[int]:
    """Whom a player primitive acts on: the card's player, or the targeted player(s)."""
    target = kind.target.kind
    if effect.to == "you" or target == "yourself":
        return [owner]
    if target == "everyone":
        return list(state._order)  # in turn order (SW-R.2)
    if target == "customer-pair":
        return [targets[0], targets[2]]
    return [targets[0]]  # a player, an opponent, or the owner of the targeted customer


def _on_player(
    state: SouvlakiState, owner: int, player: int, effect: Effect, kind_name: str
) -> None:
    do, amount = effect.do, effect.amount
    if do == "money":
        state.change_money(player, amount, kind_name)
    elif do == "reputation":
        state.change_reputation(player, amount, kind_name)
    elif do == "draw-food":
        state._draw_food(player, amount)
    elif do == "phone-order":
        for _ in range(amount):
            state.add_phone_order(player)
    elif do in ("take-random-food", "discard-random-food"):
        receiver = owner if do == "take-random-food" else -1
        state._random_tasks.extend([(player, receiver)] * amount)
    elif do == "served-reputation":
        state._served_reputation[player] += amount
    else:  # served-money
        state._served_money[player] += amount


def _on_customer(state: SouvlakiState, owner: int, targets: Targets, effect: Effect) -> Targets:
    player, position = targets[0], targets[1]
    queue = state._queues[player]
    customer = queue[position]
    do = effect.do
    if do in ("annoy", "calm"):
        queue[position] = customer.with_annoyed(do == "annoy")
    elif do == "tip":  # SW-E.5, SW-U.5: the tip goes with the customer to whoever serves it
        queue[position] = replace(customer, tip=customer.tip + effect.amount)
    elif do == "copy-order-ahead":  # SW-E.4, SW-U.4: money and influence stay
        queue[position] = replace(customer, order=queue[position - 1].order)
    elif do == "swap-ahead":
        queue[position - 1], queue[position] = customer, queue[position - 1]
        return player, position - 1
    else:  # move-to-your-queue, keeping its state
        del queue[position]
        state._queues[owner].append(customer)
        return owner, len(state._queues[owner]) - 1
    return targets

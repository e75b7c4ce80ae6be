"""The rules that both move generation and refusal explanation apply (SW-1.3, SW-4.1, SW-4.2,
SW-4.6): each is one predicate returning None when the action is legal, else the rule it breaks
and why, so the legal moves and the error a player sees can never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from kafeneio.core.events import plural
from kafeneio.games.souvlaki.cards import Foods, Shop, foods_text
from kafeneio.games.souvlaki.customer import Customer

Refusal = tuple[str, str]
"""The id of the rule an action breaks and the reason, in words."""

NOT_IN_HAND: Refusal = ("SW-4.2", "that card is not in your hand")
NOBODY_WAITING_FOR_FOOD: Refusal = ("SW-4.2", "no customer is waiting")
NOBODY_TO_SERVE: Refusal = ("SW-4.1", "no customer is waiting")
ONLY_THE_FIRST: Refusal = ("SW-4.6", "only the first customer may be sent away")
PLAY_REASONS = {
    "queue": "the card holds no food that a waiting customer still lacks, once the pool is shared"
    " out to the queue in order",
    "needed": "the card holds no food the first customer still lacks from the pool",
}
"""Why a food card that helps nobody may not be played, under each `food_play` option."""


def buy_refusal(shop: Shop, money: int, buys_left: int, into_debt: bool) -> Refusal | None:
    """SW-1.3: supplies are bought once a round (twice for a shop that may), with the money for
    them unless the option ``purchases_into_debt`` allows less."""
    if not buys_left:
        times = "twice" if shop.supplies_per_round == 2 else "once"
        return ("SW-1.3", f"{shop.name} may buy supplies {times} a round, and already has")
    if not into_debt and money < shop.supplies_cost:
        return ("SW-1.3", f"supplies cost {shop.supplies_cost} and {shop.name} has {money}")
    return None


def advertise_refusal(shop: Shop, money: int, advertised: bool, into_debt: bool) -> Refusal | None:
    """SW-1.3: advertising is bought once a round, with the money for it (see `buy_refusal`)."""
    if advertised:
        return ("SW-1.3", "advertising is bought once a round, and it already was this round")
    if not into_debt and money < shop.advertising_cost:
        return ("SW-1.3", f"it costs {shop.advertising_cost} and {shop.name} has {money}")
    return None


def wanted_foods(queue: Sequence[Customer], pool: Sequence[int], food_play: str) -> Foods | None:
    """SW-4.2: how many more of each food the waiting customers lack from the pool; None when
    nobody waits.

    ``queue`` (the default): the pool is shared out to the waiting customers in queue order, each
    taking what it orders while the pool lasts. Each food is shared out on its own, so some
    customer lacks a food exactly when the whole queue orders more of it than the pool holds.
    ``needed``: what the first customer lacks. ``any``: the same as ``queue`` (it is not asked).
    """
    if not queue:
        return None
    if food_play == "needed":
        order = queue[0].order
        return (order[0] - pool[0], order[1] - pool[1], order[2] - pool[2], order[3] - pool[3])
    ordered = [0, 0, 0, 0]
    for customer in queue:
        order = customer.order
        ordered[0] += order[0]
        ordered[1] += order[1]
        ordered[2] += order[2]
        ordered[3] += order[3]
    return (ordered[0] - pool[0], ordered[1] - pool[1], ordered[2] - pool[2], ordered[3] - pool[3])


def wanted_mask(wanted: Foods) -> int:
    """`wanted_foods` as a bitmask: bit f set when some customer still lacks food f."""
    return (wanted[0] > 0) | (wanted[1] > 0) << 1 | (wanted[2] > 0) << 2 | (wanted[3] > 0) << 3


def playable_kinds(food_holds: Sequence[Sequence[int]]) -> tuple[tuple[int, ...], ...]:
    """`play_refusal` worked out in advance, for move generation: for each `wanted_mask`, the
    food card kinds (in card-set order) holding a wanted food. A kind held in hand is playable
    exactly when it is listed under the mask (option ``any``: every kind held); a test checks
    that this agrees with `play_refusal`, which explains a refusal."""
    return tuple(
        tuple(kind for kind, holds in enumerate(food_holds) if any(mask >> f & 1 for f in holds))
        for mask in range(16)
    )


def play_refusal(
    food_play: str, held: int, holds: Sequence[int], wanted: Foods | None
) -> Refusal | None:
    """SW-4.2: may a food card (`held` copies in hand, holding the foods `holds`) be played,
    `wanted` being `wanted_foods` of the queue and pool?"""
    if not held:
        return NOT_IN_HAND
    if wanted is None:
        return NOBODY_WAITING_FOR_FOOD
    if food_play == "any":
        return None
    for food in holds:
        if wanted[food] > 0:
            return None
    return ("SW-4.2", PLAY_REASONS[food_play])


def serve_ready(queue: Sequence[Customer], pool: Sequence[int]) -> bool:
    """SW-4.1, SW-4.2: the first customer is served when the pool holds its whole order (the
    question move generation asks; `serve_refusal` gives the reason when the answer is no)."""
    if not queue:
        return False
    order = queue[0].order
    return (
        order[0] <= pool[0] and order[1] <= pool[1] and order[2] <= pool[2] and order[3] <= pool[3]
    )


def serve_refusal(queue: Sequence[Customer], pool: Sequence[int]) -> Refusal | None:
    """Why the first customer cannot be served (SW-4.1, SW-4.2); None if `serve_ready`."""
    if not queue:
        return NOBODY_TO_SERVE
    if serve_ready(queue, pool):
        return None
    order = queue[0].order
    missing = (
        max(0, order[0] - pool[0]),
        max(0, order[1] - pool[1]),
        max(0, order[2] - pool[2]),
        max(0, order[3] - pool[3]),
    )
    return ("SW-4.2", f"the pool lacks {foods_text(missing)} for the first customer")


def pick_refusal(slot: int, row: Sequence[int]) -> Refusal | None:
    """SW-2.2: may the customer in slot `slot` (from 0) of the draft `row` (its customers'
    kinds, -1 where one was taken) be drafted?"""
    if not 0 <= slot < len(row):
        return ("SW-2.2", f"the row's slots are 1 to {len(row)}")
    if row[slot] < 0:
        return ("SW-2.2", f"slot {slot + 1} holds no customer")
    return None


def sendable(queue_length: int, send_away: str, most: int) -> int:
    """SW-4.6: how many positions from the front may be sent away (at most `most`, the
    positions the action encoding names)."""
    if send_away == "first":
        return min(queue_length, 1)
    return min(queue_length, most)


def send_refusal(slot: int, queue_length: int, send_away: str, most: int) -> Refusal | None:
    """SW-4.6: may the customer at position `slot` (from 0) be sent away?"""
    if slot < sendable(queue_length, send_away, most):
        return None
    if slot >= queue_length:
        return ("SW-4.6", f"the queue has {plural(queue_length, 'customer')}")
    return ONLY_THE_FIRST

"""Play knowledge for Souvlaki Wars: an evaluation of a position and a shopkeeper's rules.

The shopkeeper drafts customers that pay well and that the hand can feed, keeps the hand
stocked, serves whenever the pool covers the first order, plays the food card that covers most
of what that customer still lacks, sends away a first customer who blocks the queue for good, and
plays an unforeseen card only when it helps at once (judged on a determinized copy). It reads the
player's observation and the typed fields of the legal actions (kind, food, slot), nothing else.

The evaluation is each shop's standing in log-odds of winning, fitted to who wins shopkeeper
games (SW-5.2: money and reputation both at least 25): what is still missing of each threshold
(the larger gap weighing more), a little beyond them, the food cards in hand (what serving needs)
and the customers left over from earlier rounds (a liability). Win chances are a softmax of
standings. For mcts the service is routine: the shopkeeper plays it, search spends its budget on
the mulligan, maintenance, the draft and the unforeseen cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, cast

from kafeneio.bots.knowledge import after, softmax
from kafeneio.core import Action, State
from kafeneio.games.souvlaki.actions import (
    ADVERTISE,
    BUY,
    DISCARD,
    DONE,
    FINISH,
    KEEP,
    PASS,
    PICK,
    PLAY,
    SEND,
    SERVE,
    SouvlakiAction,
)
from kafeneio.games.souvlaki.cards import foods_of_code, foods_text
from kafeneio.games.souvlaki.customer import SEND_AWAY_COST
from kafeneio.games.souvlaki.state import SouvlakiState

# The evaluation at a settled position (a draft: the round's service is over and counted), in
# log-odds of winning. Fitted by logistic regression of the winner on the difference of these
# features at every round start of 1,500 two-player heuristic games (shops dealt at random):
# log loss 0.578, where softmax(progress) with temperature 4 scored 0.700 (worse than a coin
# toss, 0.693: far too sure of itself).
MONEY_GAP = 0.09
"""Log-odds lost per point of money still missing to the win threshold (SW-5.2)."""
REPUTATION_GAP = 0.085
"""Log-odds lost per point of reputation still missing to the win threshold."""
WORST_GAP = 0.03
"""More log-odds lost per point of the larger of the two gaps (both are needed to win)."""
EXCESS = 0.085
"""Log-odds per point of money or reputation beyond its threshold (the tie-break, SW-5.3)."""
FOOD_CARD = 0.24
"""Log-odds per food card in hand: food is what serving needs, and hands run short."""
FIRST_FOOD_CARDS, FIRST_FOOD_CARD = 4, 0.1
"""The first few food cards in hand are worth this much more each."""
LEFTOVER = 0.035
"""Log-odds lost per point of money and influence of a customer left over from an earlier
round (annoyed: it blocks the queue and leaves at a reputation cost, SW-4.7, SW-4.8)."""
LEFTOVER_EACH = 0.055
"""Log-odds lost per customer left over."""
REACHED = 3.0
"""Log-odds for having reached both thresholds (the game ends with this round)."""
SERVICE_SHARE = 0.5
"""Mid-round (one-step estimates only): the share of a waiting customer's pay that counts."""
POOL_SHARE = 0.5
"""Mid-service (one-step estimates only): a food played and not yet served, in food cards."""


def foods(text: str) -> Counter[str]:
    return Counter(text)


def card_foods(action: SouvlakiAction) -> str:
    """The foods on the food card an action plays or discards, as letters."""
    return foods_text(foods_of_code(action.food))


def hand_foods(view: dict[str, Any]) -> Counter[str]:
    """Every food on the viewer's food cards."""
    return Counter(food for card in view["hand"]["food"] for food in card)


def parse_customer(text: str) -> tuple[str, int, int]:
    """``"GFD 3/2"``: the order, money and influence of a card in the draft row."""
    order, _, values = text.partition(" ")
    money, _, influence = values.partition("/")
    return order, int(money), int(influence)


def covered(need: Counter[str], supply: Counter[str]) -> bool:
    return not need - supply


QUICK_VIEW_PHASES = ("service", "maintenance")
"""Where the shopkeeper reads `shopkeeper_view` instead of the whole observation."""
IDENTITY_READ = ("operating_cost", "supplies_cost", "advertising_cost")


def shopkeeper_view(state: SouvlakiState, me: int) -> dict[str, Any]:
    """The entries of `me`'s observation that the shopkeeper reads at a service or a shop
    maintenance, with the same values, made from the state's accessors of what `me` sees (its
    own hand, the public rest): the whole observation costs about 5 times as much, and search
    rollouts read one at nearly every decision."""
    shop = state.cards.shops[state.shops[me]]
    pool = state.pool
    player = {
        "money": state.money(me),
        "net_money": state.net_money(me),
        "reputation": state.reputation(me),
        "food_cards": state.food_cards(me),
        "identity": {name: getattr(shop, name) for name in IDENTITY_READ},
    }
    queue = [
        {"order": foods_text(c.order), "money": c.money, "influence": c.influence}
        for c in state.queue(me)
    ]
    options = state.options
    return {
        "phase": state.phase,
        "rules": {
            "win_money": options.win_money,
            "win_reputation": options.win_reputation,
            "send_away_cost": SEND_AWAY_COST,
        },
        "players": {me: player},
        "queues": {me: queue},
        "hand": {"food": state.food_hand(me)},
        "pool": foods_text((pool[0], pool[1], pool[2], pool[3])),
    }


def standing(state: SouvlakiState, player: int) -> float:
    """`player`'s strength in log-odds of winning (see the fitted weights above)."""
    options = state.options
    money, reputation = state.net_money(player), state.reputation(player)
    money_gap = max(0, options.win_money - money)
    reputation_gap = max(0, options.win_reputation - reputation)
    value = -MONEY_GAP * money_gap - REPUTATION_GAP * reputation_gap
    value -= WORST_GAP * max(money_gap, reputation_gap)
    value += EXCESS * (
        max(0, money - options.win_money) + max(0, reputation - options.win_reputation)
    )
    if not money_gap and not reputation_gap:
        value += REACHED
    cards = state.food_cards(player)
    value += FOOD_CARD * cards + FIRST_FOOD_CARD * min(cards, FIRST_FOOD_CARDS)
    serving = state.phase == "service" and state.current_player() == player
    if serving:
        value += FOOD_CARD * POOL_SHARE * sum(state.pool)  # played, not yet served
    for customer in state.queue(player):
        pay = customer.money + customer.influence
        if customer.annoyed:
            value -= LEFTOVER * pay + LEFTOVER_EACH
        elif state.phase != "customers":  # mid-round: it may yet be served this round
            value += SERVICE_SHARE * MONEY_GAP * pay
    return value


class SouvlakiKnowledge:
    search_defaults: Mapping[str, float] = MappingProxyType({"c": 0.2, "depth": 12})
    searched_phases: tuple[str, ...] = ("mulligan", "maintenance", "customers", "unforeseen")
    """The phases whose decisions mcts searches; the shopkeeper plays the others."""

    def evaluate(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        shop = cast(SouvlakiState, state)
        # standings are log-odds: temperature 1
        return softmax([standing(shop, p) for p in range(state.num_players)], 1.0)

    def routine(self, state: State, rng: random.Random) -> Action | None:
        """The shopkeeper's action where search adds little: a discard down to the hand limit,
        and the service (serve when the pool covers the first order, feed the first customer,
        finish). Measured: mcts wins most with the rest searched; leaving the unforeseen cards
        to the shopkeeper too lost (26/60 against 43/60, 2 players, 0.05 s)."""
        shop = cast(SouvlakiState, state)
        if shop.food_cards(shop.current_player()) > shop.options.hand_limit:
            return self.rollout(state, rng)
        if shop.phase not in self.searched_phases:
            return self.policy(state, rng)
        return None

    def estimate(self, state: State) -> list[float]:
        return self.evaluate(state)

    def settled(self, state: State) -> bool:
        """At a draft every service of the round is over and counted (SW-4.7, SW-4.8)."""
        return cast(SouvlakiState, state).phase == "customers"

    def policy(self, state: State, rng: random.Random) -> Action:
        return self._choose(state, rng, look_ahead=True)

    def rollout(self, state: State, rng: random.Random) -> Action:
        return self._choose(state, rng, look_ahead=False)

    def _choose(self, state: State, rng: random.Random, look_ahead: bool) -> Action:
        me = state.current_player()
        legal = cast(list[SouvlakiAction], list(state.legal_actions()))
        if len(legal) == 1:
            return legal[0]
        shop = cast(SouvlakiState, state)
        quick = shop.phase in QUICK_VIEW_PHASES
        view = shopkeeper_view(shop, me) if quick else state.observation(me)
        phase = view["phase"]
        if phase == "service":
            return self._service(view, me, legal, rng)
        if phase == "customers":
            return self._draft(view, me, legal)
        if phase == "maintenance":
            return self._maintenance(view, me, legal)
        if phase == "unforeseen":
            return self._unforeseen(state, me, legal, rng) if look_ahead else pick(legal, PASS)
        keep = [a for a in legal if a.kind == KEEP]
        if keep:
            return keep[0]
        discards = [a for a in legal if a.kind == DISCARD]
        if discards:
            return self._least_useful(view, me, discards)
        return rng.choice(legal)

    # --- phases ----------------------------------------------------------------------------
    def _service(
        self, view: dict[str, Any], me: int, legal: list[SouvlakiAction], rng: random.Random
    ) -> Action:
        kinds = {a.kind: a for a in legal}
        if SERVE in kinds:
            return kinds[SERVE]
        queue = view["queues"][me]
        plays = [a for a in legal if a.kind == PLAY]
        if queue and plays:
            lacking = foods(queue[0]["order"]) - foods(view["pool"])
            if covered(lacking, hand_foods(view)):
                return max(plays, key=lambda a: self._cover_score(card_foods(a), lacking))
        sends = [a for a in legal if a.kind == SEND and a.slot == 0]
        if queue and sends and self._blocked(view, me):
            return sends[0]
        return kinds[FINISH] if FINISH in kinds else rng.choice(legal)

    @staticmethod
    def _cover_score(card: str, lacking: Counter[str]) -> tuple[int, int]:
        useful = sum((foods(card) & lacking).values())
        return useful, -len(card)

    @staticmethod
    def _blocked(view: dict[str, Any], me: int) -> bool:
        """The first customer cannot be fed from this hand, and the customers behind whom it
        could feed pay more (money and influence together) than sending away costs."""
        queue = view["queues"][me]
        hand = hand_foods(view) + foods(view["pool"])
        if covered(foods(queue[0]["order"]), hand):
            return False
        behind = [c for c in queue[1:] if covered(foods(c["order"]), hand)]
        worth: int = sum(c["money"] + c["influence"] for c in behind)
        cost: int = view["rules"]["send_away_cost"]
        return worth > cost

    @staticmethod
    def _draft(view: dict[str, Any], me: int, legal: list[SouvlakiAction]) -> Action:
        hand = hand_foods(view)
        waiting = sum((foods(c["order"]) for c in view["queues"][me]), Counter())
        free = hand - waiting

        def value(action: SouvlakiAction) -> float:
            card = view["row"][action.slot]
            if card == "BIG":
                return 4.0  # a Big Phone Order: two customers' pay, unknown orders
            order, money, influence = parse_customer(card)
            feedable = covered(foods(order), free)
            return money + influence + (3 if feedable else -len(order))

        return max((a for a in legal if a.kind == PICK), key=value)

    def _maintenance(self, view: dict[str, Any], me: int, legal: list[SouvlakiAction]) -> Action:
        """Keep twice the operating cost in hand; spend the rest on reputation when it lags
        further behind its target than money does, else on food when the hand runs low."""
        player = view["players"][me]
        shop = player["identity"]
        discards = [a for a in legal if a.kind == DISCARD]
        if discards:
            return self._least_useful(view, me, discards)
        kinds = {a.kind: a for a in legal}
        spare = player["money"] - 2 * shop["operating_cost"]
        rules = view["rules"]
        lagging = rules["win_reputation"] - player["reputation"] > (
            rules["win_money"] - player["net_money"]
        )
        if ADVERTISE in kinds and lagging and spare >= shop["advertising_cost"]:
            return kinds[ADVERTISE]
        if BUY in kinds and player["food_cards"] < 6 and spare >= shop["supplies_cost"]:
            return kinds[BUY]
        return kinds[DONE] if DONE in kinds else legal[0]

    @staticmethod
    def _least_useful(view: dict[str, Any], me: int, discards: list[SouvlakiAction]) -> Action:
        wanted = sum((foods(c["order"]) for c in view["queues"][me]), Counter())
        return min(discards, key=lambda a: sum((foods(card_foods(a)) & wanted).values()))

    def _unforeseen(
        self, state: State, me: int, legal: list[SouvlakiAction], rng: random.Random
    ) -> Action:
        """The card whose immediate effect most raises my estimated win chance, on a
        determinized copy (so that nothing hidden is read); passing unless one helps."""
        sample = state.determinize(me, rng)
        base = self.evaluate(sample)[me]
        best, best_gain = pick(legal, PASS), 0.0
        for action in legal:
            if action.kind == PASS:
                continue
            gain = self.evaluate(after(sample, action, rng))[me] - base
            if gain > best_gain:
                best, best_gain = action, gain
        return best


def pick(legal: list[SouvlakiAction], kind: int) -> Action:
    """The first legal action of `kind`, else the first legal action."""
    return next((a for a in legal if a.kind == kind), legal[0])


KNOWLEDGE = SouvlakiKnowledge()

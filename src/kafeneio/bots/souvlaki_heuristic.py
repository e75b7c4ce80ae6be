"""Rules of thumb for Souvlaki Wars, read from the player's observation and the legal actions.

A shopkeeper who drafts customers that pay well and that the hand can feed, keeps the hand
stocked, serves whenever the pool covers the first order, plays the food card that covers most
of what that customer still lacks, sends away a first customer who blocks the queue for good, and
plays an unforeseen card only when it helps at once (judged on a determinized copy).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from kafeneio.core import Action, State


def foods(text: str) -> Counter[str]:
    return Counter(text)


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


class SouvlakiPolicy:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: State) -> Action:
        me = state.current_player()
        view = state.observation(me)
        actions = {action.notation: action for action in state.legal_actions()}
        phase = view["phase"]
        if phase == "service":
            return actions[self._service(view, me, list(actions))]
        if phase == "customers":
            return actions[self._draft(view, me, list(actions))]
        if phase == "maintenance":
            return actions[self._maintenance(view, me, list(actions))]
        if phase == "unforeseen":
            return self._unforeseen(state, me, actions)
        if "keep" in actions:
            return actions["keep"]
        discards = [text for text in actions if text.startswith("discard ")]
        if discards:
            return actions[self._least_useful(view, me, discards)]
        return self.rng.choice(list(actions.values()))

    # --- phases ----------------------------------------------------------------------------
    def _service(self, view: dict[str, Any], me: int, legal: list[str]) -> str:
        if "serve" in legal:
            return "serve"
        queue = view["queues"][me]
        plays = [text for text in legal if text.startswith("play ")]
        if queue and plays:
            first = queue[0]
            lacking = foods(first["order"]) - foods(view["pool"])
            if covered(lacking, hand_foods(view)):
                return max(plays, key=lambda text: self._cover_score(text[5:], lacking))
        if queue and "send 1" in legal and self._blocked(view, me):
            return "send 1"
        return "finish" if "finish" in legal else self.rng.choice(legal)

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

    def _draft(self, view: dict[str, Any], me: int, legal: list[str]) -> str:
        hand = hand_foods(view)
        waiting = sum((foods(c["order"]) for c in view["queues"][me]), Counter())
        free = hand - waiting

        def value(text: str) -> float:
            slot = int(text.split()[1]) - 1
            card = view["row"][slot]
            if card == "BIG":
                return 4.0  # a Big Phone Order: two customers' pay, unknown orders
            order, money, influence = parse_customer(card)
            feedable = covered(foods(order), free)
            return money + influence + (3 if feedable else -len(order))

        return max(legal, key=value)

    def _maintenance(self, view: dict[str, Any], me: int, legal: list[str]) -> str:
        """Keep twice the operating cost in hand; spend the rest on reputation when it lags
        further behind its target than money does, else on food when the hand runs low."""
        player = view["players"][me]
        shop = player["identity"]
        discards = [text for text in legal if text.startswith("discard ")]
        if discards:
            return self._least_useful(view, me, discards)
        spare = player["money"] - 2 * shop["operating_cost"]
        rules = view["rules"]
        lagging = rules["win_reputation"] - player["reputation"] > (
            rules["win_money"] - player["net_money"]
        )
        if "advertise" in legal and lagging and spare >= shop["advertising_cost"]:
            return "advertise"
        if "buy" in legal and player["food_cards"] < 6 and spare >= shop["supplies_cost"]:
            return "buy"
        return "done" if "done" in legal else legal[0]

    @staticmethod
    def _least_useful(view: dict[str, Any], me: int, discards: list[str]) -> str:
        wanted = sum((foods(c["order"]) for c in view["queues"][me]), Counter())
        return min(discards, key=lambda text: sum((foods(text[8:]) & wanted).values()))

    def _unforeseen(self, state: State, me: int, actions: dict[str, Action]) -> Action:
        """The card whose immediate effect most improves my standing over the best rival."""
        sample = state.determinize(me, self.rng)

        def standing(after: State) -> int:
            scores = after.scores()
            return scores[me] - max(s for p, s in enumerate(scores) if p != me)

        best, best_gain = actions.get("pass"), 0
        base = standing(sample)
        for text, action in actions.items():
            if text == "pass":
                continue
            child = sample.clone()
            child.apply(action)
            gain = standing(child) - base
            if gain > best_gain:
                best, best_gain = action, gain
        return best if best is not None else self.rng.choice(list(actions.values()))

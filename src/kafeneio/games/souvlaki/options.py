"""Souvlaki Wars rules options: every [ruling] of the rules, the variants and the shops chosen."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from kafeneio.core.errors import OptionsError, shown
from kafeneio.core.options import RulesOptions


@dataclass(frozen=True)
class SouvlakiOptions(RulesOptions):
    """The rules options; the defaults are the rulings of the rules specification. What each
    option does is in `DESCRIPTIONS`."""

    TITLE: ClassVar[str] = "Souvlaki Wars"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "reshuffle": ("at-once", "when-drawing"),
        "tie_break": ("seat", "reverse-seat"),
        "hand_limit_discard": ("choose", "random"),
        "loan_trigger": ("cannot-pay", "no-money"),
        "big_phone_order_draw": ("phone-step", "draft"),
        "food_play": ("queue", "needed", "any"),
        "send_away": ("any", "first"),
    }
    BOUNDS: ClassVar[dict[str, tuple[int, int]]] = {
        "round_limit": (1, 1000),
        "loan_amount": (1, 100),
        "loan_penalty": (0, 1000),
        "hand_limit": (1, 100),
        "phone_markers": (0, 1000),
        "win_money": (1, 1000),
        "win_reputation": (1, 1000),
    }
    MAX_SHOPS: ClassVar[int] = 4
    DESCRIPTIONS: ClassVar[dict[str, str]] = {
        "shops": "SW-S.1: the shop id of each seat, in seat order; null: the first N shops of "
        "the card set (built in: thanasis, pita, express, souvlache).",
        "first_game": "SW-S.5: first-game mode, without unforeseen cards.",
        "round_limit": "Ruling: the game ends after this round even if nobody has reached the "
        "win (SW-5.2), so that every game ends; the highest money + reputation then wins, "
        "money net of loans unless loan_in_tiebreak is false (SW-5.3).",
        "hand_limit": "SW-1.4: the most food cards a hand may hold.",
        "hand_limit_discard": "SW-1.4 ruling: choose (the player chooses which cards to "
        "discard) or random.",
        "reshuffle": "SW-S.3 and its ruling: at-once (a deck that runs out is refilled from its "
        "shuffled discard pile at once, and again when a draw finds it empty) or when-drawing "
        "(only when a draw finds it empty).",
        "tie_break": "SW-R.2 ruling: who goes first when reputation and starting reputation "
        "both tie: seat (lower seat first) or reverse-seat.",
        "purchases_into_debt": "SW-1.3 ruling: false: supplies and advertising need enough "
        "money (money never goes below 0 by choice); true: they may take money below 0.",
        "loan_trigger": "SW-1.5 ruling: cannot-pay (a loan when money is below the operating "
        "cost) or no-money (a loan only when money is 0 or less; otherwise the cost is paid, "
        "even into debt).",
        "loan_amount": "SW-1.5: the money a forced loan gives.",
        "loan_penalty": "SW-1.6: what each loan takes from money for the win check.",
        "loan_in_tiebreak": "SW-1.6 ruling: the loan penalty also counts in the tie-break sum "
        "of SW-5.3.",
        "big_phone_order_draw": "SW-2.7 ruling: a drafted Big Phone Order keeps its drafted "
        "place and its 2 cards are drawn in the phone-order step, just before that player's "
        "ordinary phone order (phone-step), or face up as soon as it is drafted (draft).",
        "food_play": "SW-4.2 ruling: a food card may be played when it holds a food that some "
        "waiting customer lacks once the pool is shared out to the queue in order (queue); "
        "only a food the first customer still lacks from the pool (needed); or any food card "
        "while a customer waits (any).",
        "send_away": "SW-4.6 ruling: a customer at any position may be sent away (any), or "
        "only the first (first).",
        "phone_markers": "SW-0.5 ruling: 0 (the markers are no limit) or the most ordinary "
        "phone orders that may wait in all queues together (10 in the box); a phone order past "
        "it is not taken.",
        "win_money": "SW-5.2: money (net of loans) needed to win.",
        "win_reputation": "SW-5.2: reputation needed to win.",
    }

    shops: tuple[str, ...] | None = None
    first_game: bool = False
    round_limit: int = 30
    hand_limit: int = 7
    hand_limit_discard: str = "choose"
    reshuffle: str = "at-once"
    tie_break: str = "seat"
    purchases_into_debt: bool = False
    loan_trigger: str = "cannot-pay"
    loan_amount: int = 10
    loan_penalty: int = 11
    loan_in_tiebreak: bool = True
    big_phone_order_draw: str = "phone-step"
    food_play: str = "queue"
    send_away: str = "any"
    phone_markers: int = 0
    win_money: int = 25
    win_reputation: int = 25

    @classmethod
    def check_value(cls, name: str, value: Any, default: Any) -> Any:
        if name == "shops":
            if value is None:
                return None
            if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
                raise OptionsError(
                    f"option shops must be a list of shop ids, one a seat, not {shown(value)}"
                )
            if not value:
                raise OptionsError("option shops names no shop: give one shop id a seat, or null")
            if len(value) > cls.MAX_SHOPS:
                raise OptionsError(
                    f"option shops names {len(value)} shops: at most {cls.MAX_SHOPS}, one a seat"
                )
            if len(set(value)) != len(value):
                raise OptionsError("option shops: a shop is taken by one player only (SW-S.1)")
            return tuple(value)
        return super().check_value(name, value, default)

    @classmethod
    def allowed(cls, name: str) -> str:
        if name == "shops":
            return "null | a list of 2 to 4 shop ids, one a seat, each taken once"
        return super().allowed(name)

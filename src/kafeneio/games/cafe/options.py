"""Café International rules options: every [ruling] and variant of the rules, in one object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from kafeneio.core.options import RulesOptions
from kafeneio.games.cafe.board import load_board


@dataclass(frozen=True)
class CafeOptions(RulesOptions):
    """The rules options; the defaults are the rulings of the rules specification. What each
    option does is in `DESCRIPTIONS`."""

    TITLE: ClassVar[str] = "Café"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {
        "first_move": ("lone-guest", "pair-scores-both"),
        "bar_unpaid": ("eliminate", "forbid"),
        "bar_draw": ("one", "extra"),
        "single_nation_draw": ("drop", "choose"),
        "joker_exchange": ("any-gender", "own-gender"),
    }
    BOUNDS: ClassVar[dict[str, tuple[int, int]]] = {
        "hand_size": (1, 10),
        "end_bag": (0, 100),
        "birthday_threshold": (0, 1000),
    }
    DESCRIPTIONS: ClassVar[dict[str, str]] = {
        "first_move": "CI-T.8: lone-guest (reading A: the start player's first move may seat "
        "one guest alone, scoring 0) or pair-scores-both (reading B: a pair is still needed and "
        "both cards score).",
        "bar_unpaid": "CI-M.3: eliminate (a player who cannot pay a red bar seat is out of the "
        "game) or forbid (a bar seat the player cannot pay is not a legal move).",
        "bar_draw": "CI-D.3 ruling (a): one (exactly one card, as the rulebook says, even when "
        "the hand is above its target: it is not a refill to the target); option (b): extra "
        "(two cards, so the hand grows by one).",
        "single_nation_draw": "CI-D.2: drop (completing a single-nation table lowers the hand "
        "target for good, as the ruling says) or choose (the player decides: 'draw fewer' or "
        "'draw full').",
        "joker_exchange": "CI-M.4 ruling: any-gender (a guest of the other gender may take a "
        "joker's place when CI-T.3 and CI-T.4 still hold) or own-gender (only a guest of the "
        "joker's gender).",
        "joker_native_both": "CI-P.3: a joker on a shared chair counts as a native of both its "
        "tables; false: of neither.",
        "bar_values": "CI-0.3: the value of each bar seat, seat 1 first.",
        "hand_size": "CI-S.1, CI-D.1: the starting hand and the initial hand target.",
        "end_bag": "CI-E.1: the game ends when the bag holds this many cards or fewer after a "
        "turn.",
        "birthday": "CI-V.1: the birthday-table variant.",
        "birthday_threshold": "CI-V.1: the score that earns the choice of the birthday table.",
        "dance": "CI-V.2: the regulars' table / dance evening variant.",
    }

    first_move: str = "lone-guest"
    bar_unpaid: str = "eliminate"
    bar_draw: str = "one"
    single_nation_draw: str = "drop"
    joker_exchange: str = "any-gender"
    joker_native_both: bool = True
    bar_values: tuple[int, ...] = load_board().bar_values
    hand_size: int = 5
    end_bag: int = 4
    birthday: bool = False
    birthday_threshold: int = 30
    dance: bool = False

"""Café International rules options: every [ruling] and variant of the rules, in one object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from kafeneio.core.errors import OptionsError
from kafeneio.games.cafe.board import load_board

FIRST_MOVE_CHOICES = ("lone-guest", "pair-scores-both")
BAR_UNPAID_CHOICES = ("eliminate", "forbid")
BAR_DRAW_CHOICES = ("refill", "extra")
SINGLE_NATION_DRAW_CHOICES = ("drop", "choose")


@dataclass(frozen=True)
class CafeOptions:
    """The rules options; the defaults are the rulings of the rules specification."""

    first_move: str = "lone-guest"
    """CI-T.8: ``lone-guest`` (reading A: the start player's first move may seat one guest alone,
    scoring 0) or ``pair-scores-both`` (reading B: a pair is still needed and both cards score)."""
    bar_unpaid: str = "eliminate"
    """CI-M.3: ``eliminate`` (a player who cannot pay a red bar seat is out of the game) or
    ``forbid`` (a bar seat the player cannot pay is not a legal move)."""
    bar_draw: str = "refill"
    """CI-D.3: ``refill`` (draw back to the hand target) or ``extra`` (the hand grows by one)."""
    bar_values: tuple[int, ...] = load_board().bar_values
    """CI-0.3: the value of each bar seat, seat 1 first."""
    single_nation_draw: str = "drop"
    """CI-D.2: ``drop`` (completing a single-nation table lowers the hand target for good, as the
    ruling says) or ``choose`` (the player decides: ``draw fewer`` or ``draw full``)."""
    joker_native_both: bool = True
    """CI-P.3: a joker on a shared chair counts as a native of both its tables; false: of
    neither."""
    hand_size: int = 5
    """CI-S.1, CI-D.1: the starting hand and the initial hand target."""
    end_bag: int = 4
    """CI-E.1: the game ends when the bag holds this many cards or fewer after a turn."""
    birthday: bool = False
    """CI-V.1: the birthday-table variant."""
    birthday_threshold: int = 30
    """CI-V.1: the score that earns the choice of the birthday table."""
    dance: bool = False
    """CI-V.2: the regulars' table / dance evening variant."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> CafeOptions:
        """Options from JSON-like data; unknown names and bad values raise `OptionsError`."""
        if data is None:
            return cls()
        if isinstance(data, CafeOptions):
            return data
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise OptionsError(f"unknown Café option {name!r}; options: {', '.join(known)}")
            values[name] = _checked(name, value, getattr(cls, name))
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["bar_values"] = list(self.bar_values)
        return data


def _checked(name: str, value: Any, default: Any) -> Any:
    choices = {
        "first_move": FIRST_MOVE_CHOICES,
        "bar_unpaid": BAR_UNPAID_CHOICES,
        "bar_draw": BAR_DRAW_CHOICES,
        "single_nation_draw": SINGLE_NATION_DRAW_CHOICES,
    }
    if name in choices:
        if value not in choices[name]:
            raise OptionsError(f"option {name} must be one of {', '.join(choices[name])}")
        return value
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise OptionsError(f"option {name} must be true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise OptionsError(f"option {name} must be a whole number ≥ 0, not {value!r}")
        if name == "hand_size" and not 1 <= value <= 10:
            raise OptionsError("option hand_size must be from 1 to 10")
        return value
    if name == "bar_values":
        ok = isinstance(value, list | tuple) and value
        if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise OptionsError("option bar_values must be a non-empty list of whole numbers")
        return tuple(value)
    raise OptionsError(f"option {name} has no checker")  # pragma: no cover - every field has one

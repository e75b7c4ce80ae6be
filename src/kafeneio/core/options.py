"""Rules options: one frozen object per game, read from and written to JSON-like data.

A game subclasses `RulesOptions` as a frozen dataclass whose fields and defaults are its options
(the defaults being the rulings of its rules); `from_dict` checks every name and value, so a
record or a command line with a misspelt option is refused with the option named. Every option
has a description (`DESCRIPTIONS`) and a stated set of values (`allowed`), which
``kafeneio games`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Self

from kafeneio.core.errors import OptionsError, shown

MAX_WHOLE = 1_000_000
"""The largest value of a whole-number option unless its game's `BOUNDS` says otherwise."""
MAX_LIST = 100
"""The most items a list option may hold."""


@dataclass(frozen=True)
class RulesOptions:
    """Base of a game's options. Values are checked by the type of their default."""

    TITLE: ClassVar[str] = "game"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Text options and the values each may take."""
    BOUNDS: ClassVar[dict[str, tuple[int, int]]] = {}
    """Whole-number options with bounds other than 0 to `MAX_WHOLE`: (least, most)."""
    DESCRIPTIONS: ClassVar[dict[str, str]] = {}
    """What each option does, in a sentence or two (the rule ids it changes first)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | RulesOptions | None) -> Self:
        """Options from JSON-like data; unknown names and bad values raise `OptionsError`."""
        if data is None:
            return cls()
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise OptionsError(
                f"{cls.TITLE} options must be an object of name: value, not {shown(data)}"
            )
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise OptionsError(
                    f"unknown {cls.TITLE} option {shown(name)}; options: {', '.join(sorted(known))}"
                )
            values[name] = cls.check_value(name, value, getattr(cls, name))
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: tuples become new lists. Every observation carries it, so it reads the
        fields directly: `asdict`'s deep copy cost ten times as much, for values that are
        immutable already."""
        return {
            field.name: list(value)
            if isinstance(value := getattr(self, field.name), tuple)
            else value
            for field in fields(self)
        }

    @classmethod
    def allowed(cls, name: str) -> str:
        """The values option `name` may take, in words."""
        default = getattr(cls, name)
        if name in cls.CHOICES:
            return " | ".join(cls.CHOICES[name])
        if isinstance(default, bool):
            return "true | false"
        if isinstance(default, int):
            least, most = cls.BOUNDS.get(name, (0, MAX_WHOLE))
            return f"a whole number from {least} to {most}"
        if isinstance(default, tuple):
            return f"a list of 1 to {MAX_LIST} whole numbers from -{MAX_WHOLE} to {MAX_WHOLE}"
        return "see the description"

    @classmethod
    def check_value(cls, name: str, value: Any, default: Any) -> Any:
        """The value to store for option `name`; override for options of other shapes."""
        if name in cls.CHOICES:
            if not isinstance(value, str) or value not in cls.CHOICES[name]:
                raise OptionsError(
                    f"option {name} must be one of {', '.join(cls.CHOICES[name])}, "
                    f"not {shown(value)}"
                )
            return value
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {shown(value)}")
            return value
        if isinstance(default, int):
            least, most = cls.BOUNDS.get(name, (0, MAX_WHOLE))
            whole = isinstance(value, int) and not isinstance(value, bool)
            if not whole or not least <= value <= most:
                raise OptionsError(
                    f"option {name} must be a whole number from {least} to {most}, "
                    f"not {shown(value)}"
                )
            return value
        if isinstance(default, tuple):
            if (
                not isinstance(value, list | tuple)
                or not 0 < len(value) <= MAX_LIST
                or not all(
                    isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_WHOLE
                    for v in value
                )
            ):
                raise OptionsError(
                    f"option {name} must be a list of 1 to {MAX_LIST} whole numbers "
                    f"from -{MAX_WHOLE} to {MAX_WHOLE}, not {shown(value)} "
                    f"(on the command line: -o '{name}=[1,-2]')"
                )
            return tuple(value)
        raise OptionsError(f"option {name} cannot be set")

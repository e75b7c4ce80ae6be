"""Rules options: one frozen object per game, read from and written to JSON-like data.

A game subclasses `RulesOptions` as a frozen dataclass whose fields and defaults are its options
(the defaults being the rulings of its rules); `from_dict` checks every name and value, so a
record or a command line with a misspelt option is refused with the option named.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Self

from kafeneio.core.errors import OptionsError


@dataclass(frozen=True)
class RulesOptions:
    """Base of a game's options. Values are checked by the type of their default."""

    TITLE: ClassVar[str] = "game"
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {}
    """Text options and the values each may take."""
    BOUNDS: ClassVar[dict[str, tuple[int, int | None]]] = {}
    """Whole-number options with bounds other than ``≥ 0``: (least, most or None)."""

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | RulesOptions | None) -> Self:
        """Options from JSON-like data; unknown names and bad values raise `OptionsError`."""
        if data is None:
            return cls()
        if isinstance(data, cls):
            return data
        if not isinstance(data, Mapping):
            raise OptionsError(f"{cls.TITLE} options must be an object of name: value")
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for name, value in data.items():
            if name not in known:
                raise OptionsError(
                    f"unknown {cls.TITLE} option {name!r}; options: {', '.join(sorted(known))}"
                )
            values[name] = cls.check_value(name, value, getattr(cls, name))
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: tuples become lists."""
        return {
            name: list(value) if isinstance(value, tuple) else value
            for name, value in asdict(self).items()
        }

    @classmethod
    def check_value(cls, name: str, value: Any, default: Any) -> Any:
        """The value to store for option `name`; override for options of other shapes."""
        if name in cls.CHOICES:
            if value not in cls.CHOICES[name]:
                raise OptionsError(f"option {name} must be one of {', '.join(cls.CHOICES[name])}")
            return value
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise OptionsError(f"option {name} must be true or false, not {value!r}")
            return value
        if isinstance(default, int):
            least, most = cls.BOUNDS.get(name, (0, None))
            whole = isinstance(value, int) and not isinstance(value, bool)
            if not whole or value < least or (most is not None and value > most):
                span = f"from {least} to {most}" if most is not None else f"≥ {least}"
                raise OptionsError(f"option {name} must be a whole number {span}, not {value!r}")
            return value
        if isinstance(default, tuple):
            if (
                not isinstance(value, list | tuple)
                or not value
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
            ):
                raise OptionsError(f"option {name} must be a non-empty list of whole numbers")
            return tuple(value)
        raise OptionsError(f"option {name} cannot be set")

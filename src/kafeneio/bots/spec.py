"""Seat specs: a bot name with parameters, as the command line and the web app write them.

``mcts`` or ``mcts:seconds=0.05`` or ``mcts:iterations=300:c=0.5``: the name, then ``:name=value``
for each parameter. Values are read as whole numbers, decimals, ``true``/``false``, else text.
"""

from __future__ import annotations

import math
import numbers
from typing import SupportsFloat

from kafeneio.core import KafeneioError
from kafeneio.core.notation import integer_value

Params = dict[str, int | float | bool | str]


def is_whole(value: object) -> bool:
    """Whether `value` is a whole number (an int, a numpy integer), not a flag (True would
    pass for 1)."""
    return integer_value(value) is not None


def is_real(value: object) -> bool:
    """Whether `value` is a whole or decimal number (any `numbers.Real`: numpy's too), not a
    flag."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def is_search_seconds(value: object) -> bool:
    """Whether `value` is a search's budget in seconds: a finite number > 0 (`not 0 < nan`
    holds too)."""
    return is_real(value) and 0 < value < math.inf  # type: ignore[operator]


def is_search_iterations(value: object) -> bool:
    """Whether `value` is a search's budget in iterations: a whole number >= 1."""
    return is_whole(value) and value >= 1  # type: ignore[operator]


def plain_number(value: SupportsFloat) -> int | float:
    """A number `is_real` takes as Python's own int or float (a numpy scalar is neither, and
    JSON cannot write it)."""
    whole = integer_value(value)
    return whole if whole is not None else float(value)


def parse_value(text: str) -> int | float | bool | str:
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            number = kind(text)
        except ValueError:
            continue
        if not math.isfinite(number):  # a budget of inf never ends, nan compares as nothing
            raise KafeneioError(f"{text!r} is not a finite number")
        return number
    return text


def parse_seat(spec: str) -> tuple[str, Params]:
    """``"mcts:seconds=0.05"`` -> ``("mcts", {"seconds": 0.05})``; `KafeneioError` naming the
    problem for a malformed spec (the bot name and its parameters are checked by `make_bot`)."""
    if not isinstance(spec, str) or not spec.strip():
        raise KafeneioError(f"a seat is a bot name like mcts or mcts:seconds=0.05, not {spec!r}")
    # names in any case (`make_bot` finds a bot's own ``maxDepth`` for ``maxdepth``); a text
    # value as written
    name, *pairs = seat_in_lower_case(spec).split(":")
    params: Params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key.isidentifier() or not value:
            raise KafeneioError(
                f"seat {spec!r}: {pair!r} is not a parameter; write name=value, "
                "as in mcts:seconds=0.05"
            )
        if key in params:
            raise KafeneioError(f"seat {spec!r} gives {key!r} twice")
        params[key] = parse_value(value)
    return name.strip(), params


def seat_in_lower_case(spec: str) -> str:
    """`spec` with its bot's name and its parameters' names in lower case, and their values
    as written (``MCTS:Seconds=1:label=Ann`` -> ``mcts:seconds=1:label=Ann``): names are read
    in any case, a text value is the user's."""
    name, *pairs = spec.strip().split(":")
    lowered = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        lowered.append(f"{key.lower()}{sep}{value}")
    return ":".join([name.lower(), *lowered])


def canonical_seat(spec: str) -> str:
    """The one text of the bot a seat spec names, however it is written: the name, then the
    parameters in alphabetical order, a whole decimal as a whole number (``MCTS:iterations=10:
    c=0.30`` and ``mcts:c=0.3:iterations=10.0`` are ``mcts:c=0.3:iterations=10``), so that
    two ways of writing one bot are counted as one. Check the spec first (`check_seat`): a
    decimal where a bot takes a whole number passes once written as one."""
    name, params = parse_seat(spec)
    return ":".join([name, *(f"{key}={value_text(params[key])}" for key in sorted(params))])


def value_text(value: int | float | bool | str) -> str:
    """A parameter's value as `parse_value` reads it back."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)

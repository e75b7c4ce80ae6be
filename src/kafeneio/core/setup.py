"""What every game's hand-written setups share: ``rest``, the shuffle of the unlisted cards."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kafeneio.core.errors import KafeneioError


def rest_shuffle(setup: Mapping[str, Any]) -> random.Random | None:
    """``rest: {"seed": N}``: the random order of the cards a setup does not list; None when
    the setup lists every card itself."""
    if "rest" not in setup:
        return None
    rest = setup["rest"]
    seed = rest.get("seed") if isinstance(rest, dict) and set(rest) == {"seed"} else None
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise KafeneioError('setup.rest must be {"seed": N} with N a whole number')
    return random.Random(seed)

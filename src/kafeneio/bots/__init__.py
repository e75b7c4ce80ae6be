"""Bots play through the game contract only: they see the state's legal actions and their own
observation, and search bots determinize before looking ahead."""

from __future__ import annotations

from collections.abc import Callable

from kafeneio.bots.base import Bot
from kafeneio.bots.greedy import GreedyBot
from kafeneio.bots.heuristic import HeuristicBot
from kafeneio.bots.random_bot import RandomBot
from kafeneio.core.errors import KafeneioError

BOTS: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
}


def make_bot(name: str, seed: int) -> Bot:
    """The bot called `name`, seeded; `KafeneioError` naming the known bots otherwise."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise KafeneioError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}") from None

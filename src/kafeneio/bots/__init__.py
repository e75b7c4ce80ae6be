"""Bots play through the game contract only: they see the state's legal actions and their own
player's information, and search bots determinize before looking ahead. Each is made by name
(`make_bot`) or by seat spec (``mcts:seconds=0.05``); game-specific play knowledge is reached
through `kafeneio.bots.knowledge`."""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Mapping
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from kafeneio.bots.base import ActionEstimate, Analysis, Bot, seeded_rng
from kafeneio.bots.greedy import GreedyBot
from kafeneio.bots.heuristic import HeuristicBot
from kafeneio.bots.mcts import MctsBot
from kafeneio.bots.random_bot import RandomBot
from kafeneio.bots.spec import Params, canonical_seat, parse_seat
from kafeneio.core.errors import KafeneioError


class BotTable(dict[str, Callable[..., Bot]]):
    """Bots by name. A seat names its bot in any case (``MCTS`` is ``mcts``), so a name is
    kept in lower case: ``BOTS["MyBot"] = MyBot`` enters ``mybot``, and ``BOTS["MyBot"]``
    finds it. A name a seat spec could not write (empty, or with ``:``, ``=``, ``,`` or a
    space) is refused."""

    def __setitem__(self, name: str, bot: Callable[..., Bot]) -> None:
        super().__setitem__(bot_key(name, checked=True), bot)

    def __getitem__(self, name: str) -> Callable[..., Bot]:
        return super().__getitem__(bot_key(name))

    def __delitem__(self, name: str) -> None:
        super().__delitem__(bot_key(name))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and super().__contains__(name.lower())

    def get(self, name: object, default: Any = None) -> Any:
        return super().get(name.lower(), default) if isinstance(name, str) else default

    def pop(self, name: str, *default: Any) -> Any:
        return super().pop(bot_key(name), *default)

    def setdefault(self, name: str, bot: Callable[..., Bot]) -> Callable[..., Bot]:
        if name not in self:
            self[name] = bot
        return self[name]

    def update(self, *args: Any, **kwargs: Any) -> None:
        for name, bot in dict(*args, **kwargs).items():
            self[name] = bot

    def __ior__(self, other: Any) -> BotTable:  # type: ignore[override,misc]
        self.update(other)
        return self


def bot_key(name: object, checked: bool = False) -> str:
    """`name` as `BOTS` keeps it (lower case); with `checked`, refused unless a seat spec
    could name it."""
    if not isinstance(name, str):
        raise KafeneioError(f"a bot's name is text, not {name!r}")
    if checked and (not name.strip() or any(mark in name for mark in ":=, \t")):
        raise KafeneioError(
            f"a bot's name is a word a seat can write (no ':', '=', ',' or space), not {name!r}"
        )
    return name.lower()


BOTS: BotTable = BotTable(
    random=RandomBot,
    greedy=GreedyBot,
    heuristic=HeuristicBot,
    mcts=MctsBot,
)
"""Every bot by name: each takes a seed and the keyword parameters of its constructor."""
SHIPPED_BOTS: dict[str, Callable[..., Bot]] = dict(BOTS)
"""The entries of `BOTS` as the package ships them: every process that imports it has these."""
INSTALLED_BOTS_GROUP = "kafeneio.bots"
"""The entry-point group of bots other packages install: ``name = "module:Class"``."""
INSTALLED_BOTS: dict[str, Callable[..., Bot]] = {}
"""The bots entered from other packages (`enter_installed_bots`): every process of this
environment enters them itself, so a back end's process is not sent them."""
RESERVED_NAMES = frozenset({"human"})
"""Seat names that are no bot's: ``human`` is a person."""


def run_time_bots() -> dict[str, Callable[..., Bot]]:
    """The entries of `BOTS` made or replaced since the package was imported (``BOTS["mine"]
    = MyBot``): what a process of a back end must be given to know them. Not those installed
    by other packages (`INSTALLED_BOTS`): a process enters them itself, and one sent a class
    its environment lacks could not even read its task."""
    known = {**SHIPPED_BOTS, **INSTALLED_BOTS}
    return {name: bot for name, bot in BOTS.items() if known.get(name) is not bot}


def enter_bots(bots: Mapping[str, Callable[..., Bot]]) -> None:
    """Enter `bots` in this process's `BOTS`: a back end's process given the `run_time_bots`
    of the one that planned the run."""
    BOTS.update(bots)


def bot_parameters(name: str) -> list[str]:
    """The keyword parameters the bot `name` accepts (besides its seed)."""
    signature = inspect.signature(BOTS[name])
    return [p for p in signature.parameters if p != "seed"]


def make_bot(name: str, seed: int, **params: int | float | bool | str) -> Bot:
    """The bot written `name` (a name or a seat spec such as ``mcts:seconds=0.05``), seeded,
    with `params` added to those of the spec; `KafeneioError` naming the problem otherwise."""
    seeded_rng(seed)  # refused before the name is read: a bot entered in BOTS may not check it
    base, spec_params = parse_seat(name)
    if base not in BOTS:
        raise KafeneioError(f"unknown bot {base!r}; bots: {', '.join(sorted(BOTS))}")
    twice = sorted(set(spec_params) & {key.lower() for key in params})
    if twice:  # which one was meant? (the keyword won without a word)
        raise KafeneioError(f"{name!r} and a keyword both give {twice[0]!r}: give it once")
    allowed = bot_parameters(base)
    spelled = {key.lower(): key for key in allowed}  # a spec's names come lowered: ``maxDepth``
    merged: Params = {spelled.get(key, key): value for key, value in spec_params.items()}
    merged.update(params)
    unknown = sorted(set(merged) - set(allowed))
    if unknown:
        takes = f"parameters: {', '.join(allowed)}" if allowed else "no parameters"
        raise KafeneioError(f"bot {base!r} has no parameter {unknown[0]!r} ({takes})")
    return BOTS[base](seed, **merged)


def check_seat(spec: str) -> None:
    """Raise the `KafeneioError` that `make_bot` would for this seat spec, making nothing
    heavy (a bot is cheap to make)."""
    make_bot(spec, 0)


__all__ = [
    "BOTS",
    "ActionEstimate",
    "Analysis",
    "Bot",
    "bot_parameters",
    "canonical_seat",
    "check_seat",
    "enter_bots",
    "make_bot",
    "parse_seat",
    "run_time_bots",
]


def enter_installed_bots() -> None:
    """Enter in `BOTS` the bots other packages install (entry points of the group
    `INSTALLED_BOTS_GROUP`): seats like the shipped ones in every command and the web app,
    where a bot entered by a script is a seat only for the Python calls of that script. Run
    once this module is whole, so a bot's module may import from it. One that cannot be
    loaded, is no `Bot` class, or takes a name already used (a shipped bot's, another
    package's, ``human``) is left out with a warning naming it, never an error (a warnings
    filter of errors included): the others and the shipped bots still play."""
    for entry in entry_points(group=INSTALLED_BOTS_GROUP):
        why = _enter_installed(entry)
        if why is not None:
            with warnings.catch_warnings():
                warnings.simplefilter("always")
                warnings.warn(
                    f"the bot {entry.name!r} ({entry.value}) of another package is left out: {why}",
                    stacklevel=2,
                )


def _enter_installed(entry: EntryPoint) -> str | None:
    """Enter the bot of one entry point in `BOTS` and `INSTALLED_BOTS`; else why not."""
    if bot_key(entry.name) in BOTS or entry.name.lower() in RESERVED_NAMES:
        return "its name is taken"
    try:
        loaded = entry.load()
    except (Exception, SystemExit) as err:  # another package's import: anything may go wrong
        return f"cannot be loaded: {err}"
    if not (isinstance(loaded, type) and issubclass(loaded, Bot)):
        return f"is no bot class (a subclass of kafeneio.bots.base.Bot): {loaded!r}"
    try:
        BOTS[entry.name] = INSTALLED_BOTS[bot_key(entry.name)] = loaded
    except KafeneioError as err:  # a name a seat cannot write
        return str(err)
    return None


enter_installed_bots()

"""What a bot is, and what a search bot says about a position when asked to analyse it."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass

from kafeneio.core import CHANCE, TERMINAL, Action, KafeneioError, State
from kafeneio.core.errors import shown
from kafeneio.core.notation import integer_value


def seeded_rng(seed: object) -> random.Random:
    """A bot's generator seeded by `seed`; `KafeneioError` unless it is a whole number (not a
    flag): `random.Random` would take text, a float or None without a word, and None would make
    the bot's play differ at every run."""
    whole = integer_value(seed)  # numpy's integers too, not a flag
    if whole is None:
        raise KafeneioError(f"a bot's seed is a whole number, not {shown(seed)}")
    return random.Random(whole)


class Bot(ABC):
    """A player: `choose(state)` returns the action for the state's current player, using only
    what that player may know. A bot is also a callable, as the play loop expects."""

    name: str
    timed: bool = False
    """Whether it thinks for a time (a budget in seconds): its play then depends on the
    machine's speed and load, so a seed alone does not repeat its games."""

    def __init__(self, seed: int) -> None:
        """A bot is made with a seed (`make_bot`): this one keeps a generator seeded by it,
        `self.rng`, for a bot of one's own that writes only `decide`. A bot that takes keyword
        parameters writes its own ``__init__(self, seed, ...)``: they are its parameters."""
        self.rng = seeded_rng(seed)

    def choose(self, state: State) -> Action:
        """The action to play at `state`, whose current player is this bot; a state with no
        player to decide (a chance node, a game over) is refused, saying what to do instead."""
        player = state.current_player()
        if player == CHANCE:
            raise KafeneioError(
                "a bot decides for a player; at a chance node the play loop draws the outcome "
                "with its odds (kafeneio.core.sample_chance(state, rng))"
            )
        if player == TERMINAL:
            raise KafeneioError("the game is over: there is no decision for a bot to make")
        return self.decide(state)

    @abstractmethod
    def decide(self, state: State) -> Action:
        """`choose` for a state whose current player is this bot (a game's bot writes this)."""

    def __call__(self, state: State) -> Action:
        """A bot is a player of `kafeneio.core.play.play`."""
        return self.choose(state)


@dataclass(frozen=True)
class ActionEstimate:
    """One legal action and the mover's estimated win chance after it."""

    action: Action
    win_chance: float
    """In [0, 1], from the mover's own information."""
    visits: int
    """Search iterations that went through this action (0: the estimate is the prior)."""
    variance: float | None = None
    """The variance of one iteration's reward through this action, where the search keeps it
    (None: unknown; a win or a loss, at most a quarter)."""


LISTED = 8
"""How many of an analysis' actions an error names before it says how many more there are."""


@dataclass(frozen=True)
class Analysis:
    """A search bot's view of one decision, from the mover's own information only.

    `win_chance` is the mover's estimated chance to win (a shared win counts as a share) as the
    search sees the position; `actions` gives every legal action with its estimate, best first
    (a tuple: the analysis is a value, which nobody may change once made; a list given is
    taken as a tuple); `best` is the action the bot would play; `then`, where the same player
    decides again at once after it (a Café turn's second guest), the decision the search
    planned there, if it looked (a plan: the search of that decision may choose another)."""

    player: int
    win_chance: float
    best: Action
    actions: tuple[ActionEstimate, ...] = ()
    iterations: int = 0
    seconds: float = 0.0
    then: Action | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "actions", tuple(self.actions))  # (frozen: set once, here)

    def estimate(self, action: Action) -> float:
        """The mover's win chance after `action` (a legal action of the analysed position);
        `KafeneioError` naming the action and those the analysis has, for any other."""
        for entry in self.actions:
            if entry.action == action:
                return entry.win_chance
        written = [entry.action.notation for entry in self.actions]
        listed = ", ".join(written[:LISTED])
        more = f" and {len(written) - LISTED} more" if len(written) > LISTED else ""
        asked = action.notation if isinstance(action, Action) else shown(action)
        raise KafeneioError(
            f"{asked} is not an action of the analysed position (P{self.player + 1} to move), "
            f"whose analysis has {listed}{more}"
        )

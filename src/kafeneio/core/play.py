"""The one play loop: players decide, chance is drawn with its real probabilities.

The command line, `bench`, `simulate`, the conformance harness and the README example all play
through `play`, so a chance node is resolved the same way everywhere.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from kafeneio.core.actions import Action
from kafeneio.core.errors import KafeneioError
from kafeneio.core.events import Event, plural
from kafeneio.core.game import CHANCE, TERMINAL, State, check_rng, sample_chance

Player = Callable[[State], Action]
"""Anything that picks the action of the player to move: a bot, a person at a prompt."""


@dataclass(frozen=True, slots=True)
class Step:
    """One decision of a game being played, as `on_step` is told it."""

    state: State
    """The state after the action."""
    ply: int
    """The decision's index, from 0."""
    player: int
    """Who decided: a player or `CHANCE`."""
    action: Action
    events: Sequence[Event]


def play(
    state: State,
    players: Sequence[Player] | Mapping[int, Player],
    rng: random.Random,
    on_step: Callable[[Step], None] | None = None,
    max_steps: int | None = None,
) -> State:
    """Play `state` to its end (or for `max_steps` decisions) and return it.

    `players[p]` chooses for player p; chance outcomes are drawn from `rng` with their
    probabilities. `on_step` is called after every decision, chance included. A player is
    handed the game's own state, not a copy: one that looks ahead applies actions to
    `state.clone()` (or a `determinize` sample); one that applied an action to the state
    itself is refused with `KafeneioError`, since the game would go on from a position nobody
    chose. The state is then as that player left it (undoing would cost a copy a decision):
    the game is spoilt, and the error says so."""
    check_players(state, players)
    check_rng(rng)
    steps = 0
    limit = sys.maxsize if max_steps is None else max_steps  # one comparison a decision
    while steps < limit:
        mover = state.current_player()  # TERMINAL exactly when the game is over (the contract)
        if mover == TERMINAL:
            break
        if mover == CHANCE:
            action = sample_chance(state, rng)
        else:
            chooser = players[mover]
            ply = state.ply
            action = chooser(state)
            if state.ply != ply:  # one comparison a decision: a lookahead without a clone
                raise KafeneioError(
                    f"the player of P{mover + 1} applied "
                    f"{plural(state.ply - ply, 'action')} to the state it was handed, which is "
                    "the game itself, now spoilt: look ahead on state.clone()"
                )
        steps += 1
        if on_step is None:  # the common case, random play and search: nothing else to do
            state.apply(action)
        else:
            ply = state.ply
            on_step(Step(state, ply, mover, action, state.apply(action)))
    return state


def random_player(rng: random.Random) -> Player:
    """A player who picks uniformly among the legal actions."""

    def choose(state: State) -> Action:
        return rng.choice(state.legal_actions())

    return choose


def check_players(state: State, players: Sequence[Player] | Mapping[int, Player]) -> None:
    """Refuse, before any move, players that are not one a seat: a seat without one would stop
    the game halfway, and one for a seat the game has not was dropped without a word."""
    seats = set(range(state.num_players))
    given = set(players) if isinstance(players, Mapping) else set(range(len(players)))
    missing, extra = sorted(seats - given), sorted(given - seats, key=str)
    if missing:
        raise KafeneioError(f"no player is given for seat P{missing[0] + 1}")
    if extra:
        seat = f"P{extra[0] + 1}" if isinstance(extra[0], int) else repr(extra[0])
        raise KafeneioError(
            f"a player is given for seat {seat}: a game of {state.num_players} players has "
            f"seats P1 to P{state.num_players}"
        )

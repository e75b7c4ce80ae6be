"""The game contract every game implements, in the spirit of OpenSpiel's State and pgx's Game.

A `Game` declares its metadata once and makes states; a `State` is one position. Randomness is
explicit: a state is made from a seed or from explicitly stacked decks, and any chance event that
a game does not fix in its decks is a chance node (`current_player() == CHANCE`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kafeneio.core.actions import Action
from kafeneio.core.errors import IllegalActionError, KafeneioError
from kafeneio.core.options import RulesOptions

CHANCE = -1
"""`current_player()` of a chance node: the next action is a chance outcome."""
TERMINAL = -2
"""`current_player()` of a finished game."""

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once."""

    name: str
    """Short name used on the command line and in records, e.g. ``cafe``."""
    title: str
    min_players: int
    max_players: int
    num_distinct_actions: int
    """Size of the fixed integer action space: every action's code is below this."""
    rule_prefix: str
    """Prefix of the game's rule ids, e.g. ``CI``."""


class Game(ABC):
    """A game type: metadata, options, notation and the factory of initial states."""

    info: GameInfo

    def new_state(
        self,
        num_players: int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """The initial state. `seed` shuffles the decks; `setup` stacks them explicitly instead.
        With neither, the game draws a seed of its own, so that its record replays."""
        info = self.info
        counted = isinstance(num_players, int) and not isinstance(num_players, bool)
        if not counted or not info.min_players <= num_players <= info.max_players:
            raise KafeneioError(
                f"{info.title} takes {info.min_players} to {info.max_players} players, "
                f"not {num_players!r}"
            )
        if seed is not None and setup is not None:
            raise KafeneioError("give a seed or a stacked setup, not both")
        if seed is None and setup is None:
            seed = random.SystemRandom().randrange(2**32)
        return self.make_state(num_players, options, seed, setup)

    @abstractmethod
    def make_state(
        self,
        num_players: int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        setup: Mapping[str, Any] | None,
    ) -> State:
        """`new_state` once its arguments are checked: exactly one of `seed` and `setup` set."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written `text` in the game's notation; raises `NotationError`."""

    @abstractmethod
    def decode_action(self, code: int) -> Action:
        """The action with integer code `code`; raises `NotationError` if there is none."""

    @abstractmethod
    def render(self, state: State, viewer: int | None = None) -> str:
        """A plain-text picture of `state` as `viewer` may see it (None: a spectator)."""

    def options_schema(self) -> JSON:
        """The rules options with their defaults."""
        return {}

    def roles(self, state: State) -> list[str] | None:
        """What each seat plays as, for games where seats differ (a shop); None otherwise."""
        return None

    def deal_roles(self, options: JSON, num_players: int, rng: random.Random) -> JSON:
        """`options` with the seats' roles dealt at random (for fair simulations)."""
        return options


def sample_chance(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn with its probability."""
    outcomes = state.chance_outcomes()
    return rng.choices([action for action, _ in outcomes], [p for _, p in outcomes])[0]


class State(ABC):
    """One position of a game. Mutable through `apply` only; `clone` is cheap.

    A game's state sets the record's ingredients: `options`, `_seed` or `_setup`, `_history`
    (the actions applied) and `_sampled` (True for a determinized sample)."""

    game: Game
    num_players: int
    options: RulesOptions
    _seed: int | None
    _setup: dict[str, Any] | None
    _history: list[Any]
    _sampled: bool
    _legal: tuple[Action, ...] | None = None
    _legal_by_code: dict[int, Action]

    # --- turn and actions -------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to decide, or `CHANCE`, or `TERMINAL`."""

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions, in a stable order; empty only at a terminal state. Made once per
        state and kept (a tuple, so that clones may share it)."""
        if self._legal is None:
            self._legal = tuple(self._generate())
            self._legal_by_code = {action.code: action for action in self._legal}
        return self._legal

    @abstractmethod
    def _generate(self) -> Iterable[Action]:
        """The legal actions, worked out from the state."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability."""
        raise IllegalActionError("not a chance node")

    def apply(self, action: Action) -> None:
        """Play `action`. An illegal one raises `IllegalActionError` and changes nothing."""
        self.legal_actions()
        legal = self._legal_by_code.get(action.code) if isinstance(action, Action) else None
        if legal is not action and legal != action:  # identity first: actions are interned
            self.explain_illegal(action)
        self._legal = None
        self._history.append(action)
        self._perform(action)

    @abstractmethod
    def _perform(self, action: Action) -> None:
        """Carry out a legal action (already in the history)."""

    def apply_notation(self, text: str) -> Action:
        """Parse `text` and apply it; returns the action."""
        action = self.game.parse_action(text)
        self.apply(action)
        return action

    def legal_action_mask(self) -> list[bool]:
        """A mask over the game's fixed action space (for reinforcement learning)."""
        mask = [False] * self.game.info.num_distinct_actions
        for action in self.legal_actions():
            mask[action.code] = True
        return mask

    def parse_legal(self, text: str) -> Action:
        """The legal action written `text`; `NotationError` or `IllegalActionError` otherwise."""
        action = self.game.parse_action(text)
        if action not in self.legal_actions():
            self.explain_illegal(action)
        return action

    @abstractmethod
    def explain_illegal(self, action: Action) -> None:
        """Raise the `IllegalActionError` that says why `action` is not legal here."""

    # --- outcome ----------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Each player's score as the game counts it (final scores once terminal)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning players once terminal (several on a shared win); empty before."""

    def returns(self) -> list[float]:
        """The result for learning and search: winners share 1, everyone else gets 0."""
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.num_players)]

    # --- information ------------------------------------------------------------------------
    @abstractmethod
    def observation(self, player: int) -> JSON:
        """What `player` may know, as JSON-ready data: nothing hidden from them."""

    @abstractmethod
    def determinize(self, player: int, rng: random.Random) -> State:
        """A copy in which everything `player` cannot see is resampled consistently.

        The sample keeps `player`'s observation but is a world that may not have happened: it
        carries nothing hidden from `player` (not even in its history), and `to_record()` on it
        raises `KafeneioError`."""

    # --- copies and records -----------------------------------------------------------------
    @abstractmethod
    def clone(self) -> State: ...

    def __eq__(self, other: object) -> bool:
        """Equal states: everything equal, hidden information and history included."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self.state_key() == other.state_key()

    @abstractmethod
    def state_key(self) -> tuple[Any, ...]:
        """Everything that makes this state what it is, as a comparable tuple."""

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    @property
    def history(self) -> Sequence[Action]:
        """Every action applied since the initial state, in order. A determinized sample keeps
        only what its player may know: a game whose history holds hidden outcomes empties it."""
        return self._history

    def turns_completed(self) -> int:
        """Whole turns played so far; a game whose turn takes several decisions overrides it."""
        return len(self.history)

    def to_record(self) -> JSON:
        """The JSON game record: game, players, options, seed or stacked setup, actions.
        `KafeneioError` for a determinized sample: its seed would rebuild the true game."""
        from kafeneio.core.record import make_record  # the record module builds on this one

        if self._sampled:
            raise KafeneioError("a determinized sample is not a game that was played: no record")
        return make_record(self, self.options.to_dict(), self._seed, self._setup)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.info.name} after {len(self.history)} actions>"

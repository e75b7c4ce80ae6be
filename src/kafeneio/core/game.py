"""The game contract every game implements, in the spirit of OpenSpiel's State and pgx's Game.

A `Game` declares its metadata once, is bound to its rules options and makes states; a `State`
is one position. Randomness is explicit: a state is made from a seed or from explicitly stacked
decks, and any chance event that a game does not fix in its decks is a chance node
(`current_player() == CHANCE`).

A game writes only hooks (`_generate`, `_perform`, `_observe`, `_determinize`, `_render`...)
under a base that checks: the base refuses unknown viewers, forged or illegal actions and bad
seeds before a hook runs, keeps the history and the events, and derives `clone` and equality
from the fields a state declares.
"""

from __future__ import annotations

import dataclasses
import random
import re
import warnings
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from kafeneio.core.actions import Action
from kafeneio.core.errors import (
    IllegalActionError,
    KafeneioError,
    NotationError,
    ViewerError,
    shown,
)
from kafeneio.core.events import Event, EventLog, HistoryEntry, Words
from kafeneio.core.notation import integer_value
from kafeneio.core.options import RulesOptions
from kafeneio.core.tensor import Spec

CHANCE = -1
"""`current_player()` of a chance node: the next action is a chance outcome (OpenSpiel's -1)."""
SPECTATOR = -3
"""The viewer who is not a player: sees what is public and no private hand."""
TERMINAL = -4
"""`current_player()` of a finished game (OpenSpiel's -4)."""
SEED_LIMIT = 2**63
"""Seeds are whole numbers from 0 to 2**63 - 1."""

JSON = dict[str, Any]


@dataclass(frozen=True)
class GameInfo:
    """What a game is, declared once: what algorithms and front ends branch on."""

    name: str
    """Short name used on the command line and in records, e.g. ``cafe``."""
    title: str
    min_players: int
    max_players: int
    num_distinct_actions: int
    """Size of the fixed integer action space: every action's code is below this."""
    rule_prefix: str
    """Prefix of the game's rule ids, e.g. ``CI``."""
    score_name: str = "points"
    """What `scores()` counts, as a player says it (Souvlaki Wars: money + reputation)."""
    chance_mode: str = "sampled"
    """``deterministic`` (no randomness), ``explicit`` (every random event is a chance node
    with its probabilities) or ``sampled`` (the seed shuffles the decks at the start, and
    draws come from them inside `apply`; a game may also have chance nodes, see below)."""
    chance_nodes: bool = False
    """Whether `current_player()` can be `CHANCE`."""
    perfect_information: bool = False
    """Every player sees the whole state but for the order of shuffled decks."""
    max_game_length: int = 0
    """No game of the bound options lasts more decisions than this (chance outcomes included),
    for the most players the game takes."""
    min_utility: float = 0.0
    max_utility: float = 1.0
    """The range of `returns()`: winners share 1, everyone else gets 0."""
    engine_version: int = 1
    """Bumped whenever the behaviour of a rule (or of a default option) changes; records carry
    it, and replaying a record of another version says so."""


def check_seed(seed: object) -> int:
    """`seed` as a plain int if it is a whole number (numpy's integers too, not a flag) from 0
    to 2**63 - 1; `KafeneioError` otherwise."""
    whole = integer_value(seed)
    if whole is None or not 0 <= whole < SEED_LIMIT:
        raise KafeneioError(f"a seed must be a whole number from 0 to 2**63 - 1, not {seed!r}")
    return whole


class Game(ABC):
    """A game type bound to its rules options: metadata, notation and the factory of states."""

    info: GameInfo
    options_class: ClassVar[type[RulesOptions]]
    options: RulesOptions
    role_option: ClassVar[str | None] = None
    """The rules option that `deal_roles` sets (a seat's shop); None where seats are alike."""
    role_noun: ClassVar[str] = "role"
    """What one seat's role is called, for a table or a report (a Souvlaki Wars seat's shop)."""
    seat_note: ClassVar[str | None] = None
    """What a seat is, said beside results by seat, where it is not a place in the order of
    play (a Souvlaki Wars seat: its order of play follows reputation); None where it is."""

    def __init__(self, options: Mapping[str, Any] | RulesOptions | None = None) -> None:
        self.options = self.options_class.from_dict(options)

    def score_description(self) -> str:
        """What a final score (`State.scores`) is under these options, for a plot's axis: the
        game's `score_name` unless the options change what it counts."""
        return self.info.score_name

    def with_options(self, changes: Mapping[str, Any]) -> Self:
        """This game with some options changed, everything else (a card set) kept."""
        return self._rebuild(self.options_class.from_dict({**self.options.to_dict(), **changes}))

    def _rebuild(self, options: RulesOptions) -> Self:
        """The same game bound to other options; a game with more configuration overrides it."""
        return type(self)(options)

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A game is immutable configuration: deep copies of states share it."""
        return self

    @classmethod
    def from_parts(cls, options: Mapping[str, Any], data: Mapping[str, Any]) -> Self:
        """The game of these options and record data (see `record_data`)."""
        return cls(options)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled by options and record data, so that a pickled state stays small."""
        return (type(self).from_parts, (self.options.to_dict(), self.record_data()))

    def new_state(
        self,
        num_players: int,
        *legacy: Any,
        seed: int | None = None,
        setup: Mapping[str, Any] | None = None,
    ) -> State:
        """The initial state. `seed` shuffles the decks; `setup` stacks them explicitly instead.
        With neither, the game draws a seed of its own, so that its record replays.

        Options belong to the game (`get_game(name, options)`); the old second argument
        `options` is still taken, with a DeprecationWarning."""
        if legacy:
            if len(legacy) > 1 or not isinstance(legacy[0], Mapping | None):
                raise TypeError(
                    "new_state(num_players, seed=..., setup=...): options belong "
                    "to the game, get_game(name, options)"
                )
            warnings.warn(
                "new_state(n, options, ...) is deprecated: bind options with "
                "get_game(name, options)",
                DeprecationWarning,
                stacklevel=2,
            )
            return self.with_options(legacy[0] or {}).new_state(num_players, seed=seed, setup=setup)
        num_players = self.check_num_players(num_players)
        if seed is not None and setup is not None:
            raise KafeneioError("give a seed or a stacked setup, not both")
        if setup is not None and not isinstance(setup, Mapping):
            raise KafeneioError("a setup must be an object of field: value")
        if seed is None and setup is None:
            seed = random.SystemRandom().randrange(SEED_LIMIT)
        if seed is not None:
            seed = check_seed(seed)
        return self.make_state(num_players, seed, setup)

    def check_num_players(self, num_players: object) -> int:
        """`num_players` as a plain int (numpy's integers too); refuse a number of players this
        game never takes, naming the range (`new_state` asks this, and so may a command before
        it plays anything)."""
        info = self.info
        count = integer_value(num_players)
        if count is None or not info.min_players <= count <= info.max_players:
            raise KafeneioError(
                f"{info.title} takes {info.min_players} to {info.max_players} players, "
                f"not {num_players!r}"
            )
        return count

    @abstractmethod
    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> State:
        """`new_state` once its arguments are checked: exactly one of `seed` and `setup` set."""

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """The action written `text` in the game's notation; raises `NotationError` (a move
        written right that the rules allow in no position, Café's ``Jm@bar``, is no action: a
        position tells why it is refused, `State._explain_unreadable`)."""

    @abstractmethod
    def decode_action(self, code: int) -> Action:
        """The action with integer code `code`; raises `NotationError` if there is none."""

    def render(self, state: State, viewer: int = SPECTATOR) -> str:
        """A plain-text picture of `state` as `viewer` (a player or `SPECTATOR`) may see it."""
        return self._render(state, state.check_viewer(viewer))

    @abstractmethod
    def _render(self, state: State, viewer: int) -> str:
        """`render` once the viewer is checked."""

    def reference(self, state: State, viewer: int = SPECTATOR) -> str:
        """What `viewer` may look up beside the picture of `state` now and then, which the
        picture leaves out to stay small (Souvlaki Wars: what the unforeseen cards do, the
        decks, the identity cards, the legend); "" where the picture shows everything."""
        return self._reference(state, state.check_viewer(viewer))

    def _reference(self, state: State, viewer: int) -> str:
        """`reference` once the viewer is checked."""
        return ""

    def notation_help(self) -> str:
        """How a person writes this game's moves (`notation_table`) and, where it helps, how
        its rounds go."""
        return self.notation_table()

    def notation_table(self) -> str:
        """How a person writes this game's moves: the conventions, then a row for each kind of
        move; short enough to share a terminal's 24 rows with a line of the commands."""
        return ""

    def observation_spec(self, num_players: int) -> Spec:
        """The pieces of `State.observation_tensor` for `num_players` players, each by name
        with its shape, in the order of the flat tensor (the game's page documents them): what
        the research interfaces shape their observations by. `KafeneioError` for a player count
        the game never takes, or for a game that has no tensor."""
        self.check_num_players(num_players)
        return self._observation_spec(num_players)

    def _observation_spec(self, num_players: int) -> Spec:
        """`observation_spec` once the player count is checked; a game with an observation
        tensor writes it."""
        raise KafeneioError(
            f"{self.info.title} has no observation tensor: its game writes no observation_spec"
        )

    def options_schema(self) -> JSON:
        """The rules options with the values this game is bound to."""
        return self.options.to_dict()

    def record_data(self) -> JSON:
        """Fields a record carries besides the options so that it replays anywhere (Souvlaki
        Wars: its card set); the registry gives them back when it rebuilds the game."""
        return {}

    def record_options(self, record: Mapping[str, Any]) -> Mapping[str, Any]:
        """The rules options of a record (a game reads older records' options here)."""
        options = record.get("options")
        return options if isinstance(options, Mapping) else {}

    def roles(self, state: State) -> list[str] | None:
        """What each seat plays as, for games where seats differ (a shop); None otherwise."""
        return None

    def rule_notes(self, rule_id: str | None, words: str = "") -> list[str]:
        """What this game's own data says beside the rulebook (a card set of one's own): for
        the rule `rule_id`, or where it is None for the `words` a player looked up, each a
        line; none where the game plays as the rulebook says."""
        return []

    def ended_by(self, state: State) -> str | None:
        """Which of the rules' ends a finished `state` came to, in words that are the same
        for every game that ended so ("the bar full"); None while it goes on, or for a game
        with one end only. A simulation counts its games by it."""
        return None

    def ended_at_limit(self, state: State) -> str | None:
        """Where `state` is a game ended not by its rules' own end but at a limit of the
        engine's that makes every game end (Souvlaki Wars' round limit), what limit, in words
        ("the round limit ..."); else None. Analyses count such games apart."""
        return None

    def chance_outcome_codes(self) -> tuple[int, ...]:
        """Every action code a chance node can have as an outcome, in a fixed order: the
        chance alphabet an adapter numbers outcomes by (OpenSpiel's). By default none for a
        game without chance nodes, else every code; a game whose outcomes are few names them."""
        return tuple(range(self.info.num_distinct_actions)) if self.info.chance_nodes else ()

    def deal_roles(self, num_players: int, rng: random.Random) -> Self:
        """This game with the seats' roles dealt at random (for fair simulations)."""
        return self

    def reseated(self, order: Sequence[int]) -> Self:
        """This game for its players seated anew, new seat i taken by the player of old seat
        `order[i]` (a rematch's): the roles chosen (`role_option`: a seat's shop) follow their
        players. Roles left to the game (the option unset) are the seats' own, as before."""
        option = self.role_option
        roles = self.options.to_dict().get(option) if option is not None else None
        if option is None or roles is None:
            return self
        return self.with_options({option: [roles[was] for was in order]})


def _not_an_action(thing: object, title: str) -> str:
    """Why `thing` is no action, and the call that makes one of what it is (OpenSpiel passes
    codes, people type notation)."""
    code = integer_value(thing)  # any integer type: an agent's code is often numpy's
    if code is not None:
        return f"{code} is an action code, not an action: game.decode_action({code}) makes one"
    if isinstance(thing, str):
        return f"{thing!r} is text, not an action: state.parse_legal({thing!r}) reads it"
    return f"{thing!r} is not an action of {title}"


def check_rng(rng: object) -> random.Random:
    """`rng` if it is a `random.Random` (a numpy generator is not one); `KafeneioError`
    otherwise, not an error from deep in a draw."""
    if not isinstance(rng, random.Random):
        raise KafeneioError(
            f"random numbers come from a random.Random (random.Random(seed)), not {shown(rng)}"
        )
    return rng


def sample_chance(state: State, rng: random.Random) -> Action:
    """A chance outcome drawn with its probability."""
    check_rng(rng)
    outcomes = state.chance_outcomes()
    return rng.choices([action for action, _ in outcomes], [p for _, p in outcomes])[0]


Emitted = EventLog
"""The events of the action being performed. Declared by this alias so that clones share it:
`apply` gives every action a fresh list."""
NO_EVENTS: tuple[Event, ...] = ()
"""What an action of a quiet state caused, as far as anyone is told."""


Link = tuple[Any, ...]
"""One step of the history: (previous link or None, action, mover, events). The history is a
persistent chain, newest first, so clones share it and copying a state costs the same at any
point of the game. A plain tuple, the cheapest thing to make on every action: copies and
pickles of a state flatten the chain first (`State.__getstate__`), so nothing recurses down it."""
Trail = Link | None


_CONTAINERS = (
    *("list", "set", "dict", "List", "Set", "Dict", "Counter", "deque", "Deque"),
    *("defaultdict", "DefaultDict", "OrderedDict", "bytearray"),
)
"""The mutable containers a field may hold, each with a `copy` of its own."""


def _copy_depth(annotation: str) -> int:
    """How `clone` copies a field declared `annotation`: 2, a list of containers, each copied;
    1, a container; 0, shared (immutable); negative (-2, -1): as 2 or 1 where the field holds
    a container, None kept. `TypeError` for a union of a container with another type: which
    copy would it take?"""
    text = re.sub(r"\b(typing|collections|abc)\.", "", annotation).replace(" ", "").strip("'\"")
    parts = _union_parts(text)
    kinds = [part for part in parts if part != "None"]
    depths = [_container_depth(part) for part in kinds]
    if len(kinds) > 1 and any(depths):
        raise TypeError(f"a state's field is declared {annotation!r}: one type, or it and None")
    depth = depths[0] if depths else 0
    return -depth if len(kinds) < len(parts) else depth


def _union_parts(text: str) -> list[str]:
    """The types of a union written ``A | B``, ``Optional[A]`` or ``Union[A, B]``, nested
    ones flattened."""
    for head in ("Optional[", "Union["):
        if text.startswith(head) and text.endswith("]"):
            inner = _top_level_split(text[len(head) : -1], ",")
            parts = [*inner, "None"] if head == "Optional[" else inner
            return [kind for part in parts for kind in _union_parts(part)]
    parts = _top_level_split(text, "|")
    return parts if len(parts) == 1 else [kind for part in parts for kind in _union_parts(part)]


def _top_level_split(text: str, separator: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += char == "["
        depth -= char == "]"
        if char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    return [*parts, text[start:]]


def _container_depth(text: str) -> int:
    head, _, inner = text.partition("[")
    if head not in _CONTAINERS:
        return 0
    return 2 if head in ("list", "List") and inner.partition("[")[0] in _CONTAINERS else 1


class State(ABC):
    """One position of a game. Mutable through `apply` only; `clone` is cheap.

    A game's state declares every field it has as a class annotation. The declaration decides
    how `clone` copies it (``list[list[...]]``: two levels; a ``list``, ``set`` or ``dict``: one
    level, or none where ``| None`` and it is None; anything else is immutable and shared) and
    equality compares them all, so a field cannot be left out by accident. The conformance
    harness (`kafeneio.core.conformance`) checks that every attribute is declared.
    """

    game: Game
    num_players: int
    options: RulesOptions
    _seed: int | None
    _setup: Mapping[str, Any] | None
    _trail: Trail
    _ply: int
    _sampled: bool
    _emitted: Emitted
    _quiet: bool
    _legal: tuple[Action, ...] | None
    _legal_by_code: Mapping[int, Action] | None

    NOT_COMPARED: ClassVar[frozenset[str]] = frozenset(
        {"game", "_legal", "_legal_by_code", "_emitted", "_trail", "_quiet"}
    )
    """Fields that are configuration, caches or how the state reports; the history is compared
    by its actions."""
    HIDDEN_HISTORY: ClassVar[bool] = False
    """The history holds outcomes some players may not see: a determinized sample drops it."""
    _shallow: ClassVar[tuple[str, ...]] = ()
    _nested: ClassVar[tuple[str, ...]] = ()
    _optional: ClassVar[tuple[str, ...]] = ()
    _optional_nested: ClassVar[frozenset[str]] = frozenset()
    _compared: ClassVar[tuple[str, ...]] = ()
    declared: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        annotations: dict[str, str] = {}
        for klass in reversed(cls.__mro__):
            for name, text in vars(klass).get("__annotations__", {}).items():
                annotations[name] = str(text)
        fields = {n: t for n, t in annotations.items() if not t.startswith("ClassVar")}
        cls.declared = frozenset(fields)
        copies = {name: _copy_depth(text) for name, text in fields.items()}
        cls._nested = tuple(n for n, depth in copies.items() if depth == 2)
        cls._shallow = tuple(n for n, depth in copies.items() if depth == 1)
        cls._optional = tuple(n for n, depth in copies.items() if depth < 0)
        cls._optional_nested = frozenset(n for n, depth in copies.items() if depth == -2)
        cls._compared = tuple(sorted(n for n in fields if n not in cls.NOT_COMPARED))

    def _init_base(
        self, game: Game, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> None:
        """The fields every state has; a game's `__init__` calls this first."""
        self.game = game
        self.num_players = num_players
        self.options = game.options
        self._seed = seed
        self._setup = dict(setup) if setup is not None else None
        self._trail = None
        self._ply = 0
        self._sampled = False
        self._emitted = EventLog()
        self._quiet = False
        self._legal = None
        self._legal_by_code = None

    # --- turn and actions -------------------------------------------------------------------
    @abstractmethod
    def current_player(self) -> int:
        """The player to decide, or `CHANCE`, or `TERMINAL`."""

    def legal_actions(self) -> Sequence[Action]:
        """The legal actions, in a stable order; empty only at a terminal state. Made once per
        state and kept (a tuple, so that clones may share it)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = tuple(self._generate())
            self._legal_by_code = None  # made when first needed: most actions are found by identity
        return legal

    @abstractmethod
    def _generate(self) -> Iterable[Action]:
        """The legal actions, worked out from the state."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node: each outcome with its probability."""
        raise IllegalActionError("not a chance node")

    def apply(self, action: Action) -> Sequence[Event]:
        """Play `action`; returns the events it caused (read them, do not change the list: the
        history keeps it). An illegal or forged action raises
        `IllegalActionError` and changes nothing. The interned legal action with the same code
        is what is performed, so a caller's copy can never carry other fields in."""
        legal: Sequence[Action] | None = self._legal
        if legal is None:
            legal = self.legal_actions()
        for candidate in legal:  # identity first: players pick from `legal_actions`
            if candidate is action:
                break
        else:
            action = self._legal_match(action)
        mover = self.current_player()
        self._legal = None
        events: Sequence[Event] = NO_EVENTS if self._quiet else EventLog()
        self._emitted = events  # type: ignore[assignment]  # a quiet state never appends
        self._perform(action)
        self._trail = (self._trail, action, mover, events)  # kept as made: never changed
        self._ply += 1
        return events

    def _legal_match(self, action: object) -> Action:
        """The interned legal action that `action` is, or the error that says why not."""
        legal_actions = self.legal_actions()  # made anew after an action: then so is the map
        by_code = self._legal_by_code
        if by_code is None:
            by_code = self._legal_by_code = {a.code: a for a in legal_actions}
        if not isinstance(action, Action):
            raise IllegalActionError(_not_an_action(action, self.game.info.title))
        legal = by_code.get(action.code)
        if legal is action:  # identity first: actions are interned
            return legal
        if legal is None:
            self.explain_illegal(action)
            raise AssertionError(f"explain_illegal accepted {action}")  # it always raises
        if type(action) is not type(legal) or _fields(action) != _fields(legal):
            raise IllegalActionError(
                f"{action.notation!r} has the code of {legal.notation!r} but other fields: "
                "a forged action is refused"
            )
        return legal

    @abstractmethod
    def _perform(self, action: Action) -> None:
        """Carry out a legal action; `emit` the events it causes."""

    def emit(self, kind: str, words: Words, *args: Any) -> None:
        """Record an event of the action being performed (called from `_perform`). `words`
        is a function (args, viewer) -> text or None, called when the event is read."""
        if not self._quiet:
            if not callable(words):  # else a TypeError far away, where the event is read
                raise TypeError(
                    f"emit({kind!r}, ...): words must be a function (args, viewer) -> text or "
                    f"None, not {type(words).__name__} {words!r}"
                )
            self._emitted.append((kind, args, words))  # an `Event` once read (`EventLog`)

    def quiet(self, quiet: bool = True) -> Self:
        """Stop (or resume) collecting events, and return this state. Events are words for
        people; search and simulations that never read them play faster without. A
        determinized sample is quiet from the start: it is a world that did not happen."""
        self._quiet = quiet
        return self

    @property
    def is_quiet(self) -> bool:
        return self._quiet

    def apply_notation(self, text: str) -> Action:
        """Parse `text` and apply it; returns the action."""
        action = self.parse_legal(text)
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
        try:
            action = self.game.parse_action(text)
        except NotationError as err:
            unreadable = err
        else:
            return self._legal_match(action)
        self._explain_unreadable(text)
        raise unreadable

    def _explain_unreadable(self, text: str) -> None:
        """Where this position tells better than the notation why `text`, which names no action
        of the game, is refused, raise that (Souvlaki Wars' ``pick 0`` names the row's slots);
        by default nothing: the notation's error stands."""
        return None

    @abstractmethod
    def explain_illegal(self, action: Action) -> None:
        """Raise the `IllegalActionError` that says why `action` is not legal here."""

    def action_words(self, action: Action) -> str:
        """A legal action in words, before it is played, for the player who would play it
        (hints and analyses): what its notation says, with the public facts it names. It
        tells nothing the mover does not know. An illegal action raises as `apply` would."""
        return self._words(self._legal_match(action))

    def _words(self, action: Action) -> str:
        """`action_words` of a legal action; a game without words gives the notation."""
        return action.notation

    def numbered_words(self, action: Action) -> str | None:
        """What the numbers of `action`'s notation name in this position, in words, where they
        number things that a decision may number again (a queue's customers, which move up
        when one leaves): a front end compares them with what they named where the player read
        them, so that a number read before a queue moved up does not silently reach another
        customer. None where they name nothing such (a chair, a slot of a row keeps its
        number), or nothing here."""
        return None

    # --- outcome ----------------------------------------------------------------------------
    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def scores(self) -> list[int]:
        """Each player's score as the game counts it (final scores once terminal)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The winning players once terminal (several on a shared win); empty before."""

    def is_out(self, player: int) -> bool:
        """Whether `player` is out of the game (Café's CI-M.3: a bar seat they cannot pay):
        they move no more and cannot win. A game where nobody leaves keeps this."""
        return False

    def returns(self) -> list[float]:
        """The result for learning and search: winners share 1, everyone else gets 0."""
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.num_players)]

    # --- information ------------------------------------------------------------------------
    def check_viewer(self, viewer: object) -> int:
        """`viewer` as a plain int if it is a player of this game or `SPECTATOR`; `ViewerError`
        otherwise. Any whole number but a flag will do: an RL loop's seats are numpy integers."""
        number = viewer if type(viewer) is int else integer_value(viewer)
        if number is not None and (0 <= number < self.num_players or number == SPECTATOR):
            return number
        raise ViewerError(
            f"a viewer is a player from 0 to {self.num_players - 1} or SPECTATOR "
            f"({SPECTATOR}), not {viewer!r}"
        )

    def observation(self, viewer: int) -> JSON:
        """What `viewer` (a player or `SPECTATOR`) may know, as JSON-ready data."""
        return self._observe(self.check_viewer(viewer))

    @abstractmethod
    def _observe(self, viewer: int) -> JSON:
        """`observation` once the viewer is checked."""

    def determinize(self, player: int, rng: random.Random) -> Self:
        """A copy in which everything `player` cannot see is resampled consistently.

        The sample keeps `player`'s observation but is a world that may not have happened: it
        carries nothing hidden from `player` (not even in its history), and `to_record()` on it
        raises `KafeneioError`."""
        sample = self._determinize(self.check_viewer(player), check_rng(rng))
        # The seed, or a stacked setup, and the public history rebuild the true deal: a sample
        # keeps neither (nor its equality, pickle or repr through them), and has no record.
        sample._seed = None
        sample._setup = None
        sample._sampled = True
        sample._quiet = True
        if player != self.current_player():
            # The mover's own legal actions are part of what they know, so a sample made for
            # them keeps them (a search then makes them once); another's may hang on the hidden.
            sample._legal = None
        if self.HIDDEN_HISTORY:
            sample._trail = None
        return sample

    @abstractmethod
    def _determinize(self, player: int, rng: random.Random) -> Self:
        """`determinize` once the player is checked: a clone with the hidden parts resampled."""

    def history_for(self, viewer: int) -> list[HistoryEntry]:
        """Every past decision and what it caused, as `viewer` may see it."""
        viewer = self.check_viewer(viewer)
        steps = _unwind(self._trail)
        first = self._ply - len(steps)
        entries = []
        for offset, (action, mover, events) in enumerate(steps):
            words = tuple(t for t in (e.text_for(viewer) for e in events) if t is not None)
            entries.append(
                HistoryEntry(first + offset, mover, self.describe_action(action, viewer), words)
            )
        return entries

    def describe_action(self, action: Action, viewer: int) -> str:
        """An action of the history as `viewer` may see it; a game whose chance outcomes are
        private overrides it."""
        return action.notation

    # --- copies and records -----------------------------------------------------------------
    def clone(self) -> Self:
        """A copy that shares nothing mutable with this state (by the declared fields)."""
        other = object.__new__(type(self))
        fields = self.__dict__.copy()
        for name in self._shallow:
            fields[name] = fields[name].copy()
        for name in self._nested:
            fields[name] = [inner.copy() for inner in fields[name]]
        for name in self._optional:
            value = fields[name]
            if value is not None:
                nested = name in self._optional_nested
                fields[name] = [inner.copy() for inner in value] if nested else value.copy()
        other.__dict__ = fields  # the copy itself: updating the new object's dict copies again
        return other

    def __eq__(self, other: object) -> bool:
        """Equal states: every declared field equal, hidden information and history included."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, State)
        return self.state_key() == other.state_key()

    def state_key(self) -> tuple[Any, ...]:
        """Everything that makes this state what it is, as a comparable tuple."""
        values = tuple(_frozen(getattr(self, name)) for name in self._compared)
        return (*values, tuple(action.code for action in self.history))

    __hash__ = None  # type: ignore[assignment]  # states are mutable

    def __getstate__(self) -> dict[str, Any]:
        """Pickling keeps the fields; the game pickles by name and options (see `Game`)."""
        fields = self.__dict__.copy()
        fields["_legal"], fields["_legal_by_code"] = None, None
        # Flat, and actions by code: a long chain would nest too deep, and codes are small.
        fields["_trail"] = [(a.code, mover, events) for a, mover, events in _unwind(self._trail)]
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        trail: Trail = None
        decode = fields["game"].decode_action
        for code, mover, events in fields["_trail"]:
            trail = (trail, decode(code), mover, events)
        fields["_trail"] = trail
        self.__dict__.update(fields)

    @property
    def ply(self) -> int:
        """How many actions have been applied (chance outcomes included): cheap, unlike
        ``len(history)``, which walks the history."""
        return self._ply

    @property
    def history(self) -> Sequence[Action]:
        """Every action applied since the initial state, in order. A determinized sample keeps
        only what its player may know: a game whose history holds hidden outcomes empties it."""
        return [action for action, _, _ in _unwind(self._trail)]

    def turns_completed(self) -> int:
        """Whole turns played so far; a game whose turn takes several decisions overrides it."""
        return self._ply

    def to_record(self) -> JSON:
        """The JSON game record: game, players, options, seed or stacked setup, actions.
        `KafeneioError` for a determinized sample: not a game that was played."""
        from kafeneio.core.record import make_record  # the record module builds on this one

        if self._sampled:
            raise KafeneioError("a determinized sample is not a game that was played: no record")
        return make_record(self, self._seed, self._setup)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.info.name} after {self._ply} actions>"


def _unwind(trail: Trail) -> list[tuple[Action, int, tuple[Event, ...]]]:
    steps = []
    while trail is not None:
        trail, action, mover, events = trail
        steps.append((action, mover, events))
    steps.reverse()
    return steps


def _fields(action: Action) -> tuple[Any, ...]:
    return tuple(getattr(action, f.name) for f in dataclasses.fields(action))


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(inner) for inner in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    return value

"""OpenSpiel games of both games: ``register()`` makes ``pyspiel.load_game("kafeneio_cafe")``
and ``pyspiel.load_game("kafeneio_souvlaki", {"players": 3})`` work.

Chance. Both games shuffle their decks from a seed and then draw inside moves (Café
International refills hands at the end of a turn; Souvlaki Wars draws in maintenance, the draft
and the phone orders). The OpenSpiel game makes that shuffle its first node: an explicit chance
node with `SHUFFLES` equally likely outcomes, outcome ``k`` being the game shuffled by seed
``k``. Every later draw follows from it, so the game is ``EXPLICIT_STOCHASTIC`` and an algorithm
sees all of its randomness: the shuffle, then the game's own chance nodes (Souvlaki Wars: the
food card taken at random), each outcome in its own code space below `max_chance_outcomes`
(the outcome's index in the game's `chance_outcome_codes`). The cost is that only `SHUFFLES`
of the possible shuffles can be dealt.

Information. The information-state string has perfect recall: a fingerprint of everything the
player has seen, folded in after every node (each decision, which is made face up in both
games, and the player's observation key after it). `resample_from_infostate` is the contract's
`determinize`; the observation tensor comes through the observer API, piece by piece as the
game's `observation_spec` names them.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from kafeneio.core import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Action,
    GameInfo,
    IllegalActionError,
    State,
)
from kafeneio.games import GAMES, get_game
from kafeneio.rl.common import GameSetup, legal_codes, machine_view, player_action

SHUFFLES = 2**16
"""How many shuffles the first chance node deals from: seeds 0 to 65535."""
SHUFFLE_OUTCOMES = tuple((seed, 1.0 / SHUFFLES) for seed in range(SHUFFLES))
"""The first chance node's outcomes, made once: made at each call, they cost more than a whole
random Café game, and `rl_environment`'s every reset asks for them."""
PREFIX = "kafeneio_"
FINGERPRINT_START = 0
SHUFFLE_SEEN, CHANCE_SEEN, RESAMPLED = -1, -2, -3
"""What a fingerprint folds in for a node whose outcome shows only through the observation, and
for a resampled opponent. Fingerprints hash whole numbers only (the observation keys hold
nothing else, no None): the same in every process."""


def short_name(game_name: str) -> str:
    return PREFIX + game_name


def parameters(game_name: str) -> dict[str, Any]:
    """The OpenSpiel parameters: ``players`` and every rules option OpenSpiel can carry (a
    whole number, a flag or a text), with its default; and for a game whose seats play roles
    (Souvlaki Wars' shops, a list OpenSpiel cannot carry), ``deal_roles``: each game's shuffle
    deals them at random, as `simulate` and the other environments can (without it seat 0
    always kept the first shop, and won 40 of 40 random games)."""
    game = get_game(game_name)
    spec: dict[str, Any] = {"players": game.info.min_players}
    for name, default in game.options_schema().items():
        if isinstance(default, bool | int | float | str):
            spec[name] = default
    if game.role_option is not None:
        spec["deal_roles"] = False
    return spec


def shuffles_first(info: GameInfo) -> bool:
    """A game whose seed shuffles its decks (contract chance mode ``sampled``) starts with the
    shuffle node; an ``explicit`` or ``deterministic`` game starts at its first decision."""
    return info.chance_mode == "sampled"


def game_type(game_name: str) -> pyspiel.GameType:
    """The `GameType` from the contract's `GameInfo`: explicit stochastic when there is a
    shuffle node or chance nodes; imperfect information when some of the state is hidden, the
    shuffle's outcome included."""
    info = get_game(game_name).info
    stochastic = shuffles_first(info) or info.chance_nodes or info.chance_mode == "explicit"
    chance = pyspiel.GameType.ChanceMode
    information = pyspiel.GameType.Information
    hidden = shuffles_first(info) or not info.perfect_information
    return pyspiel.GameType(
        short_name=short_name(game_name),
        long_name=f"kafeneio {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if stochastic else chance.DETERMINISTIC,
        information=information.IMPERFECT_INFORMATION
        if hidden
        else information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters(game_name),
    )


class KafeneioSpielGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """One kafeneio game as an OpenSpiel game."""

    def __init__(self, game_name: str, params: Mapping[str, Any]) -> None:
        params = dict(params)
        num_players = int(params.pop("players"))
        deal_roles = params.pop("deal_roles", False)
        self.setup = GameSetup(game_name, num_players, params, deal_roles)
        self.chance_codes: tuple[int, ...] = _chance_codes(self.setup)
        self.chance_index = {code: index for index, code in enumerate(self.chance_codes)}
        info = self.setup.game.info
        self.shuffles = shuffles_first(info)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=max(SHUFFLES if self.shuffles else 0, len(self.chance_codes)),
            num_players=num_players,
            min_utility=info.min_utility,
            max_utility=info.max_utility,
            utility_sum=1.0,  # returns() always share 1 among the winners
            # the contract's bound on decisions, chance outcomes included; and the shuffle
            max_game_length=info.max_game_length + self.shuffles,
        )
        if self.setup.game.role_option is not None:
            params["deal_roles"] = deal_roles
        super().__init__(game_type(game_name), game_info, {**params, "players": num_players})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its name and parameters: the class made for each game is no attribute
        of this module, where pickle would look for it."""
        return (load_game, (self.setup.game_name, self.get_parameters()))

    def new_initial_state(self) -> KafeneioSpielState:
        return KafeneioSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> KafeneioObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall, public_only = observation_kind(iig_obs_type)
        return KafeneioObserver(self, perfect_recall, public_only)


class Engine:
    """The kafeneio state inside an OpenSpiel state. OpenSpiel clones a Python state by deep
    copying its attributes: this makes that the contract's cheap `clone`."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        return Engine(self.state.clone())

    def __getstate__(self) -> State:
        return self.state

    def __setstate__(self, state: State) -> None:
        self.state = state


class KafeneioSpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """Before the shuffle, `engine` is None; after it (or from the start, for a game that
    shuffles nothing), the kafeneio state."""

    def __init__(self, game: KafeneioSpielGame) -> None:
        super().__init__(game)
        self.engine: Engine | None = None
        self.fingerprints: tuple[int, ...] = (FINGERPRINT_START,) * game.setup.num_players
        if not game.shuffles:  # nothing is shuffled: the seed changes nothing
            self.engine = Engine(game.setup.new_state(0))
            self._fold(CHANCE, SHUFFLE_SEEN)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game (by name and parameters) and `serialize()`, so that it comes
        back where the game was never registered, as a pickled game does."""
        game = self._game()
        return (load_state, (game.setup.game_name, game.get_parameters(), self.serialize()))

    def _game(self) -> KafeneioSpielGame:
        game: KafeneioSpielGame = self.get_game()
        return game

    def current_player(self) -> int:
        if "_recording" in self.__dict__:  # `_record_history`: the next entry's player
            player, _ = next(self._recording)
            return player
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self.engine.state.current_player()
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return legal_codes(self.engine.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.engine is None:
            return list(SHUFFLE_OUTCOMES)  # a list of the caller's own
        index = self._game().chance_index
        outcomes = [(index[action.code], p) for action, p in self.engine.state.chance_outcomes()]
        return sorted(outcomes)

    def _apply_action(self, action: int) -> None:
        if "_recording" in self.__dict__:
            return  # `_record_history`: the entry is recorded, not played
        game = self._game()
        if self.engine is None:
            if not 0 <= action < SHUFFLES:
                raise IllegalActionError(
                    f"the shuffle's outcome is a seed from 0 to {SHUFFLES - 1}, not {action}"
                )
            self.engine = Engine(game.setup.new_state(int(action)))
            self._fold(CHANCE, SHUFFLE_SEEN)
            return
        state = self.engine.state
        mover = state.current_player()
        if mover == CHANCE:
            state.apply(self._chance_action(int(action)))
            self._fold(mover, CHANCE_SEEN)
        else:
            played = player_action(game.setup.game, action)
            state.apply(played)
            self._fold(mover, played.code)

    def _chance_action(self, outcome: int) -> Action:
        """The engine's chance action numbered `outcome`; `IllegalActionError` naming this
        node's outcomes when it is not one of them."""
        assert self.engine is not None
        index = self._game().chance_index
        actions = {index[action.code]: action for action, _ in self.engine.state.chance_outcomes()}
        if outcome not in actions:
            raise IllegalActionError(
                f"chance outcome {outcome} is not one of this node's: {sorted(actions)}"
            )
        return actions[outcome]

    def _fold(self, mover: int, seen: int) -> None:
        """Fold what each player saw at this node into their fingerprint: every decision is
        made face up; a chance outcome shows only through the observation."""
        assert self.engine is not None
        view = machine_view(self.engine.state)
        self.fingerprints = tuple(
            hash((print_, mover, seen, view.observation_key(player)))
            for player, print_ in enumerate(self.fingerprints)
        )

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.engine is None:
                return f"shuffle {action}"
            codes = self._game().chance_codes
            if not 0 <= action < len(codes):  # Python would read a negative one from the end
                raise ValueError(
                    f"chance outcome {action} is not one of the game's {len(codes)} after the "
                    "shuffle"
                )
            return self._game().setup.game.decode_action(codes[action]).notation
        return self._game().setup.game.decode_action(action).notation

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.state.is_terminal()

    def returns(self) -> list[float]:
        if self.engine is None:
            return [0.0] * self._game().setup.num_players
        return [float(value) for value in self.engine.state.returns()]

    def information_state_string(self, player: int | None = None) -> str:
        """Perfect recall: a fingerprint of every observation the player has had."""
        seat = self._seat(self.current_player() if player is None else player)
        return f"p{seat} {self.fingerprints[seat] & 0xFFFFFFFFFFFFFFFF:016x}"

    def _seat(self, player: int) -> int:
        """`player` if it is a player of this game; `ValueError` otherwise (at a chance or a
        terminal node, no player is current), as OpenSpiel's checks refuse one."""
        if not 0 <= player < len(self.fingerprints):
            raise ValueError(
                f"a player is a seat from 0 to {len(self.fingerprints) - 1}, not {player}"
            )
        return player

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the player cannot tell from this one: the contract's `determinize`. The
        other players' fingerprints are replaced by ones made from what this player knows, and
        its history's chance outcomes (the shuffle, a card taken at random) by stand-ins: the
        true ones would rebuild the world the sample hides."""
        self._seat(player_id)
        if self.engine is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**53))
        sample = self._game().new_initial_state()
        sample._record_history(self._stand_ins(rng))
        sample.engine = Engine(self.engine.state.determinize(player_id, rng))
        known = self.fingerprints[player_id]
        sample.fingerprints = tuple(
            known if seat == player_id else hash((known, RESAMPLED, player_id, seat))
            for seat in range(len(self.fingerprints))
        )
        return sample

    def _stand_ins(self, rng: random.Random) -> list[tuple[int, int]]:
        """This history as (player, action), each chance outcome drawn at random from the
        shuffle's or the game's outcomes: a history nobody's information rebuilds the world from."""
        outcomes = len(self._game().chance_codes)
        entries = []
        for index, entry in enumerate(self.full_history()):
            action = entry.action
            if entry.player == pyspiel.PlayerId.CHANCE:
                shuffle = index == 0 and self._game().shuffles
                action = rng.randrange(SHUFFLES if shuffle else outcomes)
            entries.append((int(entry.player), action))
        return entries

    def _record_history(self, entries: list[tuple[int, int]]) -> None:
        """Make `entries` this state's history, as OpenSpiel keeps it, without playing them:
        OpenSpiel sets a history only through `apply_action`, which asks who moves first."""
        self._recording = iter(entries)
        try:
            for _, action in entries:
                self.apply_action(action)
        finally:
            del self._recording

    def __str__(self) -> str:
        if self.engine is None:
            return "before the shuffle"
        state = self.engine.state
        return f"{state!r} {state.state_key()!r}"


def observation_kind(iig_obs_type: Any) -> tuple[bool, bool]:
    """(perfect recall, public only) for an OpenSpiel observation type (None: a player's
    observation). A kind the games do not provide raises `ValueError` naming it, rather than
    handing out another: a public observation that held a player's hand would leak it."""
    if iig_obs_type is None:
        return False, False
    private = iig_obs_type.private_info
    if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
        raise ValueError(
            f"the observation type public_info={iig_obs_type.public_info}, private_info="
            f"{private.name} is not provided: with public_info=True, private_info is "
            "SINGLE_PLAYER (a player's observation or information state) or NONE (the public "
            "observation)"
        )
    public_only = private == pyspiel.PrivateInfoType.NONE
    if public_only and iig_obs_type.perfect_recall:
        raise ValueError(
            "the public information state (perfect_recall with private_info NONE) is not "
            "provided; the public observation is (perfect_recall=False)"
        )
    return bool(iig_obs_type.perfect_recall), public_only


class KafeneioObserver:
    """OpenSpiel's Python observer: the contract's tensor in named pieces, as `player` sees it
    or (`public_only`) as a spectator does whoever asks; or (perfect recall) the information
    state fingerprint, which has no tensor."""

    def __init__(
        self, game: KafeneioSpielGame, perfect_recall: bool, public_only: bool = False
    ) -> None:
        self.perfect_recall = perfect_recall
        self.public_only = public_only
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if perfect_recall:
            return
        spec = game.setup.observation_spec()
        tensor = np.zeros(sum(int(np.prod(shape)) for shape in spec.values()), np.float32)
        start = 0
        for name, shape in spec.items():
            size = int(np.prod(shape))
            self.dict[name] = tensor[start : start + size].reshape(shape)
            start += size
        self.tensor = tensor

    def set_from(self, state: KafeneioSpielState, player: int) -> None:
        if self.tensor is None:
            return
        if state.engine is None:
            self.tensor.fill(0.0)
        else:
            view = machine_view(state.engine.state)
            self.tensor[:] = view.observation_tensor(self._viewer(player))

    def string_from(self, state: KafeneioSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        if state.engine is None:
            return "before the shuffle"
        return repr(machine_view(state.engine.state).observation_key(self._viewer(player)))

    def _viewer(self, player: int) -> int:
        return SPECTATOR if self.public_only else player


def _chance_codes(setup: GameSetup) -> tuple[int, ...]:
    """The game's chance alphabet (a game without chance nodes has none)."""
    return tuple(setup.game.chance_outcome_codes())


def register(game_name: str | None = None) -> list[str]:
    """Register one game, or every kafeneio game, with OpenSpiel; the short names. Safe to
    call again: a game already registered is left as it is."""
    names = [game_name] if game_name is not None else sorted(GAMES)
    registered = set(pyspiel.registered_names())
    for name in names:
        if short_name(name) not in registered:
            pyspiel.register_game(game_type(name), _game_class(name))
    return [short_name(name) for name in names]


def load_game(game_name: str, params: Mapping[str, Any]) -> pyspiel.Game:
    """`pyspiel.load_game` of a kafeneio game, registered first: how a pickled game comes back,
    in a process that may never have called `register`."""
    register(game_name)
    return pyspiel.load_game(short_name(game_name), dict(params))


def load_state(game_name: str, params: Mapping[str, Any], text: str) -> pyspiel.State:
    """The state `serialize()` wrote as `text`, in the game `load_game` gives."""
    return load_game(game_name, params).deserialize_state(text)


def _game_class(game_name: str) -> type[KafeneioSpielGame]:
    """A class per game, as OpenSpiel's own Python games register: OpenSpiel keeps the creator
    until the process ends, after Python has shut down, and a class (unlike a function) is
    never freed then, which would crash the exit."""

    def init(self: KafeneioSpielGame, params: Mapping[str, Any] | None = None) -> None:
        KafeneioSpielGame.__init__(self, game_name, params or parameters(game_name))

    title = "".join(part.title() for part in game_name.split("_"))
    return type(f"{title}SpielGame", (KafeneioSpielGame,), {"__init__": init})

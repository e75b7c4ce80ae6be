"""What every research interface shares: games made from keyword options, numpy observations and
masks from the contract's tensor, and chance resolved with its real probabilities.

Needs numpy (the ``rl`` extra: ``pip install 'kafeneio[rl]'``). The contract's observation
tensor and key are methods of each game's state; `machine_view` checks a state has them.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from kafeneio.core import (
    CHANCE,
    SPECTATOR,
    Action,
    Game,
    IllegalActionError,
    KafeneioError,
    NotationError,
    State,
    sample_chance,
)
from kafeneio.core.errors import shown
from kafeneio.core.notation import integer_value
from kafeneio.core.tensor import Entries
from kafeneio.games import get_game

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]
SEED_BITS = 63
"""Game seeds the environments draw are below 2**63, as the contract takes them."""
RENDER_MODES = ["human", "ansi"]
"""``ansi``: `render()` returns the position as a spectator sees it; ``human``: it prints it,
and so does every step (Gymnasium's single-agent environment: every reset too), as Gymnasium
and PettingZoo's classic games do."""
BOUND = float(2**24)
"""Every entry of a tensor is a whole number (a count, an amount, a 0/1 flag) far inside
±2**24, the range where float32 holds whole numbers exactly: the spaces' bounds."""


@runtime_checkable
class MachineView(Protocol):
    """The contract's observations for machines (issue 6): a key and a flat tensor."""

    def observation_key(self, player: int) -> Hashable: ...

    def observation_tensor(self, player: int) -> list[float]: ...

    def observation_entries(self, player: int) -> Entries: ...


def player_action(game: Game, code: object) -> Action:
    """`game`'s action of code `code`. What names no action is refused as any illegal action
    is, with `IllegalActionError` (not the notation's error) naming it: a code in a gap of the
    game's space or outside it, and what is not a whole number (a float from a policy's output
    would otherwise be cut to a code and played)."""
    whole = integer_value(code)
    if whole is None:
        raise IllegalActionError(f"an action is a whole-number code, not {code!r}")
    try:
        return game.decode_action(whole)
    except NotationError as err:
        raise IllegalActionError(f"{err}: no action of the game has it") from None


def machine_view(state: State) -> MachineView:
    """`state` as a `MachineView`; `KafeneioError` if its game has no tensor."""
    if not isinstance(state, MachineView):
        raise KafeneioError(f"{state.game.info.title} has no observation tensor")
    return state


ROLES_SALT = 0x5EA75
"""Mixed into a game's seed to deal its roles, so that the deal and the shuffle differ."""


class GameSetup:
    """A game, its player count and its rules options, as the environments take them."""

    def __init__(
        self,
        game_name: str,
        num_players: int,
        options: Mapping[str, Any],
        deal_roles: bool = False,
    ) -> None:
        self.game_name = game_name
        self.options = dict(options)
        self.game: Game = get_game(game_name, self.options)
        if not isinstance(deal_roles, bool):
            raise KafeneioError(f"deal_roles is true or false, not {shown(deal_roles)}")
        role = self.game.role_option
        if deal_roles and role is not None and self.options.get(role) is not None:
            raise KafeneioError(
                f"deal_roles deals the {role} at random: give it or {role}, not both"
            )
        self.deal_roles = deal_roles
        """Whether each game deals the seats' roles at random (Souvlaki Wars' shops, as
        `simulate` does; `Game.deal_roles`), from its seed."""
        # a numpy integer is a player count too; text or a float is refused, naming the range
        count = integer_value(num_players)
        self.game.check_num_players(num_players if count is None else count)
        self.num_players: int = num_players if count is None else count
        probe = self.new_state(0)
        self.observation_size = len(machine_view(probe).observation_tensor(0))
        self.num_actions = self.game.info.num_distinct_actions

    def observation_spec(self) -> dict[str, tuple[int, ...]]:
        """The pieces of the observation tensor with their shapes, from the game."""
        return dict(self.game.observation_spec(self.num_players))

    def new_state(self, seed: int) -> State:
        """A new game shuffled by `seed`, its roles dealt by it too with `deal_roles`; quiet
        (no events in words): agents read tensors."""
        game = self.game
        if self.deal_roles:
            game = game.deal_roles(self.num_players, random.Random(seed ^ ROLES_SALT))
        return game.new_state(self.num_players, seed=seed).quiet()


def check_render_mode(render_mode: str | None) -> None:
    """`ValueError` unless `render_mode` is None or one of `RENDER_MODES`."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")


def render_position(game: Game, state: State, render_mode: str | None) -> str | None:
    """`state` as a spectator sees it, in text: returned for ``ansi``, printed for ``human``;
    without a render mode, nothing, with Gymnasium's warning (PettingZoo's classic games and
    Gymnasium's own environments give it: a render that did nothing said nothing)."""
    if render_mode is None:
        from gymnasium import logger

        logger.warn(
            "You are calling render method without specifying any render mode: make the "
            "environment with render_mode='ansi' (text) or 'human' (printed)"
        )
        return None
    text = game.render(state, SPECTATOR)
    if render_mode == "human":
        print(text)
        return None
    return text


def observation_array(state: State, player: int) -> FloatArray:
    """`player`'s observation tensor as a float32 array (a new one each call), scattered from
    its non-zero entries rather than converted from the whole flat list."""
    entries = machine_view(state).observation_entries(player)
    array = np.bincount(entries.ones, minlength=entries.size).astype(np.float32)
    if entries.values:
        array[list(entries.values)] = list(entries.values.values())
    return array


def legal_codes(state: State) -> list[int]:
    """The codes of the legal actions, ascending."""
    return sorted(action.code for action in state.legal_actions())


def action_mask(state: State, num_actions: int, player: int | None = None) -> MaskArray:
    """1 at the code of every legal action, 0 elsewhere: built from the legal actions, never by
    a loop over the whole space. All zeros unless `player` is None or the one to act.
    `ValueError` for a mask too short to hold every code; `ViewerError` for a player not of
    the game."""
    codes_needed = state.game.info.num_distinct_actions
    if num_actions < codes_needed:
        raise ValueError(
            f"the mask needs the game's {codes_needed} action codes, not {num_actions}"
        )
    if player is not None:
        state.check_viewer(player)
    mask = np.zeros(num_actions, dtype=np.int8)
    if player is None or state.current_player() == player:
        codes = [action.code for action in state.legal_actions()]
        if codes:
            mask[codes] = 1
    return mask


def resolve_chance(state: State, rng: random.Random) -> None:
    """Play chance nodes, each outcome drawn with its probability, until a player decides."""
    while state.current_player() == CHANCE:
        state.apply(sample_chance(state, rng))

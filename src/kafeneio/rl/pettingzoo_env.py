"""PettingZoo AEC environments of the games, after PettingZoo's classic environments.

``kafeneio.rl.env("cafe", num_players=3, dance=True)``: one agent per seat (``player_0``...),
``observe(agent)`` gives ``{"observation": float32 tensor, "action_mask": int8 mask}`` where the
tensor is the contract's (exactly that seat's information) and the mask is over the game's
fixed action codes, non-zero only for the agent to act. Rewards come once, at the end: each
seat's entry of the contract's `returns()` (winners share 1). Chance nodes are resolved inside
the environment with their real probabilities, from a generator seeded by ``reset(seed=...)``.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kafeneio.core import State, check_seed
from kafeneio.core.notation import integer_value
from kafeneio.rl.common import (
    BOUND,
    RENDER_MODES,
    SEED_BITS,
    GameSetup,
    action_mask,
    check_render_mode,
    observation_array,
    player_action,
    render_position,
    resolve_chance,
)


class KafeneioAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no type hints
    """One game of `game_name` for `num_players`; with `deal_roles`, each reset deals the
    seats' roles at random (Souvlaki Wars' shops); other keyword arguments are rules
    options."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        game_name: str,
        num_players: int = 2,
        render_mode: str | None = None,
        deal_roles: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(render_mode)
        self.setup = GameSetup(game_name, num_players, options, deal_roles)
        self.metadata = {**type(self).metadata, "name": f"kafeneio_{game_name}_v0"}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(num_players)]
        self.agent_seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, actions = self.setup.observation_size, self.setup.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-BOUND, BOUND, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._seeds = random.Random()  # unseeded until reset(seed=...) says otherwise
        self._chance = random.Random(0)
        self.game_state: State = self.setup.new_state(0)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; `seed` fixes its shuffle and every chance outcome after it (a whole
        number from 0 to 2**63 - 1, a numpy integer too: -5 would be 5's games, as
        `random.Random` takes it)."""
        if seed is not None:
            whole = integer_value(seed)
            self._seeds = random.Random(check_seed(seed if whole is None else whole))
        self._chance = random.Random(self._seeds.getrandbits(SEED_BITS))
        self.game_state = self.setup.new_state(self._seeds.getrandbits(SEED_BITS))
        resolve_chance(self.game_state, self._chance)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self.agent_seats[agent]
        return {
            "observation": observation_array(self.game_state, seat),
            "action_mask": action_mask(self.game_state, self.setup.num_actions, seat),
        }

    def step(self, action: int | None) -> None:
        """Play the selected agent's action code; an illegal one raises and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for a finished agent")
        self.game_state.apply(player_action(self.setup.game, action))
        resolve_chance(self.game_state, self._chance)
        self._cumulative_rewards[agent] = 0.0
        if self.game_state.is_terminal():
            for seat, value in enumerate(self.game_state.returns()):
                self.rewards[self.possible_agents[seat]] = float(value)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[0]
        else:
            self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return render_position(self.setup.game, self.game_state, self.render_mode)

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


def raw_env(game_name: str, **kwargs: Any) -> KafeneioAECEnv:
    """The environment without PettingZoo's safety wrappers (fastest)."""
    return KafeneioAECEnv(game_name, **kwargs)


def env(game_name: str, **kwargs: Any) -> Any:
    """The environment as PettingZoo's classic games come: an illegal action ends the game with
    reward -1 for its player, actions are checked against the space, and calls in order."""
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(game_name, **kwargs), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))

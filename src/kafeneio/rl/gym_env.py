"""A Gymnasium single-agent environment: one seat learns, the others are bots or players.

``SingleAgentEnv("souvlaki", num_players=3, learner=1, opponents=["heuristic", "random"])``;
an opponent is a bot's name or a player of one's own (any callable State -> Action, as
`kafeneio.core.play` takes), such as a frozen copy of the learner's policy for self-play.
The observation is the learner's contract tensor; ``info["action_mask"]`` is the int8 mask over
the game's action codes, so ``env.action_space.sample(info["action_mask"])`` draws a legal
action. Bots and chance act inside `step` until the learner is to act again or the game ends;
the reward, given once at the end, is the learner's entry of the contract's `returns()`.

An illegal action (an agent that ignored the mask) ends the episode: reward `illegal_reward`,
``info["illegal_action"]`` the code, and the game left exactly as it was; with
``illegal="raise"`` it raises the engine's `IllegalActionError` instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from kafeneio.bots import make_bot
from kafeneio.bots.spec import is_real
from kafeneio.core import IllegalActionError, KafeneioError, State
from kafeneio.core.errors import shown
from kafeneio.core.events import plural
from kafeneio.core.notation import integer_value
from kafeneio.core.play import Player
from kafeneio.games import GAMES
from kafeneio.rl.common import (
    BOUND,
    RENDER_MODES,
    SEED_BITS,
    FloatArray,
    GameSetup,
    action_mask,
    check_render_mode,
    observation_array,
    player_action,
    render_position,
    resolve_chance,
)

Opponent = str | Player
"""A bot's name (made anew at every reset, seeded from the reset's seed) or a player."""


class SingleAgentEnv(gymnasium.Env[FloatArray, np.int64]):
    """`learner`'s seat of `game_name`; `opponents` gives an `Opponent` for each other seat in
    seat order (or one for all of them); with `deal_roles`, each reset deals the seats' roles
    at random (Souvlaki Wars' shops). Other keyword arguments are rules options."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 1}  # noqa: RUF012  # as Gymnasium declares it

    def __init__(
        self,
        game_name: str,
        num_players: int = 2,
        learner: int = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        render_mode: str | None = None,
        illegal: str = "lose",
        illegal_reward: float = -1.0,
        deal_roles: bool = False,
        **options: Any,
    ) -> None:
        check_render_mode(render_mode)
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {shown(illegal)}")
        if not is_real(illegal_reward) or not math.isfinite(illegal_reward):
            raise KafeneioError(f"illegal_reward is a finite number, not {shown(illegal_reward)}")
        self.setup = GameSetup(game_name, num_players, options, deal_roles)
        num_players = self.setup.num_players
        seat = integer_value(learner)
        if seat is None or not 0 <= seat < num_players:
            raise KafeneioError(
                f"the learner is a seat from 0 to {num_players - 1}, not {shown(learner)}"
            )
        learner = seat
        others = num_players - 1
        if isinstance(opponents, str) or callable(opponents) or not isinstance(opponents, Iterable):
            # one for all; neither a name nor a callable (`5`, which failed as "'int' object
            # is not iterable"), it is refused below naming it
            self.opponents: list[Opponent] = [opponents] * others
        else:
            self.opponents = list(opponents)
        if len(self.opponents) != others:
            raise KafeneioError(
                f"opponents gives {plural(len(self.opponents), 'player')} for "
                f"{plural(others, 'other seat')}: give a list of one for each other seat, in "
                "seat order, or one (not in a list) for all"
            )
        for opponent in self.opponents:
            check_opponent(opponent)
        self.learner = learner
        self.render_mode = render_mode
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)  # numpy's too, as a plain float
        self.observation_space = spaces.Box(
            -BOUND, BOUND, (self.setup.observation_size,), np.float32
        )
        self.action_space = spaces.Discrete(self.setup.num_actions)
        self.game_state: State = self.setup.new_state(0)
        self._players: dict[int, Player] = {}
        self._chance = random.Random(0)
        self._in_episode = False
        """Between a reset and the end of its episode: the game's end or an illegal action."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        super().reset(seed=seed)
        draws = self.np_random.integers(0, 2**SEED_BITS, size=2 + len(self.opponents))
        self.game_state = self.setup.new_state(int(draws[0]))
        self._chance = random.Random(int(draws[1]))
        seats = [seat for seat in range(self.setup.num_players) if seat != self.learner]
        self._players = {
            seat: make_bot(opponent, int(draw)) if isinstance(opponent, str) else opponent
            for seat, opponent, draw in zip(seats, self.opponents, draws[2:], strict=True)
        }
        self._in_episode = True
        self._play_others()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self._step(action)
        if self.render_mode == "human":
            self.render()
        return result

    def _step(
        self, action: int | np.integer[Any]
    ) -> tuple[FloatArray, SupportsFloat, bool, bool, dict[str, Any]]:
        """`step` before the position is shown."""
        if not self._in_episode:
            raise KafeneioError("no episode is under way (none began, or it ended): call reset()")
        try:
            self.game_state.apply(player_action(self.setup.game, action))
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self._in_episode = False
            whole = integer_value(action)
            info = {**self._info(), "illegal_action": action if whole is None else whole}
            return self._observation(), self.illegal_reward, True, False, info
        self._play_others()
        done = self.game_state.is_terminal()
        self._in_episode = not done
        reward = self.game_state.returns()[self.learner] if done else 0.0
        return self._observation(), reward, done, False, self._info()

    def render(self) -> str | None:
        return render_position(self.setup.game, self.game_state, self.render_mode)

    def _play_others(self) -> None:
        """The opponents' decisions up to the learner's turn or the end. An opponent that
        fails ends the episode, so that the learner's next step is refused (call `reset`),
        not scored as the learner's move at another's turn."""
        try:
            self._opponents_play()
        except BaseException:
            self._in_episode = False
            raise

    def _opponents_play(self) -> None:
        state = self.game_state
        while not state.is_terminal():
            resolve_chance(state, self._chance)
            player = state.current_player()
            if player == self.learner or state.is_terminal():
                return
            # a copy: a player of one's own that searches by applying moves cannot change
            # the episode (the web server hands its bots copies too)
            action = self._players[player](state.clone())
            try:
                state.apply(action)
            except IllegalActionError as err:  # in self-play it read as the learner's own
                refused = IllegalActionError(f"the opponent at seat {player} played: {err}")
                refused.rule = err.rule
                raise refused from err

    def _observation(self) -> FloatArray:
        return observation_array(self.game_state, self.learner)

    def _info(self) -> dict[str, Any]:
        mask = action_mask(self.game_state, self.setup.num_actions, self.learner)
        return {"action_mask": mask}


def check_opponent(opponent: object) -> None:
    """`KafeneioError` unless `opponent` is a known bot's name or callable: an unknown name
    fails when the environment is made, not at the first reset."""
    if isinstance(opponent, str):
        make_bot(opponent, 0)
    elif not callable(opponent):
        raise KafeneioError(
            "an opponent is a bot's name or a player (a callable State -> Action), "
            f"not {shown(opponent)}"
        )


def register_gymnasium() -> list[str]:
    """Register ``kafeneio/cafe-v0`` and ``kafeneio/souvlaki-v0`` with Gymnasium, so that
    ``gymnasium.make("kafeneio/souvlaki-v0", num_players=3)`` makes a `SingleAgentEnv`."""
    ids = []
    for name in sorted(GAMES):
        env_id = f"kafeneio/{name}-v0"
        if env_id not in gymnasium.registry:
            entry = "kafeneio.rl.gym_env:SingleAgentEnv"
            gymnasium.register(id=env_id, entry_point=entry, kwargs={"game_name": name})
        ids.append(env_id)
    return ids

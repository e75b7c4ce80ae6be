"""The Gymnasium single-agent wrapper: Gymnasium's checker, masks, bots as opponents."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from kafeneio.core import CHANCE, SPECTATOR, Action, IllegalActionError, KafeneioError, State
from kafeneio.rl import SingleAgentEnv, action_mask, observation_array

GAMES = ("cafe", "souvlaki")


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_gymnasium_check_env_passes(game_name: str, players: int) -> None:
    check_env(SingleAgentEnv(game_name, num_players=players, learner=players - 1))


@pytest.mark.parametrize("game_name", GAMES)
def test_masked_sampling_plays_a_whole_game_against_named_bots(game_name: str) -> None:
    gym = SingleAgentEnv(game_name, num_players=3, learner=1, opponents=["greedy", "random"])
    observation, info = gym.reset(seed=4)
    gym.action_space.seed(4)
    reward, done, steps = 0.0, False, 0
    while not done:
        mask = info["action_mask"]
        assert mask.dtype == np.int8
        assert gym.game_state.current_player() == 1
        assert int(mask.sum()) == len(gym.game_state.legal_actions())
        action = gym.action_space.sample(mask)
        observation, reward, done, truncated, info = gym.step(action)
        assert observation.shape == gym.observation_space.shape
        assert not truncated
        steps += 1
    assert gym.game_state.is_terminal()
    assert reward == gym.game_state.returns()[1]
    assert not info["action_mask"].any()
    assert steps > 3


@pytest.mark.parametrize("game_name", GAMES)
def test_the_registered_ids_pass_the_checker_with_their_render_modes(game_name: str) -> None:
    made = gymnasium.make(f"kafeneio/{game_name}-v0", num_players=2, render_mode="ansi")
    check_env(made.unwrapped)
    made.reset(seed=0)
    assert isinstance(made.render(), str)


def test_an_illegal_action_ends_the_episode_and_leaves_the_game_as_it_was() -> None:
    gym = SingleAgentEnv("cafe", num_players=2)
    _, info = gym.reset(seed=1)
    before = gym.game_state.clone()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, done, _, info = gym.step(illegal)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, illegal)
    assert gym.game_state == before
    with pytest.raises(KafeneioError, match="call reset"):  # the episode ended with it
        gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert gym.game_state == before
    strict = SingleAgentEnv("cafe", num_players=2, illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_a_float_is_not_an_action_code() -> None:
    """A policy's float output is refused as illegal, not cut to a code and played."""
    gym = SingleAgentEnv("cafe", num_players=2)
    _, info = gym.reset(seed=1)
    before = gym.game_state.clone()
    legal = int(np.flatnonzero(info["action_mask"])[0])
    _, reward, done, _, info = gym.step(legal + 0.7)  # type: ignore[arg-type]
    assert (reward, done, info["illegal_action"]) == (-1.0, True, legal + 0.7)
    assert gym.game_state == before


def test_bad_opponents_and_seats_are_refused() -> None:
    with pytest.raises(KafeneioError, match="unknown bot"):
        SingleAgentEnv("cafe", num_players=2, opponents="nobody")
    with pytest.raises(
        KafeneioError, match="gives 1 player for 2 other seats: give a list of one for"
    ):
        SingleAgentEnv("cafe", num_players=3, opponents=["random"])
    with pytest.raises(
        KafeneioError, match="gives 2 players for 1 other seat: give a list of one for"
    ):
        SingleAgentEnv("cafe", num_players=2, opponents=["random", "random"])
    with pytest.raises(KafeneioError, match="a bot's name or a player"):
        SingleAgentEnv("cafe", num_players=3, opponents=["random", 7])
    with pytest.raises(KafeneioError, match=r"a bot's name or a player .*, not 5"):
        SingleAgentEnv("cafe", num_players=3, opponents=5)  # read "'int' is not iterable"
    # any iterable of one for each other seat, as before
    named = SingleAgentEnv("cafe", num_players=3, opponents=np.array(["random", "greedy"]))
    assert named.opponents == ["random", "greedy"]
    assert SingleAgentEnv("cafe", num_players=3, opponents=iter(["random"] * 2)).opponents
    with pytest.raises(KafeneioError, match="learner"):
        SingleAgentEnv("cafe", num_players=2, learner=2)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"num_players": "2"}, "takes 2 to 4 players, not '2'"),
        ({"num_players": 2.0}, "takes 2 to 4 players, not 2.0"),
        ({"learner": "0"}, "the learner is a seat from 0 to 1, not '0'"),
        ({"learner": True}, "the learner is a seat from 0 to 1, not True"),
        ({"illegal_reward": "-1"}, "illegal_reward is a finite number, not '-1'"),
        ({"illegal_reward": float("nan")}, "illegal_reward is a finite number, not nan"),
    ],
)
def test_an_argument_of_the_wrong_type_is_refused_when_the_environment_is_made(
    arguments: dict[str, object], message: str
) -> None:
    """Text for a number failed deep inside with a bare TypeError (or, for the reward, only at
    the first illegal action): the error names the argument and what it takes."""
    with pytest.raises(KafeneioError, match=message):
        SingleAgentEnv("cafe", **arguments)  # type: ignore[arg-type]


def test_a_numpy_number_is_a_reward_for_an_illegal_action() -> None:
    """Only int and float were numbers: np.float32(-1) was refused (a regression)."""
    gym = SingleAgentEnv("cafe", illegal_reward=np.float32(-1))  # type: ignore[arg-type]
    assert gym.illegal_reward == -1 and type(gym.illegal_reward) is float


def test_numpy_integers_are_a_player_count_and_a_seat() -> None:
    gym = SingleAgentEnv("cafe", num_players=np.int64(3), learner=np.int64(2))  # type: ignore[arg-type]
    assert (gym.setup.num_players, gym.learner) == (3, 2)
    assert type(gym.setup.num_players) is int and type(gym.learner) is int


def test_human_mode_prints_the_position_at_every_reset_and_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    gym = SingleAgentEnv("souvlaki", num_players=2, render_mode="human")
    _, info = gym.reset(seed=2)
    assert capsys.readouterr().out == gym.setup.game.render(gym.game_state, SPECTATOR) + "\n"
    gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert gym.render() is None
    shown = gym.setup.game.render(gym.game_state, SPECTATOR) + "\n"
    assert capsys.readouterr().out == shown * 2  # the step's, then render()'s
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        SingleAgentEnv("cafe", render_mode="rgb_array")


def test_a_render_without_a_render_mode_warns_as_gymnasium_s_own_environments_do() -> None:
    """It returned None and said nothing: a user saw no board and no reason."""
    env = SingleAgentEnv("cafe", num_players=2)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None


def test_resets_without_a_seed_replay_the_series_the_last_seed_began() -> None:
    series = []
    for _ in range(2):
        gym = SingleAgentEnv("souvlaki", num_players=2)
        first, _ = gym.reset(seed=6)
        second, _ = gym.reset()
        series.append((first.tobytes(), second.tobytes(), gym.game_state.clone()))
    assert series[0] == series[1]
    assert series[0][0] != series[0][1]


def test_a_step_outside_an_episode_is_refused() -> None:
    gym = SingleAgentEnv("cafe", num_players=2)
    with pytest.raises(KafeneioError, match="none began"):  # before the first reset
        gym.step(0)
    _, info = gym.reset(seed=3)
    done = False
    while not done:
        _, _, done, _, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(KafeneioError, match="call reset"):  # after the game's end
        gym.step(0)


def test_an_opponent_may_be_a_policy_of_ones_own_on_its_observation() -> None:
    """Self-play: the opponent seat acts by a policy of the same observation and mask as the
    learner's (here the lowest legal code), called for its own seat only."""
    seats_asked = set()

    def policy(state: State) -> Action:
        seat = state.current_player()
        seats_asked.add(seat)
        mask = action_mask(state, 15741, seat)
        assert observation_array(state, seat).shape == (2531,)
        return state.game.decode_action(int(np.flatnonzero(mask)[0]))

    gym = SingleAgentEnv("cafe", num_players=2, learner=1, opponents=policy)
    _, info = gym.reset(seed=5)
    played = gym.game_state.history_for(SPECTATOR)
    assert seats_asked == {0} and played  # seat 0 moved first, by the policy
    done = False
    while not done:
        _, _, done, _, info = gym.step(gym.action_space.sample(info["action_mask"]))
    assert seats_asked == {0}


def test_an_opponent_that_plays_on_its_state_changes_nothing_in_the_episode() -> None:
    """A player of one's own is handed a copy: one that searches by applying moves to what it
    is given (here it plays the whole game out) leaves the episode where it was."""

    def reckless(state: State) -> Action:
        chosen = state.legal_actions()[0]
        while not state.is_terminal():  # a search that forgets to copy
            if state.current_player() == CHANCE:
                state.apply(state.chance_outcomes()[0][0])
            else:
                state.apply(state.legal_actions()[0])
        return chosen

    gym = SingleAgentEnv("cafe", num_players=2, learner=1, opponents=reckless)
    _, info = gym.reset(seed=5)
    assert not gym.game_state.is_terminal() and gym.game_state.current_player() == 1
    assert info["action_mask"].any()


def test_an_opponent_that_fails_ends_the_episode_and_the_learner_is_not_blamed() -> None:
    """An opponent of one's own that raised left the episode open at its own turn: the
    learner's next step was then scored as the learner's illegal move (-1, terminated)."""
    calls = []

    def failing(state: State) -> Action:
        calls.append(state.ply)
        if len(calls) == 3:
            raise RuntimeError("my policy broke")
        return state.legal_actions()[0]

    gym = SingleAgentEnv("cafe", num_players=2, opponents=failing)
    _, info = gym.reset(seed=5)
    with pytest.raises(RuntimeError, match="my policy broke"):
        while True:
            _, _, _, _, info = gym.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(KafeneioError, match="call reset"):
        gym.step(0)
    gym.reset(seed=6)  # a new episode plays
    assert gym.game_state.current_player() == 0


def test_an_opponent_s_illegal_action_is_told_as_the_opponent_s() -> None:
    """An opponent of one's own that returned no action raised the engine's refusal alone: in
    self-play it read as the learner's own illegal move."""
    gym = SingleAgentEnv("cafe", num_players=2, learner=1, opponents=lambda state: None)
    with pytest.raises(IllegalActionError, match=r"^the opponent at seat 0 played: "):
        gym.reset(seed=3)
    with pytest.raises(KafeneioError, match="call reset"):
        gym.step(0)

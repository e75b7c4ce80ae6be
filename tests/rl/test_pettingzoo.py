"""PettingZoo's own test suites on the AEC environments of both games, 2 to 4 players."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from kafeneio.core import IllegalActionError, KafeneioError, NotationError, ViewerError
from kafeneio.rl import action_mask, env, raw_env

GAMES = ("cafe", "souvlaki")


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes(game_name: str, players: int) -> None:
    api_test(env(game_name, num_players=players), num_cycles=200)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test_passes(game_name: str, players: int) -> None:
    seed_test(lambda: env(game_name, num_players=players), num_cycles=200)


@pytest.mark.parametrize("game_name", GAMES)
def test_a_whole_game_ends_with_the_contract_returns(game_name: str) -> None:
    aec = raw_env(game_name, num_players=3)
    aec.reset(seed=5)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += float(reward)
        mask = observation["action_mask"]
        if terminated or truncated:
            assert not mask.any()
            aec.step(None)
            continue
        seat = aec.agent_seats[agent]
        assert aec.game_state.current_player() == seat
        assert int(mask.sum()) == len(aec.game_state.legal_actions())
        for other in aec.possible_agents:
            if other != agent:
                assert not aec.observe(other)["action_mask"].any()
        aec.step(int(aec.action_space(agent).sample(mask)))
    assert not aec.agents
    assert aec.game_state.is_terminal()
    expected = aec.game_state.returns()
    assert [totals[a] for a in aec.possible_agents] == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_name", GAMES)
def test_the_observation_is_the_contract_tensor_of_that_seat(game_name: str) -> None:
    aec = raw_env(game_name, num_players=2)
    aec.reset(seed=1)
    for agent, seat in aec.agent_seats.items():
        observation = aec.observe(agent)["observation"]
        assert observation.dtype == np.float32
        expected = aec.game_state.observation_tensor(seat)
        assert observation.tolist() == expected


def test_options_and_player_count_are_keyword_arguments() -> None:
    aec = raw_env("cafe", num_players=4, dance=True, hand_size=6, render_mode="ansi")
    aec.reset(seed=2)
    assert len(aec.possible_agents) == 4
    assert aec.game_state.options.to_dict()["dance"] is True
    hands = aec.game_state.observation(0)["hands"]
    assert [len(hand) for hand in hands] == [6, 6, 6, 6]
    text = aec.render()
    assert (isinstance(text, str) and "P1" in text) or "1" in str(text)


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    aec = raw_env("souvlaki", num_players=2)
    aec.reset(seed=3)
    before = aec.game_state.clone()
    legal = {action.code for action in aec.game_state.legal_actions()}
    illegal = next(code for code in range(aec.setup.num_actions) if code not in legal)
    with pytest.raises(IllegalActionError):
        aec.step(illegal)
    assert aec.game_state == before


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_a_code_that_names_no_action_is_refused_as_an_illegal_one(game_name: str) -> None:
    """As the docs say: `IllegalActionError` for a code in a gap of the space, outside it or not
    a whole number (not the notation's error, nor a float cut to a code and played)."""
    aec = raw_env(game_name, num_players=2)
    aec.reset(seed=3)
    before = aec.game_state.clone()
    gap = next(code for code in range(aec.setup.num_actions) if not names_an_action(aec, code))
    for code in (gap, aec.setup.num_actions, -1, float(min(legal_codes(aec))), "3"):
        with pytest.raises(IllegalActionError):
            aec.step(code)
        assert aec.game_state == before


def legal_codes(aec: Any) -> set[int]:
    return {action.code for action in aec.game_state.legal_actions()}


def names_an_action(aec: Any, code: int) -> bool:
    try:
        aec.setup.game.decode_action(code)
    except NotationError:
        return False
    return True


def test_the_wrapped_env_ends_the_game_on_an_illegal_action() -> None:
    """As PettingZoo's classic games do: the offender gets -1."""
    wrapped = env("cafe", num_players=2)
    wrapped.reset(seed=3)
    agent = wrapped.agent_selection
    mask = wrapped.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    wrapped.step(illegal)  # PettingZoo logs "Illegal move made"
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[agent] == -1


def test_reset_with_a_seed_replays_the_same_game() -> None:
    first, second = raw_env("souvlaki"), raw_env("souvlaki")
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.game_state == second.game_state
    first.reset(seed=10)
    assert first.game_state != second.game_state


def test_a_seed_is_a_whole_number_a_numpy_one_too_and_a_negative_one_is_refused() -> None:
    """`reset(seed=np.int64(5))` raised Python's TypeError; -5 gave 5's games (as
    `random.Random` takes a seed), and 1.5 or "abc" were taken without a word."""
    first, second = raw_env("souvlaki"), raw_env("souvlaki")
    first.reset(seed=np.int64(5))
    second.reset(seed=5)
    assert first.game_state == second.game_state
    for seed in (-5, 1.5, "abc", True, 2**63):
        with pytest.raises(KafeneioError, match="a seed must be a whole number from 0"):
            first.reset(seed=seed)  # type: ignore[arg-type]
    assert first.game_state == second.game_state  # refused before anything changed


@pytest.mark.parametrize("game_name", GAMES)
def test_pettingzoo_render_test_passes_and_human_mode_prints(
    game_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: env(game_name, render_mode=render_mode))
    printed = capsys.readouterr().out
    assert "P1" in printed and "P2" in printed


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        raw_env("cafe", render_mode="rgb_array")


def test_resets_without_a_seed_replay_the_series_the_last_seed_began() -> None:
    first, second = raw_env("cafe"), raw_env("cafe")
    games = []
    for aec in (first, second):
        aec.reset(seed=4)
        aec.reset()
        games.append(aec.game_state.clone())
    assert games[0] == games[1]
    first.reset(seed=4)
    assert first.game_state != games[0]  # the series' second game is not its first


def test_no_agent_sees_a_hidden_card_in_its_observation_its_info_or_the_render() -> None:
    """Whatever is redrawn that a seat cannot see (other hands, the decks' order), that seat's
    observation stays the same, and so does the spectator's render once every seat's hidden
    part is redrawn; infos carry nothing."""
    aec = raw_env("souvlaki", num_players=3, render_mode="ansi")
    aec.reset(seed=8)
    rng, redraw = np.random.default_rng(0), random.Random(0)
    redrawn_others = 0
    for _ in aec.agent_iter(max_iter=150):
        truth, shown = aec.game_state, aec.render()
        everything_redrawn = truth
        for seat, seer in enumerate(aec.possible_agents):
            neighbour = aec.possible_agents[(seat + 1) % 3]
            aec.game_state = truth
            seen, theirs = aec.observe(seer)["observation"], aec.observe(neighbour)["observation"]
            aec.game_state = truth.determinize(seat, redraw)
            assert np.array_equal(aec.observe(seer)["observation"], seen)
            redrawn_others += not np.array_equal(aec.observe(neighbour)["observation"], theirs)
            everything_redrawn = everything_redrawn.determinize(seat, redraw)
        aec.game_state = everything_redrawn
        assert aec.render() == shown
        aec.game_state = truth
        observation, _, _, _, info = aec.last()
        assert info == {}
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert redrawn_others > 100  # the hidden cards really were redrawn


def test_a_mask_too_short_or_for_a_seat_not_in_the_game_is_refused() -> None:
    state = raw_env("cafe").game_state
    with pytest.raises(ValueError, match="the game's 15741 action codes, not 3424"):
        action_mask(state, 3424)
    with pytest.raises(ViewerError, match="a viewer is a player from 0 to 1"):
        action_mask(state, 15741, 2)
    assert action_mask(state, 15741, 0).sum() == len(state.legal_actions())


def test_souvlaki_shops_are_dealt_at_random_each_reset_with_deal_roles() -> None:
    """Unset, the shops are the first ones by seat, in every game: one shop then decides a
    random learner's reward (seat 0 won 0.94 of random games). With `deal_roles` each reset
    deals them from its seed, as `simulate` does; the spaces stay the same."""
    fixed, dealt = raw_env("souvlaki"), raw_env("souvlaki", deal_roles=True)
    seen_fixed, seen_dealt = set(), set()
    for seed in range(12):
        for aec, seen in ((fixed, seen_fixed), (dealt, seen_dealt)):
            aec.reset(seed=seed)
            seen.add(tuple(aec.setup.game.roles(aec.game_state) or ()))
    assert len(seen_fixed) == 1 and len(seen_dealt) > 3
    again = raw_env("souvlaki", deal_roles=True)
    again.reset(seed=5)
    dealt.reset(seed=5)
    assert again.game_state == dealt.game_state  # the seed deals them
    assert dealt.observation_space("player_0") == fixed.observation_space("player_0")
    with pytest.raises(KafeneioError, match="give it or shops, not both"):
        raw_env("souvlaki", deal_roles=True, shops=["pita", "express"])
    with pytest.raises(KafeneioError, match="deal_roles is true or false"):
        raw_env("souvlaki", deal_roles="yes")


@pytest.mark.parametrize("game_name", GAMES)
def test_the_turn_based_parallel_view_passes_pettingzoo_s_parallel_api_test(
    game_name: str,
) -> None:
    """As docs/rl.md says: the AEC environment is not parallelizable (one agent acts at a
    time), and PettingZoo's turn-based conversion gives it a Parallel API."""
    parallel_api_test(turn_based_aec_to_parallel(env(game_name)), num_cycles=40)

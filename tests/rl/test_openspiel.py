"""OpenSpiel's random-simulation test and its Python ISMCTS bot on both registered games."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import ismcts, mcts
from open_spiel.python.observation import make_observation

from hash_seeds import outputs_under_hash_seeds
from kafeneio.core import IllegalActionError
from kafeneio.rl.openspiel_game import SHUFFLES, register

GAMES = ("cafe", "souvlaki")
register()


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_passes_with_serialization(game_name: str, players: int) -> None:
    game = pyspiel.load_game(f"kafeneio_{game_name}", {"players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(
    ("game_name", "params"),
    [("cafe", {"players": 2}), ("souvlaki", {"players": 2, "round_limit": 3})],
)
def test_python_ismcts_plays_a_full_game(game_name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(f"kafeneio_{game_name}", params)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=6,
        random_state=rng,
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    searched = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            searched += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    assert searched > 3
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("game_name", GAMES)
def test_game_type_and_info_come_from_the_contract(game_name: str) -> None:
    from kafeneio.games import get_game

    info = get_game(game_name).info
    game = pyspiel.load_game(f"kafeneio_{game_name}", {"players": 3})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert (kind.min_num_players, kind.max_num_players) == (info.min_players, info.max_players)
    assert game.num_distinct_actions() == info.num_distinct_actions
    assert game.num_players() == 3
    assert game.max_chance_outcomes() >= SHUFFLES
    assert game.utility_sum() == 1.0


@pytest.mark.parametrize("game_name", GAMES)
def test_legal_actions_ascend_and_chance_outcomes_stay_in_their_space(game_name: str) -> None:
    game = pyspiel.load_game(f"kafeneio_{game_name}", {"players": 2})
    rng = np.random.RandomState(0)
    state = game.new_initial_state()
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert all(0 <= o < game.max_chance_outcomes() for o, _ in outcomes)
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            chance_nodes += 1
            codes, probabilities = zip(*outcomes, strict=True)
            state.apply_action(int(rng.choice(codes, p=probabilities)))
            continue
        legal = state.legal_actions()
        assert legal == sorted(legal)
        state.apply_action(legal[rng.randint(len(legal))])
    assert chance_nodes >= 1  # the shuffle at least


def test_resampling_keeps_the_information_state_and_the_observation() -> None:
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": 3})
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    for _ in range(80):
        if state.is_chance_node():
            codes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(codes, p=probabilities)))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = 0
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        other = (player + 1) % 3
        differs += sample.observation_tensor(other) != state.observation_tensor(other)
    assert differs >= 1  # the other hands really were dealt anew


def test_a_samples_history_hides_the_shuffle_and_the_cards_taken_at_random() -> None:
    """The true shuffle's seed rebuilds the whole deal: a sample's history holds stand-ins for
    every chance outcome, the player's decisions as they were, and goes on from there."""
    state = played_souvlaki(players=2, actions=150, seed=4)
    truth = state.full_history()
    chance = [i for i, entry in enumerate(truth) if entry.player == pyspiel.PlayerId.CHANCE]
    assert len(chance) > 1  # the shuffle and at least one card taken at random
    player = state.current_player()
    sampler = np.random.RandomState(5).rand
    samples = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for sample in samples:
        history = sample.full_history()
        assert [e.player for e in history] == [e.player for e in truth]
        decisions = [i for i in range(len(truth)) if i not in chance]
        assert [history[i].action for i in decisions] == [truth[i].action for i in decisions]
        assert sample.move_number() == state.move_number()
        assert str(truth[0].action) not in str(sample)
        sample.apply_action(sample.legal_actions()[0])  # and is played on as the world it is
        assert len(sample.history()) == len(truth) + 1
    assert truth[0].action not in {sample.history()[0] for sample in samples}


def test_the_information_state_string_has_perfect_recall() -> None:
    """Two histories that end in the same observation but differ earlier are told apart."""
    game = pyspiel.load_game("kafeneio_cafe", {"players": 2})
    first, second = game.new_initial_state(), game.new_initial_state()
    first.apply_action(1)
    second.apply_action(1)
    assert first.information_state_string(0) == second.information_state_string(0)
    first.apply_action(first.legal_actions()[0])
    second.apply_action(second.legal_actions()[-1])
    assert first.information_state_string(0) != second.information_state_string(0)
    assert first.information_state_string(1) != second.information_state_string(1)


HISTORY_STRINGS = """
import numpy as np, pyspiel
from kafeneio.rl.openspiel_game import register
register()
game = pyspiel.load_game("kafeneio_souvlaki", {"players": 2})
state, rng = game.new_initial_state(), np.random.RandomState(0)
for _ in range(150):
    if state.is_chance_node():
        codes, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(codes, p=probabilities)))
    else:
        state.apply_action(int(rng.choice(state.legal_actions())))
    print(state.information_state_string(0), state.information_state_string(1))
"""


def test_information_state_strings_are_the_same_in_every_process() -> None:
    """Policies are keyed by these strings and built by many workers: one history must give
    one string in any process (another hash seed, another memory layout)."""
    outputs = outputs_under_hash_seeds(HISTORY_STRINGS)
    assert len(outputs) == 1
    assert len(next(iter(outputs)).splitlines()) == 150


def played_souvlaki(players: int, actions: int, seed: int) -> pyspiel.State:
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": players})
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_chance_node():
            codes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(codes, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_the_public_observation_shows_no_hand() -> None:
    state = played_souvlaki(players=3, actions=80, seed=2)
    game = state.get_game()
    none = pyspiel.PrivateInfoType.NONE
    public = make_observation(game, pyspiel.IIGObservationType(True, False, none))
    private = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    seen = set()
    for player in range(3):
        private.set_from(state, player)
        assert private.dict["hand_food"].any()  # a player's own observation has their hand
        public.set_from(state, player)
        assert not public.dict["hand_food"].any() and not public.dict["player"].any()
        seen.add((public.tensor.tobytes(), public.string_from(state, player)))
        sample = state.resample_from_infostate(player, sampler)  # every hand but one redealt
        public.set_from(sample, player)
        seen.add((public.tensor.tobytes(), public.string_from(sample, player)))
    assert len(seen) == 1  # the same for every player, whatever the hidden cards


@pytest.mark.parametrize(
    ("public_info", "perfect_recall", "private_info"),
    [
        (True, False, pyspiel.PrivateInfoType.ALL_PLAYERS),
        (False, False, pyspiel.PrivateInfoType.SINGLE_PLAYER),
        (True, True, pyspiel.PrivateInfoType.NONE),
    ],
)
def test_an_observation_type_not_provided_is_refused(
    public_info: bool, perfect_recall: bool, private_info: pyspiel.PrivateInfoType
) -> None:
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": 2})
    kind = pyspiel.IIGObservationType(public_info, perfect_recall, private_info)
    with pytest.raises(ValueError, match="not provided"):
        make_observation(game, kind)


def test_a_chance_outcome_not_of_the_node_is_refused_and_changes_nothing() -> None:
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": 2})
    state = game.new_initial_state()
    for outcome in (SHUFFLES, -2):
        with pytest.raises(IllegalActionError, match="seed from 0 to 65535"):
            state.apply_action(outcome)
    assert state.history() == []
    state = played_souvlaki(players=2, actions=1, seed=0)
    rng = np.random.RandomState(0)
    while not state.is_chance_node():  # on to Souvlaki Wars' own chance node
        state.apply_action(int(rng.choice(state.legal_actions())))
    outcomes = [outcome for outcome, _ in state.chance_outcomes()]
    before = (state.history(), str(state))
    for outcome in (-2, next(o for o in range(game.max_chance_outcomes()) if o not in outcomes)):
        with pytest.raises(IllegalActionError, match="not one of this node's"):
            state.apply_action(outcome)
    assert (state.history(), str(state)) == before


@pytest.mark.parametrize("game_name", GAMES)
def test_an_action_code_outside_the_space_is_refused_as_an_illegal_one(game_name: str) -> None:
    """An in-range illegal code raised the engine's IllegalActionError; one past the space
    raised the notation module's NotationError. Both are illegal actions, and change nothing."""
    game = pyspiel.load_game(f"kafeneio_{game_name}", {"players": 2})
    state = game.new_initial_state()
    state.apply_action(3)
    legal = set(state.legal_actions())
    before = (state.history(), state.serialize(), state.information_state_string(0))
    illegal_in_range = next(
        code for code in range(game.num_distinct_actions()) if code not in legal
    )
    with pytest.raises(IllegalActionError):
        state.apply_action(illegal_in_range)
    last = game.num_distinct_actions() - 1
    for code in (game.num_distinct_actions(), 10**9, -2):
        with pytest.raises(IllegalActionError, match=rf"action code {code} is outside 0\.\.{last}"):
            state.apply_action(code)
    assert (state.history(), state.serialize(), state.information_state_string(0)) == before


def test_openspiel_rl_environment_plays_on_the_observation_tensors() -> None:
    game = pyspiel.load_game("kafeneio_cafe", {"players": 2})
    environment = rl_environment.Environment(game, seed=1)
    assert environment.observation_spec()["info_state"] == (2531,)
    time_step, rng, decisions = environment.reset(), np.random.RandomState(1), 0
    while not time_step.last():
        player = time_step.observations["current_player"]
        state = environment.get_state
        assert time_step.observations["info_state"][player] == state.observation_tensor(player)
        legal = time_step.observations["legal_actions"][player]
        time_step = environment.step([int(rng.choice(legal))])
        decisions += 1
    assert decisions > 10
    assert sum(time_step.rewards) == pytest.approx(1.0)


@pytest.mark.parametrize("player", [-1, -3, 3])
def test_information_state_of_a_seat_not_in_the_game_is_refused(player: int) -> None:
    """Python would read a negative seat from the end: another player's information state."""
    state = played_souvlaki(players=3, actions=5, seed=1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(ValueError, match="a seat from 0 to 2"):
        state.information_state_string(player)
    with pytest.raises(ValueError, match="a seat from 0 to 2"):
        state.resample_from_infostate(player, sampler)


def test_no_information_state_is_current_at_a_chance_node() -> None:
    state = pyspiel.load_game("kafeneio_cafe", {"players": 2}).new_initial_state()
    with pytest.raises(ValueError, match="not -1"):
        state.information_state_string()


def test_a_chance_outcome_is_named_only_if_it_is_one() -> None:
    state = played_souvlaki(players=2, actions=1, seed=0)
    game = state.get_game()
    outcomes = len(game.chance_codes)
    names = {state.action_to_string(pyspiel.PlayerId.CHANCE, o) for o in range(outcomes)}
    assert len(names) == outcomes  # one name for each food card kind
    for outcome in (-1, outcomes):
        with pytest.raises(ValueError, match=f"chance outcome {outcome} is not one"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, outcome)


def test_souvlaki_deals_its_shops_at_random_when_asked() -> None:
    """Shops are a list, which OpenSpiel's parameters cannot carry: every game gave seat 0 the
    first shop, which won 40 of 40 random games, and a learner was not told. With
    ``deal_roles`` the shuffle deals them, as `simulate` and the other environments can."""
    with pytest.raises(pyspiel.SpielError, match="deal_roles"):
        pyspiel.load_game("kafeneio_cafe", {"players": 2, "deal_roles": True})  # no roles
    fixed = pyspiel.load_game("kafeneio_souvlaki", {"players": 2})
    assert fixed.get_parameters()["deal_roles"] is False
    game = pyspiel.load_game("kafeneio_souvlaki", {"players": 2, "deal_roles": True})

    def shops(of: pyspiel.Game, seed: int) -> tuple[str, ...]:
        state = of.new_initial_state()
        state.apply_action(seed)  # the shuffle: it deals the shops too
        seen = state.engine.state.observation(-3)["players"]
        return tuple(player["shop"] for player in seen)

    assert len({shops(fixed, seed) for seed in range(12)}) == 1
    dealt = {shops(game, seed) for seed in range(12)}
    assert len(dealt) > 1 and dealt == {shops(game, seed) for seed in range(12)}  # by the seed
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(5)
    copy = game.deserialize_state(state.serialize())
    assert copy.engine.state.observation(-3) == state.engine.state.observation(-3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    sample = state.resample_from_infostate(0, sampler)  # the shops are public: kept
    seen = [p["shop"] for p in sample.engine.state.observation(-3)["players"]]
    assert seen == [p["shop"] for p in state.engine.state.observation(-3)["players"]]

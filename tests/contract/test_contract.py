"""The contract every registered game keeps (after pgx's `api_test`): metadata, actions, viewers,
seeds, events, copies, records. Parametrised over the registry, so a third game gets it free."""

from __future__ import annotations

import dataclasses
import json
import math
import pickle
import random
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from kafeneio.core import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    IllegalActionError,
    KafeneioError,
    RecordError,
    State,
    ViewerError,
)
from kafeneio.core.game import sample_chance
from kafeneio.core.play import Step, play, random_player
from kafeneio.core.record import replay
from kafeneio.games import get_game, load_record
from sim.toy import ToyGame

from .conftest import finished_game, random_states

PLAYERS = [2, 3, 4]


def test_the_metadata_declares_what_algorithms_branch_on(game: Game) -> None:
    info = game.info
    assert info.chance_mode in ("deterministic", "explicit", "sampled")
    assert 2 <= info.min_players <= info.max_players
    assert info.rule_prefix and info.engine_version >= 1
    assert info.min_utility < info.max_utility and info.max_game_length > 0
    seen_chance = False
    for seed in range(3):
        state = finished_game(game, info.max_players, seed)
        assert state.ply <= info.max_game_length, "the declared maximum game length holds"
        returns = state.returns()
        assert all(info.min_utility <= r <= info.max_utility for r in returns)
        seen_chance |= any(entry.player == CHANCE for entry in state.history_for(SPECTATOR))
    assert not seen_chance or info.chance_nodes, "a game with chance nodes declares them"


@pytest.mark.parametrize("players", PLAYERS)
def test_every_attribute_of_a_state_is_a_declared_field(game: Game, players: int) -> None:
    """Clone and equality follow the declared fields: an undeclared one would be left out."""
    for state in random_states(game, players, seed=players, every=25):
        assert set(vars(state)) == type(state).declared
        for sample in (state.clone(), state.determinize(0, random.Random(0))):
            assert set(vars(sample)) == type(state).declared


@pytest.mark.parametrize("players", PLAYERS)
def test_the_observation_spec_is_the_contracts_and_shapes_every_tensor(
    game: Game, players: int
) -> None:
    """`observation_spec` is part of the contract (the research interfaces read it there):
    its pieces add up to every player's tensor, and a player count the game never takes is
    refused as `new_state` refuses it."""
    spec = game.observation_spec(players)
    assert all(isinstance(name, str) and all(n > 0 for n in shape) for name, shape in spec.items())
    size = sum(math.prod(shape) for shape in spec.values())
    for state in random_states(game, players, seed=players, every=40):
        view: Any = state
        assert all(len(view.observation_tensor(p)) == size for p in range(players))
    for bad in (game.info.max_players + 1, "2", True):
        with pytest.raises(KafeneioError, match=f"takes .* players, not {bad!r}"):
            game.observation_spec(bad)  # type: ignore[arg-type]


def test_a_game_without_an_observation_spec_says_so() -> None:
    """The base declares it: a game that writes none is told of, not an AttributeError."""
    with pytest.raises(KafeneioError, match="Toy has no observation tensor"):
        ToyGame().observation_spec(2)


@pytest.mark.parametrize("bad", [None, "USm@16", 3, object(), True])
def test_what_is_not_an_action_is_refused_and_changes_nothing(game: Game, bad: object) -> None:
    state = game.new_state(2, seed=5)
    before, record = state.clone(), state.to_record()
    with pytest.raises(IllegalActionError):
        state.apply(bad)  # type: ignore[arg-type]
    assert state == before and state.to_record() == record and state.ply == 0


def test_a_code_or_a_text_given_as_an_action_is_told_how_to_make_one(game: Game) -> None:
    state = game.new_state(2, seed=5)
    action = state.legal_actions()[0]
    with pytest.raises(IllegalActionError, match=rf"game.decode_action\({action.code}\)"):
        state.apply(action.code)  # type: ignore[arg-type]  # OpenSpiel's habit
    numpy_like = type("Int64", (), {"__index__": lambda self: action.code})()
    with pytest.raises(IllegalActionError, match=rf"game.decode_action\({action.code}\)"):
        state.apply(numpy_like)  # type: ignore[arg-type]  # an agent's np.int64, as from argmax
    with pytest.raises(IllegalActionError, match=r"state.parse_legal\("):
        state.apply(action.notation)  # type: ignore[arg-type]
    assert state.ply == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_a_forged_action_is_refused_and_changes_nothing(game: Game, players: int) -> None:
    """A copy of a legal action with one field altered has the legal code but is not it."""
    forged = 0
    for state in random_states(game, players, seed=11, every=9):
        for action in state.legal_actions()[:6]:
            for field in dataclasses.fields(action):
                value = getattr(action, field.name)
                if field.name in ("code", "notation") or not isinstance(value, int):
                    continue
                fake = dataclasses.replace(action, **{field.name: value + 1})
                before = state.clone()
                with pytest.raises(IllegalActionError, match="forged"):
                    state.apply(fake)
                assert state == before
                forged += 1
    assert forged > 20


def test_the_interned_action_is_performed_for_an_equal_copy(game: Game) -> None:
    state = game.new_state(2, seed=3)
    action = state.legal_actions()[0]
    copy = dataclasses.replace(action)
    assert copy is not action
    state.apply(copy)
    assert state.history[0] is action


@pytest.mark.parametrize("viewer", [-1, -2, -4, 2, 99, True, None, "0", 0.0])
def test_viewers_are_the_players_and_the_spectator(game: Game, viewer: object) -> None:
    state = game.new_state(2, seed=1)
    for look in (
        state.observation,
        state.history_for,
        lambda v: game.render(state, v),
        lambda v: game.reference(state, v),
        lambda v: state.determinize(v, random.Random(0)),
    ):
        with pytest.raises(ViewerError, match="SPECTATOR"):
            look(viewer)
    assert state.observation(SPECTATOR) is not None
    assert game.render(state, SPECTATOR)


class Seat:
    """A whole number that is not an int, as numpy's integers are."""

    def __init__(self, number: int) -> None:
        self.number = number

    def __index__(self) -> int:
        return self.number


def test_a_viewer_may_be_any_whole_number_but_a_flag(game: Game) -> None:
    """An RL loop's seats are numpy integers: they name the same viewer as a plain int, and
    the state hands on a plain int."""
    state = game.new_state(2, seed=1)
    for viewer in (0, 1, SPECTATOR):
        checked = state.check_viewer(Seat(viewer))
        assert checked == viewer and type(checked) is int
        assert state.observation(Seat(viewer)) == state.observation(viewer)
        assert state.history_for(Seat(viewer)) == state.history_for(viewer)
        assert game.render(state, Seat(viewer)) == game.render(state, viewer)
    key_of = getattr(state, "observation_key", None)
    if key_of is not None:
        assert key_of(Seat(1)) == key_of(1) and type(key_of(Seat(1)).player) is int
    for bad in (Seat(2), Seat(-1), Seat(-4)):
        with pytest.raises(ViewerError, match="SPECTATOR"):
            state.observation(bad)


def test_numpy_integers_are_viewers_and_numpy_flags_and_floats_are_not(game: Game) -> None:
    np = pytest.importorskip("numpy")
    state = game.new_state(2, seed=1)
    assert state.observation(np.int64(1)) == state.observation(1)
    assert state.observation(np.int8(SPECTATOR)) == state.observation(SPECTATOR)
    assert state.determinize(np.int32(0), random.Random(0)).observation(0) == state.observation(0)
    for bad in (np.bool_(False), np.float64(0.0), np.int64(2), np.int64(-2), np.array([0])):
        with pytest.raises(ViewerError, match="SPECTATOR"):
            state.observation(bad)


def test_an_observation_names_its_viewer_and_null_for_a_spectator(game: Game) -> None:
    """Café said -3 (`SPECTATOR`) and Souvlaki Wars null; JSON readers get one answer."""
    state = game.new_state(3, seed=1)
    assert [state.observation(p)["player"] for p in range(3)] == [0, 1, 2]
    assert state.observation(SPECTATOR)["player"] is None


def _other_choices(game: Game) -> dict[str, Any]:
    """Every yes/no and every one-of option of `game` set to a value other than its default."""
    options = game.options_class
    changes: dict[str, Any] = {}
    for option in dataclasses.fields(options):
        default = getattr(game.options, option.name)
        if option.name in options.CHOICES:
            changes[option.name] = next(c for c in options.CHOICES[option.name] if c != default)
        elif isinstance(default, bool):
            changes[option.name] = not default
    return changes


def test_every_viewer_sees_every_rules_option(game: Game) -> None:
    """The options are agreed by all players, so a bot or an agent reads them all from its
    observation: the same for every viewer, all along the game, a changed one as it was set."""
    changed = game.with_options(_other_choices(game))
    assert changed.options != game.options
    wanted = {option.name for option in dataclasses.fields(game.options_class)}
    for rules in (game, changed):
        for state in random_states(rules, 3, seed=5, every=40):
            views = [state.observation(viewer) for viewer in (0, 1, 2, SPECTATOR)]
            assert all(view["rules"] == views[0]["rules"] for view in views)
            seen = views[0]["rules"]
            assert wanted <= set(seen)
            assert {name: seen[name] for name in wanted} == rules.options.to_dict()
            assert json.loads(json.dumps(seen)) == seen


@pytest.mark.parametrize("seed", ["abc", 1.5, True, b"x", -1, 2**63, [1]])
def test_a_seed_is_a_whole_number_in_range(game: Game, seed: object) -> None:
    with pytest.raises(KafeneioError, match="seed"):
        game.new_state(2, seed=seed)  # type: ignore[arg-type]


def test_numpy_integers_are_whole_numbers_for_players_and_seeds(game: Game) -> None:
    """An RL loop's numbers are numpy's: a seed of numpy's 3 is the seed 3."""
    np = pytest.importorskip("numpy")
    state = game.new_state(np.int64(2), seed=np.int64(3))
    assert state == game.new_state(2, seed=3) and type(state.num_players) is int


@pytest.mark.parametrize("rng", [5, None, "seed", random])
def test_random_numbers_come_from_a_random_generator(game: Game, rng: object) -> None:
    """A numpy generator or a seed given where a `random.Random` belongs was an
    AttributeError from deep in a shuffle or a draw."""
    state = game.new_state(2, seed=2)
    before = state.clone()
    with pytest.raises(KafeneioError, match=r"random numbers come from a random\.Random"):
        state.determinize(0, rng)  # type: ignore[arg-type]
    with pytest.raises(KafeneioError, match=r"random numbers come from a random\.Random"):
        play(state, [random_player(random.Random(1))] * 2, rng)  # type: ignore[arg-type]
    assert state == before
    states = random_states(game, 2, seed=3, every=1)
    chance = next((s for s in states if s.current_player() == CHANCE), None)
    if chance is not None:
        with pytest.raises(KafeneioError, match=r"random numbers come from a random\.Random"):
            sample_chance(chance, rng)  # type: ignore[arg-type]


def test_the_same_seed_and_actions_give_the_same_game(game: Game) -> None:
    one, two = finished_game(game, 3, 42), finished_game(game, 3, 42)
    assert one == two and one.to_record() == two.to_record()
    assert finished_game(game, 3, 43).to_record() != one.to_record()
    unseeded = game.new_state(2)
    assert replay(game, json.loads(json.dumps(unseeded.to_record()))) == unseeded


def test_options_belong_to_the_game(game: Game) -> None:
    with pytest.raises(TypeError):
        game.new_state(2, 7)  # type: ignore[misc]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        state = game.new_state(2, {}, seed=1)  # the old form still works, with a warning
    assert caught and issubclass(caught[0].category, DeprecationWarning)
    assert state.options == game.options
    assert state.to_record()["options"] == game.options.to_dict()


@pytest.mark.parametrize("players", PLAYERS)
def test_records_are_self_contained_and_versioned(game: Game, players: int) -> None:
    state = finished_game(game, players, 7)
    record = json.loads(json.dumps(state.to_record()))
    assert record["version"] == 2 and record["engine"] == game.info.engine_version
    assert load_record(record) == state
    other = {**record, "engine": game.info.engine_version + 1}
    assert load_record(other) == state  # the same actions replay; only a failure is refused
    broken = {**other, "actions": [*record["actions"][:3], "nonsense"]}
    with pytest.raises(RecordError, match="engine version"):
        load_record(broken)


def test_the_play_loop_tells_every_decision_and_resolves_chance(game: Game) -> None:
    rng = random.Random(4)
    state = game.new_state(4, seed=4)
    steps: list[Step] = []
    play(state, [random_player(rng)] * 4, rng, on_step=steps.append)
    assert state.current_player() == TERMINAL and len(steps) == state.ply
    assert [s.ply for s in steps] == list(range(state.ply))
    assert all(s.action is a for s, a in zip(steps, state.history, strict=True))
    assert {s.player for s in steps} <= {CHANCE, 0, 1, 2, 3}


def test_a_player_that_applies_an_action_to_the_game_itself_is_refused(game: Game) -> None:
    """A player is handed the game's own state: a lookahead without `clone()` would move the
    game on by a decision nobody chose, so the play loop refuses it, saying what to do."""
    rng = random.Random(3)

    def careless(state: State) -> object:
        state.apply(state.legal_actions()[0])  # looks ahead on the state itself
        return state.legal_actions()[0]

    state = game.new_state(2, seed=3)
    with pytest.raises(
        KafeneioError, match=r"P\d applied 1 action .*now spoilt: .*state\.clone\(\)"
    ):
        play(state, [careless, careless], rng)  # type: ignore[list-item]


@pytest.mark.parametrize("given", [1, 3])
def test_the_play_loop_takes_one_player_a_seat_and_refuses_others_before_a_move(
    game: Game, given: int
) -> None:
    """Too few stopped the game halfway; a player more was dropped without a word."""
    state = game.new_state(2, seed=3)
    rng = random.Random(3)
    players = [random_player(rng)] * given
    seat = "no player is given for seat P2" if given < 2 else "a player is given for seat P3"
    with pytest.raises(KafeneioError, match=seat):
        play(state, players, rng)
    with pytest.raises(KafeneioError, match=seat):
        play(state, dict(enumerate(players)), rng)
    assert state.ply == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_events_are_told_in_words_to_every_viewer(game: Game, players: int) -> None:
    state = finished_game(game, players, 9)
    for viewer in [SPECTATOR, *range(players)]:
        history = state.history_for(viewer)
        assert [entry.ply for entry in history] == list(range(state.ply))
        assert all(isinstance(text, str) and text for e in history for text in e.events)
        assert any("game ends" in text for text in history[-1].events), "why the game ended"
        json.dumps([entry.to_dict() for entry in history])


def test_a_quiet_state_plays_the_same_game_without_events(game: Game) -> None:
    loud, quiet = game.new_state(2, seed=8), game.new_state(2, seed=8).quiet()
    rng_a, rng_b = random.Random(1), random.Random(1)
    play(loud, [random_player(rng_a)] * 2, rng_a)
    play(quiet, [random_player(rng_b)] * 2, rng_b)
    assert loud == quiet
    assert not any(entry.events for entry in quiet.history_for(SPECTATOR))
    assert any(entry.events for entry in loud.history_for(SPECTATOR))


@pytest.mark.parametrize("players", [2, 4])
def test_a_pickled_state_is_equal_and_does_not_copy_its_game(game: Game, players: int) -> None:
    assert len(pickle.dumps(game)) < 2_000, "a game pickles by name, options and card files"
    assert pickle.loads(pickle.dumps(game)).options == game.options
    for state in random_states(game, players, seed=2, every=40):
        again = pickle.loads(pickle.dumps(state))
        assert again == state and again.history_for(0) == state.history_for(0)
    fresh = game.new_state(players, seed=2)
    assert len(pickle.dumps(fresh)) < 12_000


def test_refusals_name_a_rule_of_the_games_own_prefix(game: Game) -> None:
    prefix = game.info.rule_prefix + "-"
    refused = 0
    rng = random.Random(0)
    for state in random_states(game, 3, seed=5, every=5):
        if state.is_terminal():
            continue
        legal = {a.code for a in state.legal_actions()}
        for _ in range(20):
            code = rng.randrange(game.info.num_distinct_actions)
            if code in legal:
                continue
            try:
                action = game.decode_action(code)
            except KafeneioError:
                continue
            with pytest.raises(IllegalActionError) as err:
                state.apply(action)
            assert err.value.rule is not None, f"{action} refused naming no rule: {err.value}"
            assert err.value.rule.startswith(prefix)
            refused += 1
    assert refused > 20


def test_a_sample_is_quiet_has_no_record_and_keeps_the_turn(game: Game) -> None:
    for state in random_states(game, 3, seed=6, every=30):
        for player in range(3):
            sample = state.determinize(player, random.Random(player))
            assert sample.is_quiet and sample.current_player() == state.current_player()
            with pytest.raises(KafeneioError):
                sample.to_record()


def test_a_sample_keeps_neither_the_seed_nor_a_stacked_setup(game: Game) -> None:
    """The seed and the public history rebuild the true deal: a sample's state key (its
    equality, its pickle) holds no trace of it. The seed is one no other value here takes."""
    seed = 987_654_321_987
    state, rng = game.new_state(2, seed=seed), random.Random(1)
    for _ in range(12):
        mover = state.current_player()
        state.apply(
            sample_chance(state, rng) if mover == CHANCE else rng.choice(state.legal_actions())
        )
    assert seed in set(flattened(state.state_key()))  # where the seed is, in the truth
    for player in range(2):
        sample = state.determinize(player, random.Random(player))
        assert seed not in set(flattened(sample.state_key()))
        assert seed not in set(flattened(pickle.loads(pickle.dumps(sample)).state_key()))


def flattened(value: object) -> Iterator[object]:
    if isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from flattened(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from flattened(key)
            yield from flattened(item)
    else:
        yield value


@pytest.mark.parametrize("players", PLAYERS)
def test_a_sample_for_the_mover_keeps_the_movers_own_legal_actions(
    game: Game, players: int
) -> None:
    """A sample made for the player to move keeps the legal actions it was made with (a search
    then makes them once), and they are what the sample itself would generate: a player's own
    moves hang only on what that player knows."""
    kept = 0
    for state in random_states(game, players, seed=11 + players, every=3):
        mover = state.current_player()
        if mover < 0:
            continue
        legal = list(state.legal_actions())
        for attempt in range(3):
            sample = state.determinize(mover, random.Random(attempt))
            anew = sample.clone()
            anew._legal = None  # generate them afresh from the sample's own fields
            assert sample.legal_actions() is state.legal_actions()  # kept, not made again
            assert list(anew.legal_actions()) == legal
            kept += 1
    assert kept > 30


def check_state_untouched(state: State, before: State) -> None:
    assert state == before


@pytest.mark.parametrize("players", PLAYERS)
def test_a_game_reseated_gives_each_player_the_role_they_had(game: Game, players: int) -> None:
    """A rematch seats everyone anew: a role chosen (a shop) follows its player; a game whose
    roles were left to it (or that has none) is the same game."""
    order = [(seat + 1) % players for seat in range(players)]
    assert game.reseated(order).options == game.options  # no roles chosen
    dealt = game.deal_roles(players, random.Random(players))
    before = dealt.roles(dealt.new_state(players, seed=1))
    moved = dealt.reseated(order)
    after = moved.roles(moved.new_state(players, seed=1))
    if before is None:
        assert after is None and moved.options == dealt.options
    else:
        assert after == [before[was] for was in order] and after != before


def test_the_chance_alphabet_is_the_contracts_with_a_default() -> None:
    """OpenSpiel's adapter numbers chance outcomes by it: a game with chance nodes that did
    not name its own failed deep in the adapter (a KeyError), as a contributor's did."""
    toy = ToyGame()
    assert toy.info.chance_nodes and toy.chance_outcome_codes() == tuple(range(6))
    assert get_game("cafe").chance_outcome_codes() == ()  # no chance nodes: its draws sampled
    souvlaki = get_game("souvlaki").chance_outcome_codes()
    assert 0 < len(souvlaki) < get_game("souvlaki").info.num_distinct_actions  # its own, few

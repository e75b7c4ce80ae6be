"""Game records: they replay to equal states, honour stacked setups, and refuse malformed input
with a `RecordError` naming the bad field or the index of the bad action."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from kafeneio.core import RecordError
from kafeneio.core.record import replay
from kafeneio.games import load_record

from .conftest import ALL_CARDS, GAME, hand_text, make_setup, pick, play


def random_game(seed: int, players: int = 2, options: dict | None = None, steps: int = 10_000):
    """A seeded game played by a seeded random policy for at most `steps` actions."""
    rng = random.Random(seed)
    state = GAME.with_options(options or {}).new_state(players, seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(pick(rng, state))
    return state


@pytest.fixture(scope="module")
def finished() -> Any:
    return random_game(7, players=3)


def test_a_record_replays_to_an_equal_state(finished: Any) -> None:
    assert finished.is_terminal()
    record = finished.to_record()
    assert record["game"] == "cafe"
    assert record["players"] == 3
    assert record["seed"] == 7 and record["setup"] is None
    assert len(record["actions"]) == len(finished.history)
    again = replay(GAME, json.loads(json.dumps(record)))  # through JSON text and back
    assert again == finished
    assert again.scores() == finished.scores()
    assert load_record(record) == finished


@pytest.mark.parametrize("steps", [0, 1, 17])
def test_a_record_of_a_game_in_progress_replays_too(steps: int) -> None:
    options = {"dance": True, "birthday": True, "birthday_threshold": 10, "bar_draw": "extra"}
    state = random_game(3, players=4, options=options, steps=steps)
    record = state.to_record()
    assert record["options"]["dance"] is True
    assert replay(GAME, record) == state


def test_a_stacked_position_is_recorded_and_replayed() -> None:
    setup = make_setup(
        [["USm", "USf", "AFm"], ["INf", "INm"]],
        {8: "TRm", 9: "TRf"},
        bar=["CNm"],
        scores=[3, 4],
        hand_targets=[5, 4],
        to_move=1,
    )
    state = GAME.new_state(2, setup=setup)
    play(state, "INm@21", "INf@22")
    record = state.to_record()
    assert record["seed"] is None
    assert record["setup"] == setup
    assert record["actions"] == ["INm@21", "INf@22"]
    assert replay(GAME, record) == state


@pytest.mark.rule("CI-S.1")
def test_a_stacked_bag_is_dealt_and_drawn_exactly_in_its_order() -> None:
    rng = random.Random(1)
    bag = list(ALL_CARDS)
    rng.shuffle(bag)
    bag.sort(key=lambda card: card.startswith("J"))  # no joker in the first 30 cards
    state = GAME.new_state(2, setup={"bag": bag})
    assert hand_text(state, 0) == sorted(bag[0:5])
    assert hand_text(state, 1) == sorted(bag[5:10])
    play(state, f"{bag[0]}@bar")  # player 0 refills with the next card of the bag
    assert hand_text(state, 0) == sorted([*bag[1:5], bag[10]])
    play(state, f"{bag[5]}@bar")
    assert hand_text(state, 1) == sorted([*bag[6:10], bag[11]])


def test_a_stacked_position_is_set_up_exactly() -> None:
    setup = make_setup(
        [["USm", "USf", "Jm"], ["INf"], ["GBm", "GBf"]],
        {16: "USm", 17: "USf", 20: "Jf"},
        bar=["CNm", "CUf"],
        bag_top=["DEm", "DEf"],
        scores=[5, 2, 7],
        hand_targets=[5, 3, 4],
        to_move=2,
    )
    state = GAME.new_state(3, setup=setup)
    obs = state.observation(0)
    assert [sorted(hand) for hand in obs["hands"]] == [sorted(h) for h in setup["hands"]]
    assert {i + 1: c for i, c in enumerate(obs["chairs"]) if c} == {16: "USm", 17: "USf", 20: "Jf"}
    assert obs["bar"] == ["CNm", "CUf"]
    assert obs["bar_next_value"] == 3
    assert obs["scores"] == [5, 2, 7]
    assert obs["hand_targets"] == [5, 3, 4]
    assert state.current_player() == 2
    assert obs["bag_size"] == 100 - 6 - 3 - 2
    play(state, "GBm@bar")  # player 2 draws one card (CI-D.3): the bag's first
    assert hand_text(state, 2) == ["DEm", "GBf"]


def test_a_setup_that_misplaces_cards_is_refused_as_a_record() -> None:
    setup = make_setup([["USm"], ["USf"]])
    setup["bag"].remove("AFm")
    record = GAME.new_state(2, seed=1).to_record()
    record.update(seed=None, setup=setup)
    with pytest.raises(RecordError, match="AFm"):
        replay(GAME, record)


@pytest.mark.rule("CI-D.5")
def test_the_same_seed_gives_the_same_game() -> None:
    one, two = random_game(11), random_game(11)
    assert one == two
    assert one.to_record() == two.to_record()
    other = random_game(12)
    assert other.to_record()["actions"] != one.to_record()["actions"]


# --- Malformed records -----------------------------------------------------------------------
MALFORMED = [
    # (what is wrong, change to the record, text the error names)
    ("format", {"format": "pgn"}, "'format'"),
    ("version", {"version": 3}, "'version'"),
    ("too many players", {"players": 5}, "'players'"),
    ("players as text", {"players": "2"}, "'players'"),
    ("options not an object", {"options": ["dance"]}, "'options'"),
    ("unknown option", {"options": {"dancing": True}}, "dancing"),
    ("bad option value", {"options": {"first_move": "anything"}}, "first_move"),
    ("seed and setup", {"setup": {"bag": list(ALL_CARDS)}}, "'seed' and 'setup'"),
    ("neither seed nor setup", {"seed": None}, "'seed' and 'setup'"),
    ("seed as text", {"seed": "7"}, "'seed'"),
    ("seed as boolean", {"seed": True}, "'seed'"),
    ("setup not an object", {"seed": None, "setup": ["USm"]}, "'setup'"),
    ("actions not a list", {"actions": "USm@16"}, "'actions'"),
    ("an action not text", {"actions": [3]}, "'actions'"),
]


@pytest.mark.parametrize(
    ("change", "named"), [case[1:] for case in MALFORMED], ids=[case[0] for case in MALFORMED]
)
def test_a_malformed_record_names_the_bad_field(change: dict, named: str) -> None:
    record = GAME.new_state(2, seed=5).to_record()
    record.update(copy.deepcopy(change))
    with pytest.raises(RecordError, match=named) as err:
        replay(GAME, record)
    assert err.value.index is None


def test_a_record_with_players_that_do_not_fit_its_setup_is_refused() -> None:
    setup = make_setup([["USm"], ["USf"]])  # two hands
    record = GAME.new_state(2, setup=setup).to_record()
    record["players"] = 3
    with pytest.raises(RecordError, match=r"setup\.hands"):
        replay(GAME, record)


def test_a_record_of_an_unknown_game_is_refused() -> None:
    record = GAME.new_state(2, seed=5).to_record()
    record["game"] = "backgammon"
    with pytest.raises(RecordError, match="'game'"):
        load_record(record)


def test_replay_refuses_a_record_of_another_game() -> None:
    record = GAME.new_state(2, seed=5).to_record()
    record["game"] = "souvlaki"
    with pytest.raises(RecordError, match="'game'"):
        replay(GAME, record)


@pytest.mark.parametrize("bad", ["pass", "end", "USm@99", "dance", "Jm@bar"])
def test_an_illegal_or_unreadable_action_is_named_by_its_index(finished: Any, bad: str) -> None:
    record = finished.to_record()
    # The first turn from action 10 on that starts a turn (so that "end" is illegal too).
    state = GAME.new_state(3, seed=7)
    for k, text in enumerate(record["actions"]):
        if k >= 10 and state.observation(0)["phase"] == "turn":
            break
        state.apply_notation(text)
    assert bad not in {a.notation for a in state.legal_actions()}
    record["actions"] = [*record["actions"][:k], bad, *record["actions"][k + 1 :]]
    with pytest.raises(RecordError) as err:
        replay(GAME, record)
    assert err.value.index == k
    assert f"action {k}:" in str(err.value)
    assert repr(bad) in str(err.value)


def test_an_action_after_the_end_is_named_by_its_index(finished: Any) -> None:
    record = finished.to_record()
    end = len(record["actions"])
    record["actions"].append("pass")
    with pytest.raises(RecordError, match="after the end") as err:
        replay(GAME, record)
    assert err.value.index == end

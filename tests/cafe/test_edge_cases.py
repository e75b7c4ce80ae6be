"""Edge cases found in review: each pins a behaviour at the border of a rule."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from kafeneio.core import IllegalActionError, KafeneioError
from kafeneio.core.record import replay
from kafeneio.games import get_game

from .conftest import GAME, make_setup, new_position, play

ELSEWHERE = {8: "TRm", 9: "TRf"}
"""A pair at TR2, so that no position here is the start player's opening."""


@pytest.mark.rule("CI-D.2")
def test_draw_fewer_is_known_by_its_code_not_by_the_object() -> None:
    chairs = {16: "USm", 17: "USf", 15: "USf", **ELSEWHERE}
    hands = [["USm", "DEm", "DEf", "AFm", "AFm"], ["AFf", "AFf"]]
    state = new_position(hands, chairs, {"single_nation_draw": "choose"})
    play(state, "USm@18", "end")
    copy = pickle.loads(pickle.dumps(GAME.parse_action("draw fewer")))
    state.apply(copy)
    assert state.observation(0)["hand_targets"] == [4, 5]


@pytest.mark.parametrize("name", ["cafe", "souvlaki"])
def test_a_game_made_without_a_seed_draws_one_so_its_record_replays(name: str) -> None:
    game = get_game(name)
    state = game.new_state(2)
    record = state.to_record()
    assert isinstance(record["seed"], int)
    assert replay(game, record) == state


@pytest.mark.rule("CI-E.1")
@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"to_move": True}, "to_move"),
        ({"hand_targets": [9, 5]}, "hand_targets"),
        ({"hand_targets": [-1, 5]}, "hand_targets"),
        ({"scores": [-3, 0]}, "scores"),
        ({"hand_targets": [0, 5], "hands": [[], ["AFf"]]}, "already ended"),
    ],
)
def test_a_setup_that_no_game_can_reach_is_refused(fields: dict[str, Any], message: str) -> None:
    setup = make_setup([["USm"], ["AFf"]], ELSEWHERE)
    setup.update(fields)
    if "hands" in fields:  # keep every card somewhere exactly once
        setup["bag"] = [*setup["bag"], "USm"]
    with pytest.raises(KafeneioError, match=message):
        GAME.new_state(2, setup=setup)


@pytest.mark.rule("CI-V.2")
@pytest.mark.parametrize(
    ("hand", "chairs", "dance", "reason"),
    [
        (["USm", "USm", "USm"], {16: "USm"}, "dance US1: USm@15 USm@16 USm@17", "CI-T.1"),
        (["USm", "USm", "Jm"], {}, "dance US1: USm@15 USm@16 USm@17 Jm@18", "holds 2 × USm"),
        (["USm", "USm", "USm"], {18: "USf"}, "dance US1: USm@15 USm@16 USm@17", "other gender"),
    ],
)
def test_an_illegal_dance_is_refused_for_its_own_reason(
    hand: list[str], chairs: dict[int, str], dance: str, reason: str
) -> None:
    state = new_position([hand, ["AFf"]], {**ELSEWHERE, **chairs}, {"dance": True})
    before = state.clone()
    with pytest.raises(IllegalActionError, match=reason):
        state.apply_notation(dance)
    assert state == before


@pytest.mark.rule("CI-M.4")
@pytest.mark.rule("CI-T.8")
def test_the_openings_lone_joker_may_be_exchanged_and_stay_alone() -> None:
    state = new_position([["Jm", "AFm"], ["USm", "AFf"]], {})
    play(state, "Jm@16", "end")  # the opening: a joker alone at US1 (reading A)
    assert "swap USm@16" in {a.notation for a in state.legal_actions()}
    play(state, "swap USm@16")
    assert "Jm" in state.observation(1)["hands"][1]

"""Setups written by hand (issue 6 item 9): part of a position with the rest dealt from a seed,
the opening, thrown-out players, the birthday table, dances, pending choices; and a refusal
naming the field for each way to get one wrong."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

import pytest

from kafeneio.core import KafeneioError
from kafeneio.core.record import replay
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeState

from .conftest import GAME, legal, new_position, play

PAIR_AT_TR2 = {"8": "TRm", "9": "TRf"}
"""A pair at TR2: a position past the opening."""


def hand_made(players: int = 2, options: dict[str, Any] | None = None, **fields: Any) -> CafeState:
    """A position of only the fields given; every other card dealt from the rest (seed 1)."""
    game = get_game("cafe", options)
    return game.new_state(players, setup={"rest": {"seed": 1}, **fields})  # type: ignore[return-value]


def every_card(state: CafeState) -> Counter[str]:
    obs = state.observation(0)
    cards = Counter(obs["bag_contents"])
    cards.update(card for hand in obs["hands"] for card in hand)
    cards.update(card for card in obs["chairs"] if card)
    cards.update(obs["bar"])
    return cards


def test_rest_deals_the_unlisted_cards_to_unlisted_hands_and_the_bag() -> None:
    state = hand_made(3, chairs=PAIR_AT_TR2, hands=[["USm", "USf"], 4, None], bar=["GBm"])
    obs = state.observation(0)
    assert sorted(obs["hands"][0]) == ["USf", "USm"]
    assert [len(hand) for hand in obs["hands"]] == [2, 4, 5]  # None: the hand target
    assert obs["bag_size"] == 100 - (2 + 4 + 5) - 2 - 1
    assert sum(every_card(state).values()) == 100
    again = hand_made(3, chairs=PAIR_AT_TR2, hands=[["USm", "USf"], 4, None], bar=["GBm"])
    assert again == state  # the seed fixes the deal
    other = GAME.new_state(
        3, setup={"rest": {"seed": 2}, "chairs": PAIR_AT_TR2, "hands": [["USm"], 4, None]}
    )
    assert other.observation(0)["hands"][1] != obs["hands"][1]


def test_rest_puts_the_unlisted_cards_under_a_listed_bag_top() -> None:
    state = GAME.new_state(2, setup={"bag": ["Jm", "Jf", "USm"], "rest": {"seed": 4}})
    assert {"Jm", "Jf", "USm"} <= set(state.observation(0)["hands"][0])  # drawn first
    assert sum(every_card(state).values()) == 100
    positioned = hand_made(chairs=PAIR_AT_TR2, bag=["Jm", "Jf"], hands=[["USm"], ["USf"]])
    play(positioned, "USm@bar")  # the bar's first seat: player 1 draws one card, the bag's top
    assert "Jm" in positioned.observation(0)["hands"][0]


def test_a_hand_made_setup_records_itself_and_replays() -> None:
    state = hand_made(chairs=PAIR_AT_TR2, hands=[["USm", "USf"], 3])
    play(state, "USm@bar")
    assert replay(GAME, state.to_record()) == state


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"rest": {"seed": "x"}}, "setup.rest"),
        ({"rest": {"seed": 1, "deal": 2}}, "setup.rest"),
        ({"hands": [["USm"] * 5, []]}, "lists USm 5 times"),
        ({"hands": [["XXm"], []]}, r"setup.hands\[0\]: "),  # the hand's path, no ".hand"
        ({"hands": [["USm"], "USm"]}, r"setup.hands\[1\] must be a list of card notations"),
        ({"hands": [["USm"], -1]}, r"setup.hands\[1\]"),
        ({"hands": [["USm"]]}, "setup.hands must be a list of 2"),
        ({"bag": "USm"}, "setup.bag"),
        ({"chairs": {"99": "USm"}}, "setup.chairs"),
        ({"chairs": {"16": "GBm"}}, r"GBm cannot sit on chair 16 \(CI-T.2\)"),
        ({"stack": []}, "unknown fields"),
    ],
)
def test_a_bad_field_is_refused_by_name(fields: dict[str, Any], named: str) -> None:
    setup = {"rest": {"seed": 1}, "chairs": PAIR_AT_TR2, **fields}
    with pytest.raises(KafeneioError, match=named):
        GAME.new_state(2, setup=setup)


def test_a_hand_of_a_number_of_cards_needs_rest() -> None:
    with pytest.raises(KafeneioError, match=r"setup.hands\[1\]: a number of cards .* rest"):
        GAME.new_state(2, setup={"bag": [], "hands": [[], 3]})


@pytest.mark.rule("CI-T.5")
@pytest.mark.rule("CI-T.8")
def test_guests_at_the_bar_but_none_on_chairs_is_not_the_opening() -> None:
    """Today's positions: an empty board is the opening (a lone guest may open, reading A);
    with a guest at the bar, the opening is over, so a guest at an empty table needs a partner."""
    opening = hand_made(hands=[["USf", "USm"], ["GBm"]])
    play(opening, "USf@16")
    assert "end" in legal(opening)
    for fields in ({"bar": ["GBf"]}, {"opening": False}):
        state = hand_made(hands=[["USf", "USm"], ["GBm"]], **fields)
        play(state, "USf@16")
        assert "end" not in legal(state) and "USm@17" in legal(state)


@pytest.mark.rule("CI-T.8")
@pytest.mark.parametrize("fields", [{"bar": ["GBf"]}, {"chairs": PAIR_AT_TR2}])
def test_the_opening_cannot_be_claimed_once_a_guest_is_seated(fields: dict[str, Any]) -> None:
    with pytest.raises(KafeneioError, match=r"setup.opening"):
        hand_made(opening=True, **fields)
    with pytest.raises(KafeneioError, match=r"setup.opening must be true or false"):
        hand_made(opening="no")


@pytest.mark.rule("CI-T.4")
@pytest.mark.parametrize(
    ("chairs", "options", "table"),
    [
        ({"16": "USf", "17": "USf"}, None, "US1 holds 2 ladies and 0 men"),
        ({"16": "USf", "60": "GBm"}, None, "GB1 and US1 each hold a guest alone"),
        ({"16": "USf"}, {"first_move": "pair-scores-both"}, "US1 holds 1 ladies and 0 men"),
        ({"15": "DEf"}, {"first_move": "pair-scores-both"}, "DE2 holds 1 ladies"),
    ],
)
def test_a_setup_breaking_ct4_is_refused_with_the_table_named(
    chairs: dict[str, str], options: dict[str, Any] | None, table: str
) -> None:
    with pytest.raises(KafeneioError, match=f"setup.chairs: table.? {table}.*CI-T.4"):
        hand_made(options=options, chairs={**PAIR_AT_TR2, **chairs})


@pytest.mark.rule("CI-T.4")
@pytest.mark.rule("CI-T.8")
def test_the_openings_lone_guest_may_stay_alone_and_a_shared_chair_guest_may_join_a_group() -> None:
    lone = hand_made(chairs={**PAIR_AT_TR2, "16": "USf"})  # reading A: the opening's guest
    assert lone.observation(0)["chairs"][15] == "USf"
    shared = hand_made(chairs={**PAIR_AT_TR2, "10": "TRf"})  # TR2's group; alone at DE1
    assert shared.observation(0)["chairs"][9] == "TRf"


@pytest.mark.rule("CI-T.3")
def test_a_setup_breaking_ct3_is_refused_with_the_table_named() -> None:
    chairs = {"15": "USf", "16": "USf", "17": "USf", "18": "USm"}
    with pytest.raises(KafeneioError, match=r"table US1 holds more than 2 ladies.*CI-T.3"):
        hand_made(chairs=chairs)


@pytest.mark.rule("CI-M.3")
def test_a_thrown_out_player_has_no_hand_and_does_not_move() -> None:
    left = ["GBm", "GBm", "GBf", "GBf", "AFm"]
    state = hand_made(3, chairs=PAIR_AT_TR2, out=[1], left_play=left, hands=[["USm"], [], ["USf"]])
    obs = state.observation(0)
    assert obs["out"] == [False, True, False]
    assert obs["hands"][1] == []
    assert sum(every_card(state).values()) == 100 - len(left)
    play(state, "USm@bar")
    assert state.current_player() == 2


@pytest.mark.rule("CI-M.3")
@pytest.mark.parametrize(
    ("fields", "options", "named"),
    [
        ({"out": [1], "hands": [["USm"], ["USf"], []]}, None, r"setup.hands\[1\].*CI-M.3"),
        ({"left_play": ["USm"]}, None, "setup.left_play"),
        ({"out": [0]}, None, "setup.to_move: P1 is out"),
        ({"out": [1]}, {"bar_unpaid": "forbid"}, "setup.out"),
        ({"out": [1, 1]}, None, "setup.out"),
        ({"out": [3]}, None, "setup.out"),
        ({"out": [1, 2]}, None, "already ended"),
    ],
)
def test_a_bad_thrown_out_player_is_refused(
    fields: dict[str, Any], options: dict[str, Any] | None, named: str
) -> None:
    with pytest.raises(KafeneioError, match=named):
        hand_made(3, options=options, chairs=PAIR_AT_TR2, **fields)


BIRTHDAY = {"birthday": True, "birthday_threshold": 8}


@pytest.mark.rule("CI-V.1")
def test_a_chosen_birthday_table_doubles_and_is_chosen_once() -> None:
    state = hand_made(
        options=BIRTHDAY,
        chairs={**PAIR_AT_TR2, "16": "USf"},
        hands=[["USm", "AFm"], ["GBm"]],
        scores=[9, 0],
        birthday_table="US1",
    )
    assert state.observation(0)["birthday_table"] == "US1"
    play(state, "USm@17", "end")  # US1 now 1 lady + 1 man: 2, doubled
    assert state.scores()[0] == 9 + 4
    assert state.observation(1)["phase"] == "turn"  # no second choice
    declined = hand_made(options=BIRTHDAY, chairs=PAIR_AT_TR2, birthday_table="declined")
    assert declined.observation(0)["birthday_table"] is None


@pytest.mark.rule("CI-V.1")
@pytest.mark.parametrize(
    ("options", "fields", "named"),
    [
        (None, {"birthday_table": "US1"}, "needs the birthday option"),
        (BIRTHDAY, {"birthday_table": "XX9"}, "setup.birthday_table: no table"),
        (BIRTHDAY, {"birthday_table": 3}, "setup.birthday_table must be a table id"),
        (BIRTHDAY, {"scores": [8, 0]}, "P1 has reached the birthday threshold"),
        (BIRTHDAY, {"pending": "birthday", "scores": [7, 0]}, "P1 has not reached"),
        (None, {"pending": "birthday", "scores": [30, 0]}, "setup.pending: a birthday choice"),
        (BIRTHDAY, {"pending": "cake"}, "setup.pending must be one of"),
    ],
)
def test_a_bad_birthday_is_refused(
    options: dict[str, Any] | None, fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(KafeneioError, match=named):
        hand_made(options=options, chairs=PAIR_AT_TR2, **fields)


@pytest.mark.rule("CI-V.1")
def test_a_pending_birthday_choice_comes_first() -> None:
    state = hand_made(options=BIRTHDAY, chairs=PAIR_AT_TR2, scores=[8, 0], pending="birthday")
    assert state.observation(0)["phase"] == "birthday"
    assert "birthday US1" in legal(state) and "birthday none" in legal(state)
    play(state, "birthday US1")
    assert state.current_player() == 1
    assert state.observation(1)["birthday_table"] == "US1"


@pytest.mark.rule("CI-D.2")
def test_a_pending_draw_choice_lowers_the_target_by_the_tables_completed() -> None:
    options = {"single_nation_draw": "choose"}
    state = hand_made(
        options=options,
        chairs=PAIR_AT_TR2,
        hands=[["USm"], ["USf"]],
        pending="draw",
        tables_completed=2,
    )
    assert legal(state) == {"draw fewer", "draw full"}
    play(state, "draw fewer")
    assert state.observation(0)["hand_targets"] == [3, 5]
    assert len(state.observation(0)["hands"][0]) == 3
    with pytest.raises(KafeneioError, match="single_nation_draw"):
        hand_made(chairs=PAIR_AT_TR2, pending="draw")
    with pytest.raises(KafeneioError, match=r"setup.tables_completed goes with"):
        hand_made(options=options, chairs=PAIR_AT_TR2, tables_completed=1)
    with pytest.raises(KafeneioError, match=r"setup.tables_completed must be"):
        hand_made(options=options, chairs=PAIR_AT_TR2, pending="draw", tables_completed=0)


DANCE_AT_US1 = {"15": "USm", "16": "USm", "17": "USm", "18": "Jm"}


@pytest.mark.rule("CI-V.2")
def test_a_dance_table_holds_four_of_one_gender() -> None:
    state = hand_made(
        options={"dance": True}, chairs={**PAIR_AT_TR2, **DANCE_AT_US1}, dance_tables=["US1"]
    )
    assert state.observation(0)["dance_tables"] == ["US1"]
    with pytest.raises(KafeneioError, match="table US1 holds more than 2 ladies or 2 men"):
        hand_made(options={"dance": True}, chairs={**PAIR_AT_TR2, **DANCE_AT_US1})


@pytest.mark.rule("CI-V.2")
@pytest.mark.parametrize(
    ("options", "fields", "named"),
    [
        (None, {"dance_tables": ["US1"]}, "needs the dance option"),
        ({"dance": True}, {"dance_tables": ["US2"]}, "setup.dance_tables: US2 does not hold"),
        ({"dance": True}, {"dance_tables": "US1"}, "setup.dance_tables must be a list"),
        ({"dance": True}, {"dance_tables": ["US1", "US1"]}, "names a table twice"),
    ],
)
def test_a_bad_dance_table_is_refused(
    options: dict[str, Any] | None, fields: dict[str, Any], named: str
) -> None:
    with pytest.raises(KafeneioError, match=named):
        hand_made(options=options, chairs={**PAIR_AT_TR2, **DANCE_AT_US1}, **fields)


def test_a_sample_of_a_stacked_setup_keeps_no_trace_of_its_bag_order() -> None:
    """A stacked setup lists the bag in order, the one thing hidden in Café: a determinized
    sample kept the setup, and with it the true order, in its state key and pickle."""
    bag_top = ["USm", "Jf", "CUf", "RUm", "AFf", "ITm", "DEf"]
    state = new_position([["FRf", "GBm"], ["ESf"]], bag_top=bag_top)
    order = tuple(state.to_record()["setup"]["bag"])
    assert order[: len(bag_top)] == tuple(bag_top)

    def orders_in(key: object) -> bool:  # the bag's order, as the setup lists it, anywhere
        if isinstance(key, tuple | list):
            return tuple(key) == order or any(orders_in(item) for item in key)
        return False

    assert orders_in(state.state_key())  # the truth holds it
    sample = state.determinize(0, random.Random(3))
    assert not orders_in(sample.state_key())
    assert not orders_in(pickle.loads(pickle.dumps(sample)).state_key())

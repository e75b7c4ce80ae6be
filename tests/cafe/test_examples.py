"""The six worked examples of the Hungarian rulebook (Példa 1-6), as tests.

On this board the Indian table IN2 and the American table US2 share chair 19; the American
tables US1 and US2 share chair 18; US2 and the French table FR2 share chair 24.
"""

from __future__ import annotations

import pytest

from kafeneio.core import IllegalActionError

from .conftest import chair_guest, chairs_of, hand_text, legal, new_position, placements, play

ELSEWHERE = {8: "TRm", 9: "TRf"}
"""A pair at the Turkish table TR2, far from the tables of the examples, so that a position is
not the start player's opening move (CI-T.8)."""


# --- Example 1: nationalities at the Indian and American tables --------------------------------
@pytest.mark.rule("CI-T.2")
def test_example_1_an_american_sits_at_an_indian_table_only_on_the_shared_chair() -> None:
    # The opening move may seat any guest alone (CI-T.8), so it lists every chair a card fits.
    state = new_position([["USm", "INm", "FRm", "Jm", "AFf"], ["AFf"] * 3])
    fits = {
        card: {int(p.split("@")[1]) for p in placements(state) if p.startswith(card)}
        for card in ("USm", "INm", "FRm", "Jm")
    }
    assert fits["USm"] == set(chairs_of("US1")) | set(chairs_of("US2"))
    assert fits["USm"] & set(chairs_of("IN2")) == {19}
    assert fits["INm"] & set(chairs_of("US2")) == {19}
    assert fits["FRm"] & set(chairs_of("US2")) == {24}
    assert fits["Jm"] == set(range(1, 69))  # jokers sit at any table


@pytest.mark.rule("CI-T.2")
@pytest.mark.rule("CI-P.2")
def test_example_1_an_indian_table_of_4_indians_or_3_indians_and_an_american() -> None:
    # IN2 holds INf@20, INm@21, INf@22; chair 19 takes an Indian or an American man.
    indian = {20: "INf", 21: "INm", 22: "INf", **ELSEWHERE}
    native = new_position([["INm", "USm", "AFm"], ["AFf"]], indian)
    assert {"INm@19", "USm@19"} <= placements(native)
    mixed = native.clone()
    play(native, "INm@19", "end")
    play(mixed, "USm@19", "end")
    assert native.scores()[0] == 8  # four Indians: 8 (US2 holds one guest: 0)
    assert mixed.scores()[0] == 4  # three Indians and an American: 4
    outside = new_position([["USm", "AFm"], ["AFf"]], indian)
    with pytest.raises(IllegalActionError) as err:
        outside.apply_notation("USm@29")  # chair 29 belongs to IN1 only
    assert err.value.rule == "CI-T.2"


@pytest.mark.rule("CI-T.2")
def test_example_1_an_american_table_with_a_french_and_an_indian_guest() -> None:
    # 2 Americans, a Frenchman on chair 24 (shared with FR2) and an Indian on chair 19 (IN2).
    chairs = {23: "USf", 18: "USm", 25: "FRf", 21: "INm", 22: "INf", **ELSEWHERE}
    state = new_position([["FRm", "INf", "AFm"], ["AFf"]], chairs)
    play(state, "FRm@24", "INf@19")
    assert [chair_guest(state, c) for c in chairs_of("US2")] == ["USm", "INf", "USf", "FRm"]
    # US2 (2 + 1 + 1 guests) scored 3 then 4; FR2 scored 2 for its new pair; IN2 scored 3.
    assert state.scores()[0] == 3 + 2 + 4 + 3


# --- Example 2: a lone guest on a shared chair, in a group at the other table ------------------
@pytest.mark.rule("CI-T.4")
def test_example_2_a_lone_american_man_on_the_shared_chair_is_allowed() -> None:
    state = new_position([["USm", "AFm"], ["AFf"]], {21: "INf", **ELSEWHERE})
    # IN2 holds an Indian lady alone on chair 21 (a position set up, not reached by play).
    play(state, "USm@19")
    assert "end" in legal(state)  # alone at US2, but in a lady–man group at IN2
    play(state, "end")
    assert state.scores()[0] == 2  # IN2's pair; US2 holds one guest: 0
    assert state.current_player() == 1


@pytest.mark.rule("CI-T.4")
def test_example_2_played_in_one_move_indian_lady_then_american_man() -> None:
    state = new_position([["INf", "USm", "AFm"], ["AFf"]], ELSEWHERE)
    play(state, "INf@21")
    assert "USm@19" in legal(state)
    play(state, "USm@19")
    assert state.scores()[0] == 0 + 2
    assert state.current_player() == 1


@pytest.mark.rule("CI-T.4")
def test_example_2_the_same_man_alone_on_a_chair_of_the_american_table_only_is_refused() -> None:
    state = new_position([["USm", "AFm"], ["AFf"]], {21: "INf", **ELSEWHERE})
    assert "USm@23" not in legal(state)
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USm@23")
    assert err.value.rule == "CI-T.4"
    assert state == before


# --- Example 3: no suitable guest for the shared chair -----------------------------------------
@pytest.mark.rule("CI-T.3")
@pytest.mark.parametrize("card", ["USf", "USm", "INf", "INm", "Jf", "Jm"])
def test_example_3_no_guest_fits_the_chair_between_the_american_and_indian_tables(
    card: str,
) -> None:
    # US2: 2 ladies (23, 24) and a man (18); IN2: 2 men (21, 22) and a lady (20); chair 19 free.
    chairs = {23: "USf", 24: "USf", 18: "USm", 25: "FRm", 21: "INm", 22: "INm", 20: "INf"}
    state = new_position([[card, "AFm", "AFf"], ["GBf"]], chairs)
    assert not any(p.endswith("@19") for p in placements(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation(f"{card}@19")
    assert err.value.rule == "CI-T.3"  # a lady would be US2's third, a man IN2's third
    full = "US2 already has 2 ladies" if card.endswith("f") else "IN2 already has 2 men"
    assert full in str(err.value)  # the table named, not "a table of chair 19"
    assert state == before


# --- Example 4: the 14-point move (CI-P.4) -----------------------------------------------------
@pytest.mark.rule("CI-P.4")
@pytest.mark.rule("CI-P.1")
@pytest.mark.rule("CI-P.2")
def test_example_4_four_players_and_the_14_point_move() -> None:
    hands = [
        ["USm", "USf", "AFm", "AFm", "AFm"],  # A
        ["INm", "INf", "AFf", "AFf", "AFf"],  # B
        ["USm", "CNm", "CNm", "CNm", "CNm"],  # C
        ["USm", "USf", "GBm", "GBm", "GBm"],  # D
    ]
    state = new_position(hands)
    play(state, "USm@16", "USf@17")  # A: a man and a lady at empty US1: 0 + 2
    assert state.scores() == [2, 0, 0, 0]
    play(state, "INm@21", "INf@19")  # B: an Indian pair at IN2, the lady on the chair US2 shares
    assert state.scores() == [2, 2, 0, 0]
    play(state, "USm@23", "end")  # C: a man at US2, which holds that lady: 2
    assert state.scores() == [2, 2, 2, 0]
    play(state, "USm@18")  # D: the chair of US1 and US2, each then holding 3 guests: 3 + 3
    assert state.scores()[3] == 6
    play(state, "USf@15")  # D: US1 now 2 ladies and 2 men, all American: 8
    assert state.scores() == [2, 2, 2, 14]
    assert [chair_guest(state, c) for c in chairs_of("US1")] == ["USf", "USm", "USf", "USm"]


# --- Example 5: a joker lady completes an Indian table -----------------------------------------
def example_5_position():
    """IN2 holds an Indian lady (19) and two Indian men (21, 22); its chair 20 is free."""
    chairs = {19: "INf", 21: "INm", 22: "INm", **ELSEWHERE}
    hands = [["Jf", "AFm", "AFm", "AFm", "CNm"], ["INf", "GBm", "GBm", "GBm", "GBm"]]
    return new_position(hands, chairs)


@pytest.mark.rule("CI-P.3")
@pytest.mark.rule("CI-D.2")
def test_example_5_the_joker_lady_makes_a_single_nation_table_worth_8_and_one_card_fewer() -> None:
    state = example_5_position()
    bag = state.observation(0)["bag_size"]
    play(state, "Jf@20", "end")
    assert state.scores()[0] == 8  # IN2 all Indian with the joker; IN1 holds one guest: 0
    assert state.observation(0)["hand_targets"][0] == 4
    assert len(state.hand(0)) == 4  # 5 - 1 placed, and nothing drawn
    assert state.observation(0)["bag_size"] == bag


# --- Example 6: exchanging the joker ------------------------------------------------------------
@pytest.mark.rule("CI-M.4")
@pytest.mark.rule("CI-D.4")
def test_example_6_an_indian_lady_takes_the_jokers_place() -> None:
    state = example_5_position()
    play(state, "Jf@20", "end")
    bag = state.observation(0)["bag_size"]
    assert "swap INf@20" in legal(state)
    play(state, "swap INf@20")
    assert chair_guest(state, 20) == "INf"
    assert hand_text(state, 1) == ["GBm", "GBm", "GBm", "GBm", "Jf"]  # the joker, not drawn
    assert state.scores() == [8, 0]  # no points for the exchange
    assert state.observation(0)["bag_size"] == bag
    assert state.current_player() == 0  # the exchange is the whole turn

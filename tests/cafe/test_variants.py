"""The variants of the rulebook (CI-V), both off by default: the birthday table and the dance."""

from __future__ import annotations

import pytest

from kafeneio.core import IllegalActionError, NotationError

from .conftest import BOARD, GAME, chair_guest, hand_text, legal, new_position, play

ELSEWHERE = {8: "TRm", 9: "TRf"}
"""A pair at TR2, far from the tables under test, so that no move is the opening (CI-T.8)."""

BIRTHDAY_CHOICES = {f"birthday {t.id}" for t in BOARD.tables} | {"birthday none"}


# --- CI-V.1: the birthday table ------------------------------------------------------------------
def birthday_position(options: dict, scores: list[int]):
    """Player 0 can open US1 with a pair (+2); player 1 can add to US1 and US2 afterwards."""
    hands = [["USm", "USf", "USf", "AFm", "AFm"], ["USm", "USf", "AFf", "AFf", "AFf"]]
    return new_position(hands, ELSEWHERE, options, scores=scores)


@pytest.mark.rule("CI-V.1")
def test_birthday_is_off_by_default() -> None:
    state = birthday_position({}, [28, 0])
    play(state, "USm@16", "USf@17")
    assert state.scores()[0] == 30
    assert state.current_player() == 1
    assert not legal(state) & BIRTHDAY_CHOICES
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("birthday US1")
    assert err.value.rule == "CI-V.1"


@pytest.mark.rule("CI-V.1")
@pytest.mark.parametrize(
    ("options", "start", "offered"),
    [
        ({"birthday": True}, 28, True),  # the default threshold is 30: 28 + 2 reaches it
        ({"birthday": True}, 27, False),  # 29 does not
        ({"birthday": True, "birthday_threshold": 10}, 8, True),
        ({"birthday": True, "birthday_threshold": 10}, 7, False),
    ],
)
def test_ruling_the_player_reaching_the_threshold_chooses_at_once(
    options: dict, start: int, offered: bool
) -> None:
    state = birthday_position(options, [start, 0])
    play(state, "USm@16", "USf@17")
    if not offered:
        assert state.current_player() == 1
        assert state.observation(0)["phase"] == "turn"
        return
    assert state.current_player() == 0  # the same player decides before the next turn
    assert state.observation(1)["phase"] == "birthday"
    assert legal(state) == BIRTHDAY_CHOICES
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("AFm@bar")  # nothing else until the choice is made
    assert err.value.rule == "CI-V.1"
    assert state == before
    play(state, "birthday US2")
    assert state.observation(1)["birthday_table"] == "US2"
    assert state.current_player() == 1


@pytest.mark.rule("CI-V.1")
def test_reaching_the_threshold_at_the_bar_also_earns_the_choice() -> None:
    state = birthday_position({"birthday": True, "birthday_threshold": 10}, [9, 0])
    play(state, "AFm@bar")  # seat 1: +1
    assert state.observation(0)["phase"] == "birthday"
    assert state.current_player() == 0


@pytest.mark.rule("CI-V.1")
def test_ruling_every_players_points_at_the_birthday_table_are_doubled() -> None:
    state = birthday_position({"birthday": True, "birthday_threshold": 10}, [8, 8])
    play(state, "USm@16", "USf@17", "birthday US1")
    assert state.scores() == [10, 8]  # the choice itself scores nothing
    # Player 1: a man on chair 18 makes 3 at US1 (doubled: 6) and sits alone at US2 (0);
    # a lady on chair 23 pairs him at US2 (2, not doubled).
    play(state, "USm@18", "USf@23")
    assert state.scores() == [10, 8 + 6 + 2]
    assert state.current_player() == 0  # 16 ≥ 10, but the choice is offered only once
    # Player 0 completes US1, all American: 8, doubled.
    play(state, "USf@15", "end")
    assert state.scores()[0] == 10 + 16


@pytest.mark.rule("CI-V.1")
def test_ruling_the_choice_may_be_declined_and_is_not_offered_again() -> None:
    state = birthday_position({"birthday": True, "birthday_threshold": 10}, [8, 8])
    assert not state.observation(0)["birthday_claimed"]
    before = state.observation_key(0)
    play(state, "USm@16", "USf@17", "birthday none")
    assert state.observation(0)["birthday_table"] is None
    # declined, it is used up: the observation tells this position from one where the choice
    # is still to come (the table alone, none in both, did not)
    assert state.observation(0)["birthday_claimed"]
    assert state.observation_key(0).birthday_claimed and not before.birthday_claimed
    assert state.current_player() == 1
    play(state, "USm@18", "USf@23")
    assert state.scores() == [10, 8 + 3 + 2]  # no doubling anywhere
    assert state.current_player() == 0
    assert state.observation(0)["phase"] == "turn"


# --- CI-V.2: regulars' table and dance evening ---------------------------------------------------
def dance_position(gender: str, options: dict | None = None, **fields):
    """US1 empty; DE2 (beside chair 15) and US2 (beside chair 18) each hold a lady–man pair.
    Player 0 holds 3 Americans and a joker of `gender`."""
    other = "m" if gender == "f" else "f"
    chairs = {
        13: "DEf",
        14: "DEm",
        23: f"US{other}",
        19: f"US{gender}",
        21: f"IN{other}",
        **ELSEWHERE,
    }
    hand = [f"US{gender}"] * 3 + [f"J{gender}", f"AF{other}"]
    return new_position([hand, ["AFf"]], chairs, {"dance": True, **(options or {})}, **fields)


@pytest.mark.rule("CI-V.2")
def test_the_dance_is_off_by_default() -> None:
    state = dance_position("m", {"dance": False})
    move = "dance US1: USm@15 USm@16 USm@17 Jm@18"
    assert not any(a.startswith("dance") for a in legal(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation(move)
    assert err.value.rule == "CI-V.2"
    assert state == before


@pytest.mark.rule("CI-V.2")
@pytest.mark.rule("CI-D.2")
@pytest.mark.parametrize("gender", ["m", "f"])
def test_four_natives_of_one_gender_score_40_and_the_player_draws_after(gender: str) -> None:
    state = dance_position(gender, bag_top=["CNm", "CNf", "CUm", "CUf"])
    g = gender
    move = f"dance US1: US{g}@15 US{g}@16 US{g}@17 J{g}@18"
    assert move in legal(state)
    play(state, move)
    assert [chair_guest(state, c) for c in (15, 16, 17, 18)] == [f"US{g}"] * 3 + [f"J{g}"]
    # US1: 40 (the joker is American); DE2 and US2 each gain a third guest: 3 + 3.
    assert state.scores()[0] == 40 + 3 + 3
    assert state.observation(0)["dance_tables"] == ["US1"]
    # A single-nation table: the hand target drops to 4, and the player draws 3 to reach it.
    assert state.observation(0)["hand_targets"][0] == 4
    other = "m" if g == "f" else "f"
    assert hand_text(state, 0) == sorted([f"AF{other}", "CNf", "CNm", "CUm"])
    assert state.current_player() == 1


@pytest.mark.rule("CI-V.2")
def test_ruling_a_neighbours_guest_on_a_shared_chair_makes_a_20_point_dance() -> None:
    # A German man on chair 15, which US1 shares with DE2.
    chairs = {13: "DEf", 14: "DEm", 23: "USf", 19: "USm", 21: "INf", **ELSEWHERE}
    state = new_position([["DEm", "USm", "USm", "Jm", "AFf"], ["AFf"]], chairs, {"dance": True})
    move = "dance US1: DEm@15 USm@16 USm@17 Jm@18"
    assert move in legal(state)
    play(state, move)
    # US1: 20; DE2 (DEf, DEm, DEm) 3; US2 (USf, USm, Jm) 3.
    assert state.scores()[0] == 20 + 3 + 3
    assert state.observation(0)["hand_targets"][0] == 5  # not a single-nation table
    assert len(state.hand(0)) == 5


@pytest.mark.rule("CI-V.2")
def test_each_dance_reads_its_guests_chair_by_chair_and_its_points() -> None:
    """Three dances at one table, the joker on another chair, all read "fill table US1 for a
    dance with 4 men": each names its guests chair by chair, and the points it scores."""
    chairs = {13: "DEf", 14: "DEm", 23: "USf", 19: "USm", 21: "INf", **ELSEWHERE}
    state = new_position([["DEm", "USm", "USm", "Jm", "AFf"], ["AFf"]], chairs, {"dance": True})
    words = {a.notation: state.action_words(a) for a in state.legal_actions() if a.kind == "dance"}
    assert len(set(words.values())) == len(words) == 3
    assert words["dance US1: DEm@15 USm@16 Jm@17 USm@18"] == (
        "dance at table US1 with 4 men: Germany man on chair 15 (between DE2 and US1), USA man "
        "on chair 16, joker (man) on chair 17, USA man on chair 18 (between US1 and US2); "
        "+26 points: 20 for the dance (not all four natives of USA) and 6 at the tables beside it"
    )
    natives = dance_position("m")
    move = natives.parse_legal("dance US1: USm@15 USm@16 USm@17 Jm@18")
    assert natives.action_words(move).endswith(
        "+46 points: 40 for the dance (all four natives of USA) and 6 at the tables beside it"
    )


@pytest.mark.rule("CI-V.2")
def test_three_guests_fill_a_table_that_already_holds_one_of_their_gender() -> None:
    # US1 holds an American man on chair 18 (in a pair at US2): three more men fill it.
    chairs = {18: "USm", 23: "USf", 13: "DEf", 14: "DEm", **ELSEWHERE}
    state = new_position([["USm", "USm", "USm", "AFf", "AFm"], ["AFf"]], chairs, {"dance": True})
    move = "dance US1: USm@15 USm@16 USm@17"
    assert move in legal(state)
    play(state, move)
    assert state.scores()[0] == 40 + 3  # US1 all American; DE2 gains a third guest
    assert len(state.hand(0)) == 4  # 2 left, drawn up to the lowered target of 4


@pytest.mark.rule("CI-V.2")
@pytest.mark.rule("CI-T.3")
def test_the_gender_rule_is_lifted_only_at_the_dance_table() -> None:
    # DE2 already has 2 men: a fourth US1 man on chair 15 would be DE2's third.
    chairs = {12: "DEf", 13: "DEm", 14: "DEm", 23: "USf", 19: "USm", 21: "INf", **ELSEWHERE}
    state = new_position([["USm", "USm", "USm", "Jm", "AFf"], ["AFf"]], chairs, {"dance": True})
    assert not any(a.startswith("dance US1") for a in legal(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("dance US1: USm@15 USm@16 USm@17 Jm@18")
    assert err.value.rule == "CI-V.2"
    assert state == before
    # Outside a dance, a table still takes at most 2 men.
    usual = new_position(
        [["USm", "USf"], ["AFf"]], {16: "USm", 17: "USm", 15: "USf"}, {"dance": True}
    )
    with pytest.raises(IllegalActionError) as err:
        usual.apply_notation("USm@18")
    assert err.value.rule == "CI-T.3"


@pytest.mark.rule("CI-V.2")
@pytest.mark.rule("CI-M.4")
def test_a_joker_at_a_dance_table_is_exchanged_only_for_its_own_gender() -> None:
    # After the dance at US1, the joker on chair 18 (shared with US2) keeps US1 all men: the
    # next player's US lady may not take its place, though US2 would keep its group.
    chairs = {13: "DEf", 14: "DEm", 23: "USf", 19: "USm", 21: "INf", **ELSEWHERE}
    hands = [["USm", "USm", "USm", "Jm", "AFf"], ["USf", "AFf"]]
    state = new_position(hands, chairs, {"dance": True})
    play(state, "dance US1: USm@15 USm@16 USm@17 Jm@18")
    assert state.current_player() == 1
    assert not any(a.startswith("swap") for a in legal(state))
    assert state.swap_refusal(BOARD.parse_card("USf"), 17) is not None
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("swap USf@18")
    assert err.value.rule == "CI-M.4"
    assert "dance table" in str(err.value)
    assert state == before


def test_a_dance_is_written_with_3_or_4_guests_of_one_gender() -> None:
    assert GAME.parse_action("dance us1: USm@15 USm@16 USm@17 Jm@18").notation == (
        "dance US1: USm@15 USm@16 USm@17 Jm@18"
    )
    for text in (
        "dance US1: USm@15 USf@16 USm@17 USm@18",  # two genders
        "dance US1: USm@15 USm@16",  # too few
        "dance US1: USm@15 USm@16 USm@21",  # chair 21 is not US1's
    ):
        with pytest.raises(NotationError):
            GAME.parse_action(text)


@pytest.mark.rule("CI-V.2")
@pytest.mark.rule("CI-D.2")
def test_a_dance_that_completes_a_neighbouring_single_nation_table_lowers_the_target() -> None:
    # IN2 holds 2 Indian ladies and an Indian man; the dance at US2 puts an Indian man on
    # chair 19 (US2's chair shared with IN2), completing IN2 with 4 Indians.
    chairs = {
        21: "INf",
        22: "INf",
        20: "INm",
        29: "INf",
        16: "USf",
        17: "USm",
        25: "FRf",
        26: "FRm",
        **ELSEWHERE,
    }
    state = new_position([["USm", "USm", "USm", "INm", "AFm"], ["AFf"]], chairs, {"dance": True})
    play(state, "dance US2: USm@18 INm@19 USm@23 USm@24")
    # US1 3 (chair 18), IN2 8 (chair 19), FR2 3 (chair 24), and the dance at US2: 20.
    assert state.scores()[0] == 3 + 8 + 3 + 20
    assert state.observation(0)["hand_targets"][0] == 4
    assert len(state.hand(0)) == 4


@pytest.mark.rule("CI-V.2")
@pytest.mark.rule("CI-T.4")
def test_a_dancer_alone_at_the_neighbouring_table_belongs_to_the_dance_group() -> None:
    # DE2 is empty: the man on chair 15 (US1 and DE2) sits alone at DE2, a regular of US1.
    chairs = {23: "USf", 19: "USm", 21: "INf", **ELSEWHERE}
    state = new_position([["USm", "USm", "USm", "Jm", "AFf"], ["AFf"]], chairs, {"dance": True})
    move = "dance US1: USm@15 USm@16 USm@17 Jm@18"
    assert move in legal(state)
    play(state, move)
    assert state.scores()[0] == 40 + 3  # US1, and US2's third guest; DE2 holds one guest: 0

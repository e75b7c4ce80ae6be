"""Café International rules (../shared/rules/cafe-international.md), rule by rule.

Positions are stacked with `new_position` (conftest.py): only the cards a test cares about are
named, every other card waits in the bag. Chair numbers are the board's: US1 has chairs 15-18
(15 shared with DE2, 18 with US2); US2 has 18, 19 (shared with IN2), 23 and 24 (shared with FR2);
IN2 has 19, 20 (shared with IN1), 21 and 22.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from typing import Any

import pytest

from kafeneio.core import IllegalActionError, KafeneioError, NotationError
from kafeneio.games.cafe import CafeState
from kafeneio.games.cafe.actions import NUM_CHAIRS
from kafeneio.games.cafe.board import NUM_CARD_TYPES
from kafeneio.games.cafe.state import SPACE

from .conftest import (
    ALL_CARDS,
    CODES,
    GAME,
    chair_guest,
    chairs_of,
    full_board,
    hand_text,
    legal,
    new_position,
    pick,
    placements,
    play,
)

ELSEWHERE = {8: "TRm", 9: "TRf"}
"""A pair at the Turkish table TR2, far from the tables under test: with a guest seated, the move
is not the start player's opening (CI-T.8)."""


def bar_setup(guests: int) -> list[str]:
    """`guests` cards already at the bar (seats 1..guests), of nations the tests do not use."""
    return (["CNm"] * 4 + ["CNf"] * 4 + ["CUm"] * 4 + ["CUf"] * 4 + ["ITm"] * 4)[:guests]


# --- Components (CI-0) ---------------------------------------------------------------------------
@pytest.mark.rule("CI-0.1")
def test_the_game_has_100_cards_4_of_each_nation_and_gender_and_4_jokers() -> None:
    state = GAME.new_state(3, seed=11)
    obs = state.observation(0)
    cards = Counter(obs["bag_contents"])
    for hand in obs["hands"]:
        cards.update(hand)
    assert sum(cards.values()) == 100
    assert cards == Counter(ALL_CARDS)
    assert all(cards[f"{code}{g}"] == 4 for code in CODES for g in "fm")
    assert cards["Jf"] == cards["Jm"] == 2


@pytest.mark.rule("CI-0.1")
def test_a_setup_that_does_not_hold_every_card_exactly_once_is_refused() -> None:
    bag = list(ALL_CARDS)
    with pytest.raises(KafeneioError, match="USm"):
        GAME.new_state(2, setup={"bag": [c for c in bag if c != "USm"]})
    with pytest.raises(KafeneioError, match="Jf"):
        GAME.new_state(2, setup={"bag": [*bag, "Jf"]})


@pytest.mark.rule("CI-0.3")
@pytest.mark.rule("CI-E.1")
def test_the_bar_fills_seats_1_to_20_in_order_gaining_black_and_losing_red_values() -> None:
    values = list(GAME.options_schema()["bar_values"])
    hands = [["AFm", "AFf", "GBm", "GBf", "DEm"], ["DEf", "INm", "INf", "RUm", "RUf"]]
    # Rich enough to pay every red seat; the bag draws no joker before the end (jokers last).
    state = new_position(hands, scores=[200, 200])
    for seat, value in enumerate(values):
        assert state.observation(0)["bar_next_value"] == value
        player = state.current_player()
        score = state.scores()[player]
        card = hand_text(state, player)[0]
        play(state, f"{card}@bar")
        assert state.observation(0)["bar"][seat] == card
        if seat < 19:
            assert state.scores()[player] - score == value
    assert state.observation(0)["bar_next_value"] is None
    assert state.is_terminal()  # CI-E.1: all 20 bar seats are taken


@pytest.mark.rule("CI-0.3")
def test_the_bar_values_are_a_rules_option() -> None:
    # The postal version's values, cut short: seat 2 costs 30.
    state = new_position(
        [["AFm", "AFf", "GBm"], ["GBf", "CNm", "CNf"]],
        ELSEWHERE,
        {"bar_values": [5, -30]},
        scores=[40, 40],
    )
    play(state, "AFm@bar", "GBf@bar")
    assert state.is_terminal()  # both seats of this bar are taken
    assert state.observation(0)["bar"] == ["AFm", "GBf"]
    # Final scores: 40 + 5 and 40 - 30, less 5 for each of the 3 cards left in hand (CI-E.2).
    assert state.scores() == [45 - 3 * 5, 10 - 3 * 5]


@pytest.mark.rule("CI-0.4")
def test_scores_are_plain_integers() -> None:
    state = GAME.new_state(2, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        assert all(type(s) is int for s in state.scores())
        state.apply(pick(rng, state))
    assert all(type(s) is int for s in state.scores())


# --- Setup (CI-S) --------------------------------------------------------------------------------
@pytest.mark.rule("CI-S.1")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_2_to_4_players_each_draw_5_cards_from_the_bag_in_seat_order(players: int) -> None:
    bag = list(reversed(ALL_CARDS))  # a bag order of the test's choosing
    state = GAME.new_state(players, setup={"bag": bag})
    for p in range(players):
        assert sorted(state.observation(p)["hands"][p]) == sorted(bag[5 * p : 5 * p + 5])
    assert state.observation(0)["bag_size"] == 100 - 5 * players


@pytest.mark.rule("CI-S.1")
@pytest.mark.rule("CI-D.1")
def test_option_hand_size_sets_the_deal_and_the_hand_target() -> None:
    state = GAME.with_options({"hand_size": 3}).new_state(2, setup={"bag": list(ALL_CARDS)})
    assert hand_text(state, 0) == ["AFf", "AFf", "AFf"]
    assert hand_text(state, 1) == ["AFf", "AFm", "AFm"]
    assert state.observation(0)["hand_targets"] == [3, 3]
    play(state, "AFf@bar")
    assert hand_text(state, 0) == ["AFf", "AFf", "AFm"]  # one card drawn: 3 again


@pytest.mark.rule("CI-S.1")
@pytest.mark.parametrize("players", [0, 1, 5])
def test_fewer_than_2_or_more_than_4_players_are_refused(players: int) -> None:
    with pytest.raises(KafeneioError):
        GAME.new_state(players, seed=1)


@pytest.mark.rule("CI-S.1")
@pytest.mark.rule("CI-D.5")
def test_hands_are_public_and_only_the_order_of_the_bag_is_hidden() -> None:
    deal = list(ALL_CARDS[:15])  # 5 cards for each of 3 players
    rest = list(ALL_CARDS[15:])
    one = GAME.new_state(3, setup={"bag": [*deal, *rest]})
    other = GAME.new_state(3, setup={"bag": [*deal, *reversed(rest)]})
    for viewer in range(3):
        seen = one.observation(viewer)
        assert [sorted(hand) for hand in seen["hands"]] == [hand_text(one, p) for p in range(3)]
        assert seen == other.observation(viewer)
    assert one != other  # the states differ in the bag's order, which nobody sees


@pytest.mark.rule("CI-S.2")
def test_scores_start_at_0_and_play_goes_in_seat_order_from_player_0() -> None:
    state = new_position([["AFm"], ["AFf"], ["GBm"], ["GBf"]], ELSEWHERE)
    assert state.scores() == [0, 0, 0, 0]
    order = []
    for _ in range(6):
        player = state.current_player()
        order.append(player)
        play(state, f"{hand_text(state, player)[0]}@bar")  # one guest to the bar: the turn ends
    assert order == [0, 1, 2, 3, 0, 1]


# --- Seating (CI-T) ------------------------------------------------------------------------------
@pytest.mark.rule("CI-T.1")
def test_one_guest_per_chair() -> None:
    state = new_position([["USm", "USf", "Jm"], ["AFf"]], {16: "USm", 17: "USf", **ELSEWHERE})
    assert not any(p.endswith(("@16", "@17")) for p in placements(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("Jm@16")
    assert err.value.rule == "CI-T.1"
    assert state == before


@pytest.mark.rule("CI-T.2")
def test_a_guest_sits_only_at_a_table_of_their_nation_and_a_joker_anywhere() -> None:
    state = new_position([["USm", "INf", "Jm", "Jf"], ["AFf"]])  # the opening: any lone guest
    chairs = {
        c: {int(p.split("@")[1]) for p in placements(state) if p.startswith(c)}
        for c in ("USm", "INf", "Jm")
    }
    assert chairs["USm"] == {15, 16, 17, 18, 19, 23, 24}  # US1 and US2
    assert chairs["INf"] == {19, 20, 21, 22, 27, 28, 29}  # IN1 and IN2
    assert chairs["USm"] & chairs["INf"] == {19}  # the chair US2 and IN2 share takes either
    assert chairs["Jm"] == set(range(1, 69))
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USm@21")
    assert err.value.rule == "CI-T.2"


@pytest.mark.rule("CI-T.3")
def test_at_most_2_men_at_a_table_and_a_joker_counts_with_his_gender() -> None:
    state = new_position([["USm", "Jm", "USf"], ["AFf"]], {16: "USm", 17: "USm", 15: "USf"})
    assert not {"USm@18", "Jm@18"} & placements(state)
    assert "USf@18" in placements(state)
    for move in ("USm@18", "Jm@18"):
        before = state.clone()
        with pytest.raises(IllegalActionError) as err:
            state.apply_notation(move)
        assert err.value.rule == "CI-T.3"
        assert state == before


@pytest.mark.rule("CI-T.3")
def test_a_guest_on_a_shared_chair_must_fit_the_gender_at_both_tables() -> None:
    # US1 has a pair (16, 17); US2 has 2 ladies and a man (23, 19, 24): chair 18 joins them.
    chairs = {16: "USf", 17: "USm", 23: "USf", 19: "USf", 24: "USm", 21: "INm", 25: "FRf"}
    state = new_position([["USf", "USm", "AFm"], ["AFf"]], chairs)
    assert "USm@18" in placements(state)
    assert "USf@18" not in placements(state)  # a second lady at US1, but a third at US2
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USf@18")
    assert err.value.rule == "CI-T.3"


@pytest.mark.rule("CI-T.4")
@pytest.mark.parametrize(
    ("seated", "moves", "ladies", "men"),
    [
        ({}, ["USm@16", "USf@17"], 1, 1),
        ({16: "USf", 17: "USm"}, ["USm@18", "end"], 1, 2),
        ({16: "USf", 17: "USm"}, ["USf@18", "end"], 2, 1),
        ({16: "USf", 17: "USm", 18: "USm"}, ["DEf@15", "end"], 2, 2),
    ],
)
def test_the_four_allowed_groups_can_be_seated(
    seated: dict[int, str], moves: list[str], ladies: int, men: int
) -> None:
    cards = [move.split("@")[0] for move in moves if "@" in move]
    state = new_position([[*cards, "AFm"], ["AFf"]], {**ELSEWHERE, **seated})
    play(state, *moves)
    assert state.current_player() == 1
    guests = [chair_guest(state, chair) for chair in chairs_of("US1")]
    assert sum(1 for g in guests if g and g.endswith("f")) == ladies
    assert sum(1 for g in guests if g and g.endswith("m")) == men


@pytest.mark.rule("CI-T.4")
@pytest.mark.parametrize("card", ["USm", "USf"])
def test_two_guests_of_one_gender_are_not_an_allowed_group(card: str) -> None:
    other = "USf" if card == "USm" else "USm"
    state = new_position([[card, card, other], ["AFm"]], ELSEWHERE)
    play(state, f"{card}@16")
    assert not any(p.startswith(card) for p in placements(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation(f"{card}@17")
    assert err.value.rule == "CI-T.4"
    assert state == before


@pytest.mark.rule("CI-T.4")
def test_a_first_guest_with_no_possible_partner_in_hand_is_refused() -> None:
    state = new_position([["USm", "USm", "AFm"], ["AFf"]], ELSEWHERE)  # no lady in hand
    assert not any(p.startswith("USm") for p in placements(state))
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USm@16")
    assert err.value.rule == "CI-T.4"
    assert state == before


@pytest.mark.rule("CI-T.4")
def test_the_group_rule_is_checked_only_at_the_tables_the_move_touched() -> None:
    # US1 holds a lone man on a chair of its own (set up, not reachable by play): a move at the
    # German table DE1 does not touch US1 and is legal all the same.
    state = new_position([["DEm", "DEf", "AFm"], ["AFf"]], {16: "USm"})
    play(state, "DEm@11", "DEf@7")  # DE1's pair; FR1 holds the lady alone on its chair 7
    assert state.scores()[0] == 0 + 2
    assert chair_guest(state, 16) == "USm"


@pytest.mark.rule("CI-T.5")
def test_a_guest_at_an_empty_table_needs_a_partner_in_the_same_move() -> None:
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], ELSEWHERE)
    play(state, "USm@16")
    assert state.scores()[0] == 0  # the first card earns nothing
    assert "end" not in legal(state)
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("end")
    assert err.value.rule == "CI-T.5"
    assert state == before
    # Only a lady at US1 can mend it.
    assert legal(state) == {"USf@15", "USf@17", "USf@18"}
    play(state, "USf@17")
    assert state.scores()[0] == 2
    assert state.current_player() == 1


GROUP_REFUSALS = [
    # (hand, moves before, the refused move, what the refusal says)
    (["USm", "USm", "AFm"], [], "USm@16", "US1 (1 man and no lady) would be left without"),
    (["USm", "USm", "USf"], ["USm@16"], "USm@17", "US1 (2 men and no lady) would be left"),
    (["USf", "USf", "USm"], ["USf@16"], "USf@17", "US1 (2 ladies and no man) would be left"),
    (["USm", "USf"], ["USm@16"], "end", "US1 (1 man and no lady) would be left without"),
    (
        ["USm", "USm", "AFm"],
        [],
        "USm@18",
        "US1 (1 man and no lady) and US2 (1 man and no lady) would be left without",
    ),
    (
        ["USm", "USf", "INf"],
        ["USm@16"],
        "USf@19",
        "US1 (1 man and no lady), US2 (1 lady and no man) and IN2 (1 lady and no man) would",
    ),
]


@pytest.mark.rule("CI-T.4")
@pytest.mark.rule("CI-T.5")
@pytest.mark.parametrize(("hand", "before", "refused", "words"), GROUP_REFUSALS)
def test_a_group_refusal_names_each_table_left_without_a_group_and_its_guests(
    hand: list[str], before: list[str], refused: str, words: str
) -> None:
    state = play(new_position([hand, ["AFf"]], ELSEWHERE), *before)
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation(refused)
    assert words in str(err.value)
    assert err.value.rule == ("CI-T.5" if refused == "end" else "CI-T.4")


@pytest.mark.rule("CI-T.5")
def test_the_refusal_of_end_says_whom_to_seat() -> None:
    alone = play(new_position([["USm", "USf"], ["AFf"]], ELSEWHERE), "USm@16")
    with pytest.raises(IllegalActionError, match="; seat a lady there"):
        alone.apply_notation("end")
    shared = play(new_position([["USf", "USm"], ["AFf"]], ELSEWHERE), "USf@18")
    with pytest.raises(IllegalActionError, match="; seat a man at one of them"):
        shared.apply_notation("end")


@pytest.mark.rule("CI-T.4")
@pytest.mark.rule("CI-T.5")
@pytest.mark.parametrize("seed", range(4))
def test_the_tables_a_refusal_names_are_those_move_generation_asks_about(seed: int) -> None:
    """Over random games: `end` is legal exactly when no table is left without a group; a
    second guest that fits (CI-T.1-T.3) is legal exactly when it leaves none; a first guest
    that fits and is refused always leaves one (so its refusal has a table to name)."""
    rng, state = random.Random(seed), GAME.new_state(2 + seed % 3, seed=seed)
    checked = 0
    while not state.is_terminal():
        moves = state.legal_actions()
        opening = state.filling()[1] < 2  # the start player's lone opening (CI-T.8)
        if state.phase in ("turn", "second") and not opening:
            second = state.phase == "second"
            if second:
                assert (SPACE.end in moves) == (not state.tables_left_without_group())
            for card in set(state.hand(state.current_player())):
                fitting = state.fitting_chairs(card)
                for chair in (c for c in range(NUM_CHAIRS) if fitting >> c & 1):
                    before = [state.fitting_chairs(kind) for kind in range(NUM_CARD_TYPES)]
                    lacking = state.tables_left_without_group_by(card, chair)
                    # asked, the state is as it was, what it worked out for moves too
                    after = [state.fitting_chairs(kind) for kind in range(NUM_CARD_TYPES)]
                    assert after == before and state.legal_actions() == moves
                    legal_here = SPACE.place[card][chair] in moves
                    if second:
                        assert legal_here == (not lacking)
                    else:
                        assert legal_here or lacking
                    checked += 1
        state.apply(rng.choice(moves))
    assert checked > 100


def test_asking_about_a_taken_chair_or_no_card_is_refused_and_changes_nothing() -> None:
    state = new_position([["USm", "USf"], ["AFf"]], ELSEWHERE)
    before = state.clone()
    for card, chair, what in [(0, 8, "8 is not a free chair"), (99, 15, "99 is not a guest")]:
        with pytest.raises(KafeneioError, match=what):
            state.tables_left_without_group_by(card, chair)
    assert state == before and state.legal_actions() == before.legal_actions()


@pytest.mark.rule("CI-T.6")
def test_a_table_may_break_the_group_rule_between_the_two_placements_of_a_move() -> None:
    # US1 holds a lone man on chair 18, in a group at US2. A second man at US1 leaves it with
    # 2 men and no lady for a moment; the lady placed next makes a group of 3.
    chairs = {18: "USm", 23: "USf", **ELSEWHERE}
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], chairs)
    play(state, "USm@16")
    assert state.scores()[0] == 0  # US1 with two men is no group: worth 0
    play(state, "USf@17")
    assert state.scores()[0] == 3


@pytest.mark.rule("CI-T.6")
def test_the_seating_constraints_hold_after_each_single_placement() -> None:
    # Unlike the group rule, a third man is refused at once, whatever could follow him.
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], {16: "USm", 17: "USm", 15: "USf"})
    assert "USm@18" not in placements(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USm@18")
    assert err.value.rule == "CI-T.3"
    play(state, "USf@18")
    # The second placement may not take the chair just taken either (CI-T.1).
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("USm@18")
    assert err.value.rule == "CI-T.1"


@pytest.mark.rule("CI-T.7")
@pytest.mark.rule("CI-M.4")
def test_seated_guests_stay_and_only_an_exchanged_joker_leaves() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        state = GAME.new_state(2 + seed % 3, seed=seed)
        obs = state.observation(0)
        while not state.is_terminal():
            action = pick(rng, state)
            state.apply(action)
            after = state.observation(0)
            for chair, guest in enumerate(obs["chairs"]):
                if guest is not None and after["chairs"][chair] != guest:
                    assert action.kind == "swap" and action.chair == chair
                    assert guest in ("Jf", "Jm")
            assert after["bar"][: len(obs["bar"])] == obs["bar"]
            obs = after


@pytest.mark.rule("CI-T.8")
def test_reading_a_the_start_player_may_open_with_one_guest_alone() -> None:
    state = new_position([["USm", "AFf", "AFf"], ["USf", "DEm", "DEf"]])
    assert state.observation(0)["chairs"] == [None] * 68
    play(state, "USm@16")
    assert "end" in legal(state)
    play(state, "end")
    assert state.scores() == [0, 0]  # a lone guest scores nothing
    assert state.current_player() == 1
    # The lone guest may stay alone: player 1 may play elsewhere.
    assert "DEm@11" in placements(state)
    play(state, "DEm@11", "DEf@7")
    assert chair_guest(state, 16) == "USm"
    assert state.scores() == [0, 2]


@pytest.mark.rule("CI-T.8")
def test_reading_a_the_exception_is_for_the_start_players_first_move_only() -> None:
    state = new_position([["AFm", "AFf"], ["USm", "USm", "AFm"]])
    play(state, "AFm@57", "AFf@58")
    assert "USm@16" not in placements(state)  # player 1 has no lady: no lone guest now


@pytest.mark.rule("CI-T.8")
def test_reading_a_an_opening_pair_scores_0_plus_2() -> None:
    state = new_position([["USm", "USf", "AFm"], ["AFf"]])
    play(state, "USm@16", "USf@17")
    assert state.scores() == [2, 0]


@pytest.mark.rule("CI-T.8")
def test_reading_b_the_opening_needs_a_pair_and_both_cards_score() -> None:
    options = {"first_move": "pair-scores-both"}
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], options=options)
    play(state, "USm@16")
    assert "end" not in legal(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("end")
    assert err.value.rule == "CI-T.5"
    play(state, "USf@17")
    assert state.scores() == [2 + 2, 0]
    alone = new_position([["USm", "USm", "AFm"], ["AFf"]], options=options)
    assert not any(p.startswith("USm") for p in placements(alone))  # no lady to pair with


# --- A turn (CI-M) -------------------------------------------------------------------------------
@pytest.mark.rule("CI-M.1")
def test_a_table_move_places_one_or_two_guests_and_two_end_the_turn() -> None:
    state = new_position([["USm", "USf", "USm", "AFm"], ["AFf"]], ELSEWHERE)
    play(state, "USm@16", "USf@17")
    assert state.current_player() == 1  # no third placement: the turn is over
    one = new_position([["USm", "AFm"], ["AFf"]], {16: "USf", 17: "USm", **ELSEWHERE})
    play(one, "USm@18")
    assert one.current_player() == 0
    assert "end" in legal(one)
    play(one, "end")
    assert one.current_player() == 1
    assert one.scores()[0] == 3


@pytest.mark.rule("CI-M.1")
def test_end_needs_a_placement_and_nothing_else_follows_a_placement() -> None:
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], ELSEWHERE)
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("end")
    assert err.value.rule == "CI-M.1"
    play(state, "USm@16")
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("AFm@bar")
    assert err.value.rule == "CI-M.1"
    assert state == before


@pytest.mark.rule("CI-M.1")
def test_a_card_of_another_s_hand_is_refused_naming_whose_turn_it_is_and_who_holds_it() -> None:
    """At a shared keyboard, P3 typed their own card on P1's turn: "CUf is not in the hand of
    P1" did not say whose turn it was, nor that the card was P3's (hands are public, CI-S.1)."""
    state = new_position([["USm", "USf"], ["AFf"], ["CUf", "USf"]], ELSEWHERE)
    before = state.clone()
    mine = "is not in the hand of P1, whose turn it is"
    with pytest.raises(IllegalActionError, match=rf"CUf {mine}; P3 holds one") as err:
        state.apply_notation("CUf@bar")
    assert err.value.rule == "CI-M.2" and state == before
    with pytest.raises(IllegalActionError, match=rf"INm {mine} \(CI-M\.2\)$"):  # nobody's
        state.apply_notation("INm@bar")
    two = new_position([["AFm"], ["USf"], ["USf"]], ELSEWHERE)
    with pytest.raises(IllegalActionError, match="P2 and P3 hold one"):
        two.apply_notation("USf@bar")


def completed_turns(seeds: range, players: int, options: dict[str, Any] | None = None):
    """Random games: yield (state before a turn, the turn's actions, state after the turn)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.with_options(options or {}).new_state(players, seed=seed)
        while not state.is_terminal():
            before = state.clone()
            player = state.current_player()
            actions = []
            while True:
                action = pick(rng, state)
                state.apply(action)
                actions.append(action)
                if state.is_terminal() or state.observation(player)["phase"] != "second":
                    break
            yield before, actions, state.clone()


@pytest.mark.rule("CI-M.1")
@pytest.mark.parametrize("first_move", ["lone-guest", "pair-scores-both"])
def test_every_table_move_scores_points_except_a_lone_opening_guest(first_move: str) -> None:
    checked = 0
    for before, actions, after in completed_turns(range(6), 3, {"first_move": first_move}):
        if actions[0].kind != "place" or after.is_terminal():
            continue  # a finished game has taken off the hand penalties (CI-E.2)
        player = before.current_player()
        gained = after.scores()[player] - before.scores()[player]
        opening = not any(before.observation(0)["chairs"])
        if opening and first_move == "lone-guest" and actions[-1].kind == "end":
            assert gained == 0
        else:
            assert gained >= 2
        checked += 1
    assert checked > 50


@pytest.mark.rule("CI-M.2")
def test_the_bar_is_open_even_when_a_table_move_exists_but_never_to_a_joker() -> None:
    state = new_position([["USm", "USf", "Jm"], ["AFf"]], ELSEWHERE)
    assert {"USm@bar", "USf@bar"} <= legal(state)
    assert "USm@16" in legal(state)
    assert not any(a.startswith("J") and a.endswith("@bar") for a in legal(state))
    before = state.clone()
    with pytest.raises(IllegalActionError, match=r"CI-M\.2") as refused:
        state.apply_notation("Jm@bar")  # written right, refused by a rule: not a typo
    assert refused.value.rule == "CI-M.2" and not isinstance(refused.value, NotationError)
    with pytest.raises(NotationError, match=r"CI-M\.2"):  # no position: no such move
        GAME.parse_action("jf@bar")
    assert state == before
    play(state, "USm@bar")
    assert state.scores() == [1, 0]
    assert state.observation(1)["bar"] == ["USm"]
    assert state.current_player() == 1  # one guest at the bar is the whole turn


@pytest.mark.rule("CI-M.3")
def test_ruling_a_player_who_cannot_pay_the_bar_is_thrown_out() -> None:
    # Seat 7 costs 4; player 0 has 3 points. Three players: the other two play on.
    hands = [["AFm", "AFf", "Jm"], ["GBm", "GBf"], ["DEm", "DEf"]]
    state = new_position(hands, ELSEWHERE, bar=bar_setup(6), scores=[3, 10, 10])
    assert "AFm@bar" in legal(state)
    play(state, "AFm@bar")
    obs = state.observation(1)
    assert obs["out"] == [True, False, False]
    assert obs["hands"][0] == []  # the hand leaves play
    assert obs["bar"][-1] == "AFm"
    assert state.scores()[0] == 3
    assert not state.is_terminal()
    assert state.current_player() == 1
    play(state, "GBm@bar", "DEm@bar")  # seats 8 and 9 cost 4 and 6
    assert state.current_player() == 1  # player 0 is skipped
    assert state.scores()[1:] == [6, 4]


@pytest.mark.rule("CI-M.3")
@pytest.mark.rule("CI-E.3")
def test_ruling_the_game_ends_when_one_player_is_left_and_that_player_wins() -> None:
    state = new_position(
        [["AFm", "AFf"], ["GBm", "GBf"]], ELSEWHERE, bar=bar_setup(6), scores=[3, 0]
    )
    play(state, "AFm@bar")  # 3 - 4 < 0: player 0 is out, player 1 is left alone
    assert state.is_terminal()
    assert state.observation(0)["out"] == [True, False]
    assert state.scores() == [3, 0 - 2 * 5]  # the last player left wins, even with fewer points
    assert state.winners() == [1]
    assert state.returns() == [0.0, 1.0]


@pytest.mark.rule("CI-M.3")
def test_option_forbid_a_bar_seat_the_player_cannot_pay_is_not_a_move() -> None:
    options = {"bar_unpaid": "forbid"}
    state = new_position(
        [["AFm", "AFf"], ["GBm"]], ELSEWHERE, options, bar=bar_setup(6), scores=[3, 10]
    )
    assert not any(a.endswith("@bar") for a in legal(state))
    before = state.clone()
    with pytest.raises(IllegalActionError, match="bar seat 7 costs 4 and P1 has 3") as err:
        state.apply_notation("AFm@bar")
    assert err.value.rule == "CI-M.3"
    assert state == before
    refusal = state.bar_refusal()  # the predicate that move generation applies
    assert refusal is not None and str(err.value) == (
        f"Africa man to the bar (AFm@bar): {refusal[1]} ({refusal[0]})"
    )
    rich = new_position(
        [["AFm", "AFf"], ["GBm"]], ELSEWHERE, options, bar=bar_setup(6), scores=[4, 10]
    )
    play(rich, "AFm@bar")  # 4 - 4 = 0 can be paid
    assert rich.scores()[0] == 0
    assert rich.observation(0)["out"] == [False, False]


@pytest.mark.rule("CI-M.4")
@pytest.mark.rule("CI-D.4")
def test_a_joker_is_exchanged_for_a_card_of_another_gender_if_the_table_allows() -> None:
    # US1: a lady (16), a man (17) and a joker man on chair 15 (shared with DE2).
    chairs = {16: "USf", 17: "USm", 15: "Jm", **ELSEWHERE}
    state = new_position([["USf", "DEm", "INf", "AFm"], ["AFf"]], chairs)
    swaps = {a for a in legal(state) if a.startswith("swap")}
    assert swaps == {"swap USf@15", "swap DEm@15"}  # an Indian lady does not fit chair 15
    bag = state.observation(0)["bag_size"]
    play(state, "swap USf@15")
    assert chair_guest(state, 15) == "USf"
    assert hand_text(state, 0) == ["AFm", "DEm", "INf", "Jm"]
    assert state.scores() == [0, 0]
    assert state.observation(0)["bag_size"] == bag  # nothing drawn
    assert state.current_player() == 1


@pytest.mark.rule("CI-M.4")
def test_an_exchange_that_breaks_the_gender_rule_or_the_wrong_chair_is_refused() -> None:
    chairs = {16: "USf", 17: "USf", 15: "Jm", **ELSEWHERE}
    state = new_position([["USf", "USm", "AFm"], ["AFf"]], chairs)
    assert "swap USm@15" in legal(state)
    reasons = {"swap USf@15": "US1 would seat 3 of one gender (CI-T.3)", "swap USf@16": "no joker"}
    for move, reason in reasons.items():  # a third lady; a chair with no joker
        before = state.clone()
        with pytest.raises(IllegalActionError, match=re.escape(reason)) as err:
            state.apply_notation(move)
        assert err.value.rule == "CI-M.4"
        assert state == before


@pytest.mark.rule("CI-M.4")
def test_a_joker_is_never_exchanged_for_a_joker_a_refusal_by_the_rule_not_a_typo() -> None:
    chairs = {16: "USf", 17: "USm", 15: "Jm", **ELSEWHERE}
    state = new_position([["Jm", "Jf", "USf"], ["AFf"]], chairs)
    for move in ("swap Jm@15", "swap jf @ 15", "swap Jm@16"):  # a joker's chair or not
        before = state.clone()
        with pytest.raises(IllegalActionError, match="not for another joker") as err:
            state.apply_notation(move)
        assert err.value.rule == "CI-M.4" and not isinstance(err.value, NotationError)
        assert state == before
    with pytest.raises(NotationError):
        GAME.parse_action("swap Jm@15")  # no position to ask: no such move in the notation


@pytest.mark.rule("CI-M.4")
def test_the_own_gender_option_lets_only_the_jokers_gender_take_its_place() -> None:
    chairs = {16: "USf", 17: "USm", 15: "Jm", **ELSEWHERE}
    hands = [["USf", "DEm", "INf", "AFm"], ["AFf"]]
    state = new_position(hands, chairs, {"joker_exchange": "own-gender"})
    assert {a for a in legal(state) if a.startswith("swap")} == {"swap DEm@15"}
    before = state.clone()
    with pytest.raises(IllegalActionError, match="only its own gender") as err:
        state.apply_notation("swap USf@15")  # legal by default (the test above)
    assert err.value.rule == "CI-M.4"
    assert state == before
    play(state, "swap DEm@15")
    assert chair_guest(state, 15) == "DEm"


@pytest.mark.rule("CI-M.5")
def test_ruling_a_player_with_no_legal_move_passes() -> None:
    # Every chair but 16 is taken; US1 then holds 2 men: a joker man fits nowhere, and jokers
    # never go to the bar. Player 1 can seat the joker lady.
    board = full_board()
    assert board.pop(16)[-1] == "f"
    state = new_position([["Jm", "Jm"], ["Jf", "Jf"]], board)
    assert legal(state) == {"pass"}
    assert state.observation(1)["passes"] == 0
    play(state, "pass")
    assert state.current_player() == 1
    assert hand_text(state, 0) == ["Jm", "Jm"]
    assert "pass" not in legal(state)
    # the passes so far are public and tell the future apart (one more ends the game): the
    # observation, its key and its tensor say them
    assert state.observation(1)["passes"] == 1
    at = offset(state, "passes")
    assert state.observation_tensor(1)[at] == 1.0
    before = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("pass")
    assert err.value.rule == "CI-M.5"
    assert state == before


@pytest.mark.rule("CI-M.5")
def test_when_every_player_in_turn_passes_the_game_ends() -> None:
    # Not in the rulebook: without it the game could not end. (An engine ruling.)
    board = full_board()
    assert board.pop(16)[-1] == "f"
    state = new_position([["Jm"], ["Jm"]], board)
    play(state, "pass", "pass")
    assert state.is_terminal()
    assert state.scores() == [-10, -10]
    assert state.winners() == [0, 1]


@pytest.mark.rule("CI-M.5")
@pytest.mark.rule("CI-M.3")
def test_the_game_ends_when_every_player_still_in_it_has_passed_in_succession() -> None:
    # Player 0 is thrown out at the bar (CI-M.3); then the two players still in the game hold
    # only joker men that fit nowhere, and pass: two passes end it, not three.
    board = full_board()
    assert board.pop(16)[-1] == "f"
    bar = ["GBf", "GBf", "INf", "INf", "DEm", "DEm"]  # seat 7 costs 4
    state = new_position([["USm"], ["Jm"], ["Jm"]], board, bar=bar, scores=[3, 10, 10])
    assert legal(state) == {"USm@bar"}  # US1 holds 2 men already
    play(state, "USm@bar")
    assert state.observation(0)["out"] == [True, False, False]
    assert legal(state) == {"pass"}
    play(state, "pass")
    assert not state.is_terminal() and state.current_player() == 2
    play(state, "pass")
    assert state.is_terminal()
    assert state.scores() == [3, 10 - 10, 10 - 10]


# --- Scoring (CI-P) ------------------------------------------------------------------------------
@pytest.mark.rule("CI-P.1")
def test_a_guest_on_a_shared_chair_scores_both_tables_and_untouched_tables_nothing() -> None:
    # US1: lady + man (16, 17); US2: lady + man (23, 19), the man also in a pair at IN2 (21);
    # DE2, beside US1, holds a pair too.
    chairs = {16: "USf", 17: "USm", 23: "USf", 19: "USm", 21: "INf", 13: "DEf", 14: "DEm"}
    state = new_position([["USm", "AFm"], ["AFf"]], chairs)
    play(state, "USm@18", "end")
    assert state.scores()[0] == 3 + 3  # US1 and US2, not IN2 nor DE2


@pytest.mark.rule("CI-P.1")
@pytest.mark.parametrize(
    ("moves", "score"), [(["USm@23", "USf@18"], 2 + 3), (["USf@18", "USm@23"], 0 + 3)]
)
def test_two_guests_score_one_after_the_other_in_the_order_played(
    moves: list[str], score: int
) -> None:
    # US2 holds only an Indian lady on chair 19 (in a group at IN2). A man first makes a pair
    # at once (2), then the lady a group of 3 (3); a lady first leaves US2 without a man (0).
    chairs = {19: "INf", 21: "INm", **ELSEWHERE}
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], chairs)
    play(state, *moves)
    assert state.scores()[0] == score


@pytest.mark.rule("CI-P.2")
@pytest.mark.parametrize(
    ("chairs", "move", "score"),
    [
        ({}, "USm@16", 0),  # the opening: one guest alone is worth 0
        ({16: "USf", 17: "USm"}, "USm@18", 3),  # 3 at US1, US2 holds one guest: 0
        ({16: "USf", 17: "USm", 18: "USf", 23: "USm"}, "DEm@15", 4),  # a German among them
        ({16: "USf", 17: "USm", 18: "USf", 23: "USm"}, "USm@15", 8),  # all American
        ({16: "USf", 17: "USm", 18: "USf", 23: "USm"}, "Jm@15", 8),  # the joker is American
    ],
)
def test_a_table_is_worth_its_group_size_and_8_when_four_natives(
    chairs: dict[int, str], move: str, score: int
) -> None:
    # DE2 gains a lone guest on chair 15, who is in a group at US1: DE2 scores 0.
    state = new_position([[move.split("@")[0], "AFm"], ["AFf"]], chairs)
    play(state, move, "end")
    assert state.scores()[0] == score


@pytest.mark.rule("CI-P.3")
@pytest.mark.rule("CI-D.2")
def test_ruling_a_joker_on_a_shared_chair_is_a_native_of_both_tables() -> None:
    # US1 lacks only chair 18 and US2 too, each with 3 Americans: the joker man completes both.
    chairs = {16: "USm", 17: "USf", 15: "USf", 23: "USf", 24: "USm", 19: "USf"}
    state = new_position([["Jm", "AFm", "AFm", "AFm", "AFm"], ["AFf"]], chairs)
    play(state, "Jm@18", "end")
    assert state.scores()[0] == 8 + 8
    # Two single-nation tables in one move: the hand target drops by two.
    assert state.observation(0)["hand_targets"] == [3, 5]
    assert len(state.hand(0)) == 4  # 5 - 1 placed; already above the target of 3: no draw


@pytest.mark.rule("CI-P.3")
def test_option_a_joker_on_a_shared_chair_is_a_native_of_neither_table() -> None:
    # The joker lady on chair 19 completes US2 and IN2, two nations' tables.
    chairs = {18: "USm", 23: "USf", 24: "USm", 20: "INm", 21: "INf", 22: "INm", **ELSEWHERE}
    hands = [["Jf", "AFm", "AFm", "AFm", "AFm"], ["AFf"]]
    both = new_position(hands, chairs)
    play(both, "Jf@19", "end")
    assert both.scores()[0] == 8 + 8
    neither = new_position(hands, chairs, {"joker_native_both": False})
    play(neither, "Jf@19", "end")
    assert neither.scores()[0] == 4 + 4  # two full tables, neither single-nation
    assert neither.observation(0)["hand_targets"] == [5, 5]
    # Between the two American tables there is no other nation: native of both still.
    same_nation = {16: "USm", 17: "USf", 15: "USf", 23: "USf", 24: "USm", 19: "USf"}
    state = new_position([["Jm", "AFm"], ["AFf"]], same_nation, {"joker_native_both": False})
    play(state, "Jm@18", "end")
    assert state.scores()[0] == 8 + 8
    # A joker on a chair of one table still counts as that table's native (CI-P.3).
    one = new_position(
        [["Jm", "AFm"], ["AFf"]],
        {15: "USf", 17: "USm", 18: "USf", 23: "USm", **ELSEWHERE},
        {"joker_native_both": False},
    )
    play(one, "Jm@16", "end")
    assert one.scores()[0] == 8


# --- Drawing (CI-D) ------------------------------------------------------------------------------
@pytest.mark.rule("CI-D.1")
def test_after_a_table_move_the_player_draws_back_to_5_from_the_bag() -> None:
    state = new_position(
        [["USm", "USf", "AFm", "AFm", "AFm"], ["AFf"]], ELSEWHERE, bag_top=["GBm", "GBf", "CNm"]
    )
    play(state, "USm@16", "USf@17")
    assert hand_text(state, 0) == ["AFm", "AFm", "AFm", "GBf", "GBm"]  # the first two drawn
    assert state.observation(0)["bag_size"] == 100 - 2 - 5 - 1 - 2
    one = new_position(
        [["USm", "AFm", "AFm", "AFm", "AFm"], ["AFf"]],
        {16: "USf", 17: "USm", **ELSEWHERE},
        bag_top=["CNm"],
    )
    play(one, "USm@18", "end")
    assert hand_text(one, 0) == ["AFm", "AFm", "AFm", "AFm", "CNm"]


@pytest.mark.rule("CI-D.2")
def test_ruling_a_single_nation_table_lowers_the_hand_target_for_good() -> None:
    chairs = {16: "USm", 17: "USf", 15: "USf", **ELSEWHERE}
    hands = [["USm", "DEm", "DEf", "AFm", "AFm"], ["AFf", "AFf"]]
    state = new_position(hands, chairs)
    play(state, "USm@18", "end")  # US1 all American; US2 holds one guest
    assert state.scores()[0] == 8
    assert state.observation(0)["hand_targets"] == [4, 5]
    assert len(state.hand(0)) == 4  # the player must not draw the fifth card
    play(state, "AFf@bar")  # player 1
    play(state, "DEm@11", "DEf@7")  # a table move later: drawn back to 4, not 5
    assert len(state.hand(0)) == 4
    assert state.observation(0)["hand_targets"] == [4, 5]


@pytest.mark.rule("CI-D.2")
@pytest.mark.parametrize(("choice", "target"), [("draw fewer", 4), ("draw full", 5)])
def test_option_the_player_chooses_whether_the_hand_target_drops(choice: str, target: int) -> None:
    chairs = {16: "USm", 17: "USf", 15: "USf", **ELSEWHERE}
    hands = [["USm", "DEm", "DEf", "AFm", "AFm"], ["AFf", "AFf"]]
    state = new_position(hands, chairs, {"single_nation_draw": "choose"})
    play(state, "USm@18", "end")
    assert state.current_player() == 0 and state.observation(0)["phase"] == "draw"
    assert [a.notation for a in state.legal_actions()] == ["draw fewer", "draw full"]
    before = state.clone()
    with pytest.raises(IllegalActionError) as refused:
        state.apply(GAME.parse_action("AFm@bar"))
    assert refused.value.rule == "CI-D.2" and state == before
    play(state, choice)
    assert state.observation(0)["hand_targets"] == [target, 5]
    assert len(state.hand(0)) == target and state.current_player() == 1


@pytest.mark.rule("CI-D.2")
def test_a_full_table_with_a_foreign_guest_does_not_lower_the_hand_target() -> None:
    chairs = {16: "USm", 17: "USf", 18: "USf", 23: "USm", **ELSEWHERE}
    state = new_position([["DEm", "AFm", "AFm", "AFm", "AFm"], ["AFf"]], chairs)
    play(state, "DEm@15", "end")
    assert state.scores()[0] == 4
    assert state.observation(0)["hand_targets"] == [5, 5]
    assert len(state.hand(0)) == 5


@pytest.mark.rule("CI-D.3")
def test_ruling_a_after_the_bar_the_player_draws_one_card_to_refill() -> None:
    state = new_position([["AFm", "AFm", "AFm", "AFm", "GBm"], ["AFf"]], ELSEWHERE, bag_top=["CNf"])
    play(state, "GBm@bar")
    assert hand_text(state, 0) == ["AFm", "AFm", "AFm", "AFm", "CNf"]


@pytest.mark.rule("CI-D.3")
def test_option_extra_after_the_bar_the_hand_grows_by_one() -> None:
    state = new_position(
        [["AFm", "AFm", "AFm", "AFm", "GBm"], ["AFf"]],
        ELSEWHERE,
        {"bar_draw": "extra"},
        bag_top=["CNf", "CNm"],
    )
    play(state, "GBm@bar")
    assert hand_text(state, 0) == ["AFm", "AFm", "AFm", "AFm", "CNf", "CNm"]


@pytest.mark.rule("CI-D.3")
def test_after_the_bar_one_card_is_drawn_even_with_the_hand_above_its_target() -> None:
    # "Az a játékos, aki a bárhoz rakott le vendéget, még egy kártyát húz": one more card, also
    # when two single-nation tables left the hand above its target of 3.
    results = {}
    for option in ("one", "extra"):
        state = new_position(
            [["AFm", "AFm", "AFm", "AFm", "GBm"], ["AFf"]],
            ELSEWHERE,
            {"bar_draw": option},
            hand_targets=[3, 5],
            bag_top=["CNf", "CNm"],
        )
        play(state, "GBm@bar")
        results[option] = len(state.hand(0))
    assert results == {"one": 5, "extra": 6}


@pytest.mark.rule("CI-D.5")
def test_the_draws_are_random_but_fixed_by_the_seed() -> None:
    deals = {str(GAME.new_state(2, seed=seed).observation(0)["hands"]) for seed in range(6)}
    assert len(deals) > 1
    assert GAME.new_state(2, seed=4) == GAME.new_state(2, seed=4)
    state = GAME.new_state(2, seed=4)
    rng = random.Random(0)
    for viewer in range(2):
        sample = state.determinize(viewer, rng)
        assert sample.observation(viewer) == state.observation(viewer)


# --- End of game (CI-E) --------------------------------------------------------------------------
@pytest.mark.rule("CI-E.1")
def test_the_game_ends_when_every_chair_is_taken() -> None:
    board = full_board()
    card = board.pop(16)  # a lady of the table's nation or its neighbour's
    state = new_position([[card, "Jm"], ["Jf"]], board)
    play(state, f"{card}@16", "end")
    assert state.is_terminal()
    assert list(state.legal_actions()) == []


@pytest.mark.rule("CI-E.1")
@pytest.mark.parametrize(("end_bag", "over"), [(4, True), (0, False)])
def test_ruling_the_game_ends_when_4_or_fewer_cards_are_left_after_drawing(
    end_bag: int, over: bool
) -> None:
    # The bag holds 6 cards; a pair placed draws 2, leaving 4 (checked after the drawing).
    state = new_position(
        [["USm", "USf", "AFm", "AFm", "AFm"], ["AFf"]], ELSEWHERE, {"end_bag": end_bag}, bag_limit=6
    )
    play(state, "USm@16", "USf@17")
    assert state.observation(0)["bag_size"] == 4
    assert state.is_terminal() is over


@pytest.mark.rule("CI-E.1")
def test_the_game_goes_on_while_the_bag_holds_5_cards() -> None:
    state = new_position([["USm", "USf", "AFm", "AFm", "AFm"], ["AFf"]], ELSEWHERE, bag_limit=7)
    play(state, "USm@16", "USf@17")
    assert state.observation(0)["bag_size"] == 5
    assert not state.is_terminal()


@pytest.mark.rule("CI-E.1")
def test_the_game_ends_when_a_player_has_no_cards_and_need_not_draw() -> None:
    # A hand target of 1 (after 4 single-nation tables): the joker completes a fifth.
    chairs = {19: "INf", 21: "INm", 22: "INm", **ELSEWHERE}
    state = new_position([["Jf"], ["AFf"]], chairs, hand_targets=[1, 5])
    play(state, "Jf@20", "end")
    assert state.observation(0)["hand_targets"][0] == 0
    assert state.is_terminal()
    assert state.scores() == [8, -5]


@pytest.mark.rule("CI-E.2")
def test_each_card_left_in_hand_costs_5_and_each_joker_10() -> None:
    hands = [["USm", "USf", "Jm", "Jf", "AFm"], ["AFf", "GBf"]]
    state = new_position(hands, ELSEWHERE, bag_limit=6, bag_top=["CNm", "CNf"], scores=[10, 0])
    play(state, "USm@16", "USf@17")
    assert state.is_terminal()
    assert hand_text(state, 0) == ["AFm", "CNf", "CNm", "Jf", "Jm"]
    assert state.scores()[0] == 10 + 2 - 3 * 5 - 2 * 10
    # Player 1's hand: 2 cards and the bag's surplus (the other two jokers among it).
    left = hand_text(state, 1)
    jokers = left.count("Jf") + left.count("Jm")
    assert jokers == 2
    assert state.scores()[1] == -5 * (len(left) - jokers) - 10 * jokers


@pytest.mark.rule("CI-E.3")
def test_the_highest_score_wins_and_equal_highest_scores_share_the_win() -> None:
    # Player 0 fills the last chair (US1: 4 points), draws 5 cards (-25) and the game ends.
    for scores, winners, returns in [
        ([50, 20, 10], [0], [1.0, 0.0, 0.0]),
        ([41, 20, 10], [0, 1], [0.5, 0.5, 0.0]),
        ([41, 20, 20], [0, 1, 2], [1 / 3, 1 / 3, 1 / 3]),
    ]:
        board = full_board()
        card = board.pop(16)
        state = new_position([[card], [], []], board, scores=scores)
        assert state.winners() == []  # nobody wins before the end
        play(state, f"{card}@16", "end")
        assert state.is_terminal()
        assert state.scores() == [scores[0] + 4 - 25, scores[1], scores[2]]
        assert state.winners() == winners
        assert state.returns() == pytest.approx(returns)


# --- Illegal actions: the rule they break, and nothing changes -----------------------------------
ILLEGAL = [
    # (name, hands, chairs, options, setup fields, moves before, the illegal move, rule)
    ("taken chair", [["USm", "USf"]], {16: "USm", 17: "USf"}, {}, {}, [], "USf@16", "CI-T.1"),
    ("wrong nation", [["USm", "USf"]], {}, {}, {}, [], "USm@21", "CI-T.2"),
    (
        "third man",
        [["USm", "USf"]],
        {16: "USm", 17: "USm", 15: "USf"},
        {},
        {},
        [],
        "USm@18",
        "CI-T.3",
    ),
    ("no partner in hand", [["USm", "USm"]], {}, {}, {}, [], "USm@16", "CI-T.4"),
    ("second man, no group", [["USm", "USm", "USf"]], {}, {}, {}, ["USm@16"], "USm@17", "CI-T.4"),
    ("end without partner", [["USm", "USf"]], {}, {}, {}, ["USm@16"], "end", "CI-T.5"),
    ("end before placing", [["USm", "USf"]], {}, {}, {}, [], "end", "CI-M.1"),
    ("bar after a placement", [["USm", "USf"]], {}, {}, {}, ["USm@16"], "USf@bar", "CI-M.1"),
    (
        "bar unpaid, forbid",
        [["USm", "AFm"]],
        {},
        {"bar_unpaid": "forbid"},
        {"bar": bar_setup(6)},
        [],
        "AFm@bar",
        "CI-M.3",
    ),
    (
        "swap without joker",
        [["USm", "USf"]],
        {16: "USm", 17: "USf"},
        {},
        {},
        [],
        "swap USm@16",
        "CI-M.4",
    ),
    ("pass with a move", [["USm", "USf"]], {}, {}, {}, [], "pass", "CI-M.5"),
    (
        "birthday unasked",
        [["USm", "USf"]],
        {},
        {"birthday": True},
        {},
        [],
        "birthday US1",
        "CI-V.1",
    ),
    (
        "dance when off",
        [["USm", "USm", "USm", "USm"]],
        {},
        {},
        {},
        [],
        "dance US1: USm@15 USm@16 USm@17 USm@18",
        "CI-V.2",
    ),
]


@pytest.mark.rule("CI-T.1")
@pytest.mark.rule("CI-T.2")
@pytest.mark.rule("CI-T.3")
@pytest.mark.rule("CI-T.4")
@pytest.mark.rule("CI-T.5")
@pytest.mark.rule("CI-M.1")
@pytest.mark.rule("CI-M.3")
@pytest.mark.rule("CI-M.4")
@pytest.mark.rule("CI-M.5")
@pytest.mark.rule("CI-0.3")
@pytest.mark.rule("CI-V.1")
@pytest.mark.rule("CI-V.2")
@pytest.mark.parametrize(
    ("hands", "chairs", "options", "fields", "before", "move", "rule"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_an_illegal_action_names_its_rule_and_changes_nothing(
    hands: list[list[str]],
    chairs: dict[int, str],
    options: dict[str, Any],
    fields: dict[str, Any],
    before: list[str],
    move: str,
    rule: str,
) -> None:
    state = new_position([*hands, ["AFf"]], {**ELSEWHERE, **chairs}, options, **fields)
    play(state, *before)
    snapshot = state.clone()
    assert move not in legal(state)
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation(move)
    assert err.value.rule == rule
    assert rule in str(err.value)
    assert state == snapshot
    assert legal(state) == legal(snapshot)


@pytest.mark.rule("CI-E.1")
def test_no_action_after_the_end() -> None:
    state = new_position([["USm", "USf", "AFm"], ["AFf"]], ELSEWHERE, bag_limit=6)
    play(state, "USm@16", "USf@17")
    assert state.is_terminal()
    snapshot = state.clone()
    with pytest.raises(IllegalActionError) as err:
        state.apply_notation("AFf@bar")
    assert err.value.rule == "CI-E.1"
    assert state == snapshot


def test_a_card_not_in_hand_is_refused() -> None:
    state = new_position([["USm", "USf"], ["AFf"]], ELSEWHERE)
    snapshot = state.clone()
    with pytest.raises(IllegalActionError, match="not in the hand"):
        state.apply_notation("INm@21")
    assert state == snapshot


# --- No dead ends --------------------------------------------------------------------------------
def turn_ends(state: CafeState, player: int, depth: int = 2) -> bool:
    """Some sequence of at most `depth` more legal actions ends `player`'s turn."""
    if state.is_terminal() or state.current_player() != player:
        return True
    if state.observation(player)["phase"] == "birthday":  # the turn is over; a decision follows
        return True
    if depth == 0:
        return False
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        if turn_ends(child, player, depth - 1):
            return True
    return False


@pytest.mark.rule("CI-T.5")
@pytest.mark.rule("CI-T.6")
@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {"first_move": "pair-scores-both", "bar_unpaid": "forbid"}),
        (4, {"dance": True, "birthday": True, "birthday_threshold": 10}),
    ],
)
def test_every_legal_first_action_can_be_completed_to_a_legal_move(
    players: int, options: dict[str, Any]
) -> None:
    positions = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.with_options(options or {}).new_state(players, seed=seed)
        while not state.is_terminal():
            player = state.current_player()
            if state.observation(player)["phase"] == "turn":
                positions += 1
                for action in state.legal_actions():
                    child = state.clone()
                    child.apply(action)
                    # A second placement always ends the turn, so one more step is enough.
                    assert turn_ends(child, player, depth=1), (seed, action.notation)
            state.apply(pick(rng, state))
    assert positions > 400


# --- Notation and the integer encoding (docs/cafe-international.md) ------------------------------
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("USm@16", 23 * 68 + 15),
        ("AFf@1", 0),
        ("Jm@68", 25 * 68 + 67),
        ("USf@bar", 1768 + 22),
        ("swap USf@18", 1792 + 22 * 68 + 17),
        ("end", 3424),
        ("pass", 3425),
        ("birthday US1", 3426 + 21),
        ("birthday none", 3450),
        # US1's chairs 15-18: three natives (digit 0) and a joker (digit 2) on the 4th chair.
        ("dance US1: USm@15 USm@16 USm@17 Jm@18", 3451 + (21 * 2 + 1) * 256 + (2 << 6)),
        # US2's chairs 18, 19, 23, 24: native, neighbour (1), native, already taken (3).
        ("dance US2: USf@18 INf@19 USf@23", 3451 + (22 * 2 + 0) * 256 + (1 << 2) + (3 << 6)),
        ("draw fewer", 15739),
        ("draw full", 15740),
    ],
)
def test_every_action_form_has_a_notation_and_a_fixed_code(text: str, code: int) -> None:
    action = GAME.parse_action(text)
    assert action.code == code
    assert action.notation == text
    assert GAME.decode_action(code) == action
    assert GAME.parse_action(text.lower()) == action  # input is case-insensitive
    # spaces around @ too, as the terminal's move list sets a card's chairs apart ("USm@ 1")
    assert GAME.parse_action(text.replace("@", " @ ")) == action
    assert code < GAME.info.num_distinct_actions == 15741


@pytest.mark.parametrize(
    "text",
    [
        "",
        "USm",
        "USm@0",
        "USm@69",
        "XXm@16",
        "USx@16",
        "swap Jm@16",
        "birthday XX1",
        "dance US1: USm@15",
        "hello",
        "USm" + " " * 300 + "@16",  # spaces around @ are allowed, not past the length limit
        "USm\u00a0@16",  # nor non-ASCII spaces
        "x" + " " * 100_000 + "@x",  # refused by its length, before any pattern reads it
    ],
)
def test_a_text_that_is_no_action_raises_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


@pytest.mark.parametrize("move", ["Jm@bar", "swap Jm@16"])
def test_a_joker_move_the_notation_lacks_is_refused_by_the_position(move: str) -> None:
    """Refused by the position as any bar seat or swap is: once the game is over, that comes
    first (the parser had said CI-M.2 whatever the position)."""
    state = GAME.new_state(2, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    with pytest.raises(IllegalActionError, match="the game is over") as refused:
        state.parse_legal(move)
    assert refused.value.rule == "CI-E.1"


def offset(state: Any, piece: str) -> int:
    """Where `piece` of the observation tensor begins (the spec's pieces in order)."""
    spec = state.game.observation_spec(state.num_players)
    pieces = list(spec)
    return sum(math.prod(spec[name]) for name in pieces[: pieces.index(piece)])

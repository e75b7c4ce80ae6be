"""Phase 3, Unforeseen Factors (SW-3), the card clarifications (SW-U) and every card kind
(SW-E.1 to SW-E.16)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kafeneio.core import CHANCE, IllegalActionError
from kafeneio.games.souvlaki import SouvlakiState

from .conftest import CARDS, finish_service_of_all, legal, play, position, queue_text


def unforeseen(
    p1_cards: list[str], p2_cards: list[str] | None = None, **kwargs: Any
) -> SouvlakiState:
    """Phase 3 of round 1 with two players; P1 (reputation 10) plays first."""
    kwargs.setdefault("reputation", [10, 5])
    return position(phase="unforeseen", unforeseen_hands=[p1_cards, p2_cards or []], **kwargs)


PHONE = {"card": "SD 2/1", "phone": True}


@pytest.mark.rule("SW-3.1")
def test_each_player_may_play_one_card_or_pass_in_reputation_order() -> None:
    state = unforeseen(["health-inspection", "fresh-delivery"], ["good-review"], reputation=[5, 10])
    assert state.current_player() == 1  # P2 has the higher reputation
    assert legal(state) == {"pass", "use good-review p1", "use good-review p2"}
    play(state, "pass")
    assert legal(state) == {"pass", "use health-inspection p2", "use fresh-delivery"}
    play(state, "use fresh-delivery")
    assert state.phase == "service"  # one card each at most: the phase is over
    assert state.observation(0)["hand"]["unforeseen"] == ["health-inspection"]


@pytest.mark.rule("SW-3.1")
def test_a_card_not_in_hand_cannot_be_played() -> None:
    state = unforeseen(["fresh-delivery"])
    with pytest.raises(IllegalActionError) as error:
        play(state, "use good-review p1")
    assert error.value.rule == "SW-3.1"


@pytest.mark.rule("SW-3.2")
def test_a_player_card_may_target_oneself_but_an_opponent_card_may_not() -> None:
    state = unforeseen(["good-review", "health-inspection"])
    assert {"use good-review p1", "use good-review p2", "use health-inspection p2"} <= legal(state)
    with pytest.raises(IllegalActionError) as error:
        play(state, "use health-inspection p1")
    assert error.value.rule == "SW-3.2"
    with pytest.raises(IllegalActionError) as error:
        play(state, "use good-review p3")  # a two-player game has no player 3
    assert error.value.rule == "SW-3.2"


@pytest.mark.rule("SW-3.2")
def test_a_customer_card_may_target_any_customer_of_any_player() -> None:
    state = unforeseen(["generous-tip"], queues=[["G 2/1"], ["S 2/1", "F 1/1"]])
    assert legal(state) == {
        "pass",
        "use generous-tip p1.1",
        "use generous-tip p2.1",
        "use generous-tip p2.2",
    }
    with pytest.raises(IllegalActionError) as error:
        play(state, "use generous-tip p1.2")
    assert error.value.rule == "SW-3.2"


@pytest.mark.rule("SW-3.3")
@pytest.mark.rule("SW-3.4")
@pytest.mark.rule("SW-5.1")
@pytest.mark.rule("SW-E.16")
def test_good_review_lasts_until_the_end_of_the_round() -> None:
    state = unforeseen(
        ["good-review"],
        queues=[["G 2/1", "S 2/1"], []],
        food_hands=[["G", "S"], []],
    )
    play(state, "use good-review p1", "pass")
    assert state.observation(0)["in_play"] == {"good-review": 1}
    play(state, "play G", "serve")
    assert state.reputation(0) == 10 + 1 + 1
    play(state, "play S", "serve")
    assert state.reputation(0) == 10 + 2 + 2
    finish_service_of_all(state)
    obs = state.observation(0)
    assert obs["players"][0]["served_reputation"] == 0
    assert obs["in_play"] == {}
    assert obs["discards"]["unforeseen"] == {"good-review": 1}


@pytest.mark.rule("SW-3.4")
def test_an_instant_card_is_discarded_at_once() -> None:
    state = unforeseen(["health-inspection"])
    play(state, "use health-inspection p2")
    assert state.observation(0)["discards"]["unforeseen"] == {"health-inspection": 1}


@pytest.mark.rule("SW-E.1")
@pytest.mark.rule("SW-U.1")
def test_change_of_plans_cancels_the_next_card_played_after_it() -> None:
    state = unforeseen(["change-of-plans"], ["health-inspection"])
    play(state, "use change-of-plans", "use health-inspection p1")
    assert state.reputation(0) == 10  # no effect
    discards = state.observation(0)["discards"]["unforeseen"]
    assert discards == {"health-inspection": 1}
    finish_service_of_all(state)  # Change of Plans lasts the round
    assert state.observation(0)["discards"]["unforeseen"]["change-of-plans"] == 1


@pytest.mark.rule("SW-U.1")
def test_change_of_plans_never_cancels_a_card_played_before_it() -> None:
    state = unforeseen(["health-inspection"], ["change-of-plans"])
    play(state, "use health-inspection p2", "use change-of-plans")
    assert state.reputation(1) == 5 - 2


@pytest.mark.rule("SW-E.2")
@pytest.mark.rule("SW-U.2")
def test_dirty_shop_lowers_what_customers_give_but_never_below_0() -> None:
    state = unforeseen(
        ["dirty-shop"],
        queues=[[], ["GG 3/2", "D 1/0"]],
        food_hands=[[], ["GG", "D"]],
        reputation=[10, 5],
    )
    assert "use dirty-shop p1" not in legal(state)  # an opponent
    play(state, "use dirty-shop p2", "pass", "finish")
    play(state, "play GG", "serve")
    assert state.reputation(1) == 5 + 1
    play(state, "play D", "serve")
    assert state.reputation(1) == 5 + 1 + 0


@pytest.mark.rule("SW-E.3")
@pytest.mark.rule("SW-U.3")
def test_wrong_number_swaps_two_phone_orders_in_different_queues_keeping_their_state() -> None:
    annoyed_phone = {"card": "GF 2/2", "phone": True, "annoyed": True}
    state = unforeseen(["wrong-number"], queues=[["G 2/1", PHONE], ["S 2/1", annoyed_phone, PHONE]])
    assert legal(state) == {
        "pass",
        "use wrong-number p1.2 p2.2",
        "use wrong-number p1.2 p2.3",
    }
    with pytest.raises(IllegalActionError) as error:
        play(state, "use wrong-number p1.1 p2.2")  # G is no phone order
    assert error.value.rule == "SW-E.3"
    with pytest.raises(IllegalActionError) as error:
        play(state, "use wrong-number p2.2 p2.3")  # the same queue
    assert error.value.rule == "SW-E.3"
    play(state, "use wrong-number p2.2 p1.2")  # either order names the same pair
    assert queue_text(state, 0) == ["G 2/1", "GF 2/2 phone annoyed"]
    assert queue_text(state, 1) == ["S 2/1", "SD 2/1 phone", "SD 2/1 phone"]


@pytest.mark.rule("SW-E.4")
@pytest.mark.rule("SW-U.4")
def test_same_again_copies_the_order_ahead_onto_a_normal_customer() -> None:
    state = unforeseen(
        ["same-again"],
        queues=[["GF 2/2", PHONE, "GGF 4/1", {"card": "S 2/1", "phone": True}], []],
        food_hands=[["GF", "SD", "SD"], []],
    )
    assert legal(state) == {"pass", "use same-again p1.3"}  # not first, not a phone order
    for target, why in (("p1.1", "first"), ("p1.4", "phone")):
        with pytest.raises(IllegalActionError, match=why) as error:
            play(state, f"use same-again {target}")
        assert error.value.rule == "SW-E.4"
    play(state, "use same-again p1.3", "pass")
    # it copies a phone order's order and stays a normal customer; money and influence stay
    assert queue_text(state, 0)[2] == "SD 4/1 same-again"
    assert state.observation(1)["queues"][0][2]["attached_names"] == ["Same Again"]  # as read
    play(state, "play GF", "serve", "play SD", "serve", "play SD", "serve")
    assert state.observation(0)["discards"]["unforeseen"] == {"same-again": 1}  # it left
    # told as the board shows it, with the order it copied: the card's "GGF 4/1" named another
    said = [line for entry in state.history_for(0) for line in entry.events]
    assert "P1 serves SD 4/1: +4 money, +1 reputation (SW-4.3)" in said, said[-8:]


@pytest.mark.rule("SW-E.5")
@pytest.mark.rule("SW-U.5")
def test_a_generous_tip_pays_whoever_serves_the_customer_this_round() -> None:
    state = unforeseen(
        ["generous-tip"],
        ["poached-customer"],
        queues=[["G 2/1"], []],
        food_hands=[[], ["G"]],
        money=[0, 0],
    )
    play(state, "use generous-tip p1.1", "use poached-customer p1.1")
    assert queue_text(state, 1) == ["G 2/1"]
    play(state, "finish", "play G", "serve")
    assert state.money(1) == 2 + 2  # the tip went with the customer to P2


@pytest.mark.rule("SW-E.2")
def test_the_board_says_what_a_dirty_shops_customers_give_as_a_player_says_it() -> None:
    """It read "customers give -1 reputation"."""
    state = unforeseen(["dirty-shop"])
    play(state, "use dirty-shop p2")
    board = " ".join(state.game.render(state, 0).split())
    assert "unforeseen; each customer served gives 1 less reputation" in board


@pytest.mark.rule("SW-3.4")
def test_the_board_says_a_paid_tip_waits_for_the_discard_not_that_it_is_in_play() -> None:
    """A Generous Tip whose customer was served stayed listed as "In play this round", as if
    it still acted: the card waits for the round's end (SW-3.3), doing nothing more."""
    state = unforeseen(["generous-tip"], queues=[["G 2/1"], []], food_hands=[["G"], []])
    play(state, "use generous-tip p1.1", "pass", "play G", "serve")
    board = state.game.render(state, 0)
    assert "queue: empty" in board.split("P2 ")[0]  # the tipped customer is served
    assert "Played this round, discarded at its end: generous-tip" in board
    assert "In play" not in board and "In play" not in state.game.reference(state, 0)


@pytest.mark.rule("SW-E.5")
def test_a_tip_expires_at_the_end_of_the_round() -> None:
    state = unforeseen(["generous-tip"], queues=[["GG 3/2"], []])
    play(state, "use generous-tip p1.1", "pass")
    assert state.observation(0)["queues"][0][0]["tip"] == 2
    finish_service_of_all(state)
    assert state.observation(0)["queues"][0][0]["tip"] == 0
    assert state.observation(0)["discards"]["unforeseen"] == {"generous-tip": 1}


@pytest.mark.rule("SW-E.6")
def test_an_impatient_customer_becomes_annoyed_and_leaves_at_the_end_of_service() -> None:
    state = unforeseen(["impatient-customer"], queues=[[], ["GG 3/2", PHONE]], reputation=[10, 9])
    assert legal(state) == {"pass", "use impatient-customer p2.1"}  # a normal customer
    play(state, "use impatient-customer p2.1", "pass")
    assert queue_text(state, 1)[0] == "GG 3/2 annoyed"
    finish_service_of_all(state)
    assert queue_text(state, 1) == ["SD 2/1 phone annoyed"]
    assert state.reputation(1) == 9 - 4


@pytest.mark.rule("SW-E.7")
def test_a_patient_customer_is_no_longer_annoyed() -> None:
    annoyed = {"card": "GG 3/2", "annoyed": True}
    state = unforeseen(["patient-customer"], queues=[[annoyed, "S 2/1"], []])
    assert legal(state) == {"pass", "use patient-customer p1.1"}
    play(state, "use patient-customer p1.1", "pass")
    finish_service_of_all(state)
    assert queue_text(state, 0) == ["GG 3/2 annoyed", "S 2/1 annoyed"]  # stayed a round more


@pytest.mark.rule("SW-E.8")
def test_a_poached_customer_moves_to_the_end_of_your_queue_keeping_its_state() -> None:
    annoyed = {"card": "GG 3/2", "annoyed": True}
    state = unforeseen(["poached-customer"], queues=[["S 2/1"], [annoyed, PHONE, "F 1/1"]])
    assert legal(state) == {"pass", "use poached-customer p2.1", "use poached-customer p2.3"}
    play(state, "use poached-customer p2.1")
    assert queue_text(state, 0) == ["S 2/1", "GG 3/2 annoyed"]
    assert queue_text(state, 1) == ["SD 2/1 phone", "F 1/1"]


@pytest.mark.rule("SW-E.9")
def test_champions_league_night_brings_every_player_a_phone_order() -> None:
    state = unforeseen(
        ["champions-league-night"], customers_top=["G 2/1", "S 2/1"], reputation=[5, 10]
    )
    play(state, "pass", "use champions-league-night")
    assert queue_text(state, 1) == ["G 2/1 phone"]  # in turn order: P2 first
    assert queue_text(state, 0) == ["S 2/1 phone"]


@pytest.mark.rule("SW-E.10")
def test_eurovision_brings_one_player_a_phone_order() -> None:
    state = unforeseen(["eurovision-party"], customers_top=["BIG", "GF 2/2"])
    assert {"use eurovision-party p1", "use eurovision-party p2"} <= legal(state)
    play(state, "use eurovision-party p2")
    assert queue_text(state, 1) == ["GF 2/2 phone"]  # a Big Phone Order drawn is replaced


@pytest.mark.rule("SW-E.11")
def test_the_ninja_takes_a_random_food_card_by_chance() -> None:
    state = unforeseen(["ninja-in-the-kitchen"], food_hands=[[], ["G", "G", "SD"]])
    play(state, "use ninja-in-the-kitchen p2")
    assert state.current_player() == CHANCE
    outcomes = {action.notation: p for action, p in state.chance_outcomes()}
    assert outcomes == pytest.approx({"random G": 2 / 3, "random SD": 1 / 3})
    with pytest.raises(IllegalActionError) as error:
        play(state, "random GF")  # not in P2's hand
    assert error.value.rule == "SW-E.11"
    with pytest.raises(IllegalActionError):
        play(state, "pass")  # chance first
    play(state, "random SD")
    assert state.food_hand(0) == ["SD"] and state.food_hand(1) == ["G", "G"]
    assert state.current_player() == 1
    assert "random SD" in [action.notation for action in state.history]


@pytest.mark.rule("SW-E.11")
def test_the_ninja_finds_nothing_in_an_empty_hand() -> None:
    state = unforeseen(["ninja-in-the-kitchen"])
    play(state, "use ninja-in-the-kitchen p2")
    assert state.current_player() == 1


@pytest.mark.rule("SW-E.12")
def test_a_health_inspection_costs_an_opponent_2_reputation() -> None:
    state = unforeseen(["health-inspection"], reputation=[10, 1])
    play(state, "use health-inspection p2")
    assert state.reputation(1) == 0  # never below 0 (SW-4.9)


@pytest.mark.rule("SW-E.13")
def test_queue_jump_swaps_a_customer_with_the_one_ahead() -> None:
    state = unforeseen(["queue-jump"], queues=[["G 2/1", "S 2/1"], []])
    assert legal(state) == {"pass", "use queue-jump p1.2"}
    play(state, "use queue-jump p1.2")
    assert queue_text(state, 0) == ["S 2/1", "G 2/1"]


@pytest.mark.rule("SW-E.14")
def test_fresh_delivery_draws_2_food_cards() -> None:
    state = unforeseen(["fresh-delivery"], food_top=["GF", "SD"])
    play(state, "use fresh-delivery")
    assert state.food_hand(0) == ["GF", "SD"]


@pytest.mark.rule("SW-E.14")
@pytest.mark.rule("SW-1.4")
def test_the_hand_limit_applies_at_once_outside_maintenance_too() -> None:
    hand = ["G", "S", "F", "D", "GF", "GD"]
    state = unforeseen(["fresh-delivery"], food_hands=[hand, []], food_top=["SD", "SF"])
    play(state, "use fresh-delivery")
    assert state.current_player() == 0
    assert all(move.startswith("discard") for move in legal(state))
    play(state, "discard G")
    assert state.current_player() == 1


@pytest.mark.rule("SW-E.15")
def test_rats_discard_2_random_food_cards_one_chance_node_each() -> None:
    state = unforeseen(["rats-in-the-kitchen"], food_hands=[[], ["G", "S", "F"]])
    play(state, "use rats-in-the-kitchen p2")
    assert state.current_player() == CHANCE
    play(state, "random S")
    assert state.current_player() == CHANCE
    assert {a.notation for a, _ in state.chance_outcomes()} == {"random G", "random F"}
    play(state, "random F")
    assert state.food_hand(1) == ["G"]
    assert state.observation(0)["discards"]["food"] == {"S": 1, "F": 1}


def test_every_card_kind_has_its_rule_id_and_two_cards() -> None:
    assert [kind.rule for kind in CARDS.unforeseen] == [f"SW-E.{i}" for i in range(1, 17)]
    assert {kind.count for kind in CARDS.unforeseen} == {2}


@pytest.mark.rule("SW-E.11")
def test_the_ninjas_victim_knows_the_loot_and_determinize_keeps_it_with_the_thief() -> None:
    state = unforeseen(
        ["ninja-in-the-kitchen"], food_hands=[["G", "G", "S"], ["SD", "FD", "GF", "GF"]]
    )
    play(state, "use ninja-in-the-kitchen p2", "random SD")
    victim = state.observation(1)["hand"]["known_in_other_hands"]
    assert victim == [{"player": 0, "food": "SD"}]
    assert state.observation(0)["hand"]["known_in_other_hands"] == []
    rng = random.Random(2)
    samples = [state.determinize(1, rng) for _ in range(30)]
    assert all("SD" in sample.food_hand(0) for sample in samples)  # the victim's knowledge
    thief_views = [state.determinize(0, rng).food_hand(1) for _ in range(30)]
    assert any(hand != state.food_hand(1) for hand in thief_views)  # the victim's hand varies

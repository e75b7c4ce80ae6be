"""Phase 4, Customer Service (SW-4): the pool, serving in order, the treat, sending away,
annoyance and leaving, and the rulebook's serving example."""

from __future__ import annotations

import random
from typing import Any

import pytest

from kafeneio.core import SPECTATOR, IllegalActionError, NotationError
from kafeneio.core.play import play as play_loop
from kafeneio.core.play import random_player
from kafeneio.games.souvlaki import SouvlakiGame, SouvlakiState
from kafeneio.games.souvlaki.actions import PLAY

from .conftest import Customer, finish_service_of_all, legal, play, position, queue_text

EXAMPLE_QUEUE: list[Customer] = ["SF 1/2", "GG 3/2", {"card": "SD 2/1", "phone": True}]


def maria(**kwargs: Any) -> SouvlakiState:
    """The serving example: P1 (Maria) serves first; she holds G+F, S and G+D."""
    return position(
        queues=[EXAMPLE_QUEUE, []],
        food_hands=[["GF", "S", "GD"], []],
        money=[10, 10],
        reputation=[10, 5],
        **kwargs,
    )


@pytest.mark.rule("SW-4.10")
@pytest.mark.rule("SW-4.2")
def test_the_rulebook_serving_example_all_three_cards_then_serve() -> None:
    state = maria()
    assert state.current_player() == 0
    # In the rulebook's order: all three cards first (the gyros + soft drink card feeds the
    # second customer's second gyros once the pool is shared out in queue order), then serve.
    play(state, "play GF", "play S")
    assert "play GD" in legal(state)
    play(state, "play GD", "serve", "serve")
    assert "serve" not in legal(state)  # the phone order needs a second souvlaki
    assert not any(move.startswith("play") for move in legal(state))
    play(state, "finish")
    assert state.money(0) == 10 + 1 + 3
    assert state.reputation(0) == 10 + 2 + 2 + 1  # + 1: the unused soft drink is a treat
    finish_service_of_all(state)
    assert queue_text(state, 0) == ["SD 2/1 phone annoyed"]


@pytest.mark.rule("SW-4.10")
def test_the_serving_example_in_the_needed_option_plays_and_serves_in_turn() -> None:
    state = maria(options={"food_play": "needed"})
    play(state, "play GF", "play S")
    assert "play GD" not in legal(state)  # nothing on it that the first customer lacks
    play(state, "serve", "play GD", "serve", "finish")
    assert (state.money(0), state.reputation(0)) == (10 + 4, 10 + 5)


@pytest.mark.rule("SW-4.1")
def test_only_the_first_customer_can_be_served() -> None:
    state = position(
        queues=[["GG 3/2", "S 2/1"], []], food_hands=[["S", "G"], []], reputation=[10, 5]
    )
    assert legal(state) == {"play G", "play S", "send 1", "send 2", "finish"}
    play(state, "play S")  # the pool now holds the second customer's order
    assert "serve" not in legal(state)
    with pytest.raises(IllegalActionError, match="lacks GG for the first customer") as error:
        play(state, "serve")
    assert error.value.rule == "SW-4.2"


@pytest.mark.rule("SW-4.2")
def test_one_pool_feeds_several_customers_and_one_customer_takes_from_several_cards() -> None:
    state = position(
        queues=[["G 2/1", "S 2/1", "GGS 5/0"], []],
        food_hands=[["GS", "G", "GS"], []],
        money=[0, 0],
        reputation=[10, 5],
    )
    play(state, "play GS", "serve", "serve")  # one card feeds two customers
    play(state, "play G", "play GS", "serve")  # one customer takes from two cards
    assert state.money(0) == 2 + 2 + 5
    assert state.queue(0) == []


@pytest.mark.rule("SW-4.2")
def test_a_card_is_played_for_a_food_a_waiting_customer_lacks_once_the_pool_is_shared_out() -> None:
    state = position(
        queues=[["G 2/1", "GS 3/1"], []], food_hands=[["G", "G", "G", "D"], []], reputation=[9, 5]
    )
    assert legal(state) == {"play G", "send 1", "send 2", "finish"}  # nobody orders a drink
    play(state, "play G")  # the first customer's gyros
    assert "play G" in legal(state)  # the second customer still lacks one
    play(state, "play G")
    assert "play G" not in legal(state)  # two gyros in the pool, two ordered
    for move in ("play G", "play D"):
        before = state.clone()
        with pytest.raises(IllegalActionError, match="no food that a waiting customer") as error:
            play(state, move)
        assert error.value.rule == "SW-4.2"
        assert state == before


@pytest.mark.rule("SW-4.2")
def test_the_needed_option_plays_only_for_a_food_the_first_customer_still_lacks() -> None:
    state = position(
        queues=[["GF 2/2", "G 2/1"], []],
        food_hands=[["G", "S", "GD"], []],
        reputation=[9, 5],
        options={"food_play": "needed"},
    )
    assert legal(state) == {"play G", "play GD", "send 1", "send 2", "finish"}
    play(state, "play G")
    assert "play GD" not in legal(state)  # the first customer has its gyros already
    with pytest.raises(IllegalActionError, match="the first customer still lacks") as error:
        play(state, "play GD")
    assert error.value.rule == "SW-4.2"


@pytest.mark.rule("SW-4.2")
def test_the_any_card_option_plays_any_food_card() -> None:
    state = position(
        queues=[["GF 2/2"], []],
        food_hands=[["G", "S"], []],
        reputation=[9, 5],
        options={"food_play": "any"},
    )
    assert {"play G", "play S"} <= legal(state)


@pytest.mark.rule("SW-4.2")
@pytest.mark.parametrize("food_play", ["queue", "needed", "any"])
def test_every_refused_play_names_the_reason_move_generation_applies(food_play: str) -> None:
    """Move generation and the refusal share one predicate: a play is legal exactly when the
    state gives no refusal, and a refused one raises that refusal's rule and words."""
    state = position(
        queues=[["GF 2/2", "SS 3/2"], []],
        food_hands=[["G", "S", "GD", "FD", "SS"], []],
        reputation=[9, 5],
        options={"food_play": food_play},
    )
    for move in ("play G", "play FD", "play SS", "serve", "play S", "finish"):
        legal_now = legal(state)
        for card in state.cards.foods:
            action = state.game.parse_action(f"play {card.text}")
            refusal = state.play_refusal(0, action.food)
            assert (refusal is None) == (action.notation in legal_now)
            if refusal is not None:
                with pytest.raises(IllegalActionError) as error:
                    state.apply(action)
                assert (error.value.rule, str(error.value)) == (
                    refusal[0],
                    f"{action}: {refusal[1]} ({refusal[0]})",
                )
        if move in legal_now:
            play(state, move)


@pytest.mark.rule("SW-4.2")
@pytest.mark.parametrize("food_play", ["queue", "needed", "any"])
def test_the_precomputed_plays_agree_with_the_predicate_in_random_games(food_play: str) -> None:
    """Move generation reads the playable food cards from a table worked out in advance
    (`game.playable_kinds`); at every service decision of random games it offers exactly the
    plays that `play_refusal` accepts."""
    game = SouvlakiGame({"food_play": food_play})
    checked = 0
    for seed in range(12):
        state = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            mover = state.current_player()
            if state.phase == "service" and mover >= 0:
                offered = {a.food for a in state.legal_actions() if a.kind == PLAY}
                accepted = {
                    code for code in game.food_kinds if state.play_refusal(mover, code) is None
                }
                assert offered == accepted, (seed, state.ply)
                checked += 1
            play_loop(state, [random_player(rng)] * 3, rng, max_steps=1)
    assert checked > 500


@pytest.mark.rule("SW-4.3")
def test_a_served_customer_pays_gives_its_influence_and_is_discarded() -> None:
    state = position(
        queues=[["GSFD 5/3"], []], food_hands=[["GS", "FD"], []], money=[4, 4], reputation=[9, 5]
    )
    play(state, "play GS", "play FD", "serve")
    assert (state.money(0), state.reputation(0)) == (9, 12)
    assert state.queue(0) == []
    assert state.observation(0)["discards"]["customers"] == {"GSFD 5/3": 1}


@pytest.mark.rule("SW-4.4")
def test_the_treat_is_one_reputation_in_all() -> None:
    state = position(
        queues=[["G 2/1", "S 2/1"], []], food_hands=[["GF", "SD"], []], reputation=[9, 5]
    )
    play(state, "play GF", "serve", "play SD", "serve", "finish")  # fries and a drink left
    assert state.reputation(0) == 9 + 1 + 1 + 1


@pytest.mark.rule("SW-4.4")
def test_the_treat_of_an_emptied_queue_says_nobody_is_left_to_treat() -> None:
    """The treat is earned with no customer left waiting, and was told as treating the queue
    all the same."""
    told = {}
    for queue in (["G 2/1"], ["G 2/1", "SS 3/2"]):
        state = position(queues=[queue, []], food_hands=[["GF"], []], reputation=[9, 5])
        play(state, "play GF", "serve")
        (treat,) = [e for e in state.apply(state.parse_legal("finish")) if e.kind == "treat"]
        told[len(queue) - 1] = treat.text_for(SPECTATOR)
    assert told[0] == (
        "P1 treats with the food left over, though nobody is left waiting: +1 reputation (SW-4.4)"
    )
    assert told[1] == "P1 treats the queue with the food left over: +1 reputation (SW-4.4)"


@pytest.mark.rule("SW-4.4")
def test_no_treat_without_a_served_customer() -> None:
    state = position(queues=[["GG 3/2"], []], food_hands=[["GF"], []], reputation=[9, 5])
    play(state, "play GF", "finish")
    assert state.reputation(0) == 9


@pytest.mark.rule("SW-4.5")
def test_played_food_cards_are_discarded_at_the_end_of_the_service() -> None:
    state = position(queues=[["GG 3/2"], []], food_hands=[["GF", "G"], []], reputation=[9, 5])
    play(state, "play GF")
    assert state.observation(0)["played"] == ["GF"]
    assert state.observation(0)["discards"]["food"] == {}
    play(state, "finish")
    assert state.observation(0)["discards"]["food"] == {"GF": 1}
    assert state.food_hand(0) == ["G"]


@pytest.mark.rule("SW-4.6")
def test_sending_away_any_customer_costs_5_reputation() -> None:
    state = position(queues=[["GG 3/2", "S 2/1", "F 1/1"], []], money=[3, 3], reputation=[9, 5])
    play(state, "send 2")
    assert [c.order for c in state.queue(0)] == [(2, 0, 0, 0), (0, 0, 1, 0)]
    assert (state.money(0), state.reputation(0)) == (3, 4)


@pytest.mark.rule("SW-4.6")
def test_the_first_only_option_sends_away_only_the_first() -> None:
    state = position(
        queues=[["GG 3/2", "S 2/1"], []], reputation=[9, 5], options={"send_away": "first"}
    )
    assert legal(state) == {"send 1", "finish"}
    with pytest.raises(IllegalActionError) as error:
        play(state, "send 2")
    assert error.value.rule == "SW-4.6"


@pytest.mark.rule("SW-4.6")
def test_sending_away_past_the_queue_says_how_many_customers_wait() -> None:
    state = position(queues=[["GG 3/2"], []], reputation=[9, 5])
    with pytest.raises(IllegalActionError, match=r"the queue has 1 customer\b") as error:
        play(state, "send 2")
    assert error.value.rule == "SW-4.6"


@pytest.mark.rule("SW-4.6")
@pytest.mark.parametrize("target", ["p2.1", "P1"])
def test_send_written_as_a_card_s_target_says_send_takes_a_place_in_one_s_own_queue(
    target: str,
) -> None:
    """``send p2.1`` was told "queue positions are numbered 1 to 16" with 4 customers
    waiting: as if the number were the trouble, not sending another shop's customer."""
    state = position(queues=[["GG 3/2"], ["GS 3/1"]], reputation=[9, 5])
    before = state.clone()
    told = rf"send takes a place in your own queue, like send 2, not '{target}'"
    with pytest.raises(NotationError, match=told):
        state.apply_notation(f"send {target}")
    for alone in ("send", "pick", "send 1 2"):  # refused as not a move, not by an IndexError
        with pytest.raises(NotationError, match="is not a move"):
            state.apply_notation(alone)
    assert state == before


@pytest.mark.rule("SW-4.7")
@pytest.mark.rule("SW-4.8")
def test_unserved_customers_become_annoyed_then_leave() -> None:
    annoyed_g = {"card": "G 2/1", "annoyed": True}
    annoyed_d = {"card": "D 1/0", "annoyed": True}
    annoyed_big = {"big": ["GSFD 5/3", "S 2/1"], "annoyed": True}
    state = position(queues=[[annoyed_g, annoyed_d, annoyed_big, "SF 1/2"], []], reputation=[20, 5])
    # the observation says each one's cost before it is paid (the page's "2 leave: −12")
    seen = state.observation(0)["queues"][0]
    assert [customer["leaves_for"] for customer in seen] == [2, 2, 8, 4]
    finish_service_of_all(state)
    # leaving costs twice the influence, at least 2: G 2, D (influence 0) 2, the big order 2*4
    assert state.reputation(0) == 20 - 2 - 2 - 8
    assert queue_text(state, 0) == ["SF 1/2 annoyed"]


@pytest.mark.rule("SW-4.9")
def test_reputation_never_goes_below_0() -> None:
    state = position(queues=[["G 2/1", "S 2/1"], []], reputation=[3, 1])
    play(state, "send 1")
    assert state.reputation(0) == 0
    play(state, "send 1")
    assert state.reputation(0) == 0

"""Phase 5, End of Round (SW-5): the win check, the winner, shared wins and the round limit."""

from __future__ import annotations

import pytest

from kafeneio.core import SPECTATOR

from .conftest import finish_service_of_all, play, position


@pytest.mark.rule("SW-5.2")
def test_the_game_ends_at_the_end_of_a_round_with_a_player_at_25_and_25() -> None:
    state = position(
        queues=[["G 2/1"], []], food_hands=[["G"], []], money=[23, 40], reputation=[24, 10]
    )
    play(state, "play G", "serve")  # 25 money and 25 reputation mid-phase
    assert not state.is_terminal()
    play(state, "finish")
    assert not state.is_terminal()  # the others still serve: the round goes on
    play(state, "finish")
    assert state.is_terminal() and state.winners() == [0]
    assert list(state.legal_actions()) == []


@pytest.mark.rule("SW-5.2")
def test_money_alone_or_reputation_alone_does_not_end_the_game() -> None:
    state = position(money=[40, 24], reputation=[24, 40])
    finish_service_of_all(state)
    assert not state.is_terminal()


@pytest.mark.rule("SW-5.3")
def test_among_several_winners_the_highest_money_plus_reputation_wins() -> None:
    state = position(3, money=[25, 31, 60], reputation=[30, 26, 10])
    finish_service_of_all(state)
    assert state.scores() == [55, 57, 70]
    assert state.winners() == [1]  # P3's 70 does not count: only 10 reputation


@pytest.mark.rule("SW-5.3")
def test_a_remaining_tie_shares_the_victory() -> None:
    state = position(3, money=[25, 30, 25], reputation=[30, 25, 25])
    finish_service_of_all(state)
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5, 0.0]


def test_the_round_limit_ends_the_game_and_the_highest_sum_wins() -> None:
    state = position(round=30, money=[10, 12], reputation=[5, 2])
    while state.phase == "service":
        events = state.apply(state.parse_legal("finish"))
    assert state.is_terminal() and state.winners() == [0]
    # the limit is the engine's, and said to be: the rulebook has none (SW-5.2)
    told = [event.text_for(SPECTATOR) for event in events if event.kind == "end"]
    assert told == [
        "The game ends: round 30 was the last (option round_limit, beyond the rulebook) and "
        "nobody reached "
        "25 money and 25 reputation"
    ]
    state = position(round=4, money=[10, 12], reputation=[5, 2], options={"round_limit": 5})
    finish_service_of_all(state)
    assert not state.is_terminal() and state.round == 5

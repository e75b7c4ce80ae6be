"""The Café heuristic's shortcuts (`bots/cafe.py`) change none of its choices: the next
player's best turn priced without playing every turn out (`best_gain`) is what playing them out
scores, and the two orders of the same two guests share a state (`full_turns`) or a look-ahead
(`twins`) only where they leave the same position; under the default rules and the variants
that change what a turn scores or when it ends."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from kafeneio.bots.cafe import (
    KNOWLEDGE,
    OUT,
    Turn,
    best_gain,
    decision_gains,
    full_turns,
    look_ahead,
    position_after,
    table_move_may_end,
    transposed_end,
    twins,
)
from kafeneio.bots.knowledge import after
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeAction, CafeState
from kafeneio.games.cafe.actions import PLACE
from kafeneio.games.cafe.board import is_joker

VARIANTS: list[dict[str, Any]] = [
    {},
    {"birthday": True, "dance": True, "single_nation_draw": "choose", "bar_draw": "extra"},
    {"first_move": "pair-scores-both", "joker_exchange": "own-gender", "hand_size": 3},
    {"hand_size": 3, "bar_values": (2, -1, -3, 4, -5, 1)},
    {"end_bag": 60},
]
"""The one before last has red bar seats early, which throw a player out (CI-M.3); in the last
the bag runs down to its end (CI-E.1) within a few rounds, mostly by table moves."""


def played_out_best(state: CafeState, rng: random.Random) -> float:
    """The definition: the most the mover's score rises over every whole turn played out."""
    me = state.current_player()
    base = state.scores()[me]
    return max(end.scores()[me] - base for _, end in full_turns(state, rng))


@pytest.mark.parametrize("options", VARIANTS)
def test_the_priced_best_turn_is_what_the_turns_played_out_score(options: dict[str, Any]) -> None:
    game = get_game("cafe", options)
    priced = played = thrown_out = 0
    for players, seed in ((2, 0), (3, 1), (4, 2), (2, 3), (3, 4)):
        state = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == "turn":
                assert best_gain(state, rng) == played_out_best(state, rng), state.ply
                if table_move_may_end(state):
                    played += 1
                else:
                    priced += 1
                    thrown_out += OUT in decision_gains(state, rng)
            # half random, half greedy: varied positions that still reach the late game
            random_move = rng.random() < 0.5
            legal = state.legal_actions()
            state.apply(rng.choice(legal) if random_move else KNOWLEDGE.rollout(state, rng))
    assert priced > 20 and played > 0  # both ways were asked
    if options.get("bar_values"):
        assert thrown_out > 0  # a bar seat that throws the mover out was priced


def turn_codes(turn: tuple[CafeAction, ...]) -> list[int]:
    return [decision.code for decision in turn]


def transposed_pairs(state: CafeState, rng: random.Random) -> list[Turn]:
    """Every whole turn of two guests whose other order is a turn too, the two side by side."""
    decisions = {turn for turn, _ in full_turns(state, rng)}
    pairs = sorted(
        (turn for turn in decisions if len(turn) == 2 and turn[::-1] in decisions),
        key=lambda turn: (sorted(turn_codes(turn)), turn_codes(turn)),
    )
    return [Turn(turn, 0.0) for turn in pairs]


def test_twin_turns_leave_the_same_position_and_fare_the_same_in_every_world() -> None:
    """`planned_turn` looks ahead once for turns that `twins` finds equal: the same two guests
    in the other order leave the same position unless the order changes the score, in each
    sampled world, and so the look-ahead on the same luck is the same."""
    game = get_game("cafe")
    found_twins = found_apart = 0
    for seed in range(2):
        state = game.new_state(2, seed=seed)
        rng = random.Random(seed)
        for _ in range(16):  # greedy decisions on, and the pairs of each turn start
            me = state.current_player()
            turns = transposed_pairs(state, rng) if state.phase == "turn" else []
            twin = twins(state, turns)
            for first in range(0, len(turns), 2):
                one, other = turns[first], turns[first + 1]
                same = position_after(state, one) == position_after(state, other)
                assert twin[first + 1] == (first if same else first + 1)
                found_twins += same
                found_apart += not same
                if same:
                    world = state.determinize(me, rng)
                    luck = rng.random()
                    fared = {look_ahead(world, t, me, random.Random(luck)) for t in (one, other)}
                    assert len(fared) == 1
            state.apply(KNOWLEDGE.rollout(state, rng))
            if state.is_terminal():
                break
    assert found_twins > 100 and found_apart > 2  # the order seldom changes the score


@pytest.mark.parametrize("options", VARIANTS)
def test_a_turn_that_shares_the_other_orders_state_leaves_that_position(
    options: dict[str, Any],
) -> None:
    """`full_turns` lets the same two guests in the other order share one state where the
    positions are the same: each turn's state is what playing that turn out leaves (but for
    the history), and some are shared."""
    game = get_game("cafe", options)
    shared = 0
    for players, seed in ((2, 0), (3, 1), (4, 2)):
        state = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.phase == "turn" and state.ply % 3 == 0:
                turns = full_turns(state, rng)
                for decisions, end in turns:
                    played = position_after(state, Turn(decisions, 0.0))
                    assert end.state_key()[:-1] == played, decisions
                shared += len(turns) - len({id(end) for _, end in turns})
            state.apply(KNOWLEDGE.rollout(state, rng))
    assert shared > 20


def test_two_jokers_in_either_order_keep_their_own_states() -> None:
    """Seated jokers are kept in the order they sat down (for their exchange, CI-M.4): the
    two orders of a lady joker and a man joker, scoring the same, are two positions."""
    setup = {"hands": [["Jf", "Jm", "USf", "GBf", "ESf"], ["FRf", "FRm", "DEf", "DEm", "ITf"]]}
    state = get_game("cafe").new_state(2, setup={**setup, "rest": {"seed": 1}})
    turns = full_turns(state, random.Random(1))
    by_decisions = {decisions: end for decisions, end in turns}
    both_jokers = [
        (decisions, end)
        for decisions, end in turns
        if len(decisions) == 2 and all(is_joker(d.card) for d in decisions)
    ]
    same_score = 0
    for decisions, end in both_jokers:
        other = by_decisions.get(decisions[::-1])
        if other is not None and other.scores() == end.scores():
            same_score += 1
            assert other is not end
            assert other.state_key()[:-1] != end.state_key()[:-1]
    assert same_score > 0


def test_a_turn_that_ended_the_game_is_not_shared() -> None:
    """The state after a turn that ended the game holds the hand penalties (CI-E.2), which the
    other order's price leaves out: `transposed_end` does not share it even where the prices
    agree."""
    state = get_game("cafe", {"end_bag": 90}).new_state(2, seed=3)  # the first turn ends it
    rng = random.Random(3)
    me = state.current_player()
    action, second, ended = next(
        (*decisions, end)
        for decisions, end in full_turns(state, rng)
        if len(decisions) == 2 and decisions[1].kind == PLACE and end.is_terminal()
    )
    first = cast(CafeState, after(state, action, rng))
    price = ended.scores()[me] - first.scores()[me]  # as if the other order scored that
    pairs = {(second.code, action.code): ended}
    assert transposed_end(first, action, second, price, pairs) is None

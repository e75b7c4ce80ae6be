"""The Café heuristic prices the next player's best turn (`best_gain`) without playing every turn
out: the price must be exactly what playing each whole turn out scores, under the default rules
and the variants that change what a turn scores or when it ends."""

from __future__ import annotations

import random
from typing import Any

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
    twins,
)
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeAction, CafeState

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

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
    best_gain,
    decision_gains,
    full_turns,
    table_move_may_end,
)
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeState

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

"""`CafeState.placement_points`: what a placement would score, without making it."""

from __future__ import annotations

import random

import pytest

from kafeneio.core import CHANCE, KafeneioError, sample_chance
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeState
from kafeneio.games.cafe.actions import PLACE, CafeAction

OPTION_SETS = [
    {},
    {"first_move": "pair-scores-both"},
    {"birthday": True, "birthday_threshold": 10},
]


def random_positions(options: dict[str, object], seed: int, players: int = 3) -> list[CafeState]:
    """Every position of a random game (chance resolved), in order."""
    rng = random.Random(seed)
    state = get_game("cafe", options).new_state(players, seed=seed)
    assert isinstance(state, CafeState)
    positions = []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        positions.append(state.clone())
        state.apply(rng.choice(state.legal_actions()))
    return positions


@pytest.mark.rule("CI-P.1")
@pytest.mark.parametrize("options", OPTION_SETS)
def test_placement_points_are_what_the_placement_scores_and_change_nothing(
    options: dict[str, object],
) -> None:
    checked = 0
    for seed in range(4):
        for state in random_positions(options, seed):
            mover = state.current_player()
            for action in state.legal_actions():
                assert isinstance(action, CafeAction)
                if action.kind != PLACE:
                    continue
                before = state.clone()
                points = state.placement_points(action.card, action.chair)
                assert state == before
                after = state.clone()
                after.apply(action)
                assert points == after.scores()[mover] - state.scores()[mover]
                checked += 1
    assert checked > 1000


def test_placement_points_refuse_a_taken_chair_or_a_forged_card() -> None:
    state = random_positions({}, 1)[30]
    taken = next(c for c in range(68) if state.chair(c) >= 0)
    before = state.clone()
    for card, chair in ((0, taken), (0, 68), (0, -1), (26, 0), (-1, 0)):
        with pytest.raises(KafeneioError):
            state.placement_points(card, chair)
        assert state == before

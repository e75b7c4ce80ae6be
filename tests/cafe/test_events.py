"""Café International events: scores, draws, the bar, the end and its penalties, in words."""

from __future__ import annotations

import random

import pytest

from kafeneio.core import SPECTATOR
from kafeneio.core.play import play, random_player
from kafeneio.games import get_game


def _history(players: int, seed: int, **options: object) -> list[list[str]]:
    state = get_game("cafe", options).new_state(players, seed=seed)
    rng = random.Random(seed)
    play(state, [random_player(rng)] * players, rng)
    return [list(entry.events) for entry in state.history_for(SPECTATOR)]


@pytest.mark.rule("CI-P.1")
def test_every_placement_says_what_it_scored() -> None:
    state = get_game("cafe").new_state(2, seed=3)
    action = next(a for a in state.legal_actions() if "@" in a.notation and "bar" not in a.notation)
    before = state.scores()[0]
    event = state.apply(action)[0]
    gain = state.scores()[0] - before
    assert event.kind == "place" and f"{gain:+d} point" in (event.text_for(SPECTATOR) or "")


@pytest.mark.rule("CI-E.2")
def test_the_end_says_why_and_what_each_hand_cost() -> None:
    for seed in range(6):
        last = _history(3, seed)[-1]
        assert any(t.startswith("The game ends: ") for t in last)
        assert any("(CI-E.3)" in t for t in last)
        penalties = [t for t in last if "left in hand (CI-E.2)" in t]
        if penalties:
            return
    raise AssertionError("no game ended with cards in hand")


@pytest.mark.rule("CI-M.3")
def test_a_player_thrown_out_at_the_bar_is_told() -> None:
    texts = [t for seed in range(12) for step in _history(3, seed) for t in step]
    assert any("is out of the game (CI-M.3)" in t for t in texts)
    assert any("sends" in t and "bar seat" in t for t in texts)
    assert any(" draws " in t for t in texts)

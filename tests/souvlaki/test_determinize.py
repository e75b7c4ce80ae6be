"""Determinized samples (issue 7, items 4-6): a sample for player p holds nothing p cannot
know, in anyone's view inside it; it is a possible world; a sample of a sample keeps every card;
and the conformance harness catches a sample that breaks any of this."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from kafeneio.core.conformance import ConformanceError, check_state
from kafeneio.games.souvlaki import SouvlakiState

from .conftest import GAME, play, position


def after_a_ninja() -> SouvlakiState:
    """Three players; P2 (index 1) takes SF from P3 (index 2) with a Ninja. Only P2 and P3
    saw the card; P1 (index 0) did not."""
    state = position(
        3,
        phase="unforeseen",
        unforeseen_hands=[[], ["ninja-in-the-kitchen"], []],
        food_hands=[["G", "S"], ["G", "G", "S"], ["SF", "FD", "GF", "GF"]],
        reputation=[5, 10, 3],
    )
    play(state, "use ninja-in-the-kitchen p3", "random SF")
    return state


def known(state: SouvlakiState, viewer: int) -> list[dict[str, object]]:
    hand = state.observation(viewer)["hand"]
    assert hand is not None
    return list(hand["known_in_other_hands"])


@pytest.mark.rule("SW-E.11")
def test_a_sample_shows_no_player_what_a_third_player_saw() -> None:
    state = after_a_ninja()
    assert known(state, 2) == [{"player": 1, "food": "SF"}]
    rng = random.Random(0)
    samples = [state.determinize(0, rng) for _ in range(100)]
    assert all(known(sample, 2) == [] for sample in samples)
    assert all(known(sample, 1) == [] for sample in samples)
    assert all(sample.inconsistencies() == [] for sample in samples)
    assert any("SF" not in sample.food_hand(1) for sample in samples)  # P1 never saw it


@pytest.mark.rule("SW-E.11")
@pytest.mark.parametrize("player", [1, 2])
def test_the_thief_and_the_victim_keep_what_both_saw(player: int) -> None:
    state = after_a_ninja()
    rng = random.Random(1)
    for _ in range(50):
        sample = state.determinize(player, rng)
        assert known(sample, 2) == [{"player": 1, "food": "SF"}]
        assert "SF" in sample.food_hand(1)
        assert sample.inconsistencies() == []


def test_a_sample_of_a_sample_keeps_every_card() -> None:
    state = after_a_ninja()
    counts = state.card_counts()
    assert counts == {
        "food": 72,
        "customers": sum(c.count for c in state.cards.customers),
        "unforeseen": 32,
    }
    rng = random.Random(2)
    for _ in range(100):
        sample = state.determinize(rng.randrange(3), rng)
        nested = sample.determinize(rng.randrange(3), rng)
        assert nested.card_counts() == counts
        assert nested.inconsistencies() == []


def test_samples_of_samples_keep_every_card_through_random_games() -> None:
    rng = random.Random(3)
    for seed in range(3):
        state = GAME.new_state(3, {"round_limit": 5}, seed=seed)
        counts = state.card_counts()
        while not state.is_terminal():
            sample = state.determinize(rng.randrange(3), rng)
            nested = sample.determinize(rng.randrange(3), rng)
            assert nested.card_counts() == counts and nested.inconsistencies() == []
            state.apply(rng.choice(state.legal_actions()))


@contextmanager
def old_determinize() -> Iterator[None]:
    """Monkeypatch in the determinize of before issue 7: the sample kept everyone's knowledge
    (`_revealed`) while it resampled the holders' hands."""
    honest = SouvlakiState.determinize

    def leaky(self: SouvlakiState, player: int, rng: random.Random) -> SouvlakiState:
        sample = honest(self, player, rng)
        sample._revealed = list(self._revealed)
        return sample

    SouvlakiState.determinize = leaky  # type: ignore[method-assign]
    try:
        yield
    finally:
        SouvlakiState.determinize = honest  # type: ignore[method-assign]


def test_the_harness_catches_a_sample_that_tells_a_third_players_knowledge() -> None:
    state = after_a_ninja()
    check_state(state, random.Random(0), replay_record=False)
    with old_determinize(), pytest.raises(ConformanceError, match=r"player 2 knows .*SF"):
        check_state(state, random.Random(0), replay_record=False)


def test_the_harness_catches_an_impossible_sample() -> None:
    state = after_a_ninja()
    no_knowledge = SouvlakiState.knowledge
    SouvlakiState.knowledge = lambda self, viewer: []  # type: ignore[method-assign]
    try:
        with old_determinize(), pytest.raises(ConformanceError, match="impossible world"):
            for seed in range(20):
                check_state(state, random.Random(seed), replay_record=False)
    finally:
        SouvlakiState.knowledge = no_knowledge  # type: ignore[method-assign]


def test_the_harness_catches_a_sample_of_a_sample_that_makes_up_a_card() -> None:
    """Only the card count of a nested sample is left to catch it: 73 food cards, not 72."""
    state = after_a_ninja()
    hooks = SouvlakiState.knowledge, SouvlakiState.inconsistencies
    SouvlakiState.knowledge = lambda self, viewer: []  # type: ignore[method-assign]
    SouvlakiState.inconsistencies = lambda self: []  # type: ignore[method-assign]
    try:
        with old_determinize(), pytest.raises(ConformanceError, match="'food': 73"):
            for seed in range(40):
                check_state(state, random.Random(seed), replay_record=False)
    finally:
        SouvlakiState.knowledge, SouvlakiState.inconsistencies = hooks  # type: ignore[method-assign]

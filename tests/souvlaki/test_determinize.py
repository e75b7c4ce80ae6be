"""Determinized samples (issue 7, items 4-6): a sample for player p holds nothing p cannot
know, in anyone's view inside it; it is a possible world; a sample of a sample keeps every card;
and the conformance harness catches a sample that breaks any of this."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from kafeneio.core import SPECTATOR
from kafeneio.core.conformance import ConformanceError, check_state
from kafeneio.games.souvlaki import SouvlakiState
from kafeneio.games.souvlaki.setup import FOOD

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
        state = GAME.with_options({"round_limit": 5}).new_state(3, seed=seed)
        counts = state.card_counts()
        while not state.is_terminal():
            sample = state.determinize(rng.randrange(3), rng)
            nested = sample.determinize(rng.randrange(3), rng)
            assert nested.card_counts() == counts and nested.inconsistencies() == []
            state.apply(rng.choice(state.legal_actions()))


def test_a_spectators_sample_is_a_possible_world_through_random_games() -> None:
    """`determinize(SPECTATOR, rng)` resamples every hand and deck, and is a possible world as
    a player's sample is: it read the spectator's draws from the end of the draw counts (a
    negative index), making decks of cards they were never made of."""
    rng = random.Random(4)
    for seed in range(3):
        state = GAME.with_options({"round_limit": 5}).new_state(3, seed=seed)
        while not state.is_terminal():
            sample = state.determinize(SPECTATOR, rng)
            assert sample.inconsistencies() == [], state.ply
            assert sample.observation(SPECTATOR) == state.observation(SPECTATOR)
            state.apply(rng.choice(state.legal_actions()))


def determinize_before_issue_7(
    self: SouvlakiState, player: int, rng: random.Random
) -> SouvlakiState:
    """The `_determinize` of before issue 7, verbatim: it kept everyone's knowledge
    (`_revealed`) while it resampled the holders' hands, and a knower's card missing from the
    holder's hand was made up in a sample of that sample."""
    other = self.clone()
    others = [p for p in range(self.num_players) if p != player]
    for deck, hands in ((0, other._food), (2, other._unforeseen)):
        known = {p: [0] * len(hands[p]) for p in others}
        if deck == 0:
            for holder, kind, knower in self._revealed:
                if knower == player:
                    known[holder][kind] += 1
        hidden = list(other._decks[deck])
        for p in others:
            hidden.extend(
                kind for kind, count in enumerate(hands[p]) for _ in range(count - known[p][kind])
            )
        rng.shuffle(hidden)
        for p in others:
            size = sum(hands[p]) - sum(known[p])
            hands[p] = known[p]
            for kind in hidden[:size]:
                hands[p][kind] += 1
            del hidden[:size]
        other._decks[deck] = hidden
    rng.shuffle(other._decks[1])
    other._shuffle_seed = rng.getrandbits(32)
    return other


@contextmanager
def old_determinize() -> Iterator[None]:
    """Monkeypatch in the determinize of before issue 7."""
    honest = SouvlakiState._determinize
    SouvlakiState._determinize = determinize_before_issue_7  # type: ignore[method-assign]
    try:
        yield
    finally:
        SouvlakiState._determinize = honest  # type: ignore[method-assign]


def harness_failures(state: SouvlakiState, seeds: int) -> list[str]:
    """What the harness finds at `state` with each of `seeds` random draws."""
    found = []
    for seed in range(seeds):
        try:
            check_state(state, random.Random(seed), replay_record=False)
        except ConformanceError as err:
            found.append(str(err))
    return found


@contextmanager
def hooks_off(*names: str) -> Iterator[None]:
    """Switch off conformance hooks, so that another check has to catch the fault alone."""
    saved = {name: getattr(SouvlakiState, name) for name in names}
    quiet = {"knowledge": lambda self, viewer: [], "inconsistencies": lambda self: []}
    for name in names:
        setattr(SouvlakiState, name, quiet[name])
    try:
        yield
    finally:
        for name, hook in saved.items():
            setattr(SouvlakiState, name, hook)


def test_the_harness_passes_the_fixed_determinize() -> None:
    assert harness_failures(after_a_ninja(), 20) == []


def test_the_harness_catches_a_sample_that_tells_a_third_players_knowledge() -> None:
    with old_determinize(), hooks_off("inconsistencies"):
        found = harness_failures(after_a_ninja(), 5)
    assert len(found) == 5
    assert all("in a sample for P1, P3 knows (1, 'SF')" in text for text in found)


def test_the_harness_catches_a_sample_where_a_knower_sees_a_card_the_hand_lacks() -> None:
    with old_determinize(), hooks_off("knowledge"):
        found = harness_failures(after_a_ninja(), 20)
    assert len(found) == 20  # and the drawn cards do not add up in every one of them
    assert any("P3 knows 1 SF in P2's hand: 0" in text for text in found)


def test_the_harness_catches_a_sample_of_a_sample_that_makes_up_a_card() -> None:
    """Only the card count of a nested sample (of a player's sample, or of the spectator's) is
    left to catch it: 73 food cards, not 72."""
    with old_determinize(), hooks_off("knowledge", "inconsistencies"):
        found = harness_failures(after_a_ninja(), 40)
    assert found and all(re.search(r"of a sample for (P\d|the spectator) ", t) for t in found)
    assert all("'food': 73" in text for text in found)


def first_food_reshuffle() -> tuple[SouvlakiState, Counter[int], int]:
    """A random game of four just after its food deck was reshuffled: the state, the discard
    pile the new deck was made of (by kind) and the player whose draw made it."""
    rng = random.Random(0)
    state = GAME.with_options({"round_limit": 8}).new_state(4, seed=0)
    while not state.is_terminal():
        pile = Counter({k: c for k, c in enumerate(state._discards[FOOD]) if c})
        drawer = state.current_player()
        state.apply(rng.choice(state.legal_actions()))
        if state._reshuffles[FOOD]:
            return state, pile, drawer
    raise AssertionError("no reshuffle")


@pytest.mark.rule("SW-S.3")
def test_after_a_reshuffle_a_sample_deck_holds_only_cards_of_the_old_discard_pile() -> None:
    state, pile, drawer = first_food_reshuffle()
    deck = Counter(state._decks[FOOD])
    assert deck <= pile and len(state._decks[FOOD]) >= sum(pile.values()) - 2
    rng = random.Random(5)
    for player in range(4):
        for _ in range(20):
            sample = state.determinize(player, rng)
            sampled = Counter(sample._decks[FOOD])
            assert sampled <= pile  # no older hidden card (from a hand) mixed in
            if player == drawer:  # it knows what it drew, so the deck's cards exactly
                assert sampled == deck
            assert sample.inconsistencies() == []


def test_before_issue_7_a_sample_deck_mixed_hand_cards_into_a_reshuffled_deck() -> None:
    state, pile, _ = first_food_reshuffle()
    rng = random.Random(5)
    with old_determinize():
        samples = [state.determinize(player, rng) for player in range(4) for _ in range(5)]
    assert not any(Counter(sample._decks[FOOD]) <= pile for sample in samples)

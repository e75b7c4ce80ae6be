"""The random-simulation harness over every game: the contract holds at every state."""

from __future__ import annotations

import dataclasses
import random
import re
from collections import Counter, deque
from typing import Any

import pytest

from kafeneio.core import SPECTATOR, Action, Game
from kafeneio.core.conformance import ConformanceError, check_random_games, check_state
from kafeneio.games import get_game
from sim.toy import HEADS, TAILS, ToyGame, ToyState

CAFE_OPTION_SETS = [
    {},
    {
        "first_move": "pair-scores-both",
        "bar_unpaid": "forbid",
        "bar_draw": "extra",
        "single_nation_draw": "choose",
        "joker_native_both": False,
    },
    {"birthday": True, "birthday_threshold": 8, "dance": True},
]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", CAFE_OPTION_SETS, ids=["default", "alternatives", "variants"])
def test_cafe_random_games_keep_the_contract(players: int, options: dict[str, object]) -> None:
    states = check_random_games(get_game("cafe"), players, range(3), options)
    assert states > 100


def test_the_harness_catches_a_state_that_changes_when_a_clone_is_played() -> None:
    """The harness itself can fail: a clone that shares its board with the original is caught."""
    state = get_game("cafe").new_state(2, seed=1)
    leaky = type(state).clone

    def shallow_clone(self: object) -> object:
        other = leaky(self)  # type: ignore[arg-type]
        other._seat = self._seat  # type: ignore[attr-defined]
        return other

    type(state).clone = shallow_clone  # type: ignore[method-assign,assignment]
    try:
        with pytest.raises(ConformanceError, match="leaves the original unchanged"):
            check_state(state, random.Random(0), replay_record=False)
    finally:
        type(state).clone = leaky  # type: ignore[method-assign]


@pytest.mark.parametrize(("whose", "named"), [(0, "P1"), (SPECTATOR, "the spectator")])
def test_the_harness_catches_a_cafe_sample_that_loses_a_card(
    whose: int, named: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Café's hook `card_counts` is checked in every sample and in a sample of a sample, the
    spectator's too (the players' only were, and a Souvlaki spectator's impossible worlds went
    unseen): a sample that loses a card is caught."""
    state = get_game("cafe").new_state(2, seed=1)
    honest = type(state).determinize

    def losing(self: object, player: int, rng: random.Random) -> object:
        sample = honest(self, player, rng)  # type: ignore[arg-type]
        if player == whose:
            sample._bag.pop()  # type: ignore[attr-defined]
        return sample

    monkeypatch.setattr(type(state), "determinize", losing)
    with pytest.raises(ConformanceError, match=rf"a sample for {named} holds \{{'guests': 9"):
        check_state(state, random.Random(0), replay_record=False)


def test_the_harness_catches_move_words_that_tell_the_bag() -> None:
    """A move's words are the same in every world its mover thinks possible: words that name
    the next card in the bag (hidden, CI-S.1) are caught."""
    state = get_game("cafe").new_state(2, seed=1)
    honest = type(state)._words

    def telling(self: object, action: object) -> str:
        return f"{honest(self, action)}, then {self._bag[-1]}"  # type: ignore[arg-type,attr-defined]

    type(state)._words = telling  # type: ignore[method-assign]
    try:
        with pytest.raises(ConformanceError, match=r"in a sample for P1, \S+ reads"):
            check_state(state, random.Random(0), replay_record=False)
    finally:
        type(state)._words = honest  # type: ignore[method-assign]


class _Leaky(ToyState):
    """Keeps a log it never declared: shared by every clone, so a clone's move changes it."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.log = []  # type: ignore[var-annotated]

    def _perform(self, action: Action) -> None:
        self.log.append(action.code)
        super()._perform(action)


class _Unfair(ToyState):
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(HEADS, 0.5), (TAILS, 0.2)]


class _Long(ToyGame):
    info = dataclasses.replace(ToyGame.info, max_game_length=1)


class _Wordy(ToyState):
    def _perform(self, action: Action) -> None:
        self.emit("flip", f"P1 plays {action}")  # type: ignore[arg-type]  # text, not words
        super()._perform(action)


def _toy(state_class: type[ToyState], game_class: type[ToyGame] = ToyGame) -> Game:
    class Toy(game_class):  # type: ignore[valid-type,misc]
        def make_state(self, num_players: int, seed: int | None, setup: Any) -> ToyState:
            return state_class(self, num_players, seed, setup)

    return Toy()


def test_the_harness_passes_the_toy_game_as_it_is() -> None:
    assert check_random_games(_toy(ToyState), 2, range(10)) > 10


@pytest.mark.parametrize(
    ("broken", "says"),
    [
        (_toy(_Leaky), "not declared fields: log"),
        (_toy(_Unfair), "chance probabilities sum to 1, not 0.7"),
        (_toy(ToyState, _Long), "2 actions long, over its declared max_game_length"),
    ],
    ids=["undeclared", "chance", "length"],
)
def test_the_public_harness_catches_what_the_contract_tests_check(broken: Game, says: str) -> None:
    """A contributor's game passed `check_random_games` with an undeclared attribute (its
    clones shared it), chances summing to 0.7, and games longer than declared."""
    with pytest.raises(ConformanceError, match=re.escape(says)):
        check_random_games(broken, 2, range(10))


def test_an_event_given_text_for_words_is_refused_where_it_is_emitted() -> None:
    """It failed only where the event was read, far from the game's mistake."""
    state = _toy(_Wordy).new_state(2, seed=0)
    with pytest.raises(TypeError, match=r"emit\('flip', \.\.\.\): words must be a function"):
        state.apply(state.legal_actions()[0])


class _Kept(ToyState):
    """Fields of every container kind a contributor may declare."""

    log: list[int] | None
    seen: set[int]
    tally: dict[str, int]
    grid: list[list[int]] | None
    tags: None | set[int]  # noqa: RUF036  # as a contributor may write it
    counts: Counter[int]
    recent: deque[int]

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.log, self.seen, self.tally = None, set(), {}
        self.grid, self.tags = [[0]], None
        self.counts, self.recent = Counter(), deque()

    def _perform(self, action: Action) -> None:
        if self.log is None:
            self.log = []
        self.log.append(action.code)
        assert self.grid is not None
        self.grid[0].append(action.code)
        self.tags = (self.tags or set()) | {action.code}
        self.counts[action.code] += 1
        self.recent.append(action.code)
        self.seen.add(action.code)
        self.tally[action.notation] = self.tally.get(action.notation, 0) + 1
        super()._perform(action)


def test_a_clone_copies_sets_dicts_and_a_list_that_may_be_none() -> None:
    """``list[int] | None`` holding None failed to clone ('NoneType' has no 'copy'), and a set
    or a dict was shared between clones."""
    assert check_random_games(_toy(_Kept), 2, range(10)) > 10
    state = _toy(_Kept).new_state(2, seed=0)
    assert isinstance(state, _Kept)
    copy = state.clone()
    copy.apply(copy.legal_actions()[-1])  # the coin: a chance node follows
    assert state.log is None and state.seen == set() and state.tally == {}
    assert state.grid == [[0]] and state.tags is None
    assert not state.counts and not state.recent  # a Counter and a deque were shared
    again = copy.clone()
    again.apply(again.legal_actions()[0])
    assert isinstance(copy, _Kept) and copy.log == [3] and copy.seen == {3}


def test_a_field_of_a_container_or_another_type_is_refused_at_its_declaration() -> None:
    """``list[int] | None | str`` called ``.copy()`` on whatever it held."""
    with pytest.raises(TypeError, match="one type, or it and None"):

        class _Mixed(ToyState):
            mixed: list[int] | str

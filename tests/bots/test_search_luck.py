"""The luck of the draws as a control variate for the search's rewards (`CafeLuck`, `luck`)."""

from __future__ import annotations

import random
import statistics
from typing import cast

import pytest

from kafeneio.bots import cafe as cafe_bots
from kafeneio.bots import make_bot
from kafeneio.bots.cafe import KNOWLEDGE, CafeLuck, cafe_luck
from kafeneio.bots.mcts import MctsBot, Node, SearchSettings
from kafeneio.core import Action, KafeneioError, State
from kafeneio.games import get_game
from kafeneio.games.cafe.board import JOKER_LADY
from kafeneio.games.cafe.state import CafeState
from kafeneio.sim.bench import searchable_positions


def positions(players: int, count: int, seed: int) -> list[CafeState]:
    found = searchable_positions(get_game("cafe"), players, count, seed)
    return [cast(CafeState, state) for state in found]


def tally_for(state: State) -> CafeLuck:
    maker = cafe_luck(state, state.current_player())
    assert maker is not None
    return maker()


def play_with(tally: CafeLuck, sample: State, action: Action) -> None:
    mover = sample.current_player()
    tally.before(sample, mover)
    sample.apply(action)
    tally.after(sample, mover, action)


def test_each_draw_counts_what_it_took_less_the_share_of_the_bag_it_came_from() -> None:
    """The tally sees a draw in the hands; worked out again here from the bag's contents."""
    for state in positions(2, 4, 7):
        me = state.current_player()
        fits = [state.fitting_chairs(card) != 0 for card in range(26)]
        for seed in range(5):
            tally = tally_for(state)
            sample = cast(CafeState, state.determinize(me, random.Random(seed)))
            bag = sample.bag_counts()
            fitting = sum(n for card, n in enumerate(bag) if fits[card])
            jokers, size = bag[JOKER_LADY] + bag[JOKER_LADY + 1], sum(bag)
            expected = [0.0] * 4
            rng = random.Random(seed)
            for _ in range(24):
                if sample.is_terminal():
                    break
                mover = sample.current_player()
                play_with(tally, sample, KNOWLEDGE.rollout(sample, rng))
                left = sample.bag_counts()
                for card in range(26):
                    for _ in range(bag[card] - left[card]):
                        expected[2 * mover] += fits[card] - fitting / size
                        expected[2 * mover + 1] += (card >= JOKER_LADY) - jokers / size
                        fitting -= fits[card]
                        jokers -= card >= JOKER_LADY
                        size -= 1
                bag = left
            assert tally.luck == pytest.approx(expected)
            assert any(expected)  # something was drawn


def test_the_luck_of_the_draws_averages_zero_over_sampled_worlds() -> None:
    """Each draw's luck has expectation 0 whatever the play, so the search's mean reward is
    what it was: over many worlds the mean luck is within four standard errors of 0."""
    state = positions(2, 1, 3)[0]
    me = state.current_player()
    rng = random.Random(5)
    totals: list[list[float]] = []
    for _ in range(1500):
        tally = tally_for(state)
        sample = state.determinize(me, rng)
        for _ in range(12):
            if sample.is_terminal():
                break
            play_with(tally, sample, KNOWLEDGE.rollout(sample, rng))
        totals.append(tally.luck)
    for component in zip(*totals, strict=True):
        spread = statistics.stdev(component)
        assert spread > 0.1  # the draws were lucky and unlucky
        assert abs(statistics.fmean(component)) < 4 * spread / len(component) ** 0.5


def test_the_correction_weighs_a_players_own_luck_and_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cafe_bots, "LUCK_WEIGHTS_BY_PLAYERS", {3: (1.0, 10.0, 100.0, 1000.0)})
    state = positions(3, 1, 3)[0]
    tally = tally_for(state)
    start = tally.mark()
    tally.luck[:] = [0.5, 0.25, 2.0, 0.0, -1.0, 1.0]  # (fit, joker) for players 0, 1, 2
    assert tally.correction(0, start) == pytest.approx(0.5 + 2.5 + 100 * 1.0 + 1000 * 1.0)
    assert tally.correction(1, start) == pytest.approx(2.0 + 0.0 + 100 * -0.5 + 1000 * 1.25)
    assert tally.correction(1, tally.mark()) == 0.0  # no draw since the mark


def test_a_search_with_luck_weighed_at_nothing_searches_as_without(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cafe_bots, "LUCK_WEIGHTS_BY_PLAYERS", {2: (0.0,) * 4})
    for state in positions(2, 2, 9):
        plain = MctsBot(3, iterations=150, luck=False).analyse(state)
        with_luck = MctsBot(3, iterations=150, luck=True).analyse(state)
        assert with_luck.actions == plain.actions


def test_a_search_with_luck_moves_its_estimates_and_keeps_them_win_chances() -> None:
    state = positions(2, 1, 9)[0]
    plain = MctsBot(3, iterations=300, luck=False).analyse(state)
    with_luck = MctsBot(3, iterations=300, luck=True).analyse(state)
    assert [e.win_chance for e in with_luck.actions] != [e.win_chance for e in plain.actions]
    assert all(0.0 <= e.win_chance <= 1.0 for e in with_luck.actions)


def test_cafe_corrects_for_luck_by_default_at_every_player_count() -> None:
    """Measured in games against the heuristic at 2, 3 and 4 players (docs/bots-log.md)."""
    assert [SearchSettings.of(KNOWLEDGE, {}, players).luck for players in (2, 3, 4)] == [1.0] * 3
    assert SearchSettings.of(KNOWLEDGE, {"luck": 0.0}, 2).luck == 0.0
    assert SearchSettings.of(KNOWLEDGE, {"luck": 0.0}, 4).luck == 0.0
    state = positions(3, 1, 9)[0]
    make_bot("mcts:iterations=20:luck=true", 1).choose(state)  # a seat may ask for it


def test_a_luck_that_is_not_true_or_false_is_refused() -> None:
    with pytest.raises(KafeneioError, match="luck must be true or false"):
        make_bot("mcts:luck=2", 1)


class CountingTally:
    """A stand-in tally whose luck is a thousand for each decision applied: far more than a
    reward (a win chance), so that a correction shows through the reward it is taken from."""

    def __init__(self) -> None:
        self.applied = 0

    def before(self, state: State, mover: int) -> None:
        pass

    def after(self, state: State, mover: int, action: Action) -> None:
        self.applied += 1

    def mark(self) -> object:
        return self.applied

    def correction(self, player: int, since: object) -> float:
        return 1000.0 * (self.applied - cast(int, since))


def test_each_node_is_corrected_by_the_luck_after_its_own_decision_only() -> None:
    """A node's value is the reward for choosing it: the draws before its decision are not its
    luck. Two nodes on one path are corrected by the luck since each one's own decision."""
    state = positions(2, 1, 9)[0]
    bot = MctsBot(3, iterations=1, luck=True)
    bot.analyse(state)  # settles the search's settings for this state
    root = Node(mover=state.current_player(), root=True)
    for action in state.legal_actions():  # every root child tried once: the next goes deeper
        root.children[action.code] = Node(mover=root.mover, visits=1, value=0.5)
    root.rated = True
    bot.new_tally = CountingTally
    bot._iterate(state, root, root.mover)
    child = next(c for c in root.children.values() if c.visits == 2)
    grandchild = next(iter(child.children.values()))
    # their rewards (win chances) differ by at most 1; the child's correction counts one
    # decision more, its own
    assert -1001.0 <= (child.value - 0.5) - grandchild.value <= -999.0


def test_luck_counts_in_paired_worlds_too() -> None:
    state = positions(2, 1, 9)[0]
    plain = MctsBot(3, iterations=200, paired=True, luck=False).analyse(state)
    with_luck = MctsBot(3, iterations=200, paired=True, luck=True).analyse(state)
    assert [e.win_chance for e in with_luck.actions] != [e.win_chance for e in plain.actions]

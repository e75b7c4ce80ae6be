"""Café International's search evaluation: fitted win chances that predict the winner."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from operator import mul
from typing import cast

from kafeneio.bots import make_bot
from kafeneio.bots.base import Bot
from kafeneio.bots.cafe import KNOWLEDGE, TEMPERATURE, lateness, lead, outlook, standings
from kafeneio.bots.cafe_plan import (
    SEARCH_WEIGHT_VECTORS,
    SEARCH_WEIGHTS_BY_PLAYERS,
    WEIGHT_VECTORS,
    WEIGHTS,
    race_features,
    race_strengths,
)
from kafeneio.bots.knowledge import after, softmax
from kafeneio.core import CHANCE, Action, State, sample_chance
from kafeneio.core.play import play
from kafeneio.games import get_game
from kafeneio.games.cafe.state import CafeState


def greedy_positions(seed: int) -> tuple[list[CafeState], float]:
    """Every 4th decision of a two-player greedy game, and the first player's result."""
    state = get_game("cafe").new_state(2, seed=seed)
    assert isinstance(state, CafeState)
    positions: list[CafeState] = []

    def recorded(bot: Bot) -> Callable[[State], Action]:
        def choose(position: State) -> Action:
            if position.ply % 4 == 0:
                positions.append(cast(CafeState, position.clone()))
            return bot(position)

        return choose

    bots = [recorded(make_bot("greedy", seed)), recorded(make_bot("greedy", seed + 1))]
    end = play(state, bots, random.Random(seed))
    return positions, end.returns()[0]


def log_loss(chance: float, won: float) -> float:
    return -(won * math.log(chance) + (1 - won) * math.log(1 - chance))


def test_the_fitted_evaluation_predicts_the_winner_better_than_the_standings() -> None:
    """Over 40 greedy games the evaluation beats a coin (0.693), and clearly beats the softmax
    of standings that greedy play reads (far too sure of an early lead: worse than a coin)."""
    fitted, standing = [], []
    for seed in range(40):
        positions, won = greedy_positions(seed)
        for state in positions:
            fitted.append(log_loss(KNOWLEDGE.evaluate(state)[0], won))
            standing.append(log_loss(softmax(standings(state), TEMPERATURE)[0], won))
    assert sum(fitted) / len(fitted) < 0.665
    assert sum(fitted) < 0.9 * sum(standing)


def test_a_point_of_lead_counts_more_at_the_end_and_the_hand_target_costs_late() -> None:
    def per_point(late: float) -> float:
        return WEIGHTS.score + late * WEIGHTS.score_late

    def per_card_of_target(late: float) -> float:
        return late * (WEIGHTS.target_late + late * WEIGHTS.target_late_squared)

    assert per_point(1.0) > per_point(0.5) > 0
    # the cards still to play cost nothing early and a penalty at the end (CI-D.2, CI-E.2)
    assert per_card_of_target(1.0) < per_card_of_target(0.8) < 0 <= per_card_of_target(0.1)


def test_the_evaluation_is_a_softmax_of_the_race_strengths_and_the_result_at_the_end() -> None:
    positions, _ = greedy_positions(3)
    state = positions[len(positions) // 2]
    late = lateness(state)
    assert KNOWLEDGE.evaluate(state) == softmax(
        race_strengths(state, late, SEARCH_WEIGHT_VECTORS), 1.0
    )
    # the heuristic's look-ahead reads its own weights, without the dead cards
    edge = lead(race_strengths(state, late), 0)
    assert outlook(state, 0) == 1 / (1 + math.exp(-edge))
    chances = KNOWLEDGE.evaluate(state)
    assert abs(sum(chances) - 1) < 1e-9 and all(0 < c < 1 for c in chances)
    end = positions[-1].clone()
    rng = random.Random(0)
    while not end.is_terminal():
        end.apply(
            sample_chance(end, rng) if end.current_player() == CHANCE else end.legal_actions()[0]
        )
    assert KNOWLEDGE.evaluate(end) == end.returns()


def test_root_priors_rate_a_turns_first_decisions_by_the_best_whole_turn() -> None:
    positions, _ = greedy_positions(5)
    rng = random.Random(0)
    firsts = [s for s in positions if s.phase == "turn" and len(s.legal_actions()) > 1]
    seconds = [s for s in positions if s.phase == "second"]
    assert firsts and seconds
    assert KNOWLEDGE.root_priors(seconds[0], rng) is None  # one step is the whole turn there
    for state in firsts[:5]:
        me = state.current_player()
        priors = KNOWLEDGE.root_priors(state, rng)
        assert priors is not None
        assert set(priors) == {action.code for action in state.legal_actions()}
        for action in state.legal_actions():
            first = after(state, action, rng)
            if first.current_player() == me:  # a placement the turn goes on from
                best = max(
                    KNOWLEDGE.estimate(after(first, second, rng))[me]
                    for second in first.legal_actions()
                )
                assert priors[action.code] == best


def test_search_cuts_off_only_at_a_turns_start_where_the_evaluation_was_fitted() -> None:
    positions, _ = greedy_positions(7)
    assert {KNOWLEDGE.settled(s) for s in positions if s.phase == "turn"} == {True}
    assert {KNOWLEDGE.settled(s) for s in positions if s.phase == "second"} == {False}
    end = positions[-1].clone()
    while not end.is_terminal():
        end.apply(end.legal_actions()[0])
    assert KNOWLEDGE.settled(end)


def test_each_player_count_reads_its_own_fitted_weights() -> None:
    """At 4 players the weights fitted at 4 predict the winner of greedy games better than
    those of 2 players would (the race evaluation is fitted per player count)."""
    own = two = 0.0
    positions = 0
    for seed in range(60):
        state = cast(CafeState, get_game("cafe").new_state(4, seed=seed))
        bots = [make_bot("greedy", seed * 4 + p) for p in range(4)]
        seen: list[list[list[float]]] = []
        while not state.is_terminal():
            if state.phase == "turn" and state.ply % 3 == 0:
                rows = race_features(state, lateness(state))
                seen.append(rows)
                assert race_strengths(state, lateness(state)) == [
                    -100.0 if state.is_out(p) else sum(map(mul, row, WEIGHT_VECTORS[4]))
                    for p, row in enumerate(rows)
                ]
            state.apply(bots[state.current_player()].choose(state))
        result = state.returns()
        for rows in seen:
            for vector, sign in ((WEIGHT_VECTORS[4], 1), (WEIGHT_VECTORS[2], -1)):
                chances = softmax([sum(map(mul, row, vector)) for row in rows], 1.0)
                loss = -sum(r * math.log(c) for r, c in zip(result, chances, strict=True))
                own, two = (own + loss, two) if sign > 0 else (own, two + loss)
            positions += 1
    assert positions > 500
    assert own < two


def test_the_search_counts_a_dead_card_against_its_holder_the_more_so_late() -> None:
    """A card that fits no free chair (`dead_cards`) costs a bar visit or a hand penalty
    (CI-M.2, CI-E.2) unless the board opens up for it: the search's weights, fitted on
    heuristic games, count it against its holder late, and more the later it is."""
    for weights in SEARCH_WEIGHTS_BY_PLAYERS.values():
        assert weights.dead + weights.dead_late < 0
        assert weights.dead_late < 0
        assert len(SEARCH_WEIGHT_VECTORS[2]) == len(WEIGHT_VECTORS[2]) + 2

"""Souvlaki Wars play knowledge: the shopkeeper's quick view says what the observation says,
the evaluation follows how the game is won (SW-5.2) and predicts the winner, and mcts searches
only the decisions the knowledge does not call routine."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import pytest

from kafeneio.bots import make_bot, souvlaki
from kafeneio.bots.knowledge import knowledge_for, routine_action
from kafeneio.bots.mcts import MctsBot
from kafeneio.bots.souvlaki import KNOWLEDGE, shopkeeper_view
from kafeneio.core import CHANCE, sample_chance
from kafeneio.games import get_game
from kafeneio.games.souvlaki.state import SouvlakiState


def heuristic_positions(players: int, seed: int) -> Iterator[SouvlakiState]:
    """Every decision with a choice in one game of shopkeepers, shops dealt at random."""
    rng = random.Random(seed)
    game = get_game("souvlaki").deal_roles(players, rng)
    state = game.new_state(players, seed=seed)
    assert isinstance(state, SouvlakiState)
    bot = make_bot("heuristic", seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
            continue
        if len(state.legal_actions()) > 1:
            yield state
        state.apply(bot(state))


def test_the_quick_view_holds_what_the_observation_holds() -> None:
    seen = 0
    for players in (2, 3, 4):
        for state in heuristic_positions(players, seed=players):
            if state.phase not in souvlaki.QUICK_VIEW_PHASES:
                continue
            me = state.current_player()
            full, quick = state.observation(me), shopkeeper_view(state, me)
            assert quick["phase"] == full["phase"] and quick["pool"] == full["pool"]
            assert quick["hand"]["food"] == full["hand"]["food"]
            assert quick["rules"].items() <= full["rules"].items()  # those it reads
            for mine, seen_one in zip(quick["queues"][me], full["queues"][me], strict=True):
                assert mine.items() <= seen_one.items()
            player = quick["players"][me]
            identity = player.pop("identity")
            assert player.items() <= full["players"][me].items()
            assert identity.items() <= full["players"][me]["identity"].items()
            seen += 1
    assert seen > 100


def test_the_quick_view_does_not_change_the_shopkeepers_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    positions = [s.clone() for p in (2, 4) for s in heuristic_positions(p, seed=10 + p)]
    quick = [KNOWLEDGE.policy(s, random.Random(i)) for i, s in enumerate(positions)]
    monkeypatch.setattr(souvlaki, "QUICK_VIEW_PHASES", ())
    full = [KNOWLEDGE.policy(s, random.Random(i)) for i, s in enumerate(positions)]
    assert quick == full and len(positions) > 200


def shop_at(money: int, reputation: int, food: int = 5) -> SouvlakiState:
    """A 2-player draft with player 0's money, reputation and number of food cards set."""
    setup = {
        "rest": {"seed": 1},
        "phase": "customers",
        "round": 3,
        "money": [money, 15],
        "reputation": [reputation, 15],
        "food_hands": [food, 5],
    }
    state = get_game("souvlaki").new_state(2, setup=setup)
    assert isinstance(state, SouvlakiState) and state.food_cards(0) == food
    return state


@pytest.mark.rule("SW-5.2")
def test_the_evaluation_wants_both_thresholds() -> None:
    """Money and reputation are both needed: a shop far short of one of them is rated below a
    shop short of both by half as much, and more of either raises the win chance."""
    chance = [KNOWLEDGE.evaluate(shop_at(m, r))[0] for m, r in ((24, 6), (15, 15), (16, 15))]
    lopsided, even, better = chance
    assert lopsided < even < better
    richer = KNOWLEDGE.evaluate(shop_at(15, 15, food=6))[0]
    assert richer > even  # a food card in hand is worth having


def test_the_evaluation_predicts_the_winner_of_shopkeeper_games() -> None:
    """At every round start of shopkeeper games, the evaluation's win chance of the eventual
    winner beats a coin toss clearly (log loss below 0.65 against 0.693)."""
    losses = []
    for seed in range(40):
        rng = random.Random(seed)
        state = get_game("souvlaki").deal_roles(2, rng).new_state(2, seed=seed)
        assert isinstance(state, SouvlakiState)
        bots = [make_bot("heuristic", seed), make_bot("heuristic", seed + 1)]
        chances, last_round = [], 0
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            if state.phase == "customers" and state.round != last_round:
                last_round = state.round
                chances.append(KNOWLEDGE.evaluate(state)[0])
            state.apply(bots[player](state))
        won = state.returns()[0]
        losses += [-(won * math.log(c) + (1 - won) * math.log(1 - c)) for c in chances]
    assert sum(losses) / len(losses) < 0.65


def test_mcts_plays_the_routine_service_without_searching() -> None:
    searched = routine = 0
    for state in heuristic_positions(2, seed=5):
        bot = make_bot("mcts:iterations=5", 1)
        assert isinstance(bot, MctsBot)
        action = bot.choose(state.clone())
        expected = routine_action(knowledge_for(state), state.clone(), random.Random(0))
        if state.phase == "service":
            assert bot.last_iterations == 0 and expected is not None
            routine += 1
        elif state.food_cards(state.current_player()) <= state.options.hand_limit:
            assert bot.last_iterations == 5 and expected is None
            searched += 1
        assert action in state.legal_actions()
        if searched > 20 and routine > 20:
            break
    assert searched > 20 and routine > 20

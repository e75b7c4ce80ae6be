"""The Café heuristic's look-ahead and its race evaluation (`bots/cafe.py`, `bots/cafe_plan.py`):
what a hand can complete, a table that is no use any more, the winner predicted, and the turns
it takes and avoids in small positions."""

from __future__ import annotations

import math

from kafeneio.bots import make_bot
from kafeneio.bots.cafe import lateness, outlook
from kafeneio.bots.cafe_plan import hand_fits, race_strengths
from kafeneio.games.cafe import CafeState

from .conftest import GAME, new_position

# IN1 is chairs 20, 27, 28, 29: 20 is shared with IN2 (19-22), 27 with FR2, 28 with RU2.


def fits(state: CafeState) -> list[tuple[float, int]]:
    return hand_fits(
        [state.hand(p) for p in range(state.num_players)], state.bag_counts(), state.seats()
    )


def test_a_table_of_three_natives_is_ready_for_the_hand_that_holds_the_fourth() -> None:
    state = new_position([["INf", "USm"], ["INm", "USf"]], {27: "INf", 28: "INm", 29: "INm"})
    # P1 holds the missing lady: ready, and 3/4 of a card of reach; P2's man does not fit
    assert fits(state) == [(0.75, 1), (0.0, 0)]


def test_a_joker_of_the_missing_gender_completes_a_table_too() -> None:
    state = new_position([["Jf", "USm"], ["Jm", "USf"]], {27: "INf", 28: "INm", 29: "INm"})
    assert fits(state) == [(0.75, 1), (0.0, 0)]


def test_a_table_with_a_foreigner_or_no_missing_card_left_counts_for_nobody() -> None:
    # chair 1 is shared by CU2 and TR1: a Cuban there spoils TR1 for the Turks
    spoilt = new_position([["TRf", "TRm"], ["USm", "USf"]], {1: "CUf", 2: "TRm"})
    assert fits(spoilt) == [(0.0, 0), (0.0, 0)]
    # IN1 and IN2 each seat an Indian man and a lady (a joker at IN1) and need one more of
    # each; P1 holds an Indian man. The other Indian ladies and lady jokers are placed: the
    # tables can never seat 4 Indians, so P1's man is no use there ...
    chairs = {28: "INm", 29: "Jf", 19: "INf", 21: "INm", 16: "Jf", 17: "USm"}
    hands = [["INm", "GBm"], ["USf", "ESm"]]
    assert fits(new_position(hands, chairs, bar=["INf", "INf", "INf"]))[0] == (0.0, 0)
    # ... while an Indian lady is still in the bag, he is half of the way at each table
    assert fits(new_position(hands, chairs, bar=["INf", "INf"]))[0] == (1.0, 0)


def test_the_race_evaluation_counts_the_hand_target_against_a_player_late_on() -> None:
    hands = [["USm"], ["USf", "GBm", "GBf", "ESm", "ESf"]]
    early = new_position(hands, hand_targets=[1, 5])
    bar = ["AFm", "AFf", "CNm", "CNf", "CUm", "CUf", "FRm", "FRf", "DEm", "DEf"] * 2
    late = new_position(hands, hand_targets=[1, 5], bar=bar[:19])
    assert lateness(early) == 0.0 and lateness(late) == 0.95
    early_edge = race_strengths(early, 0.0)
    assert abs(early_edge[0] - early_edge[1]) < 0.2  # only the mover's edge
    strengths = race_strengths(late, lateness(late))
    assert strengths[0] - strengths[1] > 2.0  # 4 fewer cards to go: most of the race won


def test_the_race_evaluation_predicts_the_winner_of_greedy_games() -> None:
    """At every turn start of games between greedy players, the race evaluation's win chance
    of the eventual winner beats a coin toss clearly (log loss below 0.65 against 0.693)."""
    losses = []
    for seed in range(20):
        state = GAME.new_state(2, seed=seed)
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 100)]
        seen = []
        while not state.is_terminal():
            player = state.current_player()
            if state.phase == "turn":
                seen.append((player, outlook(state, player)))
            state.apply(bots[player].choose(state))
        winners = state.winners()
        for player, chance in seen:
            won = player in winners
            losses.append(-math.log(chance if won else 1 - chance))
    assert sum(losses) / len(losses) < 0.65


def test_a_turn_that_wins_the_race_is_taken() -> None:
    # P1's last card completes IN1 (3 Indians, a lady missing) with a hand target of 1:
    # the target falls to 0, the hand is empty and the game ends with P1 ahead (CI-E.1)
    state = new_position(
        [["INf"], ["USm", "USf", "GBm"]],
        {27: "INf", 28: "INm", 29: "INm"},
        scores=[30, 20],
        hand_targets=[1, 3],
    )
    bot = make_bot("heuristic", 1)
    while state.current_player() == 0:  # the placement, then the end of the turn
        state.apply(bot.choose(state))
    assert state.is_terminal() and state.winners() == [0]


def test_the_heuristic_does_not_seat_a_third_native_for_the_next_player_to_complete() -> None:
    # IN1 seats an Indian lady and man; P2 holds an Indian man. An Indian lady of P1's on
    # chair 29 or 20 scores 3 and lets P2 complete IN1 for 8 and a smaller hand target
    # (CI-D.2); a pair at an empty table scores 2 and gives P2 nothing of the kind.
    hands = [["INf", "USf", "USm", "GBf", "GBm"], ["INm", "ESf", "ESm", "FRf", "FRm"]]
    for seed in range(3):
        state = new_position(hands, {27: "INf", 28: "INm"})
        bot = make_bot("heuristic", seed)
        first = bot.choose(state)
        assert first.notation not in {"INf@20", "INf@29"}, seed
        state.apply(first)
        if not state.is_terminal() and state.current_player() == 0:
            second = bot.choose(state)
            assert second.notation not in {"INf@20", "INf@29"}, seed

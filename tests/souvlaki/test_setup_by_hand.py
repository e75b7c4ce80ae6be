"""Setups written by hand (issue 6 item 9): part of a position with the rest dealt from a seed,
any phase (the mulligan, a draft row with picks made, cards in play for the round), and a
refusal naming the field for each way to get one wrong."""

from __future__ import annotations

from typing import Any

import pytest

from kafeneio.core import KafeneioError
from kafeneio.core.record import replay
from kafeneio.games.souvlaki import SouvlakiState

from .conftest import CARDS, GAME, finish_service_of_all, legal, play

TOTALS = {
    "food": sum(card.count for card in CARDS.foods),
    "customers": sum(card.count for card in CARDS.customers),
    "unforeseen": sum(kind.count for kind in CARDS.unforeseen),
}


def hand_made(players: int = 2, **fields: Any) -> SouvlakiState:
    """A position of only the fields given; every other card dealt from the rest (seed 1)."""
    return GAME.new_state(players, setup={"rest": {"seed": 1}, **fields})


def hand(state: SouvlakiState, player: int) -> dict[str, Any]:
    cards = state.observation(player)["hand"]
    assert cards is not None
    return dict(cards)


def test_rest_deals_hands_given_as_numbers_and_fills_the_decks() -> None:
    fields: dict[str, Any] = {
        "phase": "service",
        "food_hands": [["GF", "SF"], 5],
        "unforeseen_hands": [[], 2],
        "queues": [["SF 1/2"], []],
        "reputation": [9, 5],
    }
    state = hand_made(**fields)
    assert sorted(hand(state, 0)["food"]) == ["GF", "SF"]
    assert len(hand(state, 1)["food"]) == 5 and len(hand(state, 1)["unforeseen"]) == 2
    assert state.card_counts() == TOTALS and state.inconsistencies() == []
    assert hand_made(**fields) == state
    play(state, "play SF", "serve")
    assert replay(GAME, state.to_record()) == state


@pytest.mark.rule("SW-S.4")
def test_rest_puts_the_unlisted_cards_under_the_listed_deck_tops() -> None:
    state = GAME.new_state(2, setup={"food": ["SF", "SF"], "rest": {"seed": 2}})
    assert hand(state, 0)["food"].count("SF") >= 2  # the first two cards dealt
    assert state.phase == "mulligan" and state.card_counts() == TOTALS


@pytest.mark.rule("SW-S.6")
def test_a_setup_may_start_at_the_mulligan() -> None:
    state = hand_made(
        phase="mulligan", food_hands=[["G", "G", "G", "G", "G"], 5], reputation=[9, 5]
    )
    assert state.phase == "mulligan" and legal(state) == {"keep", "redraw"}
    assert state.current_player() == 0
    play(state, "redraw", "keep")
    assert state.observation(0)["discards"]["food"] == {"G": 5}
    assert state.phase == "customers" and state.round == 1
    with pytest.raises(KafeneioError, match="mulligan comes before round 1"):
        hand_made(phase="mulligan", round=2)


@pytest.mark.rule("SW-2.2")
def test_a_draft_row_with_picks_made_goes_on_in_snake_order() -> None:
    row = ["SF 1/2", None, "GG 3/2", "G 2/1", None]  # two picks made
    state = hand_made(phase="customers", row=row, reputation=[9, 5])
    assert state.observation(0)["row"] == row
    assert state.current_player() == 1  # picks P1 P2 P2 P1: the third is P2's second
    assert legal(state) == {"pick 1", "pick 3", "pick 4"}
    play(state, "pick 3", "pick 1")
    assert state.phase == "unforeseen"  # the last card is discarded, the phone orders come
    discards = state.observation(0)["discards"]["customers"]
    assert discards.get("G 2/1") == 1
    assert state.card_counts() == TOTALS


@pytest.mark.rule("SW-2.1")
@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"phase": "service", "row": ["SF 1/2"]}, "setup.row: the draft row"),
        ({"phase": "customers", "row": ["SF 1/2"] * 6}, "at most 5 customers"),
        ({"phase": "customers", "row": ["XX 1/1"]}, r"setup.row\[0\]"),
        ({"phase": "customers", "row": [None] * 5}, "pick 4 customers at most"),
    ],
)
def test_a_bad_draft_row_is_refused(fields: dict[str, Any], named: str) -> None:
    with pytest.raises(KafeneioError, match=named):
        hand_made(**fields)


@pytest.mark.rule("SW-3.3")
@pytest.mark.rule("SW-E.16")
def test_a_card_in_play_for_the_round_acts_and_leaves_at_its_end() -> None:
    state = hand_made(
        phase="service",
        round=2,
        food_hands=[["G"], []],
        queues=[["G 2/1"], []],
        in_play=[{"card": "good-review", "player": 0}],
        reputation=[9, 5],
    )
    assert state.observation(0)["in_play"] == {"good-review": 1}
    assert state.observation(0)["players"][0]["served_reputation"] == 1
    play(state, "play G", "serve")
    assert state.reputation(0) == 9 + 1 + 1
    finish_service_of_all(state)
    assert state.observation(0)["in_play"] == {}
    assert state.observation(0)["discards"]["unforeseen"] == {"good-review": 1}


@pytest.mark.rule("SW-E.5")
def test_a_tip_in_play_lies_on_its_customer() -> None:
    state = hand_made(
        phase="service",
        queues=[[], ["G 2/1", "SF 1/2"]],
        in_play=[{"card": "generous-tip", "customer": [1, 1]}],
    )
    assert [c["tip"] for c in state.observation(0)["queues"][1]] == [0, 2]


@pytest.mark.rule("SW-E.1")
def test_a_change_of_plans_in_play_cancels_the_next_card() -> None:
    state = hand_made(
        phase="unforeseen",
        unforeseen_hands=[["health-inspection"], []],
        in_play=[{"card": "change-of-plans"}],
        reputation=[9, 5],
    )
    assert state.observation(0)["cancels_pending"] == 1
    play(state, "use health-inspection p2")
    assert state.reputation(1) == 5  # cancelled


@pytest.mark.rule("SW-3.3")
@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"phase": "customers", "in_play": [{"card": "good-review", "player": 0}]}, "phase 3"),
        ({"in_play": [{"card": "ninja-in-the-kitchen"}]}, "does not last the round"),
        ({"in_play": [{"card": "good-review"}]}, r"setup.in_play\[0\].player"),
        ({"in_play": [{"card": "good-review", "player": 2}]}, r"setup.in_play\[0\].player"),
        ({"in_play": [{"card": "generous-tip", "customer": [0, 0]}]}, r"in_play\[0\].customer"),
        ({"in_play": [{"card": "good-review", "on": 1}]}, r"setup.in_play\[0\] must be"),
        ({"in_play": [{"card": "no-such-card"}]}, r"setup.in_play\[0\].card"),
        ({"in_play": "good-review"}, "setup.in_play must be a list"),
    ],
)
def test_a_bad_card_in_play_is_refused(fields: dict[str, Any], named: str) -> None:
    with pytest.raises(KafeneioError, match=named):
        hand_made(**{"phase": "service", **fields})


@pytest.mark.parametrize(
    ("setup", "named"),
    [
        ({"rest": {"seed": "x"}, "phase": "service"}, "setup.rest"),
        ({"rest": [1], "phase": "service"}, "setup.rest"),
        ({"phase": "service", "food_hands": [[], 3]}, r"setup.food_hands\[1\]: a number"),
        ({"rest": {"seed": 1}, "food_hands": [[], -1]}, r"setup.food_hands\[1\] must be"),
        ({"rest": {"seed": 1}, "food_hands": [["SD"] * 9, []]}, "lists the food card SD"),
        ({"rest": {"seed": 1}, "unforeseen": ["good-review"] * 3}, "good-review 3 times"),
    ],
)
def test_a_bad_rest_is_refused_by_name(setup: dict[str, Any], named: str) -> None:
    with pytest.raises(KafeneioError, match=named):
        GAME.new_state(2, setup=setup)


def test_without_rest_every_card_must_still_be_placed() -> None:
    with pytest.raises(KafeneioError, match="as often as the game has it"):
        GAME.new_state(2, setup={"phase": "service", "in_play": [{"card": "change-of-plans"}]})

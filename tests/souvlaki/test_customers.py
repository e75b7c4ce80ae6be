"""Phase 2, New Customers (SW-2): the draft, queues, phone orders and Big Phone Orders."""

from __future__ import annotations

import re
from typing import Any

import pytest

from kafeneio.core import SPECTATOR, IllegalActionError, NotationError
from kafeneio.games.souvlaki import SouvlakiState

from .conftest import legal, play, position, queue_text

ROW_OF_FIVE = ["G 2/1", "S 2/1", "F 1/1", "D 1/0", "GG 3/2"]


def draft_of_two(customers_top: list[str], **kwargs: Any) -> SouvlakiState:
    """Two players at the start of phase 2; P1 (reputation 10) picks first."""
    return position(phase="customers", customers_top=customers_top, reputation=[10, 5], **kwargs)


@pytest.mark.rule("SW-2.12")
@pytest.mark.rule("SW-2.2")
@pytest.mark.rule("SW-2.4")
@pytest.mark.rule("SW-2.6")
def test_the_rulebook_new_customers_example() -> None:
    """Giorgos (Le Souvlache, 13), Nikos (Gyros Express, 13) and Maria (14): 7 cards; Maria
    picks first, then Giorgos (higher starting reputation), then Nikos, who at once picks again;
    then Giorgos, then Maria; one card is discarded; phone orders come in the first order."""
    row = ["G 2/1", "S 2/1", "F 1/1", "D 1/0", "GG 3/2", "SS 3/2", "GS 3/1"]
    phones = ["SF 1/2", "GF 2/2", "SD 2/1"]
    state = position(
        3,
        phase="customers",
        customers_top=row + phones,
        reputation=[13, 13, 14],
        options={"shops": ["souvlache", "express", "thanasis"]},
    )
    giorgos, nikos, maria = 0, 1, 2
    assert state.observation(0)["row"] == row
    pickers = []
    for slot in range(1, 7):
        pickers.append(state.current_player())
        play(state, f"pick {slot}")
    assert pickers == [maria, giorgos, nikos, nikos, giorgos, maria]
    assert state.observation(0)["discards"]["customers"] == {"GS 3/1": 1}
    assert queue_text(state, maria) == ["G 2/1", "SS 3/2", "SF 1/2 phone"]
    assert queue_text(state, giorgos) == ["S 2/1", "GG 3/2", "GF 2/2 phone"]
    assert queue_text(state, nikos) == ["F 1/1", "D 1/0", "SD 2/1 phone"]


@pytest.mark.rule("SW-2.1")
@pytest.mark.parametrize(("players", "revealed"), [(2, 5), (3, 7), (4, 9)])
def test_2n_plus_1_customers_are_revealed(players: int, revealed: int) -> None:
    state = position(players, phase="customers")
    assert len(state.observation(0)["row"]) == revealed
    assert len(legal(state)) == revealed


@pytest.mark.rule("SW-2.3")
def test_picking_is_mandatory() -> None:
    state = draft_of_two(ROW_OF_FIVE)
    assert legal(state) == {f"pick {slot}" for slot in range(1, 6)}
    for move in ("pass", "done", "finish"):
        with pytest.raises(IllegalActionError) as error:
            play(state, move)
        assert error.value.rule == "SW-2.3"
    play(state, "pick 2")
    with pytest.raises(IllegalActionError) as error:
        play(state, "pick 2")  # taken already
    assert error.value.rule == "SW-2.2"


@pytest.mark.rule("SW-2.5")
def test_customers_from_earlier_rounds_stay_ahead() -> None:
    old = {"card": "GSD 4/2", "annoyed": True}
    state = draft_of_two([*ROW_OF_FIVE, "SF 1/2", "GF 2/2"], queues=[[old], []])
    play(state, "pick 5", "pick 1", "pick 2", "pick 3")
    assert queue_text(state, 0) == ["GSD 4/2 annoyed", "GG 3/2", "F 1/1", "SF 1/2 phone"]


BIG_ROW = ["G 2/1", "BIG", "S 2/1", "F 1/1", "D 1/0"]
"""A draft row with a Big Phone Order in slot 2, for P2 to take."""
AFTER_THE_ROW = ["SF 1/2", "GG 3/2", "SS 3/2", "GF 2/2"]


@pytest.mark.rule("SW-2.7")
@pytest.mark.rule("SW-2.9")
def test_a_drafted_big_phone_order_keeps_its_place_and_draws_in_the_phone_step() -> None:
    state = draft_of_two(BIG_ROW + AFTER_THE_ROW)
    play(state, "pick 1", "pick 2")  # P2 drafts the Big Phone Order
    waiting = state.observation(0)["queues"][1][0]
    assert waiting["waiting"] and waiting["big"] and waiting["cards"] == []  # nothing drawn yet
    play(state, "pick 3", "pick 4")
    # Phone step, in reputation order: P1's phone order (SF), then P2's Big Phone Order (GG and
    # SS) in its drafted place ahead of the later pick, then P2's ordinary phone order (GF).
    assert queue_text(state, 0) == ["G 2/1", "F 1/1", "SF 1/2 phone"]
    assert queue_text(state, 1) == ["GGSS 6/4 phone big", "S 2/1", "GF 2/2 phone"]


@pytest.mark.rule("SW-2.7")
def test_the_draft_option_draws_a_big_phone_order_face_up_when_drafted() -> None:
    state = draft_of_two(BIG_ROW + AFTER_THE_ROW, options={"big_phone_order_draw": "draft"})
    play(state, "pick 1", "pick 2")
    assert queue_text(state, 1) == ["GGSF 4/4 phone big"]  # SF and GG, drawn face up at once
    play(state, "pick 3", "pick 4")
    assert queue_text(state, 0) == ["G 2/1", "F 1/1", "SS 3/2 phone"]
    assert queue_text(state, 1) == ["GGSF 4/4 phone big", "S 2/1", "GF 2/2 phone"]


@pytest.mark.rule("SW-2.8")
def test_a_big_phone_order_is_served_whole_or_not_at_all() -> None:
    big = {"big": ["GG 3/2", "S 2/1"]}
    state = position(
        queues=[[big], []], food_hands=[["GG", "S"], []], money=[0, 0], reputation=[9, 5]
    )
    play(state, "play GG")
    assert "serve" not in legal(state)  # the gyros alone are half the order
    play(state, "play S", "serve")
    assert (state.money(0), state.reputation(0)) == (5, 9 + 3)


@pytest.mark.rule("SW-2.10")
def test_a_big_phone_order_drawn_for_a_phone_order_is_replaced() -> None:
    state = draft_of_two([*ROW_OF_FIVE, "BIG", "SF 1/2", "GF 2/2"])
    play(state, "pick 1", "pick 2", "pick 3", "pick 4")
    assert queue_text(state, 0) == ["G 2/1", "D 1/0", "SF 1/2 phone"]
    assert queue_text(state, 1) == ["S 2/1", "F 1/1", "GF 2/2 phone"]
    assert state.observation(0)["discards"]["customers"] == {"GG 3/2": 1, "BIG": 1}


@pytest.mark.rule("SW-2.10")
def test_a_big_phone_order_drawn_for_a_big_phone_order_is_replaced() -> None:
    state = draft_of_two(
        ["BIG", *ROW_OF_FIVE[:4], "BIG", "GG 3/2", "SS 3/2"],
        options={"big_phone_order_draw": "draft"},
    )
    play(state, "pick 1")
    assert queue_text(state, 0) == ["GGSS 6/4 phone big"]
    assert state.observation(0)["discards"]["customers"] == {"BIG": 1}


@pytest.mark.rule("SW-2.11")
def test_an_undrafted_big_phone_order_is_discarded_like_any_leftover() -> None:
    state = draft_of_two([*ROW_OF_FIVE[:4], "BIG"])
    play(state, "pick 1", "pick 2", "pick 3", "pick 4")
    assert state.observation(0)["discards"]["customers"] == {"BIG": 1}
    assert state.phase == "unforeseen"
    # said as the card left, not "nobody drafted" (a row may hold two, one of them drafted)
    said = [line for entry in state.history_for(0) for line in entry.events]
    assert "Left in the row: BIG, discarded (SW-2.11)" in said
    # an ordinary card left cites the draft's rule, not the Big Phone Order's
    state = draft_of_two(ROW_OF_FIVE)
    play(state, "pick 1", "pick 2", "pick 3", "pick 4")
    said = [line for entry in state.history_for(0) for line in entry.events]
    left = [line for line in said if line.startswith("Left in the row: ")]
    assert len(left) == 1 and left[0].endswith(", discarded (SW-2.2)"), left


@pytest.mark.rule("SW-2.2")
def test_a_pick_is_told_citing_the_draft_rule() -> None:
    """A pick cited SW-2.3 (picking is mandatory), where the draft it is part of is SW-2.2."""
    state = draft_of_two(ROW_OF_FIVE)
    (told,) = [e for e in state.apply(state.parse_legal("pick 2")) if e.kind == "pick"]
    assert re.fullmatch(
        r"P\d drafts \S+ \d/\d from slot 2 \(SW-2\.2\)", told.text_for(SPECTATOR) or ""
    )


@pytest.mark.rule("SW-2.2")
def test_pick_of_a_word_names_the_rows_own_slots() -> None:
    """``pick x`` said "slots are numbered 1 to 9", the largest row's, in a row of 5."""
    state = draft_of_two(ROW_OF_FIVE)
    with pytest.raises(NotationError, match=r"^'x' is not a slot: the row's slots are 1 to 5$"):
        state.parse_legal("pick x")
    with pytest.raises(NotationError, match="plain ASCII"):  # the notation's own error stands
        state.parse_legal("pick ３")

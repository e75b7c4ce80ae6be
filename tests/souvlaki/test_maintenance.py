"""Phase 1, Shop Maintenance (SW-1): the operating cost, drawing, supplies, advertising, the
hand limit, loans, and the rulebook's Gyros Express example."""

from __future__ import annotations

from typing import Any

import pytest

from kafeneio.core import CHANCE, SPECTATOR, IllegalActionError, KafeneioError
from kafeneio.games.souvlaki import SouvlakiState

from .conftest import legal, play, position


def maintenance(**kwargs: Any) -> SouvlakiState:
    """Round 3 maintenance: P1 Gyros Express (reputation 10) goes first, P2 Thanasis second."""
    kwargs.setdefault("reputation", [10, 5])
    kwargs.setdefault("options", {"shops": ["express", "thanasis"]})
    return position(phase="maintenance", round=3, **kwargs)


@pytest.mark.rule("SW-1.7")
def test_the_rulebook_gyros_express_example() -> None:
    state = maintenance(food_hands=[["G", "S"], []], money=[12, 12])
    before = state.observation(0)["players"][0]
    # the operating cost of 2 is paid and 1 food and 1 unforeseen card drawn: 3 food cards
    assert state.money(0) == 10 and len(state.food_hand(0)) == 3
    assert state.observation(0)["players"][0]["unforeseen_cards"] == 1
    play(state, "buy")  # 2 for 3 food cards
    play(state, "advertise")  # 2 for +2 reputation
    after = state.observation(0)["players"][0]
    assert after["money"] - 12 == -6
    assert after["reputation"] - before["reputation"] == 2
    assert after["food_cards"] == 6
    play(state, "done")
    assert state.current_player() == 1


@pytest.mark.rule("SW-1.1")
def test_each_player_pays_the_operating_cost_in_turn() -> None:
    state = maintenance(money=[12, 12])
    assert (state.money(0), state.money(1)) == (10, 12)  # Thanasis pays when its turn comes
    play(state, "done")
    assert (state.money(0), state.money(1)) == (10, 11)


@pytest.mark.rule("SW-1.2")
def test_one_food_and_one_unforeseen_card_are_drawn() -> None:
    state = maintenance(food_top=["GD"], unforeseen_top=["queue-jump"])
    assert state.food_hand(0) == ["GD"]
    assert state.observation(0)["hand"]["unforeseen"] == ["queue-jump"]


@pytest.mark.rule("SW-1.2")
@pytest.mark.rule("SW-S.5")
def test_no_unforeseen_card_is_drawn_in_first_game_mode() -> None:
    state = maintenance(options={"shops": ["express", "thanasis"], "first_game": True})
    assert state.observation(0)["players"][0]["unforeseen_cards"] == 0
    assert len(state.food_hand(0)) == 1


@pytest.mark.rule("SW-1.3")
def test_supplies_and_advertising_are_bought_once_a_round() -> None:
    state = maintenance(money=[20, 20])
    assert legal(state) == {"buy", "advertise", "done"}
    play(state, "buy", "advertise")
    assert legal(state) == {"done"}
    said = {
        "buy": "Gyros Express may buy supplies once a round, and already has",
        "advertise": "advertising is bought once a round, and it already was this round",
    }
    for move, why in said.items():  # a whole sentence ("..., and has" was cut short)
        with pytest.raises(IllegalActionError) as error:
            play(state, move)
        assert error.value.rule == "SW-1.3" and str(error.value) == f"{move}: {why} (SW-1.3)"


@pytest.mark.rule("SW-1.3")
def test_the_family_shop_may_buy_supplies_twice() -> None:
    state = maintenance(money=[20, 20], options={"shops": ["pita", "thanasis"]})
    play(state, "buy", "buy")
    assert "buy" not in legal(state)
    assert len(state.food_hand(0)) == 1 + 2 + 2
    assert state.money(0) == 20 - 2 - 2 - 2


@pytest.mark.rule("SW-1.3")
def test_a_purchase_needs_enough_money() -> None:
    state = maintenance(money=[3, 20])  # 1 left after the operating cost of 2
    assert legal(state) == {"done"}
    with pytest.raises(IllegalActionError, match="cost 2") as error:
        play(state, "buy")
    assert error.value.rule == "SW-1.3"


@pytest.mark.rule("SW-1.3")
@pytest.mark.parametrize("money", [3, 5, 20])
def test_a_purchase_is_offered_exactly_when_no_refusal_applies(money: int) -> None:
    """Move generation and the refusal share one predicate (rule and reason)."""
    state = maintenance(money=[money, 20], options={"shops": ["pita", "thanasis"]})
    for move in ("buy", "advertise", "buy", "advertise", "buy"):
        kind = state.game.parse_action(move).kind
        refusal = state.purchase_refusal(0, kind)
        assert (refusal is None) == (move in legal(state))
        if refusal is None:
            play(state, move)
            continue
        before = state.clone()
        with pytest.raises(IllegalActionError) as error:
            play(state, move)
        assert str(error.value) == f"{move}: {refusal[1]} ({refusal[0]})"
        assert state == before


@pytest.mark.rule("SW-1.3")
def test_the_debt_option_lets_purchases_take_money_below_0() -> None:
    state = maintenance(
        money=[3, 20], options={"shops": ["express", "thanasis"], "purchases_into_debt": True}
    )
    play(state, "buy", "advertise")
    assert state.money(0) == 1 - 2 - 2


@pytest.mark.rule("SW-1.4")
def test_a_hand_over_7_is_discarded_down_to_7_by_choice() -> None:
    hand = ["G", "S", "F", "D", "GF", "GD", "SF"]
    state = maintenance(food_hands=[hand, []], food_top=["SD"], money=[20, 20])
    assert len(state.food_hand(0)) == 8
    assert legal(state) == {f"discard {card}" for card in [*hand, "SD"]}
    with pytest.raises(IllegalActionError) as error:
        play(state, "buy")
    assert error.value.rule == "SW-1.4"
    play(state, "discard GF")
    assert len(state.food_hand(0)) == 7 and "GF" not in state.food_hand(0)
    play(state, "buy")  # 3 more: 10 cards, discard 3 at once
    assert len(state.food_hand(0)) == 10
    play(state, "discard G", "discard S", "discard F")
    assert legal(state) == {"advertise", "done"}


@pytest.mark.rule("SW-1.4")
def test_the_random_discard_option_leaves_the_choice_to_chance() -> None:
    hand = ["G", "S", "F", "D", "GF", "GD", "SF"]
    state = maintenance(
        food_hands=[hand, []],
        food_top=["SD"],
        options={"shops": ["express", "thanasis"], "hand_limit_discard": "random"},
    )
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    discarded = state.apply(state.parse_legal("random SD"))
    assert len(state.food_hand(0)) == 7 and state.current_player() == 0
    # the holder's own discard, face up, told as such to everyone: no Rats were played
    for viewer in (0, 1, SPECTATOR):
        told = [event.text_for(viewer) for event in discarded]
        assert "P1 discards SD at random: too many food cards (SW-1.4)" in told


@pytest.mark.rule("SW-1.4")
def test_the_hand_limit_is_an_option() -> None:
    state = maintenance(food_hands=[["G", "S", "F"], []], options={"hand_limit": 3})
    assert all(move.startswith("discard") for move in legal(state))


@pytest.mark.rule("SW-1.4")
@pytest.mark.parametrize("limit", [7, 3])
def test_the_observation_says_the_hand_limit_a_player_over_it_discards_down_to(
    limit: int,
) -> None:
    """Only discards are offered above the limit: the observation says why, to everyone (a
    rules option is public), and the key and the tensor tell the limits apart."""
    hand = ["G", "S", "F", "D", "GF", "GD", "SF"][:limit]
    options = {"shops": ["express", "thanasis"], "hand_limit": limit}
    state = maintenance(food_hands=[hand, []], food_top=["SD"], options=options)
    for viewer in (0, 1, SPECTATOR):
        view = state.observation(viewer)
        assert view["rules"]["hand_limit"] == limit
    assert state.observation(0)["players"][0]["food_cards"] > limit
    assert all(move.startswith("discard") for move in legal(state))
    other = maintenance(
        food_hands=[hand, []], food_top=["SD"], options={**options, "hand_limit": 8}
    )
    assert other.observation_key(0) != state.observation_key(0)
    assert other.observation_tensor(0) != state.observation_tensor(0)


@pytest.mark.rule("SW-1.4")
def test_the_board_tells_a_hand_over_the_limit_why_it_may_only_discard() -> None:
    options = {"shops": ["express", "thanasis"], "hand_limit": 3}
    state = maintenance(food_hands=[["G", "S", "F"], []], food_top=["SD"], options=options)
    board = state.game.render(state, 0)
    assert "Your food cards (1 over the limit of 3: discard): " in board
    assert max(len(line) for line in board.splitlines()) <= 80
    assert "over the limit" not in state.game.render(state, 1)  # P2 holds nothing
    # where chance discards for the player (a rules option), the board does not ask them to
    chance = {**options, "hand_limit_discard": "random"}
    state = maintenance(food_hands=[["G", "S", "F"], []], food_top=["SD"], options=chance)
    assert state.current_player() == CHANCE
    assert "Your food cards (1 over the limit of 3): " in state.game.render(state, 0)


@pytest.mark.rule("SW-1.4")
def test_unforeseen_cards_have_no_hand_limit() -> None:
    many = ["queue-jump"] * 2 + ["good-review"] * 2 + ["fresh-delivery"] * 2 + ["dirty-shop"] * 2
    state = maintenance(unforeseen_hands=[many, []])
    assert state.observation(0)["players"][0]["unforeseen_cards"] == 9
    assert "done" in legal(state)


@pytest.mark.rule("SW-1.5")
def test_a_player_who_cannot_pay_the_operating_cost_takes_a_loan_of_10() -> None:
    state = maintenance(money=[1, 20])
    assert state.money(0) == 1 + 10 - 2
    assert state.observation(0)["players"][0]["loans"] == 1


@pytest.mark.rule("SW-1.5")
def test_loans_stack() -> None:
    state = maintenance(money=[0, 20], loans=[2, 0])
    assert state.observation(0)["players"][0]["loans"] == 3
    assert state.net_money(0) == 8 - 3 * 11


@pytest.mark.rule("SW-1.5")
def test_the_no_money_option_lends_only_to_an_empty_purse() -> None:
    options = {"shops": ["express", "thanasis"], "loan_trigger": "no-money"}
    state = maintenance(money=[1, 0], options=options)
    assert state.money(0) == -1 and state.observation(0)["players"][0]["loans"] == 0
    play(state, "done")
    assert state.money(1) == 9 and state.observation(0)["players"][1]["loans"] == 1


@pytest.mark.rule("SW-1.5")
def test_a_shop_in_debt_may_be_set_up_as_play_reaches_it() -> None:
    options = {"shops": ["express", "thanasis"], "loan_trigger": "no-money"}
    state = maintenance(money=[-3, 20], options=options)  # the no-money option's debt
    assert state.money(0) == -3 + 10 - 2 and state.observation(0)["players"][0]["loans"] == 1
    state = maintenance(money=[-15, 20])  # a loan, then another, until the cost is paid
    assert state.money(0) == -15 + 2 * 10 - 2 and state.observation(0)["players"][0]["loans"] == 2
    with pytest.raises(
        KafeneioError, match=r"setup\.money must be a list of 2 whole numbers ≥ -1000"
    ):
        maintenance(money=[-1001, 20])


@pytest.mark.rule("SW-1.6")
def test_a_loan_costs_11_money_at_the_win_check() -> None:
    state = position(money=[35, 25], reputation=[30, 25], loans=[1, 0])
    assert state.net_money(0) == 24
    while not state.is_terminal():
        play(state, "finish")
    assert state.winners() == [1]  # P1's 35 money count as 24: not enough to win
    assert state.scores() == [24 + 30, 25 + 25]


@pytest.mark.rule("SW-1.6")
def test_the_loan_can_be_left_out_of_the_tie_break_sum() -> None:
    state = position(
        money=[37, 25],
        reputation=[25, 25],
        loans=[1, 0],
        options={"loan_in_tiebreak": False},
    )
    assert state.scores() == [37 + 25, 25 + 25]


@pytest.mark.rule("SW-1.5")
def test_an_effect_takes_nothing_from_a_shop_in_debt_and_gives_it_whole() -> None:
    """Ruling: an effect takes no more money than a player has. A shop in debt (reachable
    with purchases_into_debt or the no-money loan trigger) was lifted to 0 by a loss."""
    state = position(phase="service", round=3, money=[-3, 5], reputation=[10, 5])
    state.change_money(0, -2, "a card")
    assert state.money(0) == -3  # nothing to take: the debt stays as it was
    state.change_money(1, -8, "a card")
    assert state.money(1) == 0  # no more than the shop has
    state.change_money(0, 4, "a card")
    assert state.money(0) == 1  # a gain is whole


@pytest.mark.rule("SW-1.6")
def test_a_loan_says_what_it_takes_from_the_money_that_wins() -> None:
    """A loan read "takes a loan of 10" while net money fell by 11: the penalty was said nowhere."""
    options = {"shops": ["express", "thanasis"], "loan_trigger": "no-money"}
    state = maintenance(money=[1, 0], options=options)
    (told,) = [e for e in state.apply(state.parse_legal("done")) if e.kind == "loan"]
    assert told.text_for(SPECTATOR) == (
        "P2 takes a loan of 10 (SW-1.5), which takes 11 from their money when the win is "
        "counted (SW-1.6)"
    )

"""Components (SW-0), setup (SW-S), the round and turn order (SW-R), and the rules options."""

from __future__ import annotations

import random
from importlib import resources
from pathlib import Path

import pytest

from kafeneio.core import KafeneioError, OptionsError
from kafeneio.games import get_game
from kafeneio.games.souvlaki import SouvlakiGame

from .conftest import (
    ALL_CUSTOMERS,
    ALL_FOOD,
    ALL_UNFORESEEN,
    CARDS,
    GAME,
    Customer,
    finish_service_of_all,
    legal,
    play,
    position,
    queue_text,
    stacked_start,
)

SHOP_ORDER = ["thanasis", "pita", "express", "souvlache"]


@pytest.mark.rule("SW-0.1")
def test_the_box_holds_the_rulebook_component_counts() -> None:
    assert sum(card.count for card in CARDS.customers) == 60
    assert sum(card.count for card in CARDS.foods) == 72
    assert len(CARDS.shops) == 4
    assert sum(kind.count for kind in CARDS.unforeseen) == 32


@pytest.mark.rule("SW-0.2")
def test_a_food_card_shows_one_or_more_of_the_four_foods() -> None:
    assert all(sum(card.foods) >= 1 for card in CARDS.foods)
    assert {card.text for card in CARDS.foods} >= {"G", "S", "F", "D"}
    assert {"GF", "S", "GD"} <= {card.text for card in CARDS.foods}  # seen in SW-4.10


@pytest.mark.rule("SW-0.3")
def test_a_customer_card_shows_an_order_money_and_influence_or_is_a_big_phone_order() -> None:
    big = [card for card in CARDS.customers if card.big]
    assert sum(card.count for card in big) == 4
    for card in CARDS.customers:
        if not card.big:
            assert sum(card.order) >= 1 and card.money >= 0 and card.influence >= 0
    texts = {card.text for card in CARDS.customers}
    assert {"SF 1/2", "GG 3/2"} <= texts  # the customers of the serving example


@pytest.mark.rule("SW-0.4")
def test_a_shop_identity_gives_its_costs_and_gains() -> None:
    express = CARDS.shops[CARDS.shop_index("express")]
    assert (express.start_reputation, express.operating_cost) == (4, 2)
    assert (express.supplies_cost, express.supplies_cards) == (2, 3)
    assert (express.advertising_cost, express.advertising_reputation) == (2, 2)
    assert len({shop.start_reputation for shop in CARDS.shops}) == 4  # ties break on them


@pytest.mark.rule("SW-0.5")
def test_phone_markers_are_no_limit_unless_an_option_says_so() -> None:
    def phone(card: str) -> Customer:
        return {"card": card, "phone": True}

    queues = [[phone("G 2/1")] * 3 + [phone("F 1/1")] * 3, [phone("S 2/1")] * 3 + ["D 1/0"] * 2]
    for markers, expected in ((0, 11), (10, 10)):
        state = position(
            phase="customers",
            queues=queues,
            reputation=[9, 5],
            options={"phone_markers": markers},
        )
        play(state, "pick 1", "pick 2", "pick 3", "pick 4")
        phones = [c for q in state.observation(0)["queues"] for c in q if c["phone"]]
        assert len(phones) == expected  # 9 in use: each player gets one, or only the 10th


@pytest.mark.rule("SW-S.1")
def test_two_to_four_players_each_with_a_shop_of_their_own() -> None:
    for players in (1, 5):
        with pytest.raises(KafeneioError, match="2 to 4"):
            GAME.new_state(players, seed=1)
    for players in (2, 3, 4):
        state = GAME.new_state(players, seed=1)
        shops = [p["shop"] for p in state.observation(0)["players"]]
        assert shops == SHOP_ORDER[:players]
    state = GAME.with_options({"shops": ["souvlache", "pita"]}).new_state(2, seed=1)
    assert [p["shop"] for p in state.observation(0)["players"]] == ["souvlache", "pita"]
    with pytest.raises(OptionsError, match="one player only"):
        GAME.with_options({"shops": ["pita", "pita"]}).new_state(2, seed=1)
    with pytest.raises(KafeneioError, match="no shop"):
        GAME.with_options({"shops": ["pita", "kebab"]}).new_state(2, seed=1)
    with pytest.raises(KafeneioError, match="3 shops for 2 seats"):
        GAME.with_options({"shops": ["pita", "express", "thanasis"]}).new_state(2, seed=1)
    with pytest.raises(KafeneioError, match="no shop 'foo'"):  # an unknown shop first, and
        GAME.with_options({"shops": ["foo"]}).new_state(2, seed=1)  # not "1 shops for 2 seats"
    with pytest.raises(KafeneioError, match="names 1 shop for 2 seats"):
        GAME.with_options({"shops": ["pita"]}).new_state(2, seed=1)


@pytest.mark.rule("SW-S.1")
def test_the_shops_option_is_refused_when_it_names_no_shop_too_many_or_an_unknown_one() -> None:
    with pytest.raises(OptionsError, match="option shops names no shop"):
        get_game("souvlaki", {"shops": []})  # like ["pita"] for 2 seats, never the defaults
    five = ["thanasis", "pita", "express", "souvlache", "kebab"]
    with pytest.raises(OptionsError, match="names 5 shops: at most 4"):
        get_game("souvlaki", {"shops": five})
    with pytest.raises(OptionsError) as error:  # at once, not when a game starts
        get_game("souvlaki", {"shops": ["nope", "pita"]})
    assert str(error.value) == (
        "option shops: no shop 'nope'; the shops are thanasis, pita, express, souvlache"
    )


@pytest.mark.rule("SW-S.2")
def test_money_and_reputation_start_at_the_identity_values() -> None:
    state = GAME.with_options({"shops": ["souvlache", "express"]}).new_state(2, seed=3)
    assert (state.money(0), state.reputation(0)) == (10, 6)
    assert state.reputation(1) == 4


@pytest.mark.rule("SW-S.3")
def test_the_three_decks_are_shuffled_separately() -> None:
    one, other = GAME.new_state(2, seed=1), GAME.new_state(2, seed=2)
    assert one.observation(0)["decks"] == {"food": 62, "customers": 60, "unforeseen": 26}
    assert one._decks != other._decks
    assert sorted(
        one._decks[0] + [k for p in (0, 1) for k, c in enumerate(one._food[p]) for _ in range(c)]
    ) == sorted(k for k, card in enumerate(CARDS.foods) for _ in range(card.count))


@pytest.mark.rule("SW-S.3")
def test_an_empty_deck_is_refilled_from_its_shuffled_discard_pile() -> None:
    state = position(phase="maintenance", round=2, decks={"food": 0}, reputation=[9, 5])
    # the upkeep draw found the deck empty: the discard pile (72 cards) became the deck
    assert len(state.food_hand(0)) == 1
    obs = state.observation(0)
    assert obs["decks"]["food"] == 71 and obs["discards"]["food"] == {}


@pytest.mark.rule("SW-S.3")
def test_a_deck_that_runs_out_is_refilled_at_once_unless_an_option_says_so() -> None:
    for mode, deck_left in (("at-once", 71), ("when-drawing", 0)):
        state = position(
            phase="maintenance",
            round=2,
            decks={"food": 1},
            reputation=[9, 5],
            options={"reshuffle": mode},
        )
        assert state.observation(0)["decks"]["food"] == deck_left


@pytest.mark.rule("SW-S.3")
def test_nothing_is_drawn_when_deck_and_discard_pile_are_both_empty(tmp_path: Path) -> None:
    (tmp_path / "foods.toml").write_text(
        '[[food]]\nfoods = "G"\ncount = 2\nsource = "reconstruction"\n', encoding="utf-8"
    )
    game = SouvlakiGame(cards_dir=tmp_path)
    state = position(
        phase="maintenance", round=2, food_hands=[["G"], ["G"]], reputation=[9, 5], game=game
    )
    assert state.food_hand(0) == ["G"]
    play(state, "buy")
    assert state.food_hand(0) == ["G"]


@pytest.mark.rule("SW-S.4")
def test_each_player_starts_with_5_food_and_3_unforeseen_cards() -> None:
    state = GAME.new_state(4, seed=7)
    for player in state.observation(0)["players"]:
        assert (player["food_cards"], player["unforeseen_cards"]) == (5, 3)


@pytest.mark.rule("SW-S.5")
def test_first_game_mode_uses_no_unforeseen_cards() -> None:
    state = GAME.with_options({"first_game": True}).new_state(2, seed=7)
    assert all(p["unforeseen_cards"] == 0 for p in state.observation(0)["players"])
    play(state, "keep", "keep")
    while state.phase == "customers":
        play(state, sorted(legal(state))[0])
    assert state.phase == "service"  # phase 3 is skipped
    with pytest.raises(KafeneioError, match=r"SW-S\.5"):
        position(phase="unforeseen", options={"first_game": True})


@pytest.mark.rule("SW-S.6")
def test_the_mulligan_redraws_5_once_and_the_new_cards_must_be_kept() -> None:
    deal = ["G", "G", "G", "G", "G", "S", "S", "S", "S", "S"]
    fresh = ["GF", "GD", "SF", "SD", "GS"]
    state = stacked_start(food_top=deal + fresh)
    first = state.current_player()
    assert first == 1  # I Pita tis Thessalias has the higher starting reputation
    assert legal(state) == {"keep", "redraw"}
    play(state, "redraw")
    assert sorted(state.food_hand(1)) == sorted(fresh)
    assert state.observation(1)["discards"]["food"] == {"S": 5}
    assert state.current_player() == 0  # each player decides once
    play(state, "keep")
    assert state.food_hand(0) == ["G"] * 5
    assert state.phase == "customers" and state.round == 1


@pytest.mark.rule("SW-R.1")
def test_a_round_has_five_phases_and_maintenance_starts_in_round_2() -> None:
    state = GAME.new_state(2, seed=11)
    rng = random.Random(11)
    seen: list[tuple[int, str]] = []
    while state.round < 3:
        if not seen or seen[-1] != (state.round, state.phase):
            seen.append((state.round, state.phase))
        play(state, rng.choice(sorted(legal(state))))
    assert seen == [
        (0, "mulligan"),
        (1, "customers"),
        (1, "unforeseen"),
        (1, "service"),
        (2, "maintenance"),
        (2, "customers"),
        (2, "unforeseen"),
        (2, "service"),
    ]


@pytest.mark.rule("SW-R.2")
def test_turn_order_follows_reputation_at_the_start_of_each_phase() -> None:
    state = position(
        3,
        queues=[["G 2/1"], [], []],
        food_hands=[["G"], [], []],
        reputation=[7, 9, 7],
        options={"shops": ["thanasis", "pita", "express"]},
    )
    # 9 first; the two 7s tie: Gyros Express started higher (4) than Thanasis (3)
    assert state.turn_order == [1, 2, 0]
    play(state, "finish")
    play(state, "finish")
    play(state, "play G", "serve")  # P1 climbs to 8 during the phase: the order stays
    assert state.turn_order == [1, 2, 0]


@pytest.mark.rule("SW-R.2")
def test_seat_order_breaks_a_tie_of_starting_reputation_too(tmp_path: Path) -> None:
    shops = resources.files("kafeneio.games.souvlaki").joinpath("cards", "shops.toml").read_text()
    (tmp_path / "shops.toml").write_text(
        shops.replace("start_reputation = 3", "start_reputation = 5"), encoding="utf-8"
    )
    game = SouvlakiGame(cards_dir=tmp_path)
    for tie_break, order in (("seat", [0, 1]), ("reverse-seat", [1, 0])):
        state = position(
            reputation=[5, 5],
            game=game,
            options={"tie_break": tie_break},
        )
        assert state.turn_order == order


def test_options_are_checked_and_listed() -> None:
    schema = GAME.options_schema()
    assert schema["round_limit"] == 30 and schema["food_play"] == "queue"
    for bad in (
        {"speed": 2},
        {"food_play": "some"},
        {"round_limit": 0},
        {"first_game": 1},
        {"shops": "pita"},
    ):
        with pytest.raises(OptionsError):
            GAME.with_options(bad)
    with pytest.raises(KafeneioError, match="not both"):
        GAME.new_state(2, seed=1, setup={"food": []})


def test_a_game_played_to_the_end_of_round_1() -> None:
    state = position(queues=[["G 2/1"], []], reputation=[9, 5])
    finish_service_of_all(state)
    assert state.round == 2 and state.phase == "maintenance"
    assert queue_text(state, 0) == ["G 2/1 annoyed"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"food": ["GX"]}, r"setup\.food\[0\]"),
        ({"food": []}, "setup.food must hold each food card"),
        ({"round": 1, "phase": "maintenance"}, "no shop maintenance in round 1"),
        ({"phase": "lunch"}, "setup.phase must be one of"),
        ({"money": [1]}, "setup.money must be a list of 2"),
        ({"queues": [[{"card": "BIG"}], []]}, r"setup\.queues\[0\]\[0\]"),
        ({"queues": [[{"big": ["G 2/1"]}], []]}, "the 2 customer cards"),
        ({"food_hands": [["G"], []]}, "in decks, hands, queues and discards together"),
        ({"discards": {"drinks": []}}, "setup.discards must be an object"),
        ({"shuffle_seed": "x"}, "shuffle_seed"),
    ],
)
def test_a_bad_setup_is_refused_naming_the_field(change: dict[str, object], expected: str) -> None:
    setup: dict[str, object] = {
        "food": list(ALL_FOOD),
        "customers": list(ALL_CUSTOMERS),
        "unforeseen": list(ALL_UNFORESEEN),
    }
    setup.update(change)
    with pytest.raises(KafeneioError, match=expected):
        GAME.new_state(2, setup=setup)

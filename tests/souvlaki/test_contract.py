"""The game contract: the random-simulation harness, records, notation and encoding, illegal
actions, hidden information, rendering, and the rule coverage of the tests."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from kafeneio.core import (
    CHANCE,
    SPECTATOR,
    IllegalActionError,
    KafeneioError,
    NotationError,
    OptionsError,
)
from kafeneio.core.conformance import check_random_games, check_state
from kafeneio.core.record import replay
from kafeneio.games import get_game, load_record
from kafeneio.games.souvlaki import SouvlakiState
from kafeneio.games.souvlaki.actions import NUM_ACTIONS

from .conftest import GAME, play, position

TESTS = Path(__file__).resolve().parents[1]
ALTERNATIVES = {
    "reshuffle": "when-drawing",
    "tie_break": "reverse-seat",
    "hand_limit_discard": "random",
    "loan_trigger": "no-money",
    "big_phone_order_draw": "phone-step",
    "food_play": "any",
    "send_away": "first",
    "purchases_into_debt": True,
    "phone_markers": 10,
    "loan_in_tiebreak": False,
}


@pytest.mark.rule("SW-E.11")
def test_the_ninjas_victim_sees_its_loot_in_the_thiefs_hand_and_nobody_else_does() -> None:
    """The food card a Ninja took is known to its victim (`known_in_other_hands`): the board
    says it on the thief's line and `cards` names it; the thief and a third player see no
    such line, and no redrawing of what the victim cannot see changes what is shown."""
    state = position(
        3,
        phase="unforeseen",
        unforeseen_hands=[[], ["ninja-in-the-kitchen"], []],
        food_hands=[["G", "S"], ["G", "G", "S"], ["SF", "FD", "GF", "GF"]],
        reputation=[5, 10, 3],
    )
    play(state, "use ninja-in-the-kitchen p3")
    taken = state.legal_actions()[0].notation.split()[1]  # chance takes one of P3's cards
    play(state, f"random {taken}")
    board = GAME.render(state, 2).splitlines()
    thief = next(i for i, line in enumerate(board) if line.startswith("P2 "))
    assert f"4 food cards (you know {taken})" in " ".join(board[thief : thief + 2])
    assert f"I Pita tis Thessalias holds {taken}" in GAME.reference(state, 2)
    for viewer in (0, 1, SPECTATOR):  # the third player, the thief, a spectator
        for look in (GAME.render, GAME.reference):
            assert "you know" not in look(state, viewer).lower()
    rng = random.Random(3)
    for _ in range(20):
        sample = state.determinize(2, rng)
        for look in (GAME.render, GAME.reference):
            assert look(sample, 2) == look(state, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("first_game", [False, True], ids=["full", "first-game"])
def test_random_games_keep_the_contract(players: int, first_game: bool) -> None:
    options = {"first_game": first_game, "round_limit": 4}
    assert check_random_games(GAME, players, range(4), options) > 60 * players


def test_a_long_random_game_with_reshuffles_keeps_the_contract() -> None:
    """Eight rounds of four players run every deck out at least once (SW-S.3)."""
    rng = random.Random(0)
    state = GAME.with_options({"round_limit": 8}).new_state(4, seed=0)
    while not state.is_terminal():
        check_state(state, rng, replay_record=len(state.history) % 10 == 0)
        state.apply(rng.choice(state.legal_actions()))
    check_state(state, rng)
    assert min(state._reshuffles) >= 1


def test_random_games_with_every_alternative_ruling_keep_the_contract() -> None:
    assert check_random_games(GAME, 3, range(2), {**ALTERNATIVES, "round_limit": 3}) > 100


def random_game(players: int, seed: int, **options: Any) -> SouvlakiState:
    state = GAME.with_options(options or {}).new_state(players, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_and_every_food_card_stays_somewhere(players: int) -> None:
    for seed in range(4):
        state = random_game(players, seed, first_game=seed % 2 == 1)
        assert state.is_terminal() and state.winners()
        obs = state.observation(0)
        held = sum(p["food_cards"] for p in obs["players"])
        assert obs["decks"]["food"] + sum(obs["discards"]["food"].values()) + held == 72


def test_a_record_replays_to_an_equal_state_through_json() -> None:
    state = random_game(3, 5)
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "souvlaki" and record["seed"] == 5
    assert load_record(record) == state
    assert get_game("souvlaki").info.name == "souvlaki"


def test_a_stacked_position_records_its_setup_and_replays() -> None:
    state = position(queues=[["G 2/1"], []], food_hands=[["GF"], []], reputation=[9, 5])
    play(state, "play GF", "serve", "finish")
    record = state.to_record()
    assert record["seed"] is None and record["setup"]["phase"] == "service"
    assert replay(GAME, record) == state


def test_a_game_without_a_seed_gets_one_so_that_its_record_replays() -> None:
    state = GAME.new_state(2)
    play(state, "keep")
    assert isinstance(state.to_record()["seed"], int)
    assert replay(GAME, state.to_record()) == state


def test_the_action_encoding_has_a_fixed_size_and_a_mask() -> None:
    assert GAME.info.num_distinct_actions == NUM_ACTIONS
    state = GAME.new_state(2, seed=1)
    mask = state.legal_action_mask()
    assert len(mask) == NUM_ACTIONS
    assert [code for code, on in enumerate(mask) if on] == sorted(
        action.code for action in state.legal_actions()
    )
    assert GAME.decode_action(0).notation == "keep"
    assert GAME.parse_action("  PLAY fg ").notation == "play GF"
    assert GAME.parse_action("play GF") is GAME.parse_action("play FG")  # interned
    pair = GAME.parse_action("use wrong-number p2.1 p1.3")
    assert pair.notation == "use wrong-number p1.3 p2.1"
    assert GAME.decode_action(pair.code) is pair


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dance",
        "pick 0",
        "pick 10",
        "send x",
        "play GX",
        "play GGGG",
        "discard",
        "use flying-pig",
        "use queue-jump",
        "use queue-jump p2",
        "use health-inspection p2.1",
        "use wrong-number p1.1",
        "use health-inspection q2",
        "use health-inspection p5",
    ],
)
def test_bad_notation_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


@pytest.mark.parametrize(
    ("hand", "phase", "options", "told"),
    [
        (
            ["queue-jump", "good-review", "queue-jump"],
            "unforeseen",
            {},
            "queue-jump x2, good-review",
        ),
        ([], "unforeseen", {}, "no unforeseen card"),
        ([], "service", {"first_game": True}, "no unforeseen card"),
    ],
)
def test_a_card_of_no_kind_is_refused_with_the_movers_hand_not_the_whole_set(
    hand: list[str], phase: str, options: dict[str, Any], told: str
) -> None:
    """``use foo`` at the prompt listed all 16 kinds, most of them in nobody's hand."""
    mover = position(phase=phase, options=options).current_player()
    others = [] if options else ["change-of-plans"]  # the other shop's hand is not told
    hands = [hand if player == mover else others for player in range(2)]
    state = position(phase=phase, unforeseen_hands=hands, options=options)
    with pytest.raises(NotationError) as error:
        state.parse_legal("use foo p2.1")
    assert str(error.value) == f"no unforeseen card 'foo'; you hold {told}"


@pytest.mark.parametrize("code", [-1, NUM_ACTIONS, 8, 8 + 256, 8 + 512])
def test_bad_codes_are_refused(code: int) -> None:
    with pytest.raises(NotationError):
        GAME.decode_action(code)


def test_codes_of_unknown_kinds_or_wrong_targets_are_refused() -> None:
    queue_jump = GAME.parse_action("use queue-jump p1.2")
    with pytest.raises(NotationError, match="other targets"):
        GAME.decode_action(queue_jump.code - 5 - 1)  # the same kind with a player target
    with pytest.raises(NotationError, match="not in the set"):
        GAME.decode_action(NUM_ACTIONS - 1)


ILLEGAL = [
    ("mulligan", "buy", "SW-S.6"),
    ("customers", "serve", "SW-2.2"),
    ("customers", "use fresh-delivery", "SW-3.1"),
    ("maintenance", "pick 1", "SW-1.3"),
    ("maintenance", "discard G", "SW-1.4"),
    ("unforeseen", "play G", "SW-3.1"),
    ("service", "keep", "SW-4.1"),
    ("service", "serve", "SW-4.1"),
    ("service", "send 3", "SW-4.6"),
    ("service", "play GF", "SW-4.2"),
    ("service", "random G", "SW-E.11"),
]


@pytest.mark.parametrize(("phase", "move", "rule"), ILLEGAL)
def test_an_illegal_action_names_its_rule_and_changes_nothing(
    phase: str, move: str, rule: str
) -> None:
    if phase == "mulligan":
        state = GAME.new_state(2, seed=3)
    else:
        state = position(phase=phase, round=2, food_hands=[["G"], ["G"]], reputation=[9, 5])
    before = state.clone()
    with pytest.raises(IllegalActionError) as error:
        state.apply(GAME.parse_action(move))
    assert error.value.rule == rule
    assert state == before


def test_a_finished_game_refuses_everything() -> None:
    state = random_game(2, 1)
    with pytest.raises(IllegalActionError) as error:
        state.apply(GAME.parse_action("finish"))
    assert error.value.rule == "SW-5.2"


def test_first_game_mode_refuses_unforeseen_cards() -> None:
    state = position(phase="service", options={"first_game": True}, reputation=[9, 5])
    with pytest.raises(IllegalActionError) as error:
        state.apply(GAME.parse_action("use fresh-delivery"))
    assert error.value.rule == "SW-S.5"


def test_the_observation_shows_only_ones_own_hands() -> None:
    state = GAME.new_state(3, seed=2)
    obs = state.observation(1)
    assert obs["hand"]["food"] == state.food_hand(1)
    assert len(obs["hand"]["unforeseen"]) == 3
    names = {kind.id: kind.name for kind in GAME.cards.unforeseen}  # "Dirty Shop", as logged
    held = set(obs["hand"]["unforeseen"])
    assert obs["hand"]["unforeseen_names"] == {kind: names[kind] for kind in held}
    assert [p["food_cards"] for p in obs["players"]] == [5, 5, 5]
    text = json.dumps(obs)
    assert "food_hands" not in text and json.loads(text) == obs


def test_determinize_resamples_the_hidden_cards_consistently() -> None:
    state = GAME.new_state(3, seed=2)
    rng = random.Random(0)
    changed = False
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert sample.observation(0) == state.observation(0)
        assert sample.food_hand(0) == state.food_hand(0)
        for deck in (0, 2):
            hidden = Counter(sample._decks[deck])
            for player in (1, 2):
                hand = sample._food[player] if deck == 0 else sample._unforeseen[player]
                hidden.update({kind: count for kind, count in enumerate(hand) if count})
            original = Counter(state._decks[deck])
            for player in (1, 2):
                hand = state._food[player] if deck == 0 else state._unforeseen[player]
                original.update({kind: count for kind, count in enumerate(hand) if count})
            assert hidden == original
        assert sorted(sample._decks[1]) == sorted(state._decks[1])
        changed |= sample._food != state._food
    assert changed


def test_a_chance_node_offers_outcomes_that_sum_to_1() -> None:
    state = position(
        phase="unforeseen",
        unforeseen_hands=[["rats-in-the-kitchen"], []],
        food_hands=[[], ["G", "S", "S", "GF"]],
        reputation=[9, 5],
    )
    play(state, "use rats-in-the-kitchen p2")
    assert state.current_player() == CHANCE
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1)
    assert [a for a, _ in state.chance_outcomes()] == list(state.legal_actions())
    with pytest.raises(IllegalActionError, match="not a chance node"):
        GAME.new_state(2, seed=1).chance_outcomes()


def test_the_render_shows_queues_money_and_only_the_viewers_hands() -> None:
    state = position(
        phase="customers",
        queues=[[{"card": "GG 3/2", "annoyed": True}], [{"card": "SD 2/1", "phone": True}]],
        food_hands=[["GF"], ["SD"]],
        money=[7, 8],
        reputation=[9, 5],
    )
    text = GAME.render(state, 0)
    assert "Round 1 of at most 30, New Customers." in text and "Draft row: 1." in text
    assert "GG 3/2 (ANNOYED)" in text and "SD 2/1 (phone)" in text
    assert "money 7, reputation 9" in text and "Turn order: P1" in text
    assert "Your food cards: GF" in text and "SD\n" not in text.split("Your food cards")[1]
    assert "Your food cards" not in GAME.render(state, SPECTATOR)


def test_the_picture_and_the_reference_show_nothing_a_viewer_may_not_know() -> None:
    """What a player sees on the board and under `cards` is the same in every world their
    view allows: another player's hands and the decks' order, resampled, never show."""
    rng = random.Random(5)
    checked = changed = 0
    for seed in range(3):
        state = GAME.new_state(4, seed=seed)
        while not state.is_terminal() and checked < 40 * (seed + 1):
            if state.ply % 7 == 0:
                viewer = rng.choice([SPECTATOR, *range(4)])
                sample = state.determinize(viewer, rng)
                for look in (GAME.render, GAME.reference):
                    assert look(sample, viewer) == look(state, viewer)
                changed += sample._food != state._food or sample._decks != state._decks
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100 and changed > checked // 2


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("first_game", [False, True], ids=["full", "first-game"])
def test_every_line_of_the_picture_and_the_reference_holds_in_80_columns(
    players: int, first_game: bool
) -> None:
    """In every phase, with loans, long queues and cards in play (random games pile them up),
    for a player and for a spectator."""
    game = GAME.with_options({"first_game": first_game})
    rng = random.Random(players)
    state = game.new_state(players, seed=players)
    widest, loans = 0, False
    while not state.is_terminal():
        for viewer in (0, SPECTATOR):
            for text in (game.render(state, viewer), game.reference(state, viewer)):
                widest = max(widest, *(len(line) for line in text.splitlines()))
        loans |= any(player["loans"] for player in state.observation(0)["players"])
        state.apply(rng.choice(state.legal_actions()))
    assert loans and 70 < widest <= 80


def test_the_reference_tells_the_viewers_cards_the_decks_the_shops_and_the_legend() -> None:
    """What the board leaves out (the terminal's `cards`): the texts of the viewer's own
    unforeseen cards and of those in play, the decks' sizes, every shop's identity card, the
    legend of the customers' notation; in lines of 80 columns at most."""
    state = GAME.new_state(3, seed=2)
    held = state.observation(1)["hand"]["unforeseen"]
    text = GAME.reference(state, 1)
    texts = {kind.id: kind.text for kind in GAME.cards.unforeseen}
    assert all(f"  {card}: " in text for card in held)
    assert " ".join(texts[held[0]].split()) in " ".join(text.split())
    assert "Decks: food " in text and "P3 Gyros Express: operating cost 2 a round" in text
    assert "G pita gyros, S souvlaki, F fries, D soft drink" in text
    assert max(len(line) for line in text.splitlines()) <= 80
    spectator = GAME.reference(state, SPECTATOR)
    assert "Your unforeseen" not in spectator and "Decks: food " in spectator
    legend = "Customer: order money/influence"
    assert state.phase == "mulligan" and legend in GAME.render(state, 1)  # the first screen
    while state.phase == "mulligan":
        state.apply(state.legal_actions()[0])
    assert legend not in GAME.render(state, 1)  # not on every screen after it


def test_the_reference_says_what_the_marks_on_a_customer_mean_and_what_a_card_on_it_does() -> None:
    """The board marks a customer ANNOYED, or with the id of the unforeseen card lying on it
    (Same Again, until the customer leaves): `cards` says what each mark means and what that
    card does."""
    state = position(
        phase="unforeseen",
        unforeseen_hands=[["same-again"], []],
        queues=[["GG 3/2", "SD 2/1"], [{"card": "S 2/1", "annoyed": True}]],
        reputation=[9, 5],
    )
    play(state, "use same-again p1.2")
    board = GAME.render(state, 1)
    assert "2. GG 2/1 (same-again)" in board and "1. S 2/1 (ANNOYED)" in board
    text = " ".join(GAME.reference(state, 1).split())  # its lines joined
    same_again = next(kind for kind in GAME.cards.unforeseen if kind.id == "same-again")
    assert f"On customers: same-again: {' '.join(same_again.text.split())}" in text
    assert "ANNOYED, it walks out if not served this round" in text
    assert max(len(line) for line in GAME.reference(state, 1).splitlines()) <= 80


def test_turns_completed_counts_player_turns_not_decisions() -> None:
    state = position(queues=[["G 2/1"], []], food_hands=[["G"], []], reputation=[9, 5])
    play(state, "play G", "serve", "finish")
    assert state.turns_completed() == 1 and len(state.history) == 3


@pytest.mark.rule("SW-E.3")
def test_a_pair_target_must_name_two_different_customers() -> None:
    """The same customer twice would share its code with a real pair of customers."""
    with pytest.raises(NotationError, match="two different customers"):
        GAME.parse_action("use wrong-number p2.1 p2.1")
    state = position(
        phase="unforeseen",
        unforeseen_hands=[["wrong-number"], []],
        queues=[[{"card": "SD 2/1", "phone": True}], ["G 2/1", {"card": "GF 2/2", "phone": True}]],
        reputation=[10, 5],
    )
    assert [a.notation for a in state.legal_actions()] == ["pass", "use wrong-number p1.1 p2.2"]


def test_a_loan_must_give_money_or_the_shop_could_never_pay() -> None:
    with pytest.raises(OptionsError, match="loan_amount"):
        GAME.with_options({"loan_amount": 0}).new_state(2, seed=1)


def test_a_determinized_sample_has_no_record_and_no_hidden_history() -> None:
    rng = random.Random(4)
    state = GAME.new_state(3, seed=4)
    while not any(a.notation.startswith("random ") for a in state.history):
        actions = state.legal_actions()
        state.apply(rng.choice(list(actions)))
    sample = state.determinize(2, rng)
    assert not any(a.notation.startswith("random ") for a in sample.history)
    with pytest.raises(KafeneioError, match="sample"):
        sample.to_record()

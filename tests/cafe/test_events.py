"""Café International events: scores, draws, the bar, the end and its penalties, in words."""

from __future__ import annotations

import random
import re

import pytest

from kafeneio.core import SPECTATOR
from kafeneio.core.events import texts_told
from kafeneio.core.play import Step, play, random_player
from kafeneio.games import get_game

from .conftest import new_position


def _history(players: int, seed: int, **options: object) -> list[list[str]]:
    state = get_game("cafe", options).new_state(players, seed=seed)
    rng = random.Random(seed)
    play(state, [random_player(rng)] * players, rng)
    return [list(entry.events) for entry in state.history_for(SPECTATOR)]


@pytest.mark.rule("CI-P.1")
def test_every_placement_says_what_it_scored() -> None:
    state = get_game("cafe").new_state(2, seed=3)
    action = next(a for a in state.legal_actions() if "@" in a.notation and "bar" not in a.notation)
    before = state.scores()[0]
    event = state.apply(action)[0]
    gain = state.scores()[0] - before
    assert event.kind == "place" and f"{gain:+d} point" in (event.text_for(SPECTATOR) or "")


@pytest.mark.rule("CI-E.2")
def test_the_end_says_why_and_what_each_hand_cost() -> None:
    for seed in range(6):
        last = _history(3, seed)[-1]
        assert any(t.startswith("The game ends: ") for t in last)
        assert any("(CI-E.3)" in t for t in last)
        penalties = [t for t in last if "left in hand (CI-E.2)" in t]
        if penalties:
            return
    raise AssertionError("no game ended with cards in hand")


@pytest.mark.rule("CI-M.3")
def test_a_player_thrown_out_at_the_bar_is_told() -> None:
    texts = [t for seed in range(12) for step in _history(3, seed) for t in step]
    out = [t for t in texts if "is out of the game (CI-M.3)" in t]
    assert out and all(re.search(r"sends \w+ to bar seat \d+, cannot pay its -\d", t) for t in out)
    assert not any("points" in t for t in out)  # the seat's points are never taken
    assert any("sends" in t and "bar seat" in t for t in texts)
    assert any(" draws " in t for t in texts)


@pytest.mark.rule("CI-T.5")
def test_a_move_reads_in_words_with_its_chair_tables_bar_seat_and_points() -> None:
    """Hints and analyses name a move by the guest, the chair and the tables it is at, and
    what it scores: the bar seat with its value (CI-0.3), a chair with the points it scores
    now; a first guest at an empty table scores 0 and needs a partner in the same move."""
    state = new_position(
        [["FRf", "USm", "Jf", "CNm", "AFf"], ["GBm"]], bar=["DEf"] * 4 + ["DEm"] * 2
    )
    words = {a.notation: state.action_words(a) for a in state.legal_actions()}
    assert words["FRf@24"] == (
        "France lady to chair 24 between FR2 and US2: 0 points alone; it needs a partner at "
        "FR2 or US2 in the same move (CI-T.5)"
    )
    assert words["FRf@25"] == (
        "France lady to chair 25 at FR2: 0 points alone; it needs a partner at FR2 in the same "
        "move (CI-T.5)"
    )
    assert words["USm@bar"] == (  # with 0 points, a red seat cannot be paid
        "USA man to the bar, seat 7: cannot pay its -4: out of the game (CI-M.3)"
    )
    paid = new_position([["FRf", "USm"], ["GBm"]], bar=["DEf"] * 4 + ["DEm"] * 2, scores=[4, 0])
    assert paid.action_words(paid.parse_legal("USm@bar")) == (
        "USA man to the bar, seat 7: -4 points"
    )
    state = new_position([["FRf", "USm"], ["GBm"]], {26: "FRm"})
    assert state.action_words(state.parse_legal("FRf@25")) == (
        "France lady to chair 25 at FR2: +2 points"
    )
    state.apply(state.parse_legal("FRf@25"))
    assert state.action_words(state.parse_legal("end")) == "end the turn without a second guest"


@pytest.mark.rule("CI-P.2")
def test_a_placement_reads_the_points_it_scores_as_the_move_would() -> None:
    """The words' points are those the placement then scores, at every table of its chair."""
    for seed in range(3):
        state = get_game("cafe").make_state(2, seed, None)
        rng = random.Random(seed)
        for _ in range(30):
            if state.is_terminal():
                break
            action = rng.choice(state.legal_actions())
            if action.kind == "place":
                said = state.action_words(action).split(": ", 1)[1].split(" ")[0]
                before = state.scores()[state.current_player()]
                mover = state.current_player()
                state.apply(action)
                assert int(said) == state.scores()[mover] - before
            else:
                state.apply(action)


@pytest.mark.rule("CI-T.8")
def test_the_opening_guest_reads_that_it_may_stay_alone() -> None:
    state = get_game("cafe").make_state(2, 3, None)
    action = next(a for a in state.legal_actions() if a.notation == "AFm@57")
    assert state.action_words(action) == (
        "Africa man to chair 57 at AF1: 0 points alone; as the opening guest it may stay alone "
        "(CI-T.8)"
    )


def test_a_joker_exchange_reads_in_words() -> None:
    state = new_position([["FRf"], ["GBm"]], {5: "Jf", 6: "FRm"})
    move = state.parse_legal("swap FRf@5")
    assert state.action_words(move) == (
        "France lady to chair 5 at FR1 in place of its joker, taken into the hand: no points "
        "(CI-M.4)"
    )


@pytest.mark.rule("CI-T.5")
def test_the_terminal_offers_end_only_where_it_is_legal() -> None:
    """A lone guest needing a partner: the status asked to "place a second guest, or end"
    though end was refused (CI-T.5)."""
    state = new_position([["FRf", "USm", "Jf", "CNm", "AFf"], ["GBm"]], bar=["DEf"] * 4)
    state.apply(state.parse_legal("FRf@25"))
    status = state.game.render(state, 0).splitlines()[-1]
    assert status.endswith("place a second guest (end is not allowed: CI-T.5).")
    free = new_position([["FRf", "USm"], ["GBm"]], {26: "FRm"})
    free.apply(free.parse_legal("FRf@25"))
    assert free.game.render(free, 0).splitlines()[-1].endswith("or end.")


@pytest.mark.parametrize("players", [2, 3])
def test_the_status_counts_rounds_so_a_players_nth_turn_reads_round_n(players: int) -> None:
    """The status said "turn 3" at a 2-player game's second turn of P1: the game's turns,
    every player's. It says the round now, which is the mover's own count of turns; once a
    player is out (CI-M.3) rounds no longer hold a turn of each seat, and it says what the
    turn number counts."""
    told_out = False
    for seed in range(12 if players == 3 else 2):
        state = get_game("cafe").new_state(players, seed=seed)
        rng = random.Random(seed)
        own = [0] * players
        while not state.is_terminal():
            obs = state.observation(SPECTATOR)
            if obs["phase"] == "turn":  # a turn's first decision
                mover = state.current_player()
                own[mover] += 1
                status = state.game.render(state, SPECTATOR).splitlines()[-1]
                if True in obs["out"]:
                    told_out = True
                    turn = f"turn {state.turns_completed() + 1} of the game"
                    assert status == f"P{mover + 1} to move ({turn})."
                else:
                    assert status == f"P{mover + 1} to move (round {own[mover]})."
            state.apply(rng.choice(state.legal_actions()))
    assert told_out == (players == 3)


@pytest.mark.rule("CI-T.4")
def test_the_terminal_says_end_where_no_second_guest_may_be_placed() -> None:
    """After a lady on a chair shared by two empty tables, every second guest would leave one of
    them without a group (CI-T.4): the status still asked to "place a second guest, or end",
    and each guest typed was refused."""
    state = get_game("cafe").new_state(3, seed=5)  # P1 holds ITf
    state.apply(state.parse_legal("ITf@51"))  # between IT1 and IT2
    assert [a.notation for a in state.legal_actions()] == ["end"]
    status = state.game.render(state, 0).splitlines()[-1]
    assert status == "P1 placed ITf@51: no second guest may be placed now, so end."


def test_a_turns_events_are_told_on_one_line_a_player() -> None:
    """A placement, a table completed and the draw that ends the turn took a row each of a
    terminal's 24: told together (`texts_told`), the player is named once and every text
    follows after a semicolon."""
    state = get_game("cafe").new_state(3, seed=2)
    steps: list[Step] = []
    rng = random.Random(2)
    play(state, [random_player(rng)] * 3, rng, on_step=steps.append)
    together = 0
    for step in steps:
        texts = [e.text_for(SPECTATOR) or "" for e in step.events if e.kind != "end"]
        if len(texts) < 2 or any(e.kind in ("penalty", "result") for e in step.events):
            continue
        (told,) = texts_told(step.events, SPECTATOR)
        mover = f"P{step.player + 1} "
        assert told == texts[0] + "".join(f"; {t.removeprefix(mover)}" for t in texts[1:])
        assert told.count(mover) == 1 and "\n" not in told
        together += 1
    assert together > 20


@pytest.mark.rule("CI-D.2")
def test_a_lowered_hand_target_is_told_as_the_turns_doing_not_the_last_guests() -> None:
    """A turn that completes US1 with its first guest and seats a second elsewhere: its line
    read "P1 seats Jm on chair 18: +8, TRf on chair 3: +3; completed a single-nation table",
    as if the second guest had completed a table."""
    chairs = {16: "USm", 17: "USf", 15: "USf", 8: "TRm", 9: "TRf"}  # not an opening (CI-T.8)
    state = new_position([["Jm", "TRf", "AFm", "AFm", "AFm"], ["AFf"]], chairs)
    state.apply(state.parse_legal("Jm@18"))
    second = next(a for a in state.legal_actions() if a.notation.startswith("TRf@"))
    (told,) = texts_told(state.apply(second), SPECTATOR)
    lowered = "lowers their hand target to 4 for the single-nation table completed this turn"
    assert told.startswith("P1 seats TRf on chair ") and f"; {lowered} (CI-D.2)" in told, told
    # and the guest that completed it says so: the line read as the second guest's doing
    joker = " ".join(state.history_for(SPECTATOR)[-2].events)
    assert "seats Jm on chair 18: +8 points (completes a single-nation table)" in joker


@pytest.mark.rule("CI-D.2")
def test_two_tables_completed_at_once_are_counted_in_words() -> None:
    """A joker on the chair two American tables share completes both (CI-P.3)."""
    chairs = {16: "USm", 17: "USf", 15: "USf", 23: "USf", 24: "USm", 19: "USf"}
    state = new_position([["Jm", "AFm", "AFm", "AFm", "AFm"], ["AFf"]], chairs)
    state.apply(state.parse_legal("Jm@18"))
    told = " ".join(texts_told(state.apply(state.parse_legal("end")), SPECTATOR))
    assert "lowers their hand target to 3 for the 2 single-nation tables completed" in told, told


def test_the_birthday_table_and_a_danced_table_are_drawn_apart_and_named_in_cards() -> None:
    """Both were drawn in braces, and nothing said which was the birthday table (whose points
    count double): after a resume or a long game a player could not find it out (CI-V.1)."""
    game = get_game("cafe", {"birthday": True, "dance": True})
    state = game.new_state(
        3,
        setup={
            "rest": {"seed": 3},
            "chairs": {"8": "TRm", "9": "TRf"},
            "hands": [["USm", "USm", "USm", "Jm", "USf"], 5, 5],
            "scores": [10, 4, 2],
        },
    )
    state.apply(state.parse_legal("dance US1: USm@15 USm@16 USm@17 Jm@18"))
    state.apply(state.parse_legal("birthday IN2"))  # 50 points: past the threshold
    board = game.render(state, 0)
    assert "{US1}" in board and "*IN2*" in board and "[IN1]" in board
    reference = game.reference(state, 0)
    assert "Birthday table: *IN2*, its points count double (CI-V.1)." in reference
    assert "Danced tables (CI-V.2): {US1}" in reference
    plain = get_game("cafe").new_state(2, seed=1)
    assert "Birthday" not in plain.game.reference(plain, 0) and "*" not in plain.game.render(plain)

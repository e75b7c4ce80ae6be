"""The engine's cheap look-ahead for search rollouts (`placement_points_of`, `bar_points`) and
the public views the race evaluation reads (`seats`, `bag_counts`, `hand_targets`): each
agrees with what the move does, or with the observation, in random games of several options."""

from __future__ import annotations

import pytest

from kafeneio.bots.cafe_plan import dead_cards, hand_fits, race_features
from kafeneio.core import KafeneioError
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeState
from kafeneio.games.cafe.actions import BAR, NUM_CHAIRS, PLACE, CafeAction, action_space
from kafeneio.games.cafe.board import (
    JOKER_LADY,
    JOKER_MAN,
    NUM_CARD_TYPES,
    is_joker,
    load_board,
    nation_of,
)

from .test_placement_points import random_positions

OPTION_SETS: list[dict[str, object]] = [
    {},
    {"first_move": "pair-scores-both"},
    {"joker_native_both": False, "birthday": True, "birthday_threshold": 10},
    {"bar_draw": "extra", "end_bag": 30},
    {"bar_unpaid": "forbid", "hand_size": 3},
]


def score_change(state: CafeState, action: CafeAction) -> tuple[int, bool]:
    """What `action` changes the mover's score by, tried on a copy, and whether it throws the
    mover out."""
    mover = state.current_player()
    after = state.clone()
    after.apply(action)
    return after.scores()[mover] - state.scores()[mover], after.is_out(mover)


@pytest.mark.rule("CI-P.1")
@pytest.mark.parametrize("options", OPTION_SETS)
def test_placement_points_of_are_what_each_placement_scores(options: dict[str, object]) -> None:
    checked = completed = 0
    for seed in range(3):
        for state in random_positions(options, seed, 2 + seed % 3):
            legal = [a for a in state.legal_actions() if isinstance(a, CafeAction)]
            before = state.clone()
            points = state.placement_points_of(legal)
            assert state == before
            # the state's own legal tuple skips the free-chair check: the same answers
            assert state.placement_points_of(state.legal_actions()) == points
            for action, placed in zip(legal, points, strict=True):
                if action.kind != PLACE:
                    assert placed is None
                    continue
                assert placed == score_change(state, action)[0]
                completed += placed >= 8
                checked += 1
    assert checked > 500 and completed > 0


def test_placement_points_of_refuse_a_taken_chair_and_a_forged_card() -> None:
    state = random_positions({}, 1, 2)[30]
    taken = next(chair for chair in range(68) if state.chair(chair) >= 0)
    before = state.clone()
    for action in (
        action_space().place[0][taken],
        CafeAction(code=0, notation="forged", kind=PLACE, card=26, chair=0),
        CafeAction(code=0, notation="forged", kind=PLACE, card=0, chair=-1),
    ):
        with pytest.raises(KafeneioError):
            state.placement_points_of([action])
        assert state == before


@pytest.mark.rule("CI-M.2")
@pytest.mark.rule("CI-M.3")
@pytest.mark.rule("CI-E.2")
def test_bar_points_are_what_a_bar_seat_changes_the_score_by() -> None:
    """A bar seat scores its value; one that ends the game also costs the hand penalties
    (CI-E.2); one the mover cannot pay throws them out (None)."""
    checked = ending = thrown_out = 0
    for options, seed in ((options, seed) for options in OPTION_SETS for seed in range(3)):
        for state in random_positions(options, seed, 2 + seed % 3):
            bars = [a for a in state.legal_actions() if isinstance(a, CafeAction) and a.kind == BAR]
            for action in bars[:2]:
                before = state.clone()
                points = state.bar_points(action.card)
                assert state == before
                change, out = score_change(state, action)
                if out:
                    assert points is None
                    thrown_out += 1
                else:
                    assert points == change
                    after = state.clone()
                    after.apply(action)
                    ending += after.is_terminal()
                checked += 1
    assert checked > 500 and ending > 0 and thrown_out > 0


def test_bar_points_refuse_a_joker_and_a_full_bar() -> None:
    state = random_positions({}, 2, 2)[10]
    for card in (JOKER_LADY, JOKER_MAN, -1, 26):
        with pytest.raises(KafeneioError):
            state.bar_points(card)
    full = get_game("cafe", {"bar_values": (1,)}).new_state(2, seed=3)
    assert isinstance(full, CafeState)
    full.apply(next(a for a in full.legal_actions() if isinstance(a, CafeAction) and a.kind == BAR))
    with pytest.raises(KafeneioError):
        full.bar_points(0)


def test_the_public_views_agree_with_the_observation() -> None:
    for state in random_positions({}, 4, 3)[::7]:
        key = state.observation_key(0)
        assert state.seats() == key.chairs
        assert state.hand_targets() == list(key.hand_targets)
        assert state.bag_counts() == [key.bag.count(card) for card in range(26)]


def _bag_counts(bag: tuple[int, ...]) -> list[int]:
    return [bag.count(card) for card in range(26)]


def reference_fits(state: CafeState) -> list[tuple[float, int]]:
    """`hand_fits` written plainly from the observation, chair by chair (the evaluation's
    own definition)."""
    key = state.observation_key(0)
    unplaced = [key.bag.count(card) + sum(h.count(card) for h in key.hands) for card in range(26)]
    fits = [(0.0, 0)] * len(key.hands)
    for table in load_board().tables:
        guests = [key.chairs[chair] for chair in table.chairs if key.chairs[chair] >= 0]
        if not guests or any(not is_joker(g) and nation_of(g) != table.nation for g in guests):
            continue
        missing = [2 - sum(1 for g in guests if g & 1 == gender) for gender in (0, 1)]
        wanted = [(table.nation * 2, JOKER_LADY), (table.nation * 2 + 1, JOKER_MAN)]
        if any(unplaced[a] + unplaced[b] < m for (a, b), m in zip(wanted, missing, strict=True)):
            continue
        for player, hand in enumerate(key.hands):
            held = sum(
                min(hand.count(a) + hand.count(b), m)
                for (a, b), m in zip(wanted, missing, strict=True)
            )
            reach, ready = fits[player]
            fits[player] = (reach + held * len(guests) / 4, ready + (len(guests) == 3 and held > 0))
    return fits


@pytest.mark.parametrize("options", [{}, {"dance": True}])
def test_the_race_features_read_the_hands_fits_as_the_plain_definition_does(
    options: dict[str, object],
) -> None:
    compared = 0
    for seed in range(3):
        for state in random_positions(options, seed, 2 + seed)[::5]:
            expected = reference_fits(state)
            key = state.observation_key(0)
            assert hand_fits(key.hands, list(_bag_counts(key.bag)), key.chairs) == expected
            rows = race_features(state, 0.5)
            assert [(row[6], row[7] + row[8]) for row in rows] == expected
            compared += any(ready for _, ready in expected)
    assert compared > 0


def plain_dead_cards(state: CafeState, player: int) -> int:
    """The hand's cards (not jokers) that no free chair of a table of their nation takes by
    the gender rule (CI-T.2, CI-T.3), from the board's tables."""
    board = load_board()
    dead = 0
    for card in state.hand(player):
        if is_joker(card):
            continue
        chairs = {c for t in board.tables if t.nation == nation_of(card) for c in t.chairs}
        dead += not any(state.chair(c) < 0 and state.gender_fits(card, c) for c in chairs)
    return dead


@pytest.mark.parametrize("options", [{}, {"dance": True}])
def test_dead_cards_fit_no_free_chair_and_a_placeable_card_is_never_dead(
    options: dict[str, object],
) -> None:
    found = 0
    for seed in range(3):
        for state in random_positions(options, seed, 2 + seed)[::3]:
            hands = [state.hand(p) for p in range(state.num_players)]
            dead = dead_cards(state, hands)
            assert dead == [plain_dead_cards(state, p) for p in range(state.num_players)]
            rows = race_features(state, 0.5, dead=True)
            assert [(row[-2], row[-1]) for row in rows] == [(d, d * 0.5) for d in dead]
            if state.phase == "turn":  # the mover's cards with a legal placement are not dead
                legal = state.legal_actions()
                placed = {a.card for a in legal if isinstance(a, CafeAction) and a.kind == PLACE}
                me = state.current_player()
                assert dead[me] <= sum(card not in placed for card in state.hand(me))
            found += sum(dead)
    assert found > 0


@pytest.mark.rule("CI-T.3")
@pytest.mark.parametrize("options", [{}, {"dance": True, "joker_native_both": False}])
def test_fitting_chairs_are_the_chairs_where_each_card_fits(options: dict[str, object]) -> None:
    checked = 0
    for seed in range(2):
        for state in random_positions(options, seed, 2 + seed)[::4]:
            for card in range(NUM_CARD_TYPES):
                mask = state.fitting_chairs(card)
                fitting = {chair for chair in range(NUM_CHAIRS) if mask >> chair & 1}
                assert fitting == {c for c in range(NUM_CHAIRS) if state.fits(card, c)}
                assert mask >> NUM_CHAIRS == 0
                checked += bool(fitting)
    assert checked > 0


@pytest.mark.parametrize("card", [-1, 26, "ESf", None])
def test_fitting_chairs_of_a_card_that_is_not_a_guest_is_refused(card: object) -> None:
    state = get_game("cafe").new_state(2, seed=1)
    with pytest.raises(KafeneioError, match="not a guest card"):
        state.fitting_chairs(card)  # type: ignore[arg-type]


def test_partly_seated_tables_hold_a_guest_and_a_free_chair_and_suffice_for_hand_fits() -> None:
    board = load_board()
    compared = 0
    for seed in range(2):
        for state in random_positions({}, seed, 2 + seed)[::3]:
            mask = state.partly_seated_tables()
            for table in board.tables:
                guests = sum(state.chair(chair) >= 0 for chair in table.chairs)
                assert bool(mask >> table.index & 1) == (0 < guests < 4)
            hands = [state.hand(p) for p in range(state.num_players)]
            every = hand_fits(hands, state.bag_counts(), state.seats())
            assert hand_fits(hands, state.bag_counts(), state.seats(), mask) == every
            compared += bool(mask)
    assert compared > 0

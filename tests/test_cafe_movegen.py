"""The fast Café move generator against a slow one written straight from the rules.

The engine evaluates CI-T.3/T.4 from table counters; this reference tries every placement and
every second placement on a plain list of chairs, so the two share no code but the board.
"""

from __future__ import annotations

import random

import pytest

from kafeneio.core import IllegalActionError, NotationError
from kafeneio.games import get_game
from kafeneio.games.cafe import CafeState
from kafeneio.games.cafe.actions import action_space
from kafeneio.games.cafe.board import load_board

BOARD = load_board()
CODES = BOARD.nation_codes


def nation_code(card: str) -> str | None:
    return None if card.startswith("J") else card[:2]


def fits(chairs: list[str | None], card: str, chair: int) -> bool:
    """CI-T.1-T.3 for `card` on `chair` (0-based) of the board `chairs`."""
    if chairs[chair] is not None:
        return False
    tables = BOARD.chairs[chair].tables
    nation = nation_code(card)
    if nation and not any(CODES[BOARD.tables[t].nation] == nation for t in tables):
        return False
    for t in tables:
        same = sum(1 for c in BOARD.tables[t].chairs if chairs[c] and chairs[c][-1] == card[-1])
        if same >= 2:
            return False
    return True


def group(chairs: list[str | None], table: int) -> bool:
    genders = [chairs[c][-1] for c in BOARD.tables[table].chairs if chairs[c]]
    return "f" in genders and "m" in genders


def table_valid(chairs: list[str | None], table: int) -> bool:
    """CI-T.4 at one table."""
    seated = [c for c in BOARD.tables[table].chairs if chairs[c]]
    if not seated or group(chairs, table):
        return True
    if len(seated) != 1:
        return False
    others = [t for t in BOARD.chairs[seated[0]].tables if t != table]
    return bool(others) and group(chairs, others[0])


def move_valid(chairs: list[str | None], placed: list[int]) -> bool:
    touched = {t for c in placed for t in BOARD.chairs[c].tables}
    return all(table_valid(chairs, t) for t in touched)


def reference_first_placements(obs: dict, opening_alone: bool) -> set[str]:
    """Every `card@chair` that starts a legal table move (CI-M.1, CI-T.5: no dead ends)."""
    chairs = list(obs["chairs"])
    hand = list(obs["hands"][obs["to_move"]])
    legal = set()
    for card in set(hand):
        for chair in range(68):
            if not fits(chairs, card, chair):
                continue
            chairs[chair] = card
            rest = list(hand)
            rest.remove(card)
            if opening_alone or move_valid(chairs, [chair]) or _second_exists(chairs, rest, chair):
                legal.add(f"{card}@{chair + 1}")
            chairs[chair] = None
    return legal


def _second_exists(chairs: list[str | None], rest: list[str], first: int) -> bool:
    for card in set(rest):
        for chair in range(68):
            if fits(chairs, card, chair):
                chairs[chair] = card
                ok = move_valid(chairs, [first, chair])
                chairs[chair] = None
                if ok:
                    return True
    return False


def reference_second_placements(obs: dict, first: int) -> set[str]:
    chairs = list(obs["chairs"])
    legal = set()
    for card in set(obs["hands"][obs["to_move"]]):
        for chair in range(68):
            if fits(chairs, card, chair):
                chairs[chair] = card
                if move_valid(chairs, [first, chair]):
                    legal.add(f"{card}@{chair + 1}")
                chairs[chair] = None
    return legal


def engine_placements(state: CafeState) -> set[str]:
    return {a.notation for a in state.legal_actions() if a.kind == "place"}


@pytest.mark.rule("CI-T.5")
@pytest.mark.rule("CI-T.6")
@pytest.mark.parametrize(
    "players,first_move", [(2, "lone-guest"), (3, "lone-guest"), (4, "pair-scores-both")]
)
def test_move_generation_matches_the_rules_at_every_state(players: int, first_move: str) -> None:
    """Every placement the engine offers starts a legal move, and it offers all of them."""
    game = get_game("cafe")
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.with_options({"first_move": first_move}).new_state(players, seed=seed)
        opening = True
        while not state.is_terminal():
            obs = state.observation(state.current_player())
            if obs["phase"] == "turn":
                alone = opening and first_move == "lone-guest"
                assert engine_placements(state) == reference_first_placements(obs, alone)
            elif obs["phase"] == "second" and not opening:
                first = obs["placed_this_turn"][0][1] - 1
                assert engine_placements(state) == reference_second_placements(obs, first)
            checked += 1
            before = state.current_player()
            state.apply(rng.choice(list(state.legal_actions())))
            if state.current_player() != before:
                opening = False
    assert checked > 500


@pytest.mark.rule("CI-M.4")
@pytest.mark.rule("CI-V.2")
@pytest.mark.parametrize(
    "options",
    [{"joker_exchange": "any-gender"}, {"joker_exchange": "own-gender"}, {"dance": True}],
    ids=["any-gender", "own-gender", "dance"],
)
def test_the_swaps_offered_are_those_the_swap_predicate_accepts(options: dict) -> None:
    """Move generation works out the answers of `swap_refusal` on masks (a guest of the joker's
    gender, a third of a gender at a table, a table left without a group, a dance table); at
    every turn of random games it offers exactly the swaps the predicate accepts, for every
    guest in hand and every seated joker (a joker at a dance table: test_variants)."""
    game = get_game("cafe", options)
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = game.new_state(3, seed=seed)
        while not state.is_terminal():
            if state.phase == "turn":
                offered = {(a.card, a.chair) for a in state.legal_actions() if a.kind == "swap"}
                jokers = [c for c in range(68) if state.chair(c) >= 24]
                hand = {card for card in state.hand(state.current_player()) if card < 24}
                accepted = {
                    (card, chair)
                    for card in hand
                    for chair in jokers
                    if state.swap_refusal(card, chair) is None
                }
                assert offered == accepted, (seed, state.ply)
                checked += bool(jokers and hand)
            state.apply(rng.choice(list(state.legal_actions())))
    assert checked > 200


KEPT_OPTIONS = [
    {},
    {"first_move": "pair-scores-both", "joker_exchange": "own-gender"},
    {"dance": True, "birthday": True, "birthday_threshold": 10},
    {"joker_native_both": False, "hand_size": 8, "single_nation_draw": "choose"},
    {"hand_size": 2, "bar_unpaid": "forbid", "bar_draw": "extra"},
]
"""Option sets of the variants (CI-V.*), the rulings and odd hand sizes."""


@pytest.mark.rule("CI-T.5")
@pytest.mark.parametrize("options", KEPT_OPTIONS)
def test_the_kept_at_once_starts_give_the_moves_worked_out_anew(options: dict) -> None:
    """A state keeps its board's at-once starts (`legality.at_once_starts`) from one decision to
    the next while no guest sits down or stands up. At every decision of random games, the
    legal actions are those a copy works out with nothing kept, in the same order, and what is
    kept is what the board gives now; every hand is sorted, as move generation reads it."""
    from kafeneio.games.cafe.legality import at_once_starts, masks

    game = get_game("cafe", options)
    checked = kept = 0
    for seed in range(16):
        rng = random.Random(seed)
        state = game.new_state(2 + seed % 3, seed=seed)
        while not state.is_terminal():
            legal = list(state.legal_actions())
            assert len({a.code for a in legal}) == len(legal)
            for player in range(state.num_players):
                assert state.hand(player) == sorted(state.hand(player)), (seed, state.ply)
            if state._at_once is not None:
                kept += 1
                assert state._at_once == at_once_starts(
                    masks(), state._present, state._pairs, state._free
                )
            anew = state.clone()
            anew._at_once = None
            anew._legal = None
            assert list(anew.legal_actions()) == legal, (seed, state.ply)
            checked += 1
            state.apply(rng.choice(legal))
    assert checked > 800 and kept > 100


@pytest.mark.rule("CI-M.4")
@pytest.mark.parametrize("options", KEPT_OPTIONS)
def test_an_illegal_action_leaves_the_kept_starts_as_they_were(options: dict) -> None:
    """Explaining a refusal tries the swap (or the dance) on the board and takes it back, and so
    does `placement_points`: the state is as before, what it keeps included, and its moves are
    the same."""
    game = get_game("cafe", options)
    space = action_space()
    refused = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state(2, seed=seed)
        while not state.is_terminal():
            legal = list(state.legal_actions())
            codes = {a.code for a in legal}
            before, kept = state.clone(), state._at_once
            hand = state.hand(state.current_player()) if state.phase != "over" else []
            swaps = [
                space.swap[card][chair] for chair in jokers(state) for card in hand if card < 24
            ]
            tried = [a for a in swaps if a.code not in codes]
            for code in rng.sample(range(game.info.num_distinct_actions), 30):
                try:
                    tried.append(game.decode_action(code))
                except NotationError:
                    continue
            for action in tried:
                if action.code in codes:
                    continue
                with pytest.raises(IllegalActionError):
                    state.apply(action)
                refused += 1
            for action in legal[:5]:
                if action.kind == "place":
                    state.placement_points(action.card, action.chair)
            assert state == before and state._at_once == kept
            assert list(state.legal_actions()) == legal
            state.apply(rng.choice(legal))
    assert refused > 1000


def jokers(state: CafeState) -> list[int]:
    """The chairs (0-based) where a joker sits."""
    return [chair for chair in range(68) if state.chair(chair) >= 24]

"""The board data: the package's copy agrees with the shared data, and the data passes the checks
of ../shared/rules/cafe-international-board.md (rulebook examples 1 and 4, the 68-seat count)."""

from __future__ import annotations

import json
import os
from collections import Counter
from importlib import resources
from itertools import combinations

import pytest

from kafeneio.games.cafe.board import board_from_json, load_board

from .conftest import SHARED

BOARD = load_board()
RING_NATIONS = ("AF", "CN", "CU", "DE", "ES", "IN", "IT", "RU", "TR", "US")
INNER_TABLES = ("GB1", "GB2", "FR1", "FR2")


def package_board_json() -> dict:
    text = resources.files("kafeneio.games.cafe").joinpath("board.json").read_text("utf-8")
    return json.loads(text)


def chairs_of(table_id: str) -> set[int]:
    return {c + 1 for c in BOARD.table_by_id(table_id).chairs}


def shared_chairs(a: str, b: str) -> set[int]:
    return chairs_of(a) & chairs_of(b)


def foreign_neighbours(table_id: str) -> set[str]:
    """The tables of another nation that share a chair with `table_id`."""
    nation = BOARD.table_by_id(table_id).nation
    return {t.id for t in BOARD.tables if t.nation != nation and shared_chairs(table_id, t.id)}


def test_package_board_equals_the_shared_board_data() -> None:
    shared = SHARED / "data" / "cafe-international-board.json"
    if not shared.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the shared board data is missing at {shared}")
        pytest.skip(f"no shared folder at {SHARED}")
    assert package_board_json() == json.loads(shared.read_text(encoding="utf-8"))


def test_load_board_reads_the_package_copy() -> None:
    assert board_from_json(package_board_json()) == BOARD


@pytest.mark.rule("CI-0.2")
def test_24_tables_of_4_chairs_2_per_nation() -> None:
    assert len(BOARD.nations) == 12
    assert len(BOARD.tables) == 24
    assert all(len(t.chairs) == 4 for t in BOARD.tables)
    assert Counter(t.nation for t in BOARD.tables) == {n: 2 for n in range(12)}
    assert sorted(t.id for t in BOARD.tables) == sorted(
        f"{code}{i}" for code in BOARD.nation_codes for i in (1, 2)
    )


@pytest.mark.rule("CI-0.2")
def test_68_chairs_28_shared_none_by_three() -> None:
    assert [c.id for c in BOARD.chairs] == list(range(1, 69))
    owners = Counter(len(c.tables) for c in BOARD.chairs)
    assert owners == {1: 40, 2: 28}
    # 24 tables x 4 chairs counts each shared chair twice: 96 = 40 + 2 * 28.
    assert sum(len(t.chairs) for t in BOARD.tables) == 96


@pytest.mark.rule("CI-0.2")
def test_chairs_and_tables_agree_and_sit_side_by_side_on_the_grid() -> None:
    for chair in BOARD.chairs:
        for t in chair.tables:
            table = BOARD.tables[t]
            assert chair.index in table.chairs
            assert abs(chair.x - table.x) + abs(chair.y - table.y) == 1, (chair.id, table.id)
    for table in BOARD.tables:
        for c in table.chairs:
            assert table.index in BOARD.chairs[c].tables
    cells = [(c.x, c.y) for c in BOARD.chairs] + [(t.x, t.y) for t in BOARD.tables]
    assert len(set(cells)) == len(cells)
    assert all(0 <= x < BOARD.width and 0 <= y < BOARD.height for x, y in cells)


@pytest.mark.rule("CI-0.2")
def test_two_tables_share_at_most_one_chair() -> None:
    for a, b in combinations(BOARD.tables, 2):
        assert len(set(a.chairs) & set(b.chairs)) <= 1, (a.id, b.id)


@pytest.mark.rule("CI-T.2")
def test_india_2_has_only_usa_2_as_foreign_neighbour() -> None:
    # Rulebook example 1: an Indian table takes at most one American, on the shared chair.
    assert foreign_neighbours("IN2") == {"US2"}
    assert shared_chairs("IN2", "US2") == {19}


@pytest.mark.rule("CI-T.2")
def test_usa_2_has_france_2_and_india_2_as_foreign_neighbours() -> None:
    # Rulebook example 1: an American table may hold a French and an Indian guest.
    assert foreign_neighbours("US2") == {"FR2", "IN2"}
    assert shared_chairs("US2", "FR2") == {24}


@pytest.mark.rule("CI-P.4")
def test_the_two_american_tables_share_a_chair() -> None:
    assert shared_chairs("US1", "US2") == {18}


@pytest.mark.parametrize("code", RING_NATIONS)
def test_the_two_tables_of_a_ring_nation_share_exactly_one_chair(code: str) -> None:
    assert len(shared_chairs(f"{code}1", f"{code}2")) == 1


@pytest.mark.parametrize("code", ["GB", "FR"])
def test_the_two_british_and_the_two_french_tables_share_no_chair(code: str) -> None:
    assert shared_chairs(f"{code}1", f"{code}2") == set()


@pytest.mark.parametrize("table_id", INNER_TABLES)
def test_each_inner_table_shares_one_chair_with_each_of_two_ring_tables(table_id: str) -> None:
    neighbours = {t.id: shared_chairs(table_id, t.id) for t in BOARD.tables if t.id != table_id}
    sharing = {t: chairs for t, chairs in neighbours.items() if chairs}
    assert len(sharing) == 2
    assert all(len(chairs) == 1 and t not in INNER_TABLES for t, chairs in sharing.items())


@pytest.mark.rule("CI-0.3")
def test_the_bar_has_20_seats_with_the_documented_values_getting_dearer() -> None:
    values = BOARD.bar_values
    assert len(values) == 20
    assert values[:5] == (1, 2, 3, 4, 5)  # black seats: gain
    assert sorted(values[5:]) == sorted(
        [-2, -4, -4, -6, -6, -6, -8, -8, -8, -10, -10, -10, -12, -12, -14]
    )
    assert list(values[5:]) == sorted(values[5:], reverse=True)  # red seats: steadily dearer

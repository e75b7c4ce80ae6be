"""A plain-text picture of a Café International position, drawn from one player's observation."""

from __future__ import annotations

from typing import Any

from kafeneio.core.events import packed
from kafeneio.games.cafe.board import Board

CELL = 5
"""A grid cell's width: the grid is 13 cells, 77 columns; the bar and the tables wrap at 80."""


def render_observation(board: Board, obs: dict[str, Any], may_end: bool = True) -> str:
    """The picture; `may_end`: whether the mover may end the turn now (told in the status)."""
    lines = [_grid(board, obs), "", _bar(obs), "", *_tables(board, obs), ""]
    lines.extend(_players(obs))
    lines.append(_status(obs, may_end))
    return "\n".join(lines)


def _grid(board: Board, obs: dict[str, Any]) -> str:
    """The board on its 13 × 13 grid: tables in brackets, guests by card, free chairs by number."""
    cells = [["" for _ in range(board.width)] for _ in range(board.height)]
    special = {obs["birthday_table"]} | set(obs["dance_tables"])
    for table in board.tables:
        mark = "{}" if table.id in special else "[]"
        cells[table.y][table.x] = f"{mark[0]}{table.id}{mark[1]}"
    for chair in board.chairs:
        guest = obs["chairs"][chair.index]
        cells[chair.y][chair.x] = guest if guest else str(chair.id)
    cells[board.height // 2][board.width // 2] = "BAR"
    rows = (" ".join(cell.center(CELL) for cell in row).rstrip() for row in reversed(cells))
    return "\n".join(rows)


def _bar(obs: dict[str, Any]) -> str:
    """Every bar seat with its value (CI-0.3) and its guest, or ``·`` while free."""
    seated = obs["bar"]
    seats = [
        f"{seat + 1}:{value:+d} {seated[seat] if seat < len(seated) else '·'}"
        for seat, value in enumerate(obs["bar_values"])
    ]
    return "\n".join(packed("Bar: ", seats, "  "))


def _tables(board: Board, obs: dict[str, Any]) -> list[str]:
    """Each table with guests: who sits there."""
    rows = []
    for table in board.tables:
        guests = [obs["chairs"][c] for c in table.chairs if obs["chairs"][c]]
        if guests:
            rows.append(f"{table.id}: {' '.join(guests)}")
    if not rows:
        return ["Tables: all empty"]
    return packed("Tables: ", rows, "   ")


def _players(obs: dict[str, Any]) -> list[str]:
    rows = []
    for player, hand in enumerate(obs["hands"]):
        mover = ">" if player == obs["to_move"] else " "
        state = " OUT" if obs["out"][player] else ""
        rows.append(
            f"{mover} P{player + 1}: score {obs['scores'][player]:>4}, "
            f"draws to {obs['hand_targets'][player]}{state} | hand: {' '.join(hand) or '-'}"
        )
    rows.append(f"  Bag: {obs['bag_size']} cards")
    return rows


def _status(obs: dict[str, Any], may_end: bool) -> str:
    if obs["phase"] == "over":
        winners = ", ".join(f"P{w + 1}" for w in obs["winners"])
        return f"Game over. Winner: {winners}."
    player = obs["to_move"]
    if obs["phase"] == "birthday":
        return f"P{player + 1} may choose the birthday table (birthday US1, or birthday none)."
    if obs["phase"] == "draw":
        return f"P{player + 1} completed a single-nation table: draw fewer, or draw full."
    if obs["phase"] == "second":
        placed = ", ".join(f"{card}@{chair}" for card, chair in obs["placed_this_turn"])
        if may_end:
            return f"P{player + 1} placed {placed}: place a second guest, or end."
        # ending now would leave a table without an allowed group
        return f"P{player + 1} placed {placed}: place a second guest (end is not allowed: CI-T.5)."
    return f"P{player + 1} to move (turn {obs['turn'] + 1})."

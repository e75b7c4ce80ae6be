"""A plain-text picture of a Café International position, drawn from one player's observation.

It fits a terminal of 80 x 24 with room above it for the last turn's moves: one line of what
ends the game (the bag, the bar), the board, one line a player, the status. Who sits at each
table is on the board itself; the bar's guests never move or score again (CI-T.7), so the
picture gives the bar's free seats and what the next ones score, and `reference_text` (the
terminal's ``cards``) who sits there and what is still in the bag.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kafeneio.core.events import packed, plural
from kafeneio.games.cafe.board import Board

CELL = 5
"""A grid cell's width: the grid is 13 cells, 77 columns."""
WIDTH = 80
"""A terminal's columns: no line of the picture is longer."""


def render_observation(
    board: Board, obs: dict[str, Any], may_end: bool = True, may_place: bool = True
) -> str:
    """The picture; `may_end`, `may_place`: whether the mover may end the turn now, and place
    a second guest (told in the status)."""
    lines = [
        _bag_and_bar(obs),
        _grid(board, obs),
        *_players(obs),
        _status(obs, may_end, may_place),
    ]
    return "\n".join(lines)


def _grid(board: Board, obs: dict[str, Any]) -> str:
    """The board on its 13 × 13 grid: tables in brackets (`TABLE_MARKS`: the birthday table
    between stars, a danced table in braces), guests by card, free chairs by number."""
    cells = [["" for _ in range(board.width)] for _ in range(board.height)]
    for table in board.tables:
        mark = TABLE_MARKS[_table_kind(table.id, obs)]
        cells[table.y][table.x] = f"{mark[0]}{table.id}{mark[1]}"
    for chair in board.chairs:
        guest = obs["chairs"][chair.index]
        cells[chair.y][chair.x] = guest if guest else str(chair.id)
    cells[board.height // 2][board.width // 2] = "BAR"
    rows = (" ".join(cell.center(CELL) for cell in row).rstrip() for row in reversed(cells))
    return "\n".join(rows)


TABLE_MARKS = {"table": "[]", "birthday": "**", "dance": "{}"}
"""How a table is drawn: a plain one, the birthday table (its points doubled, CI-V.1) and a
table filled by a dance (CI-V.2); `reference_text` says which is which."""


def _table_kind(table_id: str, obs: dict[str, Any]) -> str:
    if table_id == obs["birthday_table"]:
        return "birthday"
    return "dance" if table_id in obs["dance_tables"] else "table"


def _special_tables(obs: dict[str, Any]) -> list[str]:
    """The lines of `reference_text` that name the birthday table and the danced tables, with
    their marks on the board; none where there are none."""
    lines = []
    if obs["birthday_table"]:
        table = obs["birthday_table"]
        lines.append(f"Birthday table: *{table}*, its points count double (CI-V.1).")
    if obs["dance_tables"]:
        tables = ", ".join(f"{{{table}}}" for table in obs["dance_tables"])
        lines.extend(packed("Danced tables (CI-V.2): ", [tables], ""))
    return lines


def _bag_and_bar(obs: dict[str, Any]) -> str:
    """What ends the game (CI-E.1): the cards left in the bag; the bar's seats taken, and what
    the next free ones score (CI-0.3), as many as the line holds."""
    values = obs["bar_values"]
    taken = len(obs["bar"])
    line = f"Bag: {plural(obs['bag_size'], 'card')}. Bar: {taken} of {len(values)} seats taken"
    if taken == len(values):
        return line + "."
    upcoming = [f"{value:+d}" for value in values[taken:]]
    return _fitted(f"{line}; the next score", upcoming)


def _fitted(head: str, items: list[str]) -> str:
    """`head` and as many of `items` as fit in `WIDTH`, with `…` for the rest."""
    for count in range(len(items), 0, -1):
        line = " ".join([head, *items[:count]]) + (" …" if count < len(items) else "")
        if len(line) <= WIDTH:
            return line
    return f"{head} …"


def _players(obs: dict[str, Any]) -> list[str]:
    rows = []
    for player, hand in enumerate(obs["hands"]):
        mover = ">" if player == obs["to_move"] else " "
        state = " OUT" if obs["out"][player] else ""
        rows.append(
            f"{mover} P{player + 1}: score {obs['scores'][player]:>4}, "
            f"draws to {obs['hand_targets'][player]}{state} | hand: {' '.join(hand) or '-'}"
        )
    return rows


def _status(obs: dict[str, Any], may_end: bool, may_place: bool = True) -> str:
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
        if may_end and not may_place:  # every second guest would break a table's rule
            return f"P{player + 1} placed {placed}: no second guest may be placed now, so end."
        if may_end:
            return f"P{player + 1} placed {placed}: place a second guest, or end."
        # ending now would leave a table without an allowed group
        return f"P{player + 1} placed {placed}: place a second guest (end is not allowed: CI-T.5)."
    return f"P{player + 1} to move ({_when(obs)})."


def _when(obs: dict[str, Any]) -> str:
    """How far the game is, for the player to move: the round, a round being one turn of each
    player (the game counts turns, every player's: at 2 players one's second turn read "turn
    3"). Once a player is out (CI-M.3) a round no longer holds a turn of each seat, and the
    turns are told as counted."""
    if True in obs["out"]:
        return f"turn {obs['turn'] + 1} of the game"
    return f"round {obs['turn'] // len(obs['out']) + 1}"


def reference_text(obs: dict[str, Any], nations: Sequence[str] = ()) -> str:
    """What a player may look up beside the picture, all of it public (CI-S.1): who sits at the
    bar, seat by seat with its value, the guests still in the bag (not their order), and what
    the cards' letters say (`nations`: "AF Africa", ...)."""
    seated = obs["bar"]
    values = obs["bar_values"]
    bar = [f"{seat + 1}:{values[seat]:+d} {guest}" for seat, guest in enumerate(seated)]
    lines = packed("Bar: ", bar, "  ") if bar else ["Bar: nobody yet"]
    contents = [f"{card}×{count}" for card, count in obs["bag_contents"].items()]
    head = f"In the bag ({plural(obs['bag_size'], 'card')}, order unknown): "
    lines.extend(packed(head, contents, " ") if contents else [head + "none"])
    lines.extend(_special_tables(obs))
    if nations:
        lines.extend(packed("Cards: ", ["f lady, m man, J joker;", *nations], "  "))
    return "\n".join(lines)

"""A move in words, and why an action is illegal (the rule it breaks), in words a player
understands."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from kafeneio.core.errors import IllegalActionError
from kafeneio.core.events import plural
from kafeneio.games.cafe.actions import (
    BAR,
    BIRTHDAY,
    DANCE,
    DRAW,
    DRAW_FEWER,
    END,
    PASS,
    PLACE,
    SWAP,
    CafeAction,
)
from kafeneio.games.cafe.board import Board, gender_of, is_joker, nation_of
from kafeneio.games.cafe.state import DANCE_NATIVE_VALUE, DANCE_VALUE, geometry

if TYPE_CHECKING:
    from kafeneio.games.cafe.state import CafeState


NATION_NAMES = {"usa": "USA"}
"""How a nation of the board data is written where it is not just capitalised (as the web
board writes it)."""
LADY = 0


def action_words(state: CafeState, action: CafeAction) -> str:
    """A legal move in words: the guest, the chair and the tables it is at, the bar seat and
    its value; all public (CI-S.1)."""
    board, kind = state.game.board, action.kind
    if kind == PLACE:
        return f"{_on_chair(board, action.card, action.chair)}: {_placement_points(state, action)}"
    if kind == SWAP:
        where = _on_chair(board, action.card, action.chair)
        return f"{where} in place of its joker, taken into the hand: no points (CI-M.4)"
    if kind == BAR:
        seat = state.filling()[0]
        value = state.options.bar_values[seat]
        if not state.pays_bar_seat():  # CI-M.3
            told = f"cannot pay its {value}: out of the game (CI-M.3)"
        else:
            told = plural(value, "point", sign=True)
        return f"{guest(board, action.card)} to the bar, seat {seat + 1}: {told}"
    if kind == DANCE:
        return _dance_words(state, action)
    if kind == BIRTHDAY:
        if action.table < 0:
            return "no birthday table"
        return f"table {_table_words(state, action.table)} as the birthday table"
    return {
        END: "end the turn without a second guest",
        PASS: "pass: no guest can be seated",
    }.get(kind) or _draw_words(action)


def _on_chair(board: Board, card: int, chair: int) -> str:
    return f"{guest(board, card)} to chair {chair + 1} {_at(board, chair)}"


def _placement_points(state: CafeState, action: CafeAction) -> str:
    """What a placement scores now (CI-P.1-P.3), and, for a first guest that would leave a
    table without a group, that it needs a partner in the same move (CI-T.5) or, the start
    player's opening guest, that it may stay alone (CI-T.8)."""
    gain = state.placement_points(action.card, action.chair)
    points = plural(gain, "point", sign=gain != 0)
    lacking = state.tables_left_without_group_by(action.card, action.chair)
    if state.phase != "turn" or not lacking:
        return points
    ids = " or ".join(state.game.board.tables[table].id for table in lacking)
    if state.lone_opening:
        return f"{points} alone; as the opening guest it may stay alone (CI-T.8)"
    return f"{points} alone; it needs a partner at {ids} in the same move (CI-T.5)"


def _dance_words(state: CafeState, action: CafeAction) -> str:
    """A dance (CI-V.2): which guest on which chair, and what the move scores: 20 at the dance
    table, 40 if all four count as its nation, and whatever the tables beside it score."""
    board, table = state.game.board, action.table
    gender = "ladies" if gender_of(action.placements[0][0]) == LADY else "men"
    seated = ", ".join(
        f"{guest(board, card)} on chair {chair + 1}{_beside(board, chair)}"
        for card, chair in action.placements
    )
    trial = state.clone().quiet(False)  # the dance scores before anything is drawn
    gain = next(event.args[2] for event in trial.apply(action) if event.kind == "dance")
    natives = _dance_natives(state, action)
    dance = (DANCE_NATIVE_VALUE if natives else DANCE_VALUE) * (
        2 if table == state.birthday_table else 1
    )
    nation = _nation(board, table)
    why = f"all four natives of {nation}" if natives else f"not all four natives of {nation}"
    parts = [f"{dance} for the dance ({why})"]
    if gain != dance:
        parts.append(f"{gain - dance} at the tables beside it")
    points = f"{plural(gain, 'point', sign=True)}: {' and '.join(parts)}"
    return f"dance at table {board.tables[table].id} with 4 {gender}: {seated}; {points}"


def _beside(board: Board, chair: int) -> str:
    """Where a shared chair is: " (between IT1 and AF2)"; nothing for a chair of one table."""
    return f" ({_at(board, chair)})" if len(board.chairs[chair].tables) > 1 else ""


def _dance_natives(state: CafeState, action: CafeAction) -> bool:
    """Whether the dance fills its table with guests who all count as its nation (CI-V.2's
    40, CI-P.3 for jokers)."""
    table = action.table
    placed = {chair: card for card, chair in action.placements}
    return all(
        state.counts_as_native(placed.get(chair, state.chair(chair)), chair, table)
        for chair in geometry().table_chairs[table]
    )


def _table_words(state: CafeState, table: int) -> str:
    """A table by its code, nation and guests: "AF1 (Africa, 1 lady and 1 man)"."""
    board = state.game.board
    ladies, men = state.table_genders(table)
    held = _count(ladies, men) if ladies or men else "empty"
    return f"{board.tables[table].id} ({_nation(board, table)}, {held})"


def _nation(board: Board, table: int) -> str:
    return _nation_name(board, board.tables[table].nation)


def _nation_name(board: Board, nation: int) -> str:
    name = board.nations[nation]
    return NATION_NAMES.get(name, name.capitalize())


def nation_legend(board: Board) -> list[str]:
    """Each nation's code and name, as cards and tables are written: "AF Africa", "US USA"."""
    return [
        f"{code} {_nation_name(board, nation)}" for nation, code in enumerate(board.nation_codes)
    ]


def _draw_words(action: CafeAction) -> str:
    if action.code == DRAW_FEWER:
        return "draw fewer: lower the hand target"
    return "draw a full hand: keep the hand target"


def guest(board: Board, card: int) -> str:
    """A card as a player names it: "France lady", "USA man", "joker (lady)"."""
    gender = "lady" if gender_of(card) == LADY else "man"
    if is_joker(card):
        return f"joker ({gender})"
    return f"{_nation_name(board, nation_of(card))} {gender}"


def _at(board: Board, chair: int) -> str:
    tables = [board.tables[table].id for table in board.chairs[chair].tables]
    return f"at {tables[0]}" if len(tables) == 1 else f"between {' and '.join(tables)}"


def why_illegal(state: CafeState, action: Any) -> IllegalActionError:
    if not isinstance(action, CafeAction):
        return IllegalActionError(f"{action!r} is not a Café International action")
    if state.is_terminal():
        return IllegalActionError(f"{action} is not possible: the game is over", "CI-E.1")
    phase = state.phase
    if phase == "birthday":
        return IllegalActionError(
            f"{action}: first choose the birthday table (birthday US1) or decline (birthday none)",
            "CI-V.1",
        )
    if phase == "draw":
        return IllegalActionError(
            f"{action}: first choose how to draw: draw fewer (lower the hand target) or draw full",
            "CI-D.2",
        )
    if action.kind == BIRTHDAY:
        return IllegalActionError(f"{action}: there is no birthday table to choose now", "CI-V.1")
    if action.kind == DRAW:
        return IllegalActionError(f"{action}: there is no drawing choice to make now", "CI-D.2")
    if phase == "second":
        return _second(state, action)
    return _first(state, action)


HAND_RULES = {PLACE: "CI-M.1", BAR: "CI-M.2", SWAP: "CI-M.4"}
"""The rule of each move that plays a card, which says it comes from the mover's hand."""


def _not_in_hand(state: CafeState, action: CafeAction) -> IllegalActionError | None:
    """A card the mover does not hold, and who does (hands are public, CI-S.1): a player who
    typed a card of another's hand at the shared keyboard learns whose turn it is."""
    mover = state.current_player()
    if action.card in state.hand(mover):
        return None
    text = state.game.board.card_text(action.card)
    holders = [p for p in range(state.num_players) if action.card in state.hand(p)]
    names = " and ".join(f"P{p + 1}" for p in holders)
    held = f"; {names} {'holds' if len(holders) == 1 else 'hold'} one" if holders else ""
    return IllegalActionError(
        f"{text} is not in the hand of P{mover + 1}, whose turn it is{held}",
        HAND_RULES[action.kind],
    )


def _first(state: CafeState, action: CafeAction) -> IllegalActionError:
    kind = action.kind
    if kind == END:
        return IllegalActionError("end: nothing has been placed this turn", "CI-M.1")
    if kind == PASS:
        return IllegalActionError("pass: a legal move exists, and a move is compulsory", "CI-M.5")
    if kind == DANCE and not state.options.dance:
        return IllegalActionError(f"{action}: the dance variant is off", "CI-V.2")
    if kind == DANCE:
        return _dance(state, action)
    missing = _not_in_hand(state, action)
    if missing:
        return missing
    if kind in (BAR, SWAP):
        refusal = (
            state.bar_refusal(action.card)
            if kind == BAR
            else state.swap_refusal(action.card, action.chair)
        )
        if refusal is None:  # cannot happen: the action would be legal
            return IllegalActionError(f"no rule forbids {action} here")
        rule, reason = refusal
        return IllegalActionError(f"{_named(state.game.board, action)}: {reason}", rule)
    return _placement(state, action, second=False)


def _dance(state: CafeState, action: CafeAction) -> IllegalActionError:
    board = state.game.board
    hand = Counter(state.hand(state.current_player()))
    for card, count in Counter(card for card, _ in action.placements).items():
        if hand[card] < count:
            held = f"{hand[card]} × {board.card_text(card)}"
            return IllegalActionError(f"{action}: the hand holds {held}, not {count}", "CI-V.2")
    for _, chair in action.placements:
        if state.chair(chair) >= 0:
            return IllegalActionError(f"{action}: chair {chair + 1} is taken", "CI-T.1")
    table = board.tables[action.table]
    gender = action.placements[0][0] & 1
    for chair in table.chairs:
        seated = state.chair(chair)
        if seated >= 0 and seated & 1 != gender:
            return IllegalActionError(
                f"{action}: {table.id} already seats a guest of the other gender; a dance fills "
                "a table with 4 ladies or 4 men",
                "CI-V.2",
            )
    if len(action.placements) + sum(state.chair(c) >= 0 for c in table.chairs) != 4:
        return IllegalActionError(f"{action}: a dance fills all 4 chairs of {table.id}", "CI-V.2")
    return IllegalActionError(
        f"{action}: the dance breaks gender or groups at a table beside it (CI-T.3, CI-T.4)",
        "CI-V.2",
    )


def _second(state: CafeState, action: CafeAction) -> IllegalActionError:
    if action.kind == END:
        tables = state.tables_left_without_group()
        ladies, _ = _genders_at(state, tables[0]) if tables else (0, 0)
        partner = "a man" if ladies else "a lady"  # the tables lack the first guest's partner
        where = "there" if len(tables) == 1 else "at one of them"
        return IllegalActionError(
            f"end: {_without_group(state, tables)}; seat {partner} {where}", "CI-T.5"
        )
    if action.kind != PLACE:
        return IllegalActionError(
            f"{_named(state.game.board, action)}: a guest was already placed this turn; "
            "place a second one or end",
            "CI-M.1",
        )
    missing = _not_in_hand(state, action)
    return missing or _placement(state, action, second=True)


def _placement(state: CafeState, action: CafeAction, *, second: bool) -> IllegalActionError:
    card, chair = action.card, action.chair
    board = state.game.board
    geo = geometry()
    move = _named(board, action)
    if state.chair(chair) >= 0:
        taken = guest(board, state.chair(chair))
        return IllegalActionError(
            f"{move}: chair {chair + 1} is taken by the {taken} there", "CI-T.1"
        )
    tables = geo.chair_tables[chair]
    if chair not in geo.chairs_for_card[card]:
        ids = " and ".join(_table_nation(board, t) for t in tables)  # a shared chair: both
        return IllegalActionError(
            f"{move}: chair {chair + 1} belongs to {ids}; the {guest(board, card)} is of another "
            "nation",
            "CI-T.2",
        )
    if not state.gender_fits(card, chair):
        who = "men" if card & 1 else "ladies"
        full = [t for t in tables if _genders_at(state, t)[card & 1] >= 2]
        where = " and ".join(board.tables[t].id for t in full) or f"a table of chair {chair + 1}"
        return IllegalActionError(f"{move}: {where} already has 2 {who}", "CI-T.3")
    hint = "" if second else "; no second guest from the hand can complete the move"
    lacking = state.tables_left_without_group_by(card, chair)
    return IllegalActionError(
        f"{move}: {_without_group(state, lacking, (card, chair))}{hint}", "CI-T.4"
    )


def _named(board: Board, action: CafeAction) -> str:
    """A refused move as the player reads it, its notation after it for whoever typed it:
    "Cuba man to chair 2 (CUm@2)"."""
    if action.kind in (PLACE, SWAP):
        instead = " in place of its joker" if action.kind == SWAP else ""
        return f"{guest(board, action.card)} to chair {action.chair + 1}{instead} ({action})"
    if action.kind == BAR:
        return f"{guest(board, action.card)} to the bar ({action})"
    return str(action)


def _table_nation(board: Board, table: int) -> str:
    """A table by its code and nation: "TR1 (Turkey)"."""
    return f"{board.tables[table].id} ({_nation(board, table)})"


def _without_group(
    state: CafeState, tables: list[int], placed: tuple[int, int] | None = None
) -> str:
    """What is wrong at `tables` (`tables_left_without_group`): their guests, one gender
    only, with the guest `placed` (card, chair) counted, as the move would seat it."""
    board = state.game.board
    wrongs = [
        f"{board.tables[table].id} ({_count(*_genders_at(state, table, placed))})"
        for table in tables
    ]
    which = ", ".join(wrongs[:-1]) + " and " + wrongs[-1] if len(wrongs) > 1 else "".join(wrongs)
    # no table named cannot happen: a refused move leaves one without a group
    return f"{which or 'a table'} would be left without an allowed group (a lady and a man)"


def _genders_at(
    state: CafeState, table: int, placed: tuple[int, int] | None = None
) -> tuple[int, int]:
    """The ladies and the men at `table`, the guest `placed` (card, chair) counted."""
    ladies, men = state.table_genders(table)
    if placed is not None and placed[1] in geometry().table_chairs[table]:
        is_lady = gender_of(placed[0]) == LADY
        return ladies + is_lady, men + (not is_lady)
    return ladies, men


def _count(ladies: int, men: int) -> str:
    """A table's guests in words: "1 man and no lady", "2 ladies and 1 man"."""
    lady_words = f"{ladies or 'no'} {'lady' if ladies == 1 or not ladies else 'ladies'}"
    man_words = f"{men or 'no'} {'man' if men == 1 or not men else 'men'}"
    return (
        f"{man_words} and {lady_words}" if men and not ladies else f"{lady_words} and {man_words}"
    )

"""Café International actions: their values, text notation and fixed integer encoding.

Notation (case-insensitive on input; cards are a nation code and ``f``/``m``, jokers ``Jf``/``Jm``):

=====================  =========================================================================
``USm@16``             seat a US man on chair 16 (a turn's first or second placement)
``end``                end the turn after one placement
``USm@bar``            seat a US man on the next free bar seat (never a joker)
``swap USf@18``        put a US lady in place of the joker on chair 18, taking the joker
``pass``               no legal move at all (CI-M.5)
``birthday US1``       choose US1 as the birthday table (variant CI-V.1); ``birthday none``
``draw fewer``         after completing single-nation tables, lower the hand target (CI-D.2,
                       option ``single_nation_draw=choose``); ``draw full`` keeps it
``dance US1: USm@15 USm@16 USm@17 Jm@18``  fill a table with 4 men or 4 ladies (CI-V.2)
=====================  =========================================================================

Codes: place ``card*68 + chair``; bar; swap; end; pass; birthday; dance (table, gender and what
stands on each of the table's chairs: native, the neighbour's nation, a joker, or already seated).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from kafeneio.core.actions import Action
from kafeneio.core.errors import KafeneioError, NotationError
from kafeneio.core.notation import check_code, notation_words, whole_number
from kafeneio.games.cafe.board import (
    JOKER_LADY,
    NUM_CARD_TYPES,
    Board,
    gender_of,
    is_joker,
    load_board,
    nation_of,
)

PLACE, BAR, SWAP, END, PASS, BIRTHDAY, DANCE, DRAW = (
    "place",
    "bar",
    "swap",
    "end",
    "pass",
    "birthday",
    "dance",
    "draw",
)
AT_SPACES = re.compile(r" ?@ ?")
"""A space either side of ``@``, in words joined by single spaces."""
NUM_CHAIRS = 68
NUM_TABLES = 24
NUM_NATION_CARDS = 24
BAR_BASE = NUM_CARD_TYPES * NUM_CHAIRS
SWAP_BASE = BAR_BASE + NUM_NATION_CARDS
END_CODE = SWAP_BASE + NUM_NATION_CARDS * NUM_CHAIRS
PASS_CODE = END_CODE + 1
BIRTHDAY_BASE = PASS_CODE + 1
BIRTHDAY_NONE = BIRTHDAY_BASE + NUM_TABLES
DANCE_BASE = BIRTHDAY_NONE + 1
DRAW_FEWER = DANCE_BASE + NUM_TABLES * 2 * 4**4
DRAW_FULL = DRAW_FEWER + 1
NUM_ACTIONS = DRAW_FULL + 1
NO_CODE = -1
"""The code of a move written right that the action space does not hold (`joker_misuse`)."""
# What stands on one chair of a dance table, one base-4 digit per chair.
NATIVE, NEIGHBOUR, JOKER, SEATED = range(4)


@dataclass(frozen=True, slots=True, eq=False)
class CafeAction(Action):
    """A Café action. `card`, `chair`, `table` are -1 where they do not apply."""

    kind: str = PLACE
    card: int = -1
    chair: int = -1
    table: int = -1
    placements: tuple[tuple[int, int], ...] = ()
    """For a dance: the (card, chair) pairs in chair order."""


@dataclass(frozen=True)
class ActionSpace:
    """Every simple action, made once, so legal-move generation allocates nothing."""

    board: Board
    place: tuple[tuple[CafeAction, ...], ...]
    bar: tuple[CafeAction, ...]
    swap: tuple[tuple[CafeAction, ...], ...]
    end: CafeAction
    pass_: CafeAction
    birthday: tuple[CafeAction, ...]
    birthday_none: CafeAction
    draw_fewer: CafeAction
    draw_full: CafeAction

    def decode(self, code: int) -> CafeAction:
        code = check_code(code, NUM_ACTIONS)
        if code < BAR_BASE:
            return self.place[code // NUM_CHAIRS][code % NUM_CHAIRS]
        if code < SWAP_BASE:
            return self.bar[code - BAR_BASE]
        if code < END_CODE:
            return self.swap[(code - SWAP_BASE) // NUM_CHAIRS][(code - SWAP_BASE) % NUM_CHAIRS]
        if code == END_CODE:
            return self.end
        if code == PASS_CODE:
            return self.pass_
        if code < BIRTHDAY_NONE:
            return self.birthday[code - BIRTHDAY_BASE]
        if code == BIRTHDAY_NONE:
            return self.birthday_none
        if code == DRAW_FEWER:
            return self.draw_fewer
        if code == DRAW_FULL:
            return self.draw_full
        return self._decode_dance(code - DANCE_BASE)

    def _decode_dance(self, offset: int) -> CafeAction:
        table_gender, digits = divmod(offset, 4**4)
        table, gender = divmod(table_gender, 2)
        chairs = self.board.tables[table].chairs
        placements = []
        for position, chair in enumerate(chairs):
            digit = (digits >> (2 * position)) & 3
            if digit == SEATED:
                continue
            card = self._dance_card(table, chair, gender, digit)
            if card is None:
                raise NotationError(f"dance code {DANCE_BASE + offset} names no card on a chair")
            placements.append((card, chair))
        if len(placements) < 3:
            raise NotationError(f"dance code {DANCE_BASE + offset} places fewer than 3 guests")
        return self.dance(table, tuple(placements))

    def _dance_card(self, table: int, chair: int, gender: int, digit: int) -> int | None:
        if digit == JOKER:
            return JOKER_LADY + gender
        if digit == NATIVE:
            return self.board.tables[table].nation * 2 + gender
        others = [t for t in self.board.chairs[chair].tables if t != table]
        if not others or self.board.tables[others[0]].nation == self.board.tables[table].nation:
            return None
        return self.board.tables[others[0]].nation * 2 + gender

    def dance(self, table: int, placements: tuple[tuple[int, int], ...]) -> CafeAction:
        """The dance action filling `table` with `placements` (``(card, chair)`` pairs)."""
        board = self.board
        chairs = board.tables[table].chairs
        placed = dict((chair, card) for card, chair in placements)
        if len(placed) != len(placements) or not set(placed) <= set(chairs):
            table_id = board.tables[table].id
            raise NotationError(f"a dance places each guest on a different chair of {table_id}")
        genders = {gender_of(card) for card in placed.values()}
        if len(genders) != 1 or len(placed) < 3:
            raise NotationError("a dance places 3 or 4 guests, all ladies or all men")
        gender = genders.pop()
        digits = 0
        for position, chair in enumerate(chairs):
            card = placed.get(chair)
            if card is None:
                digit = SEATED
            elif is_joker(card):
                digit = JOKER
            elif nation_of(card) == board.tables[table].nation:
                digit = NATIVE
            elif any(board.tables[t].nation == nation_of(card) for t in board.chairs[chair].tables):
                digit = NEIGHBOUR
            else:
                raise NotationError(
                    f"{board.card_text(card)} cannot sit on chair {chair + 1} (CI-T.2)"
                )
            digits |= digit << (2 * position)
        ordered = tuple(sorted(placements, key=lambda p: p[1]))
        text = " ".join(f"{board.card_text(card)}@{chair + 1}" for card, chair in ordered)
        code = DANCE_BASE + (table * 2 + gender) * 4**4 + digits
        return CafeAction(
            code, f"dance {board.tables[table].id}: {text}", DANCE, table=table, placements=ordered
        )

    def parse(self, text: str) -> CafeAction:
        """The action written `text`; `NotationError` naming the problem otherwise. Spaces
        around ``@`` are allowed (``USm @ 16``, as the terminal's move list sets chairs apart):
        joined once the text is checked short and ASCII, so no long input reaches a pattern."""
        words = AT_SPACES.sub("@", " ".join(notation_words(text))).split()
        try:
            return self._parse_words(words)
        except NotationError:
            raise
        except KafeneioError as err:
            raise NotationError(str(err)) from None

    def joker_misuse(self, text: str) -> CafeAction | None:
        """``Jm@bar`` or ``swap Jm@16`` as the move it would be: written right, yet the action
        space holds no such move (a joker never goes to the bar, nor is exchanged for a joker),
        so `parse` refuses it as notation. The move made anyway, outside the action space (no
        code: -1), only for a position to explain its refusal by the rules (`CafeState`); None
        for any other text."""
        try:
            words = AT_SPACES.sub("@", " ".join(notation_words(text))).split()
            swap = len(words) == 2 and words[0].lower() == "swap"
            if not swap and len(words) != 1:
                return None
            card, chair = self._card_at(words[-1])
        except KafeneioError:
            return None
        if not is_joker(card) or (chair is None) == swap:
            return None
        text = self.board.card_text(card)
        if chair is None:
            return CafeAction(NO_CODE, f"{text}@bar", BAR, card)
        return CafeAction(NO_CODE, f"swap {text}@{chair + 1}", SWAP, card, chair)

    def _parse_words(self, words: list[str]) -> CafeAction:
        if not words:
            raise NotationError("empty move: type a move like USm@16, or 'help'")
        head = words[0].lower()
        if len(words) == 1 and head == "end":
            return self.end
        if len(words) == 1 and head == "pass":
            return self.pass_
        if head == "birthday" and len(words) == 2:
            if words[1].lower() == "none":
                return self.birthday_none
            return self.birthday[self.board.table_by_id(words[1]).index]
        if head == "draw" and len(words) == 2 and words[1].lower() in {"fewer", "full"}:
            return self.draw_fewer if words[1].lower() == "fewer" else self.draw_full
        if head == "swap" and len(words) == 2:
            card, chair = self._card_at(words[1])
            if chair is None or is_joker(card):
                raise NotationError("a swap puts a non-joker card on a chair: swap USf@18")
            return self.swap[card][chair]
        if head == "dance" and len(words) >= 2:
            table = self.board.table_by_id(words[1].rstrip(":")).index
            placements = []
            for word in words[2:]:
                card, chair = self._card_at(word)
                if chair is None:
                    raise NotationError("a dance seats guests on chairs: dance US1: USm@15 ...")
                placements.append((card, chair))
            return self.dance(table, tuple(placements))
        if len(words) == 1 and "@" in head:
            card, chair = self._card_at(words[0])
            if chair is None:
                if is_joker(card):  # no such move: a position says why (`joker_misuse`)
                    raise NotationError("a joker never goes to the bar (CI-M.2)")
                return self.bar[card]
            return self.place[card][chair]
        raise NotationError(
            f"{' '.join(words)!r} is not a move; moves look like USm@16, end, USm@bar, "
            "swap USf@18, pass, draw fewer; with the variants, dance US1: USm@15 ... and "
            "birthday US1"  # (not ending on "...", which a sentence's full stop follows)
        )

    def _card_at(self, word: str) -> tuple[int, int | None]:
        match = re.fullmatch(r"([A-Za-z]+)@(\w+)", word)
        if not match:
            raise NotationError(f"{word!r} is not card@chair (like USm@16) or card@bar")
        card = self.board.parse_card(match.group(1))
        where = match.group(2).lower()
        if where == "bar":
            return card, None
        return card, whole_number(where, 1, NUM_CHAIRS, "chair") - 1


@cache
def action_space() -> ActionSpace:
    board = load_board()
    text = board.card_text

    def place(card: int, chair: int) -> CafeAction:
        return CafeAction(
            card * NUM_CHAIRS + chair, f"{text(card)}@{chair + 1}", PLACE, card, chair
        )

    def swap(card: int, chair: int) -> CafeAction:
        code = SWAP_BASE + card * NUM_CHAIRS + chair
        return CafeAction(code, f"swap {text(card)}@{chair + 1}", SWAP, card, chair)

    return ActionSpace(
        board=board,
        place=tuple(tuple(place(k, c) for c in range(NUM_CHAIRS)) for k in range(NUM_CARD_TYPES)),
        bar=tuple(
            CafeAction(BAR_BASE + k, f"{text(k)}@bar", BAR, k) for k in range(NUM_NATION_CARDS)
        ),
        swap=tuple(tuple(swap(k, c) for c in range(NUM_CHAIRS)) for k in range(NUM_NATION_CARDS)),
        end=CafeAction(END_CODE, "end", END),
        pass_=CafeAction(PASS_CODE, "pass", PASS),
        birthday=tuple(
            CafeAction(BIRTHDAY_BASE + t, f"birthday {board.tables[t].id}", BIRTHDAY, table=t)
            for t in range(NUM_TABLES)
        ),
        birthday_none=CafeAction(BIRTHDAY_NONE, "birthday none", BIRTHDAY),
        draw_fewer=CafeAction(DRAW_FEWER, "draw fewer", DRAW),
        draw_full=CafeAction(DRAW_FULL, "draw full", DRAW),
    )

"""The Café International board as data: tables, chairs, the bar's values, nations and cards.

Loaded once from ``board.json`` (a copy of the project's shared board data; a test checks they
agree). Internally tables and chairs are indices: table ``i`` is ``tables[i]``; chair ``c`` is
``chairs[c]``, printed with its board id ``c + 1``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from kafeneio.core.errors import KafeneioError

GENDER_LETTERS = "fm"
"""Notation letters: ``f`` a lady, ``m`` a man."""
JOKER_NATION = 12
NUM_CARD_TYPES = 26
"""24 nation-gender types (nation * 2 + gender) and 2 jokers (24 a lady, 25 a man)."""
JOKER_LADY, JOKER_MAN = 24, 25


def gender_of(card: int) -> int:
    return card & 1


def nation_of(card: int) -> int:
    return card >> 1


def is_joker(card: int) -> bool:
    return card >= JOKER_LADY


@dataclass(frozen=True)
class Table:
    index: int
    id: str
    nation: int
    chairs: tuple[int, ...]
    x: int
    y: int


@dataclass(frozen=True)
class Chair:
    index: int
    tables: tuple[int, ...]
    x: int
    y: int

    @property
    def id(self) -> int:
        return self.index + 1


@dataclass(frozen=True)
class Board:
    nations: tuple[str, ...]
    nation_codes: tuple[str, ...]
    """Two-letter code of each nation, from its table ids (``US`` for usa)."""
    tables: tuple[Table, ...]
    chairs: tuple[Chair, ...]
    bar_values: tuple[int, ...]
    width: int
    height: int

    def table_by_id(self, table_id: str) -> Table:
        for table in self.tables:
            if table.id == table_id.upper():
                return table
        raise KafeneioError(f"no table {table_id!r} (tables are like US1, US2, GB1, ...)")

    def card_text(self, card: int) -> str:
        """A card's notation: nation code and gender letter (``USm``), or ``Jf``/``Jm``."""
        gender = GENDER_LETTERS[gender_of(card)]
        return "J" + gender if is_joker(card) else self.nation_codes[nation_of(card)] + gender

    def parse_card(self, text: str) -> int:
        """The card type written `text` (``USm``, ``inf``, ``Jm``); `KafeneioError` otherwise."""
        body, gender = text[:-1].upper(), text[-1:].lower()
        if gender not in GENDER_LETTERS:
            raise KafeneioError(f"{text!r} is not a card: write a nation code and f or m (USm)")
        if body == "J":
            return JOKER_LADY + GENDER_LETTERS.index(gender)
        if body not in self.nation_codes:
            codes = " ".join(self.nation_codes)
            raise KafeneioError(f"{text!r} is not a card: nation codes are {codes}, joker J")
        return self.nation_codes.index(body) * 2 + GENDER_LETTERS.index(gender)


@cache
def load_board() -> Board:
    """The board shipped with the package."""
    text = resources.files(__package__).joinpath("board.json").read_text(encoding="utf-8")
    return board_from_json(json.loads(text))


def board_from_json(data: dict[str, object]) -> Board:
    """Build a `Board` from the shared board data's JSON shape."""
    raw_tables, raw_chairs, raw_nations = data["tables"], data["chairs"], data["nations"]
    assert isinstance(raw_tables, list) and isinstance(raw_chairs, list)
    assert isinstance(raw_nations, list)
    nations = tuple(str(n) for n in raw_nations)
    table_index = {t["id"]: i for i, t in enumerate(raw_tables)}
    codes = ["" for _ in nations]
    tables = []
    for i, t in enumerate(raw_tables):
        nation = nations.index(t["nation"])
        codes[nation] = t["id"][:2]
        chairs = tuple(sorted(c - 1 for c in t["chairs"]))
        tables.append(Table(i, t["id"], nation, chairs, t["x"], t["y"]))
    chairs_out = []
    for c in raw_chairs:
        owners = tuple(sorted(table_index[t] for t in c["tables"]))
        chairs_out.append(Chair(c["id"] - 1, owners, c["x"], c["y"]))
    chairs_out.sort(key=lambda chair: chair.index)
    grid = data["grid"]
    bar = data["bar"]
    assert isinstance(grid, dict) and isinstance(bar, dict)
    return Board(
        nations=nations,
        nation_codes=tuple(codes),
        tables=tuple(tables),
        chairs=tuple(chairs_out),
        bar_values=tuple(bar["values"]),
        width=grid["width"],
        height=grid["height"],
    )

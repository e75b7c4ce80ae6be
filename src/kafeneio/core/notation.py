"""What every game's notation parser checks first: the text of a move, its numbers, its codes.

A move is short plain ASCII text. Checking that once, before any game-specific parsing, means
the parsers never meet what Python's string methods treat in surprising ways: digits that
``str.isdigit()`` accepts but ``int()`` refuses (``²``), digits of other scripts (``١٦``,
full-width ``１``), letters whose ``upper()`` is two letters (``ß``), or numbers of thousands of
digits that ``int()`` refuses to convert.
"""

from __future__ import annotations

import operator
import re
import textwrap

from kafeneio.core.errors import NotationError, shown

MAX_NOTATION_LENGTH = 200
"""The longest move text a parser reads; the longest real move (a Café dance) is about 40."""
MAX_NUMBER_DIGITS = 6
"""The most digits a number in a move may have (with leading zeros); every number is small."""


def notation_words(text: object) -> list[str]:
    """The words of a move's text; `NotationError` unless it is short ASCII text."""
    if not isinstance(text, str):
        raise NotationError(f"a move is text in the game's notation, not a {type(text).__name__}")
    if len(text) > MAX_NOTATION_LENGTH:
        raise NotationError(
            f"a move is at most {MAX_NOTATION_LENGTH} characters long, not {len(text)}"
        )
    if not text.isascii():
        raise NotationError(
            "a move is written with plain ASCII letters, digits and punctuation (like the "
            "notation in 'help'); this text holds other characters"
        )
    return text.split()


def whole_number(word: str, least: int, most: int, what: str) -> int:
    """`word` as a number from `least` to `most`: ASCII digits only, else `NotationError`."""
    digits = word.isascii() and word.isdigit() and len(word) <= MAX_NUMBER_DIGITS
    if not digits or not least <= int(word) <= most:
        raise NotationError(
            f"{shown(word)} is not a {what}: {what}s are numbered {least} to {most}"
        )
    return int(word)


def check_code(code: object, num_actions: int) -> int:
    """`code` as a plain int if it is a whole number in the action space; `NotationError`
    otherwise. Any integer type will do (an RL agent's code is often a numpy integer, as from
    ``np.argmax``), but not a bool, a float or text."""
    number = integer_value(code)
    if number is None:
        raise NotationError(f"an action code is a whole number, not {shown(code)}")
    if not 0 <= number < num_actions:
        raise NotationError(f"action code {shown(number)} is outside 0..{num_actions - 1}")
    return number


def integer_value(value: object) -> int | None:
    """`value` as a plain int if it is a whole number (`operator.index` takes it: int, numpy
    integers) but not a flag, which would otherwise pass for 0 or 1; None otherwise."""
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # the TypeError is the check
    except TypeError:
        return None


def notation_text(doc: str, hidden: tuple[str, ...] = ()) -> str:
    """The notation table of an actions module's docstring as plain text for a person: no
    title line, no codes (they are for machines), no reStructuredText marks (the columns kept
    in line), no row that starts with one of `hidden` (a chance outcome nobody types), and at
    most 80 columns (a long description goes on under itself)."""
    notation = doc.split("Codes:")[0].strip().split("\n\n", 1)[-1]
    width = 0  # of the table's first column, from its rule (``=====  =====``)
    lines: list[tuple[str, str]] = []  # each line, and the indent it goes on with
    hiding = False  # in a hidden row, its description's lines under it too
    for line in notation.splitlines():
        if line.strip() and set(line) <= {"=", " "}:
            width = line.index(" ") + 2 if " " in line else 0
            continue
        row = re.fullmatch(r"(\S.*?)\s{2,}(\S.*)", line) if width else None
        on_under = row is None and width > 0 and line[:1] == " "
        if on_under and hiding:
            continue
        if on_under and lines and lines[-1][1]:
            # a row's description written on under itself: one description, wrapped as one
            lines[-1] = (f"{lines[-1][0]} {line.strip().replace('``', '')}", lines[-1][1])
            continue
        hiding = False
        if row is None:
            plain = line.replace("``", "")
            if not width and plain and lines and lines[-1][0]:  # prose: one paragraph
                lines[-1] = (f"{lines[-1][0]} {plain}", "")
            else:
                lines.append((plain, " " * (len(plain) - len(plain.lstrip()))))
            continue
        first, rest = row.group(1).replace("``", ""), row.group(2).replace("``", "")
        hiding = first.startswith(hidden)  # (no prefix at all: never)
        if not hiding:
            lines.append((f"{first.ljust(width - 2)}  {rest}", " " * width))
    wrapped = []
    for line, indent in lines:
        wrapped += textwrap.wrap(line, 80, subsequent_indent=indent) or [line]
    return "\n".join(wrapped)

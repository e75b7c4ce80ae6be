"""Request and response bodies of the JSON API, validated by pydantic."""

from __future__ import annotations

import unicodedata
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

MAX_BUDGET = 2000
"""The most search iterations a bot seat may be given a decision: about a second or two of a
thread, as long as a hint thinks. The bots of every game share two threads, so a decision of
100 000 iterations (a minute or more) would hold the bots of all the other games waiting."""


REFUSED_CATEGORIES = {
    "Cc": "a control character, shown as nothing or breaking the line",
    "Cf": "a format character, shown as nothing or changing the text around it",
    "Zl": "a line separator, which breaks the line",
    "Zp": "a paragraph separator, which breaks the line",
    "Cn": "a code point Unicode has not assigned, which fonts show as nothing or a box",
    "Co": "a private-use character, which each font shows as it pleases, or not at all",
    "Cs": "half of a surrogate pair, which is no character",
}
"""The Unicode categories a seat's name may not hold, each with what it does to a name: each
is shown to every other player as nothing, or as something else than the name's owner saw, or
changes how the text around it is shown; a name holding one could garble the others' pages or
pass for another."""

JOINERS = frozenset({"\u200c", "\u200d"})
"""The zero-width non-joiner and joiner (format characters) are taken between two visible
characters: Persian and the Indic scripts write names with them, and emoji are built with the
joiner; neither moves the text around it. Anywhere else they join nothing and show nothing."""

HANGUL_FILLERS = frozenset({"\u115f", "\u1160", "\u3164", "\uffa0"})
"""Letters (Lo) that are drawn as nothing: they fill an empty part of a Hangul syllable."""

MARKS = frozenset({"Mn", "Me"})
"""Combining marks: each is drawn on the character before it, not beside it."""

MAX_MARKS_IN_A_ROW = 4
"""The most combining marks one character of a name may carry: a Vietnamese letter carries
two, a Tibetan stack a few; a pile of dozens spills over the lines above and below."""


def refused_character(character: str) -> str | None:
    """Why a name may not hold `character` (`REFUSED_CATEGORIES`, `HANGUL_FILLERS`), or None."""
    if character in HANGUL_FILLERS:
        return "a Hangul filler, shown as nothing"
    if character in JOINERS:
        return None
    return REFUSED_CATEGORIES.get(unicodedata.category(character))


def is_mark(character: str) -> bool:
    return unicodedata.category(character) in MARKS


def is_visible(character: str) -> bool:
    """Whether `character` is drawn by itself: no space, joiner, combining mark or character
    a name may not hold."""
    return not (
        character.isspace()
        or character in JOINERS
        or is_mark(character)
        or refused_character(character) is not None
    )


def joins_visible(name: str, index: int) -> bool:
    """Whether the joiner at `index` stands between two visible characters (the one before it
    may carry marks: a virama, an emoji's variation selector)."""
    before = name[:index]
    while before and is_mark(before[-1]):
        before = before[:-1]
    after = name[index + 1 : index + 2]
    return bool(before) and is_visible(before[-1]) and bool(after) and is_visible(after)


def marks_in_a_row(name: str) -> int:
    """The longest run of combining marks in `name`."""
    longest = run = 0
    for character in name:
        run = run + 1 if is_mark(character) else 0
        longest = max(longest, run)
    return longest


def name_problem(name: str) -> str | None:
    """What keeps `name` (trimmed, not blank) from being shown to the other players as its
    owner sees it, worded after "seat 2's name ...", or None: a character it may not hold
    (`refused_character`), no visible character, a joiner that joins nothing, or more
    combining marks on one character than `MAX_MARKS_IN_A_ROW`."""
    for character in name:
        why = refused_character(character)
        if why is not None:
            return f"holds {character_words(character)}: {why}"
    if not any(is_visible(character) for character in name):
        return "has no visible character: it would be shown as nothing"
    for index, character in enumerate(name):
        if character in JOINERS and not joins_visible(name, index):
            return (
                f"holds {character_words(character)} where it joins nothing: a joiner is taken "
                "only between two visible characters, and is shown as nothing elsewhere"
            )
    marks = marks_in_a_row(name)
    if marks > MAX_MARKS_IN_A_ROW:
        return (
            f"holds {marks} combining marks in a row, more than one character may carry "
            f"({MAX_MARKS_IN_A_ROW}): they pile over the lines around it"
        )
    return None


def character_words(character: str) -> str:
    """A character as a person can look it up: "U+202E RIGHT-TO-LEFT OVERRIDE"."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}{' ' + name if name else ''}"


class SeatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"]
    name: str | None = Field(
        default=None,
        max_length=40,
        description="shown to every player; nothing shown as nothing or changing the text "
        "around it (a newline, a right-to-left override, a zero-width space, a Hangul filler)",
    )
    bot: str | None = Field(default=None, description="the bot's name, for a bot seat")
    budget: int | None = Field(
        default=None,
        ge=1,
        le=MAX_BUDGET,
        strict=True,  # a number, as `ply` is: "100" is refused, not read
        description="a search bot's iterations per move",
    )


class CreateGame(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(description="the game's short name: cafe or souvlaki")
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)
    options: dict[str, Any] = Field(default_factory=dict, description="rules options")
    card_set: str | None = Field(
        default=None, description="Souvlaki Wars: a card set the server offers (None: built in)"
    )


class SeatLink(BaseModel):
    seat: int
    name: str
    path: str = Field(description="the private join link: keep it secret, one per seat")
    previous_seat: int | None = Field(
        default=None,
        description="a rematch: this person's seat in the game before (everyone moves one "
        "seat on); null for a new game",
    )


class Created(BaseModel):
    id: str
    spectator: str = Field(description="the spectator link: the public view only")
    links: list[SeatLink]


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # strict: a move number is a whole number, not true (1) nor "3"
    ply: int = Field(ge=0, strict=True, description="the number of the last state the client saw")
    action: str = Field(max_length=200, description="the action in the game's notation")


class HintRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ply: int = Field(
        ge=0, strict=True, description="the number of the state the hint is for (the current one)"
    )


class MoveChance(BaseModel):
    notation: str
    words: str = Field(description="the move in words, as its mover may read it")
    win_chance: float = Field(description="the mover's estimated chance to win after this move")
    visits: int = Field(description="search iterations through this move (0: a one-step guess)")


class Hint(BaseModel):
    """The search bot's suggestion for the seat to move, from that seat's own information."""

    ply: int
    player: int
    best: str = Field(description="the suggested move, in the game's notation")
    best_words: str = Field(description="the suggested move in words")
    then: str | None = Field(
        default=None,
        description="where the same seat decides again at once (a Café turn's second guest): "
        "the move the search planned there, in notation; else null",
    )
    then_words: str | None = Field(default=None, description="that move in words")
    win_chance: float = Field(description="the mover's estimated chance to win, 0 to 1")
    moves: list[MoveChance] = Field(description="the moves the search rates best, best first")
    iterations: int
    seconds: float


class AnalysisView(BaseModel):
    """The analysis of a game over or abandoned: asked for, under way, or done."""

    status: Literal["none", "running", "done", "failed"]
    done: int = Field(description="decisions analysed so far")
    total: int = Field(description="decisions to analyse")
    analysis: dict[str, Any] | None = Field(
        description="when done: every decision (mover, played, preferred, win chance before and "
        "after, loss and its margin), each player's biggest mistakes and total loss"
    )
    message: str | None = None


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str
    bot: str | None
    budget: int | None
    joined: bool
    connected: bool


class LogEntry(BaseModel):
    ply: int
    player: int | None = Field(description="the seat that decided; null for chance")
    text: str = Field(description="the action as this viewer may see it")
    events: list[str] = Field(description="what it caused, in words for this viewer")


class LegalMove(BaseModel):
    notation: str
    words: str = Field(description="the move in words, as its mover reads it (action_words)")
    gain: int | None = Field(description="points this move scores (Café), else null")
    out: bool = Field(
        default=False, description="whether it puts the mover out of the game (Café's CI-M.3)"
    )


class Result(BaseModel):
    scores: list[int]
    winners: list[int]
    losses: list[int] = Field(
        description="what each player lost at the end (the game's penalty events, as Café's "
        "cards left in hand), already taken from their score"
    )


class GameView(BaseModel):
    """One viewer's view of a game: nothing another seat may not see."""

    type: Literal["state"]
    id: str
    game: str
    title: str
    status: str = Field(description="open, running, finished or abandoned")
    ply: int
    viewer: int | None
    seats: list[SeatInfo]
    to_move: int | None
    your_turn: bool
    hints: bool = Field(description="whether this viewer may ask for a hint now")
    abandon: bool = Field(
        description="whether this viewer may abandon the game now (a seat, against bots only)"
    )
    over: bool
    observation: dict[str, Any]
    legal: list[LegalMove]
    log: list[LogEntry]
    log_from: int = Field(
        description="the ply of the first log entry: 0 here (the websocket sends only new ones)"
    )
    result: Result | None
    options: dict[str, Any]
    rematch: str | None
    rematch_seat: int | None = Field(
        description="the seat of the rematch that the link presented here opens too (its "
        "person's: everyone moves one seat on); null for a spectator, without a rematch, or "
        "for a link the rematch does not take"
    )
    rematch_of: str | None


class GameSummary(BaseModel):
    id: str
    game: str
    title: str
    status: str
    ply: int
    seats: list[SeatInfo]
    created: str = Field(description="when the game was made (UTC)")
    last_move: str | None = Field(
        description="when the last move was made (UTC); null if none, or none since the server "
        "kept the times of moves"
    )
    idle: bool = Field(
        description="not over, nobody has moved for an hour (since the last move, or the start) "
        "and no person is connected"
    )
    to_move: int | None = Field(
        description="the seat to move (public: every view says it); null when nobody is: the "
        "game is over or abandoned, or the server could not take it up again"
    )
    rematch: str | None


class OptionInfo(BaseModel):
    name: str
    description: str = Field(description="what the option does, the rules it changes first")
    default: Any
    type: Literal["bool", "int", "choice", "ints", "text"]
    choices: list[str] | None = None
    min: int | None = None
    max: int | None = None


class GameInfoOut(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    card_sets: list[str]


class RuleOut(BaseModel):
    id: str
    section: str = Field(description="the heading of the rule's group")
    text: str


class Catalog(BaseModel):
    games: list[GameInfoOut]
    bots: list[str]
    budget_bots: list[str] = Field(description="the bots whose seats take a budget (iterations)")
    max_budget: int = Field(description="the most iterations a decision a bot seat may be given")
    max_ids: int = Field(description="the most games one listing by `ids` may name")


class ReplayStep(BaseModel):
    ply: int
    total: int
    status: str = Field(description="finished, or abandoned (played as far as `total`)")
    viewer: int | None
    observation: dict[str, Any]
    log: list[LogEntry]
    result: Result | None = Field(description="the game's result; null when it was abandoned")


class ErrorBody(BaseModel):
    error: str
    message: str
    view: GameView | None = None

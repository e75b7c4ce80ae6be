"""Café International events in words. Hands are public (CI-S.1), so every viewer reads the same
words: the cards a player draws are named to everyone.

Each function is the wording of one kind of event, called with the event's facts and the viewer;
the state emits them (`State.emit`) with card and table indices, so nothing is formatted unless
somebody reads the log.


`game_over` (the `end` event) is worded in `kafeneio.core.events`, the same in every game.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any

from kafeneio.core.events import (
    RUNS,
    SUBJECTS,
    Event,
    plural,
    said_together,
    seat,
    winners_text,
)
from kafeneio.core.events import game_over as game_over  # the `end` event, re-exported
from kafeneio.games.cafe.board import load_board

Args = tuple[Any, ...]


def _card(card: int) -> str:
    return load_board().card_text(card)


def _table(table: int) -> str:
    return load_board().tables[table].id


def _points(gain: int) -> str:
    return plural(gain, "point", sign=True)


def placed(args: Args, viewer: int) -> str:
    player, card, chair, gain, completed = args
    return f"{seat(player)} seats {_guest(card, chair, _points(gain), completed)}"


def _guest(card: int, chair: int, points: str, completed: int) -> str:
    """A guest seated, with its `points` and the single-nation tables it completed (CI-D.2):
    the guest that did it, where the hand target's fall is told at the turn's end."""
    told = f"{_card(card)} on chair {chair + 1}: {points}"
    if completed:
        told += (
            " (completes a single-nation table)"
            if completed == 1
            else f" (completes {completed} single-nation tables)"
        )
    return told


def danced(args: Args, viewer: int) -> str:
    player, table, gain = args
    return f"{seat(player)} fills table {_table(table)} for a dance (CI-V.2): {_points(gain)}"


def went_to_bar(args: Args, viewer: int) -> str:
    player, card, place, value = args
    return f"{seat(player)} sends {_card(card)} to bar seat {place + 1}: {_points(value)}"


def thrown_out(args: Args, viewer: int) -> str:
    player, card, place, value = args
    return (
        f"{seat(player)} sends {_card(card)} to bar seat {place + 1}, cannot pay its {value} "
        "and is out of the game (CI-M.3)"
    )


def swapped(args: Args, viewer: int) -> str:
    player, card, chair, joker = args
    return (
        f"{seat(player)} puts {_card(card)} on chair {chair + 1} and takes the joker "
        f"{_card(joker)} into their hand (CI-M.4)"
    )


def drew(args: Args, viewer: int) -> str:
    player, cards = args
    if not cards:
        return f"{seat(player)} draws no card: the bag is empty"
    return f"{seat(player)} draws {', '.join(_card(card) for card in cards)}"


def target_lowered(args: Args, viewer: int) -> str:
    # Said at the turn's end, after its last guest: worded as the turn's consequence, and the
    # guest that completed the table says so (`placed`), so that it is not read as the last
    # guest's doing ("seats CNm on chair 42: +3; lowers their hand target ...").
    player, tables, target = args
    what = "single-nation table" if tables == 1 else f"{tables} single-nation tables"
    return (
        f"{seat(player)} lowers their hand target to {target} for the {what} completed this "
        "turn (CI-D.2)"
    )


def passed(args: Args, viewer: int) -> str:
    (player,) = args
    return f"{seat(player)} has no move and passes (CI-M.5)"


def birthday(args: Args, viewer: int) -> str:
    player, table = args
    if table < 0:
        return f"{seat(player)} chooses no birthday table (CI-V.1)"
    return f"{seat(player)} chooses table {_table(table)} as the birthday table (CI-V.1)"


def turn(events: Sequence[Event], viewer: int) -> str | None:
    """A turn's events told on a line for each player, the player named once
    (`said_together`): ``P2 seats ESm on chair 40: +3 points; draws ITm, CNm``, two rows of a
    terminal's 24 in one. Two guests seated in a row are one clause, the points beside each:
    ``P2 seats ESm on chair 36: +2, GBf on chair 43: +3; draws DEm, CUm``, where a clause
    each ran a 4-player turn past 80 columns, two rows for each opponent's turn."""
    told: list[Event] = []
    for event in events:
        if event.words is placed and told and told[-1].words in (placed, _seated):
            earlier = told[-1].args if told[-1].words is _seated else (told[-1].args,)
            if earlier[0][0] == event.args[0]:
                told[-1] = Event(("place", (*earlier, event.args), _seated))
                continue
        told.append(event)
    return said_together(told, viewer)


def _seated(args: Args, viewer: int) -> str:
    """Guests seated by one player in a row (each `placed`'s facts): one clause."""
    guests = [_guest(card, chair, f"{gain:+d}", done) for _, card, chair, gain, done in args]
    return f"{seat(args[0][0])} seats {', '.join(guests)}"


# Each is about the player its facts name first (a run of seated guests: the first guest's).
TURN = (placed, danced, went_to_bar, swapped, drew, target_lowered, passed)
RUNS.update(dict.fromkeys(TURN, turn))
SUBJECTS.update(dict.fromkeys(TURN, itemgetter(0)))
SUBJECTS[_seated] = lambda args: args[0][0]


def penalty(args: Args, viewer: int) -> str:
    player, cards, jokers, loss = args
    held = []
    if cards:
        held.append(plural(cards, "card"))
    if jokers:
        held.append(plural(jokers, "joker"))
    return f"{seat(player)} loses {loss} for {' and '.join(held)} left in hand (CI-E.2)"


def result(args: Args, viewer: int) -> str:
    winners, scores = args
    return f"{winners_text(winners)} with {scores[winners[0]]} points (CI-E.3)"

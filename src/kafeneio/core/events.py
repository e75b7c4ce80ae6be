"""Events: what an action caused, in words, as each viewer may see it.

Applying an action returns the events it caused (points scored, cards drawn, a customer walking
out...). An event is cheap to make: it keeps its facts (`args`) and a function of the game that
puts them in words for one viewer, so nothing is formatted until somebody reads it. The words
follow the game's privacy: a card drawn is named to its owner and counted to everyone else, and
`text_for` returns None to a viewer who may not know the event at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

Words = Callable[[tuple[Any, ...], int], "str | None"]
"""A game's wording of one kind of event: (args, viewer) -> text, or None if hidden."""


class Event(tuple[Any, ...]):
    """One thing that happened: ``Event((kind, args, words))``. `kind` names it for machines
    (``place``, ``draw``...), `args` holds its facts (player indices, card kinds, amounts) and
    `words` tells it to a viewer. A plain tuple underneath: events are made on every action,
    and nothing is cheaper to make. Kinds a front end may rely on in every game: ``end`` (why
    the game ended) and ``penalty`` (an end-of-game loss: the player first in `args`, the loss
    last)."""

    __slots__ = ()

    @property
    def kind(self) -> str:
        return self[0]  # type: ignore[no-any-return]

    @property
    def args(self) -> tuple[Any, ...]:
        return self[1]  # type: ignore[no-any-return]

    @property
    def words(self) -> Words:
        return self[2]  # type: ignore[no-any-return]

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self  # immutable facts and a module-level function

    def text_for(self, viewer: int) -> str | None:
        """The event in words for `viewer` (a player or `SPECTATOR`); None if hidden from them."""
        return self.words(self.args, viewer)


RunWords = Callable[[Sequence[Event], int], "str | None"]
"""A game's wording of a run of events alike in one text: (the events, viewer). It is given
only the events the viewer is told of (`texts_told` leaves out the others first), and may
name in them only what their own texts name for that viewer. The text may hold line breaks,
where it sets its own lines out."""

RUNS: dict[Words, RunWords] = {}
"""The event wordings whose runs a game tells in one text (`texts_told`), by the wording of one:
for events that come in runs of several alike, each of which would take a row of a terminal's
24. Events of different kinds are alike where their wordings are registered with the same run
wording (a shop's operating cost and the cards it then draws, told on one line). A game
registers its own as its events module is loaded."""


def texts_told(events: Sequence[Event], viewer: int) -> list[str]:
    """The texts of `events` for `viewer`, hidden ones left out, a run of two or more events
    alike (worded by one run wording of `RUNS`) told in one text."""
    events = [event for event in events if event.text_for(viewer) is not None]
    texts: list[str | None] = []
    start = 0
    while start < len(events):
        run = RUNS.get(events[start].words)
        end = start + 1
        while run is not None and end < len(events) and RUNS.get(events[end].words) is run:
            end += 1
        if run is not None and end - start > 1:
            texts.append(run(events[start:end], viewer))
        else:
            texts.extend(event.text_for(viewer) for event in events[start:end])
        start = end
    return [text for text in texts if text is not None]


SUBJECTS: dict[Words, Callable[[tuple[Any, ...]], int]] = {}
"""Who an event is about, read from its facts (`args`), by its wording: the player its text
begins with (``P2 seats ...``). A game registers its own, for the wordings whose events may be
told together (`RUNS`), so that a run is grouped by player without reading a text."""


def subject_of(event: Event) -> int | None:
    """The player `event` is about (`SUBJECTS`), or None where its game does not say."""
    find = SUBJECTS.get(event.words)
    return None if find is None else find(event.args)


def said_together(events: Sequence[Event], viewer: int) -> str | None:
    """A run wording for any game (`RUNS`): the events' texts, a line for each player's in a
    row, the player named once and their texts after a semicolon: ``P2 seats FRm on chair 5: +3
    points; draws ITm, CNm``. An event about no player (`subject_of`) is a line of its own."""
    lines: list[str] = []
    whose: int | None = None
    for event in events:
        text = event.text_for(viewer)
        if text is None:
            continue
        player = subject_of(event)
        if player is not None and player == whose:
            lines[-1] += f"; {text.removeprefix(seat(player) + ' ')}"
        else:
            lines.append(text)
        whose = player
    return "\n".join(lines) if lines else None


class EventLog(list[Any]):
    """The events of one action. It holds them as plain ``(kind, args, words)`` tuples, the
    cheapest thing to make on every action, and hands them out as `Event`s when read."""

    __slots__ = ()

    def __iter__(self) -> Iterator[Event]:
        return map(Event, super().__iter__())

    def __getitem__(self, index: Any) -> Any:
        item = super().__getitem__(index)
        return [Event(raw) for raw in item] if isinstance(index, slice) else Event(item)

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One past decision as one viewer may see it."""

    ply: int
    """The decision's index in the game, from 0 (as records and error messages count)."""
    player: int
    """Who decided: a player index or `CHANCE`."""
    action: str
    """The action's notation, or a description of a chance outcome the viewer may not see."""
    events: tuple[str, ...]
    """What it caused, in words for this viewer."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "ply": self.ply,
            "player": self.player,
            "action": self.action,
            "events": list(self.events),
        }


def seat(player: int) -> str:
    """A player as shown on screen: P1-P4 (indices 0-3 in JSON and the API)."""
    return f"P{player + 1}"


def plural(number: int, thing: str, sign: bool = False) -> str:
    """`number` `thing`s in words: "1 card", "3 cards"; with `sign`, "+1 point", "-2 points"."""
    shown = f"{number:+d}" if sign else str(number)
    return f"{shown} {thing}{'' if abs(number) == 1 else 's'}"


def packed(label: str, items: Sequence[str], gap: str, width: int = 80) -> list[str]:
    """`items` after `label` in lines of at most `width` (a terminal's), as many a line as
    fit, the next lines indented under the first item; an item is never broken."""
    lines = [label]
    for item in items:
        started = len(lines[-1]) > len(label)
        if started and len(lines[-1]) + len(gap) + len(item) > width:
            lines.append(" " * len(label))
            started = False
        lines[-1] += (gap if started else "") + item
    return lines


def winners_text(winners: Sequence[int]) -> str:
    """Who won, as the result event says it: "P1 wins", "P1 and P3 share the win"."""
    names = " and ".join(seat(p) for p in winners)
    return f"{names} {'share the win' if len(winners) > 1 else 'wins'}"


def end_losses(events: Sequence[Event]) -> dict[int, int]:
    """What each player lost at the game's end, from its ``penalty`` events (a game that takes
    penalties off the final scores emits one a player, the player first and the loss last,
    as Café's hand penalties, CI-E.2); a player with none is not named."""
    losses: dict[int, int] = {}
    for event in events:
        if event.kind == "penalty":
            losses[event.args[0]] = losses.get(event.args[0], 0) + event.args[-1]
    return losses


def game_over(args: tuple[Any, ...], viewer: int) -> str:
    """The `end` event's words in every game: why the game ended (public)."""
    (reason,) = args
    return f"The game ends: {reason}"

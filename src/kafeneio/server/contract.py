"""The few places where the server meets the game contract's per-viewer views.

Everything the server sends about a game goes through here, so that what a viewer may see is
decided in one place: a seat's own observation, the spectator's, and the log as that viewer
may read it. Inside the server a viewer is a seat index or None for a spectator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kafeneio.core import CHANCE, SPECTATOR, Action, Event, State

Viewer = int | None
HIDDEN_CHANCE = "a chance outcome"


def contract_viewer(viewer: Viewer) -> int:
    return SPECTATOR if viewer is None else viewer


def observation(state: State, viewer: Viewer) -> dict[str, Any]:
    """What `viewer` may know of `state`. A spectator sees what every player sees."""
    return state.observation(contract_viewer(viewer))


@dataclass(frozen=True, slots=True)
class Step:
    """One decision as `state.apply` returned it: who, what, and the events it caused."""

    mover: int
    action: Action
    events: Sequence[Event]


def log_entry(state: State, ply: int, step: Step, viewer: Viewer, over: bool) -> dict[str, Any]:
    """Decision `ply` in words for `viewer`, as `state.history_for` would tell it. `over`: the
    game is played no more (finished or abandoned), as `history_log`'s."""
    seen = contract_viewer(viewer)
    words = [text for text in (e.text_for(seen) for e in step.events) if text is not None]
    text = state.describe_action(step.action, seen)
    return _entry(ply, step.mover, step.action, text, words, over=over)


def history_log(state: State, viewer: Viewer, over: bool) -> list[dict[str, Any]]:
    """The whole log of `state` for `viewer`, from the contract's history (for replays).
    `over`: the game `state` is a position of is played no more (finished or abandoned),
    though `state` itself may be a position before its end."""
    history = state.history_for(contract_viewer(viewer))
    return [
        _entry(entry.ply, entry.player, action, entry.action, list(entry.events), over=over)
        for entry, action in zip(history, state.history, strict=True)
    ]


def _entry(
    ply: int, mover: int, action: Action, text: str, events: list[str], over: bool
) -> dict[str, Any]:
    """A log entry, its chance outcome told as `chance_text` says."""
    if mover == CHANCE:
        text = chance_text(action, text, over)
    return {"ply": ply, "player": mover if mover >= 0 else None, "text": text, "events": events}


def chance_text(action: Action, described: str, over: bool) -> str:
    """A chance outcome's line, from the game's description of it for the viewer. Once the
    game is played no more it is told as its full record tells it (which anybody may then
    download): the outcome itself, which card chance took. Before, only as the game describes
    it for the viewer; a game that gives the bare notation there may not describe a private
    outcome at all, so that is said as an outcome nobody is told of."""
    if over:
        return action.notation
    return HIDDEN_CHANCE if described == action.notation else described

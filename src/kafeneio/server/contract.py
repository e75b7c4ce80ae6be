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


def log_entry(state: State, ply: int, step: Step, viewer: Viewer) -> dict[str, Any]:
    """Decision `ply` in words for `viewer`, as `state.history_for` would tell it."""
    seen = contract_viewer(viewer)
    words = [text for text in (e.text_for(seen) for e in step.events) if text is not None]
    return _entry(
        state, ply, step.mover, step.action, state.describe_action(step.action, seen), words
    )


def history_log(state: State, viewer: Viewer) -> list[dict[str, Any]]:
    """The whole log of `state` for `viewer`, from the contract's history (for replays)."""
    history = state.history_for(contract_viewer(viewer))
    return [
        _entry(state, entry.ply, entry.player, action, entry.action, list(entry.events))
        for entry, action in zip(history, state.history, strict=True)
    ]


def _entry(
    state: State, ply: int, mover: int, action: Action, text: str, events: list[str]
) -> dict[str, Any]:
    """A log entry. A chance outcome that the game shows in plain notation is shown only once
    the game is over: a game that tells a private outcome to some viewers describes it for
    them, so a bare notation before the end may be an outcome nobody has been told of."""
    if mover == CHANCE and not state.is_terminal() and text == action.notation:
        text = HIDDEN_CHANCE
    return {"ply": ply, "player": mover if mover >= 0 else None, "text": text, "events": events}

"""The few places where the server meets the game contract's per-viewer views.

Everything the server sends about a game goes through here, so that what a viewer may see is
decided in one place: a seat's own observation, the spectator's, and the log as that viewer
may read it. Inside the server a viewer is a seat index or None for a spectator.
"""

from __future__ import annotations

from typing import Any

from kafeneio.core import CHANCE, SPECTATOR, State

Viewer = int | None
HIDDEN_CHANCE = "a chance outcome"


def contract_viewer(viewer: Viewer) -> int:
    return SPECTATOR if viewer is None else viewer


def observation(state: State, viewer: Viewer) -> dict[str, Any]:
    """What `viewer` may know of `state`. A spectator sees what every player sees."""
    return state.observation(contract_viewer(viewer))


def log_for(state: State, viewer: Viewer) -> list[dict[str, Any]]:
    """Every past decision and what it caused, in words for `viewer` (the contract's history).

    A chance outcome that the game shows this viewer in plain notation is shown only once the
    game is over: a game that tells a private outcome to some viewers describes it for them,
    so a bare notation before the end may be an outcome nobody has been told of."""
    over = state.is_terminal()
    entries = []
    for entry, action in zip(
        state.history_for(contract_viewer(viewer)), state.history, strict=True
    ):
        text = entry.action
        if entry.player == CHANCE and not over and text == action.notation:
            text = HIDDEN_CHANCE
        entries.append(
            {
                "ply": entry.ply,
                "player": entry.player if entry.player >= 0 else None,
                "text": text,
                "events": list(entry.events),
            }
        )
    return entries

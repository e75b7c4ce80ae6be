"""The few places where the server meets the game contract's per-viewer views.

Everything the server sends about a game goes through here, so that what a viewer may see is
decided in one place: a seat's own observation, the spectator's, and the log as that viewer
may read it. A viewer is a seat index or None for a spectator.
"""

from __future__ import annotations

from typing import Any

from kafeneio.core import CHANCE, Action, State

Viewer = int | None


def observation(state: State, viewer: Viewer) -> dict[str, Any]:
    """What `viewer` may know of `state`. A spectator (None) sees what every player sees."""
    return state.observation(viewer)  # type: ignore[arg-type]  # both games take None


def log_for(state: State, movers: list[int], viewer: Viewer) -> list[dict[str, Any]]:
    """Every past decision as `viewer` may read it. A chance outcome (which card was taken
    at random) stays hidden from everyone until the game is over."""
    over = state.is_terminal()
    entries = []
    for ply, (action, mover) in enumerate(zip(state.history, movers, strict=True)):
        hidden = mover == CHANCE and not over
        entries.append(
            {
                "ply": ply,
                "player": mover if mover >= 0 else None,
                "text": "a card is taken at random" if hidden else _text(action),
            }
        )
    return entries


def _text(action: Action) -> str:
    return action.notation

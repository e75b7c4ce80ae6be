"""Café International (Rudi Hoffmann, 1989): seat guests of 12 nations at 24 tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafeneio.core.game import JSON, Game, GameInfo, State
from kafeneio.games.cafe.actions import NUM_ACTIONS, CafeAction, action_space
from kafeneio.games.cafe.board import Board, load_board
from kafeneio.games.cafe.options import CafeOptions
from kafeneio.games.cafe.state import CafeState

__all__ = ["CafeAction", "CafeGame", "CafeOptions", "CafeState"]


class CafeGame(Game):
    info = GameInfo(
        name="cafe",
        title="Café International",
        min_players=2,
        max_players=4,
        num_distinct_actions=NUM_ACTIONS,
        rule_prefix="CI",
    )

    def __init__(self) -> None:
        self.board: Board = load_board()

    def make_state(
        self,
        num_players: int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        setup: Mapping[str, Any] | None,
    ) -> CafeState:
        return CafeState(self, num_players, CafeOptions.from_dict(options), seed, setup)

    def parse_action(self, text: str) -> CafeAction:
        return action_space().parse(text)

    def decode_action(self, code: int) -> CafeAction:
        return action_space().decode(code)

    def render(self, state: State, viewer: int | None = None) -> str:
        from kafeneio.games.cafe.render import render_observation

        return render_observation(self.board, state.observation(viewer or 0))

    def options_schema(self) -> JSON:
        return CafeOptions().to_dict()

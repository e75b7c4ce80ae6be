"""Café International (Rudi Hoffmann, 1989): seat guests of 12 nations at 24 tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kafeneio.core.game import Game, GameInfo, State
from kafeneio.core.notation import notation_text
from kafeneio.core.options import RulesOptions
from kafeneio.core.tensor import Spec
from kafeneio.games.cafe.actions import END, NUM_ACTIONS, NUM_CHAIRS, CafeAction, action_space
from kafeneio.games.cafe.board import Board, load_board
from kafeneio.games.cafe.options import CafeOptions
from kafeneio.games.cafe.state import CafeState
from kafeneio.games.cafe.tensor import observation_spec

__all__ = ["CafeAction", "CafeGame", "CafeOptions", "CafeState"]


ENGINE_VERSION = 1
"""Bumped whenever a rule's behaviour or a default option changes (see `GameInfo`)."""


class CafeGame(Game):
    """Café International bound to its rules options."""

    options_class = CafeOptions
    options: CafeOptions

    def __init__(self, options: Mapping[str, Any] | RulesOptions | None = None) -> None:
        super().__init__(options)
        self.board: Board = load_board()
        self.info = GameInfo(
            name="cafe",
            title="Café International",
            min_players=2,
            max_players=4,
            num_distinct_actions=NUM_ACTIONS,
            rule_prefix="CI",
            chance_mode="sampled",
            chance_nodes=False,
            perfect_information=True,  # hands are public; only the bag's order is unknown
            max_game_length=max_game_length(self.options, 4),
            engine_version=ENGINE_VERSION,
        )

    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> CafeState:
        return CafeState(self, num_players, seed, setup)

    def parse_action(self, text: str) -> CafeAction:
        return action_space().parse(text)

    def decode_action(self, code: int) -> CafeAction:
        return action_space().decode(code)

    def notation_table(self) -> str:
        from kafeneio.games.cafe import actions

        options = self.options
        off = [  # the moves of a variant this game does not play are not offered
            row
            for row, on in (
                ("birthday", options.birthday),
                ("dance", options.dance),
                ("draw fewer", options.single_nation_draw == "choose"),
            )
            if not on
        ]
        return notation_text(actions.__doc__ or "", hidden=tuple(off))

    def _render(self, state: State, viewer: int) -> str:
        from kafeneio.games.cafe.render import render_observation

        kinds = {a.kind for a in state.legal_actions() if isinstance(a, CafeAction)}
        may_end, may_place = END in kinds, bool(kinds - {END})
        return render_observation(self.board, state.observation(viewer), may_end, may_place)

    def _reference(self, state: State, viewer: int) -> str:
        from kafeneio.games.cafe.explain import nation_legend
        from kafeneio.games.cafe.render import reference_text

        return reference_text(state.observation(viewer), nation_legend(self.board))

    def ended_by(self, state: State) -> str | None:
        """Which end the game came to (`CafeState.end_case`: the bar full, every chair taken,
        the bag at its end, a hand emptied, one player left, every player passed)."""
        assert isinstance(state, CafeState)
        return state.end_case()

    def _observation_spec(self, num_players: int) -> Spec:
        """The pieces of `observation_tensor` with their shapes (docs/cafe-international.md)."""
        return observation_spec(self.board, num_players, len(self.options.bar_values))


def max_game_length(options: CafeOptions, num_players: int) -> int:
    """A bound on the decisions of any game. A turn that is not a pass fills a chair (at most
    68 of them: 24 tables of 4, 28 chairs shared), a bar seat, or swaps out a joker that an
    earlier turn seated on a chair (so at most as many swaps as chairs); fewer passes than
    there are players come between two such turns (CI-M.5), and a turn takes at most 3
    decisions (two guests, or one and ``end``, then the draw choice), plus the one birthday
    choice (CI-V.1)."""
    working_turns = NUM_CHAIRS + NUM_CHAIRS + len(options.bar_values)
    turns = (working_turns + 1) * num_players
    return 3 * turns + 1

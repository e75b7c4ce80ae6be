"""A toy game where the draw decides far more than the move, to check paired worlds.

A number from 0 to 99 lies hidden from the one player (dealt by the seed). The player bets
`high` (a win if the number is below `HIGH`) or `low` (a win below `LOW`). `high` is the better
bet by 5 chances in 100, but in most worlds both bets win or both lose: compared world by world
the two differ only where the number falls between the two bounds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from kafeneio.core import TERMINAL, Action, Game, GameInfo, IllegalActionError, State
from kafeneio.core.game import JSON
from kafeneio.core.options import RulesOptions

HIGH, LOW = 55, 50
BETS = [Action(0, "high"), Action(1, "low")]


class DrawGame(Game):
    info = GameInfo(
        name="draw",
        title="Draw",
        min_players=2,
        max_players=2,
        num_distinct_actions=len(BETS),
        rule_prefix="DRAW",
        max_game_length=1,
    )
    options_class = RulesOptions

    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> DrawState:
        return DrawState(self, num_players, seed, setup)

    def parse_action(self, text: str) -> Action:
        return next(a for a in BETS if a.notation == text)

    def decode_action(self, code: int) -> Action:
        return BETS[code]

    def _render(self, state: State, viewer: int) -> str:
        return "draw"


class DrawState(State):
    number: int
    result: tuple[int, ...] | None

    def __init__(
        self, game: DrawGame, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> None:
        self._init_base(game, num_players, seed, setup)
        self.number = random.Random(seed).randrange(100)
        self.result = None

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else 0

    def _generate(self) -> Iterable[Action]:
        return [] if self.result is not None else BETS

    def _perform(self, action: Action) -> None:
        bound = HIGH if action == BETS[0] else LOW
        self.result = (0,) if self.number < bound else (1,)

    def explain_illegal(self, action: Action) -> None:
        raise IllegalActionError(f"{action} is not legal")

    def is_terminal(self) -> bool:
        return self.result is not None

    def scores(self) -> list[int]:
        return [int(p in (self.result or ())) for p in range(2)]

    def winners(self) -> list[int]:
        return list(self.result or ())

    def _observe(self, viewer: int) -> JSON:
        return {"number": self.number if viewer == 1 else None}

    def _determinize(self, player: int, rng: random.Random) -> DrawState:
        other = self.clone()
        if player != 1:
            other.number = rng.randrange(100)
        return other

"""Toy games with a known answer, to check estimators against exact win chances (and
`DrawGame` below, to check that paired worlds cancel the luck two moves share).

Player 2 holds one hidden card from 0..2, dealt by the seed. Player 1 either names the card
(`guess0`..`guess2`: a win if right) or `coin`s: a chance node, won with probability `COIN`.
From player 1's information every guess wins 1/3 of the time; a peek at the card would say 1.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from kafeneio.core import CHANCE, TERMINAL, Action, Game, GameInfo, IllegalActionError, State
from kafeneio.core.game import JSON
from kafeneio.core.options import RulesOptions

COIN = 0.75
GUESSES = [Action(code, f"guess{code}") for code in range(3)]
FLIP = Action(3, "coin")
HEADS, TAILS = Action(4, "heads"), Action(5, "tails")
ACTIONS = [*GUESSES, FLIP, HEADS, TAILS]


class ToyGame(Game):
    info = GameInfo(
        name="toy",
        title="Toy",
        min_players=2,
        max_players=2,
        num_distinct_actions=len(ACTIONS),
        rule_prefix="TOY",
        chance_mode="explicit",
        chance_nodes=True,
        max_game_length=2,
    )
    options_class = RulesOptions
    actions = ACTIONS
    """Every action, by code (a toy built on this one names its own)."""

    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> ToyState:
        return ToyState(self, num_players, seed, setup)

    def parse_action(self, text: str) -> Action:
        return next(a for a in self.actions if a.notation == text)

    def decode_action(self, code: int) -> Action:
        return self.actions[code]

    def _render(self, state: State, viewer: int) -> str:
        return "toy"


class ToyState(State):
    card: int
    flipping: bool
    result: tuple[int, ...] | None
    hidden_range = 3
    """The hidden card is dealt (and sampled again) from 0 to this less 1."""

    def __init__(
        self, game: ToyGame, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> None:
        self._init_base(game, num_players, seed, setup)
        self.card = random.Random(seed).randrange(self.hidden_range)
        self.flipping = False
        self.result = None

    def current_player(self) -> int:
        if self.result is not None:
            return TERMINAL
        return CHANCE if self.flipping else 0

    def _generate(self) -> Iterable[Action]:
        if self.result is not None:
            return []
        return [HEADS, TAILS] if self.flipping else [*GUESSES, FLIP]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(HEADS, COIN), (TAILS, 1 - COIN)]

    def _perform(self, action: Action) -> None:
        if action == FLIP:
            self.flipping = True
            return
        won = action == HEADS if self.flipping else action.code == self.card
        self.result = (0,) if won else (1,)

    def explain_illegal(self, action: Action) -> None:
        raise IllegalActionError(f"{action} is not legal")

    def is_terminal(self) -> bool:
        return self.result is not None

    def scores(self) -> list[int]:
        return [int(p in (self.result or ())) for p in range(2)]

    def winners(self) -> list[int]:
        return list(self.result or ())

    def _observe(self, viewer: int) -> JSON:
        return {"card": self.card if viewer == 1 else None, "flipping": self.flipping}

    def _determinize(self, player: int, rng: random.Random) -> ToyState:
        other = self.clone()
        if player != 1:
            other.card = rng.randrange(self.hidden_range)
        return other


HIGH, LOW = 55, 50
BETS = [Action(0, "high"), Action(1, "low")]


class DrawGame(ToyGame):
    """A toy where the draw decides far more than the move, to check paired worlds.

    A number from 0 to 99, dealt by the seed, lies hidden from the player to move (player 1 of
    two, index 0), who bets `high` (a win if the number is below `HIGH`) or `low` (a win below
    `LOW`). `high` is the better bet by 5 chances in 100, but in 95 worlds of 100 both bets
    win or both lose: compared world by world the two differ only where the number falls
    between the two bounds."""

    info = GameInfo(
        name="draw",
        title="Draw",
        min_players=2,
        max_players=2,
        num_distinct_actions=len(BETS),
        rule_prefix="DRAW",
        max_game_length=1,
    )
    actions = BETS

    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> DrawState:
        return DrawState(self, num_players, seed, setup)


class DrawState(ToyState):
    """`card` is the hidden number; the toy's coin is never flipped."""

    hidden_range = 100

    def _generate(self) -> Iterable[Action]:
        return [] if self.result is not None else BETS

    def _perform(self, action: Action) -> None:
        bound = HIGH if action == BETS[0] else LOW
        self.result = (0,) if self.card < bound else (1,)

"""Souvlaki Wars (Vangelis Bagiartakis, Kaissa 2011): run a souvlaki shop in Greece."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kafeneio.core.errors import OptionsError
from kafeneio.core.game import JSON, Game, GameInfo, State
from kafeneio.games.souvlaki.actions import (
    DISCARD,
    NUM_ACTIONS,
    PLAY,
    RANDOM,
    ActionSpace,
    SouvlakiAction,
)
from kafeneio.games.souvlaki.cards import CardDataError, CardSet, foods_code, load_cards
from kafeneio.games.souvlaki.observe import observe
from kafeneio.games.souvlaki.options import SouvlakiOptions
from kafeneio.games.souvlaki.render import render_observation
from kafeneio.games.souvlaki.state import SouvlakiState

__all__ = ["CardDataError", "SouvlakiAction", "SouvlakiGame", "SouvlakiOptions", "SouvlakiState"]


class SouvlakiGame(Game):
    """The game, with one card set: the built-in cards, or those in `cards_dir`.

    The card set is the game's, not a state's, because actions name unforeseen cards by id and
    parsing happens on the game. A state's options record the directory (``cards_dir``).
    """

    info = GameInfo(
        name="souvlaki",
        title="Souvlaki Wars",
        min_players=2,
        max_players=4,
        num_distinct_actions=NUM_ACTIONS,
        rule_prefix="SW",
    )

    def __init__(self, cards_dir: Path | str | None = None) -> None:
        self.cards: CardSet = load_cards(cards_dir)
        self.space = ActionSpace(self.cards)
        codes = [foods_code(card.foods) for card in self.cards.foods]
        self.food_kinds = {code: kind for kind, code in enumerate(codes)}
        self.food_holds = tuple(
            tuple(food for food in range(4) if card.foods[food]) for card in self.cards.foods
        )
        """The foods each food card kind holds, for the service's 'needed' test (SW-4.2)."""
        self.play_actions = tuple(self.space.food_action(PLAY, code) for code in codes)
        self.discard_actions = tuple(self.space.food_action(DISCARD, code) for code in codes)
        self.random_actions = tuple(self.space.food_action(RANDOM, code) for code in codes)

    def __deepcopy__(self, memo: dict[int, Any]) -> SouvlakiGame:
        """A game is immutable configuration: deep copies of states share it."""
        return self

    def make_state(
        self,
        num_players: int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        setup: Mapping[str, Any] | None,
    ) -> SouvlakiState:
        data = dict(options.to_dict() if isinstance(options, SouvlakiOptions) else options or {})
        data.setdefault("cards_dir", self.cards.directory)
        parsed = SouvlakiOptions.from_dict(data)
        if parsed.cards_dir != self.cards.directory:
            raise OptionsError(
                f"option cards_dir is {parsed.cards_dir!r} but this game was made with the cards "
                f"of {self.cards.directory or 'the package'}: make SouvlakiGame(cards_dir=...) "
                "with that directory to play or replay it"
            )
        return SouvlakiState(self, num_players, parsed, seed, setup)

    def parse_action(self, text: str) -> SouvlakiAction:
        return self.space.parse(text)

    def decode_action(self, code: int) -> SouvlakiAction:
        return self.space.decode(code)

    def render(self, state: State, viewer: int | None = None) -> str:
        assert isinstance(state, SouvlakiState)
        return render_observation(observe(state, viewer))

    def roles(self, state: State) -> list[str] | None:
        assert isinstance(state, SouvlakiState)
        return [player["shop"] for player in state.observation(0)["players"]]

    def deal_roles(self, options: JSON, num_players: int, rng: random.Random) -> JSON:
        """Each seat a different shop, drawn at random (SW-S.1)."""
        shops = [shop.id for shop in self.cards.shops]
        return {**options, "shops": rng.sample(shops, num_players)}

    def options_schema(self) -> JSON:
        return SouvlakiOptions(cards_dir=self.cards.directory).to_dict()

"""Souvlaki Wars (Vangelis Bagiartakis, Kaissa 2011): run a souvlaki shop in Greece."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self, cast

from kafeneio.core.errors import KafeneioError, OptionsError, RecordError, shown
from kafeneio.core.events import plural
from kafeneio.core.game import JSON, Game, GameInfo, State
from kafeneio.core.notation import notation_text
from kafeneio.core.options import RulesOptions
from kafeneio.core.tensor import Spec
from kafeneio.games.souvlaki.actions import (
    DISCARD,
    NUM_ACTIONS,
    PLAY,
    RANDOM,
    ActionSpace,
    SouvlakiAction,
)
from kafeneio.games.souvlaki.cards import (
    CardDataError,
    CardSet,
    builtin_cards,
    cards_from_texts,
    foods_code,
    load_cards,
)
from kafeneio.games.souvlaki.legality import playable_kinds
from kafeneio.games.souvlaki.options import SouvlakiOptions
from kafeneio.games.souvlaki.render import reference_text, render_observation
from kafeneio.games.souvlaki.state import SouvlakiState
from kafeneio.games.souvlaki.tensor import observation_spec

__all__ = ["CardDataError", "SouvlakiAction", "SouvlakiGame", "SouvlakiOptions", "SouvlakiState"]

PHASES = """A round (SW-R.1): 1 shop maintenance (pay the operating cost, draw, buy supplies,
advertise; not in round 1), 2 new customers (draft in snake order, then phone orders),
3 unforeseen factors (each plays one card or passes; not in first-game mode), 4 customer
service (play food cards, serve the queue in order, send away, finish), 5 end of round (the
game ends once a shop has the goal, by default 25 money net of loans and 25 reputation; of
those shops, the most money + reputation wins; and after round 30 at the latest)."""

ENGINE_VERSION = 2
"""Bumped whenever a rule's behaviour or a default option changes (see `GameInfo`). 2: the
SW-4.2 default became `queue` and the SW-2.7 default `phone-step` (the rules-spec corrections)."""


class SouvlakiGame(Game):
    """The game, bound to its rules options and one card set: the built-in cards, or a set of
    the user's (`cards_dir` or `cards`, a `CardSet`).

    The card set is the game's, not a state's, because actions name unforeseen cards by id and
    parsing happens on the game. Records carry the set (`record_data`), never a path.
    """

    options_class = SouvlakiOptions
    options: SouvlakiOptions
    role_option = "shops"
    role_noun = "shop"
    seat_note = (
        "a seat (P1, P2, ...) is a place at the set-up, not in the order of play, which "
        "follows reputation in every phase (SW-R.2): the seat table measures no first-mover "
        "advantage"
    )

    def __init__(
        self,
        options: Mapping[str, Any] | RulesOptions | None = None,
        cards_dir: Path | str | None = None,
        cards: CardSet | None = None,
    ) -> None:
        super().__init__(options)
        self.cards: CardSet = cards if cards is not None else load_cards(cards_dir)
        self._check_shops_known()
        self.space = ActionSpace(self.cards)
        codes = [foods_code(card.foods) for card in self.cards.foods]
        self.food_kinds = {code: kind for kind, code in enumerate(codes)}
        self.food_holds = tuple(
            tuple(food for food in range(4) if card.foods[food]) for card in self.cards.foods
        )
        """The foods each food card kind holds, for the service's 'needed' test (SW-4.2)."""
        self.playable_kinds = playable_kinds(self.food_holds)
        """Per `wanted_mask`, the food card kinds that may be played (see `play_refusal`)."""
        self.play_actions = tuple(self.space.food_action(PLAY, code) for code in codes)
        self.discard_actions = tuple(self.space.food_action(DISCARD, code) for code in codes)
        self.random_actions = tuple(self.space.food_action(RANDOM, code) for code in codes)
        self.info = GameInfo(
            name="souvlaki",
            title="Souvlaki Wars",
            min_players=2,
            max_players=4,
            num_distinct_actions=NUM_ACTIONS,
            rule_prefix="SW",
            score_name="money + reputation",
            chance_mode="sampled",
            chance_nodes=True,
            perfect_information=False,
            max_game_length=max_game_length(self.options, self.cards, 4),
            engine_version=ENGINE_VERSION,
        )

    def _check_shops_known(self) -> None:
        """The option shops names shops of this game's card set (SW-S.1): refused here, with
        the option named, rather than when a game starts."""
        known = [shop.id for shop in self.cards.shops]
        for shop_id in self.options.shops or ():
            if shop_id not in known:
                raise OptionsError(
                    f"option shops: no shop {shop_id!r}; the shops are {', '.join(known)}"
                )

    def score_description(self) -> str:
        """Money + reputation, net of loans where a loan's penalty counts in it (SW-1.6's
        ``loan_in_tiebreak``)."""
        net_of_loans = ", net of loans" if self.options.loan_in_tiebreak else ""
        return self.info.score_name + net_of_loans

    @classmethod
    def from_parts(cls, options: Mapping[str, Any], data: Mapping[str, Any]) -> Self:
        """The game of the command line (``cards_dir`` among the options) or of a record
        (``cards`` in its data: the user's files and the set's hash)."""
        options = dict(options)
        cards_dir = options.pop("cards_dir", None)
        if cards_dir is not None and not isinstance(cards_dir, str | Path):
            raise KafeneioError("cards_dir must be a directory path")
        if "cards" in data:
            return cls(options, cards=cards_of_record(data["cards"]))
        return cls(options, cards_dir=cards_dir)

    def _rebuild(self, options: RulesOptions) -> SouvlakiGame:
        return SouvlakiGame(options, cards=self.cards)

    def record_options(self, record: Mapping[str, Any]) -> Mapping[str, Any]:
        """Version 1 records named the card directory among the options (null: built in)."""
        options = dict(super().record_options(record))
        if options.pop("cards_dir", None) is not None:
            raise RecordError(
                "field 'options.cards_dir': this version-1 record names a card directory; "
                "records now carry the cards themselves: play the game again with --cards"
            )
        return options

    def record_data(self) -> JSON:
        return {"cards": {"sha256": self.cards.digest, "files": dict(self.cards.user_texts)}}

    def make_state(
        self, num_players: int, seed: int | None, setup: Mapping[str, Any] | None
    ) -> SouvlakiState:
        return SouvlakiState(self, num_players, seed, setup)

    def parse_action(self, text: str) -> SouvlakiAction:
        return self.space.parse(text)

    def decode_action(self, code: int) -> SouvlakiAction:
        return self.space.decode(code)

    def notation_table(self) -> str:
        from kafeneio.games.souvlaki import actions

        hidden: tuple[str, ...] = ("random ",)  # chance's, not typed
        if self.options.first_game:  # no unforeseen cards (SW-S.5): none to use or pass on
            hidden += ("use ", "pass")
        return notation_text(actions.__doc__ or "", hidden=hidden)

    def notation_help(self) -> str:
        return f"{self.notation_table()}\n\n{textwrap.fill(' '.join(PHASES.split()), 80)}"

    def _render(self, state: State, viewer: int) -> str:
        assert isinstance(state, SouvlakiState)
        return render_observation(state.observation(viewer))

    def _reference(self, state: State, viewer: int) -> str:
        assert isinstance(state, SouvlakiState)
        return reference_text(state.observation(viewer), self.cards)

    def roles(self, state: State) -> list[str] | None:
        assert isinstance(state, SouvlakiState)
        return [self.cards.shops[shop].id for shop in state.shops]

    def check_num_players(self, num_players: object) -> int:
        """The rules' 2 to 4 players, and no more than the card set has shops: each player
        runs one (SW-S.1), and a set of one's own may hold fewer than 4."""
        count = super().check_num_players(num_players)
        shops = len(self.cards.shops)
        if count > shops:
            raise KafeneioError(
                f"the card set has {plural(shops, 'shop')}: {count} players need one each "
                "(SW-S.1); add shops to its shops.toml, or play with fewer"
            )
        return count

    def deal_roles(self, num_players: int, rng: random.Random) -> SouvlakiGame:
        """Each seat a different shop, drawn at random (SW-S.1)."""
        self.check_num_players(num_players)
        shops = [shop.id for shop in self.cards.shops]
        return self.with_options({self.role_option: rng.sample(shops, num_players)})

    def _observation_spec(self, num_players: int) -> Spec:
        """The pieces of `observation_tensor` with their shapes (docs/souvlaki-wars.md)."""
        return observation_spec(self.cards, num_players)

    def rule_notes(self, rule_id: str | None, words: str = "") -> list[str]:
        """An unforeseen card of one's own card files, told as they give it, beside the
        rulebook's rule for that card (`rule_id`) or for the `words` that name it: the
        rulebook's text tells the built-in card, whose amounts a designer may have changed."""
        if "unforeseen.toml" not in dict(self.cards.user_texts):
            return []
        wanted = words.lower().replace("-", " ").split()
        notes = []
        for kind in self.cards.unforeseen:
            named = f"{kind.id.replace('-', ' ')} {kind.name.lower()}"
            if kind.rule == rule_id or (wanted and all(w in named for w in wanted)):
                # the effects as the engine plays them, beside the text the file says
                effects = "; ".join(
                    f"{effect.do} {effect.amount:+d}" + (" to you" if effect.to == "you" else "")
                    for effect in kind.effects
                )
                notes.append(
                    f"In this game's card files, {kind.name} ({kind.target.kind}) plays: "
                    f"{effects}. Its text: {kind.text}"
                )
        return notes

    def ended_by(self, state: State) -> str | None:
        """A shop at the win (SW-5.2), or the round limit reached with none there."""
        souvlaki = cast(SouvlakiState, state)
        if not souvlaki.is_terminal():
            return None
        goal = f"{self.options.win_money}/{self.options.win_reputation}"
        return f"a shop at {goal}" if souvlaki.at_the_win() else "the round limit"

    def ended_at_limit(self, state: State) -> str | None:
        """A game ended after round `round_limit` with nobody at the win (SW-5.2): the highest
        money + reputation won it (SW-5.3), by a limit the rulebook does not have."""
        souvlaki = cast(SouvlakiState, state)
        if not souvlaki.is_terminal() or souvlaki.at_the_win():
            return None
        return f"the round limit ({souvlaki.options.round_limit} rounds, beyond the rulebook)"

    def chance_outcome_codes(self) -> tuple[int, ...]:
        """Every action code a chance node can have as an outcome, in a fixed order: the food
        card taken at random, by kind (SW-E.11, SW-E.15)."""
        return tuple(action.code for action in self.random_actions)


def cards_of_record(data: Any) -> CardSet:
    """The card set a record carries: its user files over the built-in ones, checked against
    the set's hash so that a changed card file is detected."""
    if not isinstance(data, Mapping):
        raise RecordError("field 'cards' must be an object with 'sha256' and 'files'")
    unknown = sorted(set(data) - {"sha256", "files"}, key=str)
    if unknown:  # else a set the record does not describe is replayed: the built-in one
        raise RecordError(
            f"field 'cards' has {shown(unknown[0])}, which is not 'sha256' or 'files'"
        )
    files, digest = data.get("files", {}), data.get("sha256")
    if not isinstance(files, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in files.items()
    ):
        raise RecordError("field 'cards.files' must map card file names to their TOML text")
    try:
        cards = cards_from_texts(files) if files else builtin_cards()
    except CardDataError as err:
        raise RecordError(f"field 'cards': {err}") from None
    if digest is not None and digest != cards.digest:
        where = "its own card files" if files else "the built-in cards"
        raise RecordError(
            f"field 'cards.sha256': the record was played with {where} as they were then "
            f"({str(digest)[:12]}…); they are now {cards.digest[:12]}…: a changed card file "
            "is not replayed"
        )
    return cards


def max_game_length(options: SouvlakiOptions, cards: CardSet, num_players: int) -> int:
    """A bound on the decisions of any game (chance outcomes included). A round has at most:
    per player a mulligan, maintenance (each supply, an advertisement, done, and a discard for
    every food card), a pick per customer revealed, an unforeseen card or pass per card held,
    and a service of one play per food card, one serve or send-away per customer, a finish;
    chance takes one food card per steal. Cards are counted from the whole set, so the bound
    holds whatever was dealt."""
    food = sum(card.count for card in cards.foods)
    customers = sum(card.count for card in cards.customers) * 2  # a Big Phone Order brings 2
    unforeseen = sum(kind.count for kind in cards.unforeseen)
    supplies = max(shop.supplies_per_round for shop in cards.shops)
    per_player = 1 + supplies + 2 + 2 * food + customers + (unforeseen + 1) + 1
    per_round = num_players * per_player + (2 * num_players + 1) + food
    return options.round_limit * per_round + per_round

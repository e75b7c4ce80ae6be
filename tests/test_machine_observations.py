"""Observations for machines (issue 6 item 5): `observation_key` and `observation_tensor`.

The key must be equal exactly when `observation(player)` is; the tensor must be as long as the
game's `observation_spec`, the same in every determinized sample for its player, and blind to
cards its player cannot see.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hash_seeds import outputs_under_hash_seeds
from kafeneio.core import CHANCE, SPECTATOR, Game, State, sample_chance
from kafeneio.core.conformance import check_state
from kafeneio.core.errors import ViewerError
from kafeneio.core.machine_checks import MachineObservationError, check_machine_observations
from kafeneio.games import get_game
from kafeneio.games.cafe.state import full_deck
from kafeneio.games.souvlaki import SouvlakiGame

GAMES = ("cafe", "souvlaki")


def random_states(game_name: str, players: int, seed: int, every: int) -> Iterator[State]:
    """Every `every`-th state of one random game, terminal state included."""
    rng = random.Random(seed)
    state = get_game(game_name).new_state(players, seed=seed)
    index = 0
    while True:
        if index % every == 0 or state.is_terminal():
            yield state.clone()
        if state.is_terminal():
            return
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        index += 1


def spec_size(state: State) -> int:
    spec: Any = state.game.observation_spec(state.num_players)
    return sum(math.prod(shape) for shape in spec.values())


def canonical(observation: dict[str, Any]) -> str:
    return json.dumps(observation, sort_keys=True)


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_keys_are_equal_exactly_when_observations_are(game_name: str, players: int) -> None:
    """Over random states and determinized samples, key and observation determine each other,
    for every player and for a spectator."""
    rng = random.Random(players)
    key_to_view: dict[Any, str] = {}
    view_to_key: dict[str, Any] = {}
    for seed in range(3):
        for state in random_states(game_name, players, seed, every=7):
            for player in [*range(players), SPECTATOR]:
                views = [state, state.determinize(max(player, 0), rng)]
                views.append(state.determinize((max(player, 0) + 1) % players, rng))
                for view in views:
                    key: Any = view.observation_key(player)
                    text = canonical(view.observation(player))
                    assert key_to_view.setdefault(key, text) == text
                    assert view_to_key.setdefault(text, key) == key
    assert len(key_to_view) > 50  # many different views were compared, not one


KEY_HASHES = """
import random, sys
from kafeneio.core import CHANCE, SPECTATOR, sample_chance
from kafeneio.games import get_game
rng = random.Random(3)
state = get_game(sys.argv[1]).new_state(2, seed=3)
while True:
    print([hash(state.observation_key(player)) for player in (0, 1, SPECTATOR)])
    if state.is_terminal():
        break
    chance = state.current_player() == CHANCE
    state.apply(sample_chance(state, rng) if chance else rng.choice(state.legal_actions()))
"""


@pytest.mark.parametrize("game_name", GAMES)
def test_key_hashes_are_the_same_in_every_process(game_name: str) -> None:
    """Tables of search bots and policies are keyed by these keys and built by many workers:
    one position must hash alike under another hash seed and another memory layout."""
    outputs = outputs_under_hash_seeds(KEY_HASHES, game_name)
    assert len(outputs) == 1
    assert len(next(iter(outputs)).splitlines()) > 20  # a whole game, not one position


def holds_none(value: object) -> bool:
    return value is None or (isinstance(value, tuple) and any(map(holds_none, value)))


@pytest.mark.parametrize("game_name", GAMES)
def test_keys_hold_no_none(game_name: str) -> None:
    """Python 3.11 hashes None by its address, different in every process (the test above
    shows it there; this one on any version)."""
    for state in random_states(game_name, 2, seed=4, every=1):
        for player in (0, 1, SPECTATOR):
            assert not holds_none(state.observation_key(player))


@pytest.mark.parametrize("game_name", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_tensors_have_the_spec_length_and_survive_determinize(game_name: str, players: int) -> None:
    rng = random.Random(7)
    for state in random_states(game_name, players, seed=players, every=5):
        size = spec_size(state)
        for player in range(players):
            tensor: list[float] = state.observation_tensor(player)
            assert len(tensor) == size
            assert all(isinstance(value, float) and math.isfinite(value) for value in tensor)
            for _ in range(2):
                sample: Any = state.determinize(player, rng)
                assert sample.observation_tensor(player) == tensor


@pytest.mark.parametrize("players", [2, 3, 4])
def test_souvlaki_tensor_is_blind_to_the_hands_a_player_cannot_see(players: int) -> None:
    """A sample for player 0 deals the other hands anew: player 0's tensor stays the same while
    the other players' tensors (who see their own new hands) change."""
    rng = random.Random(1)
    changed = 0
    for state in random_states("souvlaki", players, seed=11, every=40):
        if state.is_terminal():
            continue
        mine: list[float] = state.observation_tensor(0)
        theirs = [state.observation_tensor(p) for p in range(1, players)]
        for _ in range(3):
            sample: Any = state.determinize(0, rng)
            assert sample.observation_tensor(0) == mine
            resampled = [sample.observation_tensor(p) for p in range(1, players)]
            changed += resampled != theirs
    assert changed > 5  # the hidden hands did change, and the other views saw it


@pytest.mark.parametrize("players", [2, 4])
def test_cafe_tensor_shows_the_bag_contents_but_not_its_order(players: int) -> None:
    """Two games dealt the same hands from bags in other orders look the same to everyone; a
    card moved from the bag into a hand is seen."""
    game = get_game("cafe")
    text = game.board.card_text
    deck = [text(card) for card in full_deck()]
    random.Random(players).shuffle(deck)
    dealt = 5 * players
    reordered = deck[:dealt] + deck[dealt:][::-1]
    first = game.new_state(players, setup={"bag": deck})
    second = game.new_state(players, setup={"bag": reordered})
    assert first != second  # the bags' orders differ
    for player in range(players):
        assert tensor(first, player) == tensor(second, player)
    swap = next(i for i in range(dealt, len(deck)) if deck[i] != deck[0])
    moved = list(deck)
    moved[0], moved[swap] = moved[swap], moved[0]
    third = game.new_state(players, setup={"bag": moved})
    assert tensor(third, 0) != tensor(first, 0)


def test_cafe_tensor_shows_the_rules_options_the_game_is_played_under() -> None:
    """Souvlaki's tensor showed its rules and Café's none: a learner played across Café's
    variants could not tell a game with the dance or a larger hand from the default."""
    from kafeneio.games.cafe.tensor import RULES

    def rules_piece(options: dict[str, Any]) -> list[float]:
        game = get_game("cafe", options)
        spec = game.observation_spec(2)
        start = 0
        for name, shape in spec.items():
            if name == "rules":
                break
            start += math.prod(shape)
        values = tensor(game.new_state(2, seed=1), 0)
        return values[start : start + len(RULES)]

    default = dict(zip(RULES, rules_piece({}), strict=True))
    assert default == {name: 0.0 for name in RULES} | {
        "joker_native_both": 1.0, "hand_size": 5.0, "end_bag": 4.0, "birthday_threshold": 30.0
    }  # fmt: skip
    varied = dict(zip(RULES, rules_piece({"dance": True, "bar_draw": "extra", "hand_size": 6}),
                      strict=True))  # fmt: skip
    assert {name for name in RULES if varied[name] != default[name]} == {
        "dance", "bar_draw", "hand_size"
    }  # fmt: skip
    assert varied["dance"] == 1.0 and varied["bar_draw"] == 1.0 and varied["hand_size"] == 6.0


def test_souvlaki_tensor_shows_every_rules_option_but_the_shops() -> None:
    """It showed six of its options: a learner played across variants could not tell
    `food_play=any` or other loans from the default."""
    from kafeneio.games.souvlaki.options import SouvlakiOptions
    from kafeneio.games.souvlaki.tensor import RULES

    assert set(RULES) == set(SouvlakiOptions().to_dict()) - {"shops"}

    def rules_piece(options: dict[str, Any]) -> dict[str, float]:
        game = get_game("souvlaki", options)
        spec = game.observation_spec(2)
        names = list(spec)
        start = sum(math.prod(spec[name]) for name in names[: names.index("rules")])
        values = tensor(game.new_state(2, seed=1), 0)
        return dict(zip(RULES, values[start : start + len(RULES)], strict=True))

    default = rules_piece({})
    varied = rules_piece({"food_play": "any", "loan_amount": 7, "purchases_into_debt": True})
    assert {name for name in RULES if varied[name] != default[name]} == {
        "food_play", "loan_amount", "purchases_into_debt"
    }  # fmt: skip
    assert varied["food_play"] == 2.0 and varied["loan_amount"] == 7.0
    assert varied["purchases_into_debt"] == 1.0 and default["round_limit"] == 30.0


def tensor(state: State, player: int) -> list[float]:
    values: list[float] = state.observation_tensor(player)
    return values


def test_souvlaki_spec_follows_the_card_set(tmp_path: Path) -> None:
    """Souvlaki Wars' cards are user data: one unforeseen kind makes the unforeseen pieces one
    entry wide, and the tensor keeps the spec's length."""
    (tmp_path / "unforeseen.toml").write_text(
        '[[unforeseen]]\nid = "tax-audit"\nname = "Tax Audit"\ncount = 2\n'
        'target = { kind = "opponent" }\neffects = [{ do = "money", amount = -3 }]\n'
        'source = "reconstruction"\n',
        encoding="utf-8",
    )
    game = SouvlakiGame(cards_dir=tmp_path)
    spec = game.observation_spec(3)
    assert spec["hand_unforeseen"] == (1,) and spec["in_play"] == (1,)
    assert spec["queues"][2] == 12 + len(game.cards.customers) + 1
    builtin = SouvlakiGame().observation_spec(3)
    assert builtin["hand_unforeseen"] == (len(SouvlakiGame().cards.unforeseen),)
    state = game.new_state(3, seed=2)
    assert len(state.observation_tensor(1)) == sum(math.prod(s) for s in spec.values())


DOC_PAGES = {"cafe": "cafe-international.md", "souvlaki": "souvlaki-wars.md"}


@pytest.mark.parametrize("game_name", GAMES)
def test_the_tensor_sizes_each_game_page_gives_are_the_specs(game_name: str) -> None:
    page = Path(__file__).parent.parent / "docs" / DOC_PAGES[game_name]
    found = re.search(r"tensor has (\d+), (\d+) and (\d+) entries", page.read_text("utf-8"))
    assert found, f"{page.name} gives no tensor sizes"
    game: Any = get_game(game_name)
    sizes = [sum(map(math.prod, game.observation_spec(n).values())) for n in (2, 3, 4)]
    assert [int(size) for size in found.groups()] == sizes


@pytest.mark.parametrize("game_name", GAMES)
def test_observation_key_refuses_a_viewer_neither_player_nor_spectator(
    game_name: str,
) -> None:
    state: Any = get_game(game_name).new_state(2, seed=1)
    for bad in (2, -1, "0", True):
        with pytest.raises(ViewerError):
            state.observation_key(bad)


def test_the_harness_catches_a_tensor_that_shows_hidden_cards() -> None:
    """The harness's machine checks can fail: a tensor that leaks another hand is caught."""
    state: Any = get_game("souvlaki").new_state(2, seed=5)
    honest = type(state).observation_tensor

    def leaky(self: Any, player: int) -> list[float]:
        return [*honest(self, player), *map(float, self.observation_key(1 - player).hand_food)]

    spec = type(state.game).observation_spec

    def longer_spec(self: Any, players: int) -> dict[str, tuple[int, ...]]:
        return {**spec(self, players), "leak": (len(self.cards.foods),)}

    type(state).observation_tensor = leaky
    type(state.game).observation_spec = longer_spec
    try:
        with pytest.raises(MachineObservationError, match="tensor"):
            check_machine_observations(state, random.Random(0), samples=5)
    finally:
        type(state).observation_tensor = honest
        type(state.game).observation_spec = spec
    check_machine_observations(state, random.Random(0))
    check_state(state, random.Random(0), replay_record=False)


def test_the_harness_requires_the_spec_of_a_game_whose_states_have_a_tensor() -> None:
    """A game with a tensor but no `observation_spec` of the contract's is caught (the spec was
    each game's own method, and the harness skipped a game that lacked it)."""
    state: Any = get_game("cafe").new_state(2, seed=5)
    written = type(state.game)._observation_spec
    type(state.game)._observation_spec = Game._observation_spec
    try:
        with pytest.raises(MachineObservationError, match="has an observation tensor, but"):
            check_machine_observations(state, random.Random(0))
    finally:
        type(state.game)._observation_spec = written

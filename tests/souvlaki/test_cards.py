"""The card data files and the loader of user card files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kafeneio.core import OptionsError, RecordError
from kafeneio.core.record import replay
from kafeneio.games import load_record
from kafeneio.games.souvlaki import CardDataError, SouvlakiGame
from kafeneio.games.souvlaki.cards import FILES, export_builtin, load_cards

from .conftest import CARDS, play, position

CUSTOMER = 'order = "SF"\ncount = 3\nmoney = 1\ninfluence = 2\nsource = "rulebook"\n'
TAX_AUDIT = """
[[unforeseen]]
id = "tax-audit"
name = "Tax Audit"
count = 2
target = { kind = "opponent" }
effects = [{ do = "money", amount = -3 }, { do = "reputation", amount = 1, to = "you" }]
source = "reconstruction"
"""


def test_every_entry_says_whether_the_rulebook_confirms_it() -> None:
    sources = {shop.source for shop in CARDS.shops} | {card.source for card in CARDS.customers}
    sources |= {card.source for card in CARDS.foods} | {kind.source for kind in CARDS.unforeseen}
    assert sources <= {"rulebook", "reconstruction"}
    confirmed = {shop.id: set(shop.confirmed) for shop in CARDS.shops}
    assert confirmed["souvlache"] == {"start_money", "start_reputation"}
    assert {"start_reputation", "operating_cost", "supplies_cards"} <= confirmed["express"]
    assert confirmed["pita"] == {"supplies_per_round"}
    assert {card.text for card in CARDS.customers if card.confirmed} == {"SF 1/2", "GG 3/2", "BIG"}
    assert {card.text for card in CARDS.foods if card.confirmed} == {"S", "GF", "GD"}


@pytest.mark.rule("SW-E.5")
@pytest.mark.rule("SW-U.5")
def test_generous_tips_amount_is_the_rulebooks() -> None:
    """ "θα δώσει τα 2": the only unforeseen effect the rulebook gives is the tip of 2."""
    confirmed = {kind.id: kind for kind in CARDS.unforeseen if "effects" in kind.confirmed}
    assert list(confirmed) == ["generous-tip"]
    assert [(e.do, e.amount) for e in confirmed["generous-tip"].effects] == [("tip", 2)]


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "customers.toml",
            f"[[customer]]\n{CUSTOMER}\n[[customer]]\n"
            + CUSTOMER.replace("money = 1", "money = -1"),
            ["entry 2", "'money'", "from 0 to 100"],
        ),
        ("customers.toml", f"[[customer]]\n{CUSTOMER}price = 3\n", ["entry 1", "'price'"]),
        (
            "customers.toml",
            f"[[customer]]\n{CUSTOMER}\n[[customer]]\n{CUSTOMER}",
            ["entry 2", "repeats entry 1's card; raise that entry's count"],
        ),
        (  # another card under an earlier one's id: a clash, not a second copy
            "unforeseen.toml",
            TAX_AUDIT + "\n" + TAX_AUDIT.replace("amount = -3", "amount = -5"),
            ["entry 2", "'tax-audit' is the id of entry 1: give each kind of card its own id"],
        ),
        (  # a misspelt required field: said beside the field it misses
            "shops.toml",
            '[[shop]]\nid = "big"\nname = "Big"\nstart_mony = 3\nsource = "rulebook"\n',
            ["'start_money': is missing (is 'start_mony' a misspelling of it?)"],
        ),
        ("customers.toml", "[[customer]]\ncount = 1\n", ["entry 1", "'source'", "missing"]),
        (
            "foods.toml",
            '[[food]]\nfoods = "GGGG"\ncount = 1\nsource = "rulebook"\n',
            ["entry 1", "'foods'", "at most 3"],
        ),
        (
            "foods.toml",
            '[[food]]\nfoods = "GX"\ncount = 1\nsource = "rulebook"\n',
            ["'foods'", "G, S, F, D"],
        ),
        (
            "foods.toml",
            '[[food]]\nfoods = "G"\nsource = "somewhere"\ncount = 1\n',
            ["'source'", "rulebook, reconstruction"],
        ),
        (
            "foods.toml",
            '[[food]]\nfoods = "G"\ncount = 1\nsource = "rulebook"\nconfirmed = ["colour"]\n',
            ["'confirmed'", "colour"],
        ),
        ("foods.toml", "[[food]\nfoods = 1", ["foods.toml", "not valid TOML"]),
        ("shops.toml", '[[shop]]\nid = "Big Shop"\nsource = "rulebook"\n', ["'id'", "lower-case"]),
        (
            "unforeseen.toml",
            TAX_AUDIT.replace('"opponent"', '"somebody"'),
            ["entry 1", "'target.kind'"],
        ),
        (
            "unforeseen.toml",
            TAX_AUDIT.replace('do = "money"', 'do = "annoy"'),
            ["'effects[0].do'", "one customer"],
        ),
        (
            "unforeseen.toml",
            TAX_AUDIT.replace("amount = -3", 'amount = "lots"'),
            ["'effects[0].amount'"],
        ),
        (
            "unforeseen.toml",
            TAX_AUDIT.replace('{ kind = "opponent" }', '{ kind = "opponent", phone = "phone" }'),
            ["'target.phone'", "customer targets only"],
        ),
    ],
)
def test_the_loader_names_the_file_entry_and_field_of_a_problem(
    tmp_path: Path, name: str, text: str, expected: list[str]
) -> None:
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(CardDataError) as error:
        SouvlakiGame(cards_dir=tmp_path)
    message = str(error.value)
    assert str(tmp_path / name) in message
    for fragment in expected:
        assert fragment in message


def test_the_loader_rejects_a_missing_or_empty_directory(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="does not exist"):
        load_cards(tmp_path / "nowhere")
    file = tmp_path / "shops.toml"
    file.write_text("")  # a card file named where its directory belongs
    with pytest.raises(CardDataError, match=r"shops\.toml is a file, not a card directory"):
        load_cards(file)
    file.unlink()
    with pytest.raises(CardDataError, match="holds none of"):
        load_cards(tmp_path)
    with pytest.raises(CardDataError, match="is a path, not -1"):
        load_cards(-1)  # type: ignore[arg-type]  # as a malformed record's options may say


@pytest.mark.rule("SW-3.2")
def test_a_repeated_shop_id_is_refused_as_a_shop_not_a_card_of_a_count(tmp_path: Path) -> None:
    """Shops have no count: raising one's, as said of repeated cards, was no way out."""
    shops = export_builtin(tmp_path)[FILES.index("shops.toml")]
    shops.write_text(shops.read_text().replace('id = "pita"', 'id = "thanasis"'))
    with pytest.raises(CardDataError) as error:
        load_cards(tmp_path)
    message = str(error.value)
    assert "field 'id': 'thanasis' is an earlier shop's id" in message
    assert "count" not in message


def test_a_new_unforeseen_card_is_a_data_entry(tmp_path: Path) -> None:
    (tmp_path / "unforeseen.toml").write_text(TAX_AUDIT, encoding="utf-8")
    game = SouvlakiGame(cards_dir=tmp_path)
    assert [kind.id for kind in game.cards.unforeseen] == ["tax-audit"]
    assert game.cards.foods == CARDS.foods  # the files not given stay built in
    state = position(
        phase="unforeseen",
        unforeseen_hands=[["tax-audit"], []],
        money=[5, 5],
        reputation=[9, 5],
        game=game,
    )
    assert {a.notation for a in state.legal_actions()} == {"pass", "use tax-audit p2"}
    play(state, "use tax-audit p2")
    assert (state.money(1), state.reputation(0)) == (2, 10)


def test_records_carry_the_user_cards_and_replay_anywhere(tmp_path: Path) -> None:
    (tmp_path / "unforeseen.toml").write_text(TAX_AUDIT, encoding="utf-8")
    game = SouvlakiGame(cards_dir=tmp_path)
    state = game.new_state(2, seed=4)
    record = json.loads(json.dumps(state.to_record()))
    assert str(tmp_path) not in json.dumps(record)  # no path: the files themselves
    assert record["cards"]["files"] == {"unforeseen.toml": TAX_AUDIT}
    (tmp_path / "unforeseen.toml").unlink()  # another machine: the directory is gone
    assert load_record(record) == state
    with pytest.raises(RecordError, match="field 'cards'"):
        replay(SouvlakiGame(), record)  # the built-in cards are not the record's


def test_a_changed_card_file_is_detected_not_replayed() -> None:
    record = SouvlakiGame().new_state(2, seed=4).to_record()
    assert record["cards"] == {"sha256": CARDS.digest, "files": {}}
    changed = {**record, "cards": {"sha256": "0" * 64, "files": {}}}
    with pytest.raises(RecordError, match="changed card file") as refused:
        load_record(changed)
    # the field at fault is named, not 'options' before it
    assert str(refused.value).startswith("field 'cards.sha256': "), refused.value
    edited = {"sha256": CARDS.digest, "files": {"unforeseen.toml": TAX_AUDIT}}
    with pytest.raises(RecordError, match="changed card file"):
        load_record({**record, "cards": edited})
    with pytest.raises(OptionsError, match="cards_dir"):
        SouvlakiGame({"cards_dir": "x"})  # a path is not a rules option


def test_a_cards_field_of_other_keys_is_refused_naming_the_key() -> None:
    """``"cards": {"x": 1}`` made the built-in set, then failed as "not this game's: replay the
    record with load_record", said to a caller of load_record."""
    record = SouvlakiGame().new_state(2, seed=4).to_record()
    with pytest.raises(RecordError, match=r"field 'cards' has 'x', which is not 'sha256' or"):
        load_record({**record, "cards": {"x": 1}})
    with pytest.raises(RecordError, match=r"known game as records write it .*, not 'SOUVLAKI'"):
        load_record({**record, "game": "SOUVLAKI"})


def test_a_card_set_with_fewer_shops_than_players_is_refused_by_name(tmp_path: Path) -> None:
    """Two shops for four players: a simulation dealt them with `random.sample` and stopped in
    a ValueError, and play blamed an option `shops` nobody had set."""
    import random

    from kafeneio.core import KafeneioError
    from kafeneio.sim.runner import Backend
    from kafeneio.sim.simulate import simulate

    export_builtin(tmp_path)
    shops = tmp_path / "shops.toml"
    shops.write_text("[[shop]]".join(shops.read_text(encoding="utf-8").split("[[shop]]")[:3]))
    game = SouvlakiGame(cards_dir=tmp_path)
    assert len(game.cards.shops) == 2 and game.new_state(2, seed=1).num_players == 2
    told = r"the card set has 2 shops: 3 players need one each \(SW-S\.1\)"
    with pytest.raises(KafeneioError, match=told):
        game.new_state(3, seed=1)
    with pytest.raises(KafeneioError, match=told):
        game.deal_roles(3, random.Random(1))
    with pytest.raises(KafeneioError, match=told):
        simulate("souvlaki", ["random"] * 3, 2, options={"cards_dir": str(tmp_path)},
                 backend=Backend(workers=1))  # fmt: skip


def test_a_misnamed_card_file_is_refused_not_left_out(tmp_path: Path) -> None:
    """shop.toml for shops.toml: the run played the built-in shops and said "cards: own"."""
    export_builtin(tmp_path)
    (tmp_path / "shops.toml").rename(tmp_path / "shop.toml")
    with pytest.raises(CardDataError, match=r"holds shop\.toml, not a card file: the card files"):
        load_cards(tmp_path)
    (tmp_path / "shop.toml").rename(tmp_path / "shops.toml")
    (tmp_path / "notes.txt").write_text("other files are no card files' business")
    assert len(load_cards(tmp_path).shops) == 4

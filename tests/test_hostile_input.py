"""Hostile and careless input to the engines (issue 7): notation, options and user card files
are refused with the package's own errors, naming the problem, and nothing else breaks."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from kafeneio.core import KafeneioError, NotationError, OptionsError
from kafeneio.core.errors import shown
from kafeneio.games import get_game
from kafeneio.games.souvlaki import CardDataError, SouvlakiGame

GAMES = ("cafe", "souvlaki")
HUGE = "1" * 5000


def shipped(name: str) -> str:
    return resources.files("kafeneio.games.souvlaki").joinpath("cards", name).read_text("utf-8")


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("cafe", "USm@²"),
        ("cafe", "USm@١٦"),  # Arabic-Indic 16: isdigit() and int() accept it
        ("cafe", "swap USf@１８"),
        ("cafe", f"USm@{HUGE}"),
        ("cafe", "dance US1: USm@15 USm@16 USm@17 Jm@" + HUGE),
        ("souvlaki", "pick ²"),
        ("souvlaki", "pick １"),  # full-width 1
        ("souvlaki", f"pick {HUGE}"),
        ("souvlaki", f"send {'0' * 5000}1"),
        ("souvlaki", "use queue-jump p1.²"),
        ("souvlaki", "use queue-jump p²"),
        ("souvlaki", f"use queue-jump p1.{HUGE}"),
        ("souvlaki", "play ß"),  # 'ß'.upper() is 'SS'
        ("souvlaki", "use \u212aitchen"),  # Kelvin sign: its lower() is an ASCII k
        ("souvlaki", "pick" + " " * 10_000 + "3"),
    ],
)
def test_notation_reads_ascii_digits_only_and_refuses_with_notation_error(
    game: str, text: str
) -> None:
    with pytest.raises(NotationError) as error:
        get_game(game).parse_action(text)
    assert len(str(error.value)) < 300


def test_ascii_notation_still_reads_as_before() -> None:
    assert get_game("cafe").parse_action("usm@016").notation == "USm@16"
    assert get_game("souvlaki").parse_action("PICK 3").notation == "pick 3"
    assert get_game("souvlaki").parse_action("use QUEUE-JUMP P1.2").notation.endswith("p1.2")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("value", [None, 16, b"pass", ["pass"], 1.5])
def test_a_move_that_is_not_text_is_a_notation_error_everywhere(game: str, value: Any) -> None:
    state = get_game(game).new_state(2, seed=1)
    before = state.clone()
    for parse in (state.game.parse_action, state.parse_legal, state.apply_notation):
        with pytest.raises(NotationError, match="text in the game's notation"):
            parse(value)
    assert state == before and len(state.history) == 0


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("code", [True, False, 1.0, "3", -1, pytest.param(10**5000, id="huge")])
def test_decode_takes_whole_numbers_in_the_action_space_only(game: str, code: Any) -> None:
    with pytest.raises(NotationError, match="action code"):
        get_game(game).decode_action(code)


class Index:
    """An integer of another type, as numpy's are (`np.int64` has `__index__`, is no `int`)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


@pytest.mark.parametrize("game", GAMES)
def test_decode_takes_any_integer_type(game: str) -> None:
    """An agent's code is often a numpy integer (``np.argmax``): it decodes to the same
    interned action as the int, and an out-of-range one is refused for its range."""
    decode = get_game(game).decode_action
    assert decode(Index(7)) is decode(7)
    with pytest.raises(NotationError, match=r"action code 10000000 is outside 0\.\."):
        decode(Index(10**7))
    with pytest.raises(NotationError, match="an action code is a whole number, not '3'"):
        decode("3")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("options", ["x", 3, ["dance"], b"x"])
def test_options_that_are_not_an_object_are_an_options_error(game: str, options: Any) -> None:
    with pytest.raises(OptionsError, match="must be an object"):
        get_game(game, options)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        pytest.param("cafe", {"hand_size": 10**5000}, id="cafe-huge"),
        ("cafe", {"end_bag": 10**12}),
        ("cafe", {"bar_values": [1] * 10**5}),
        ("cafe", {"first_move": ["lone-guest"]}),
        ("souvlaki", {"round_limit": 10**9}),
        ("souvlaki", {"loan_amount": 10**12}),
        ("souvlaki", {"shops": ["pita"] * 10**5}),
    ],
)
def test_option_values_have_bounds_and_huge_values_are_named_briefly(
    game: str, options: dict[str, Any]
) -> None:
    with pytest.raises(OptionsError) as error:
        get_game(game, options)
    assert len(str(error.value)) < 300


def test_every_option_says_what_it_does_and_what_values_it_takes() -> None:
    from kafeneio.games.cafe import CafeOptions
    from kafeneio.games.souvlaki import SouvlakiOptions

    for options in (CafeOptions, SouvlakiOptions):
        names = set(options().to_dict())
        assert set(options.DESCRIPTIONS) == names
        assert all(len(text) > 20 for text in options.DESCRIPTIONS.values())
        for name, choices in options.CHOICES.items():
            assert options.allowed(name) == " | ".join(choices)
    assert CafeOptions.allowed("hand_size") == "a whole number from 1 to 10"
    assert SouvlakiOptions.allowed("first_game") == "true | false"


def test_the_round_limit_says_its_sum_is_net_of_loans_only_where_the_tie_break_option_says() -> (
    None
):
    from kafeneio.games.souvlaki import SouvlakiOptions

    described = SouvlakiOptions.DESCRIPTIONS["round_limit"]
    assert "(net of loans)" not in described  # not net with loan_in_tiebreak false (SW-1.6)
    assert "net of loans unless loan_in_tiebreak is false" in described


@pytest.mark.parametrize(
    ("value", "echoed"), [("1,2", "'1,2'"), ([], "[]"), ([1, 2.5], "[1, 2.5]")]
)
def test_a_bad_list_option_is_echoed_with_the_command_line_form(value: Any, echoed: str) -> None:
    with pytest.raises(OptionsError) as error:
        get_game("cafe", {"bar_values": value})
    assert f"not {echoed} (on the command line: -o 'bar_values=[1,-2]')" in str(error.value)


def test_shown_quotes_huge_and_deep_values_briefly() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert shown(10**5000) == "<int too large to show>"
    assert shown(deep) == "<list too large to show>"
    assert len(shown("x" * 10**6)) == 60


# --- user card files -----------------------------------------------------------------------


def card_dir(tmp_path: Path, name: str, text: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("name", "old", "new", "field"),
    [
        ("foods.toml", "count = 8", "count = 1000000000", "'count'"),
        ("customers.toml", "count = 2", "count = 101", "'count'"),
        ("shops.toml", "operating_cost = 1", "operating_cost = 1000000000000", "'operating_cost'"),
        ("shops.toml", "supplies_cards = 3", "supplies_cards = 100000", "'supplies_cards'"),
        ("shops.toml", "start_money = 13", "start_money = 101", "'start_money'"),
        ("customers.toml", "money = 3", "money = 1000000", "'money'"),
        (
            "unforeseen.toml",
            '{ do = "phone-order" }',
            '{ do = "phone-order", amount = 1000000000000 }',
            "'effects[0].amount'",
        ),
        ("customers.toml", 'order = "SF"', f'order = "{"S" * 10_000}"', "'order'"),
        ("unforeseen.toml", 'id = "queue-jump"', f'id = "{"q" * 41}"', "'id'"),
        ("unforeseen.toml", 'id = "queue-jump"', 'id = "κάρτα"', "'id'"),
        ("foods.toml", 'foods = "GF"', 'foods = "Gß"', "'foods'"),
    ],
)
def test_every_count_amount_and_cost_in_a_card_file_has_a_bound(
    tmp_path: Path, name: str, old: str, new: str, field: str
) -> None:
    text = shipped(name)
    assert old in text
    directory = card_dir(tmp_path, name, text.replace(old, new, 1))
    with pytest.raises(CardDataError) as error:
        SouvlakiGame(cards_dir=directory)
    message = str(error.value)
    assert str(tmp_path / name) in message and "entry" in message and field in message
    assert len(message) < 400


def test_a_deck_of_too_many_cards_in_all_is_refused_at_the_entry_that_overflows(
    tmp_path: Path,
) -> None:
    text = re.sub(r"(?m)^count = \d+$", "count = 100", shipped("foods.toml"))
    with pytest.raises(CardDataError, match="more than 500 food cards") as error:
        SouvlakiGame(cards_dir=card_dir(tmp_path, "foods.toml", text))
    assert "foods.toml" in str(error.value) and "entry 6, field 'count'" in str(error.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("id = 'caf\xe9'\n".encode("latin-1"), "not UTF-8"),
        ("x = " + "[" * 100_000 + "]" * 100_000 + "\n", "nested too deep"),
        ("x = " + "{a = " * 100_000 + "1" + "}" * 100_000 + "\n", "nested too deep"),
        (b"#" * 1_000_001, "at most 1,000,000 bytes"),
    ],
)
def test_a_card_file_that_is_not_utf8_or_is_nested_too_deep_names_the_file(
    tmp_path: Path, text: str | bytes, problem: str
) -> None:
    with pytest.raises(CardDataError, match=problem) as error:
        SouvlakiGame(cards_dir=card_dir(tmp_path, "shops.toml", text))
    assert str(tmp_path / "shops.toml") in str(error.value)


@pytest.mark.parametrize("directory", [3, ["cards"], 1.5])
def test_a_card_directory_that_is_not_a_path_is_a_card_data_error(directory: Any) -> None:
    with pytest.raises(CardDataError, match="is a path"):
        SouvlakiGame(cards_dir=directory)
    with pytest.raises(KafeneioError, match="cards_dir must be a directory path"):
        get_game("souvlaki", {"cards_dir": directory})

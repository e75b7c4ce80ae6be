"""The rules reference the package ships (kafeneio.core.rulebook): complete against the spec's
rule ids, and holding every rule id a refusal of the engines can cite."""

from __future__ import annotations

import random
import re
import tomllib
from pathlib import Path

import pytest

from kafeneio.core import IllegalActionError, NotationError
from kafeneio.core.rulebook import RULE_ID, RulebookError, load_rulebook, rulebook_of
from kafeneio.games import GAMES, get_game

ROOT = Path(__file__).resolve().parents[1]
SPEC_RULE = re.compile(r"^- ((?:CI|SW)-[A-Z0-9]+\.\d+)\b", re.M)
"""A numbered rule of the spec: the same pattern as the shared rule-coverage tool's."""
PACKAGES = {"cafe": "kafeneio.games.cafe", "souvlaki": "kafeneio.games.souvlaki"}


def spec_ids(shared: Path, prefix: str) -> list[str]:
    ids = []
    for md in sorted((shared / "rules").glob("*.md")):
        ids += [rid for rid in SPEC_RULE.findall(md.read_text(encoding="utf-8"))]
    return [rid for rid in ids if rid.startswith(prefix + "-")]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_reference_has_exactly_the_specs_rule_ids(shared: Path, name: str) -> None:
    game = get_game(name)
    expected = spec_ids(shared, game.info.rule_prefix)
    assert expected, "the spec lists no rules for this game"
    ids = rulebook_of(game).ids()
    assert sorted(ids) == sorted(expected)  # the reference's order is the game's, not the files'


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_entry_is_a_rule_of_its_game_in_a_sentence_or_two(name: str) -> None:
    game = get_game(name)
    book = rulebook_of(game)
    assert len(book) > 30
    for rule in book:
        assert rule.id.startswith(game.info.rule_prefix + "-")
        sentences = len(re.findall(r"[.!?](?:\s|$)", rule.text))
        assert 1 <= sentences <= 4 and len(rule.text) <= 420, rule.id
    assert book.rule(book.ids()[0].lower()) == book.rules[0]  # ids are case-insensitive


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_id_the_engine_source_names_is_in_the_reference(name: str) -> None:
    """Refusals cite rule ids written in the engine's code and card data: every id written
    anywhere there (refusals, docstrings, card files) must have an entry."""
    book = rulebook_of(get_game(name))
    folder = ROOT / "src" / "kafeneio" / "games" / name
    named: set[str] = set()
    for path in folder.rglob("*"):
        if path.suffix in (".py", ".toml") and path.name != "rules.toml":
            named |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    assert named, "the engine names no rule ids"
    assert sorted(named - set(book.ids())) == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_rule_a_refusal_cites_in_play_is_in_the_reference(name: str) -> None:
    """Random games, and at each decision random actions of the whole action space: each one
    refused names a rule of the reference (or none)."""
    game = get_game(name)
    book = rulebook_of(game)
    rng = random.Random(5)
    cited: set[str] = set()
    for seed in range(3):
        state = game.new_state(2 + seed, seed=seed)
        while not state.is_terminal() and state.turns_completed() < 120:
            for code in rng.sample(range(game.info.num_distinct_actions), 30):
                try:
                    action = game.decode_action(code)
                except NotationError:  # a code that names no action here
                    continue
                if action in state.legal_actions():
                    continue
                with pytest.raises(IllegalActionError) as error:
                    state.apply(action)
                if error.value.rule:
                    cited.add(error.value.rule)
            state.apply(rng.choice(state.legal_actions()))
    assert len(cited) >= 4
    assert sorted(cited - set(book.ids())) == []


def test_the_rules_references_are_package_data() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = data["tool"]["setuptools"]["package-data"]
    for name, package in PACKAGES.items():
        assert "rules.toml" in shipped[package], name
        assert (ROOT / "src" / Path(*package.split(".")) / "rules.toml").is_file()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('game = "G"\n[sections]\n"CI-T" = "Seating"\n', "no [[rule]] entries"),
        ('[sections]\n[[rule]]\nid = "CI-T.1"\ntext = "One."\n', "'game' must name"),
        ('game = "G"\n[sections]\n"CI-T" = "S"\n[[rule]]\nid = "T.1"\ntext = "x."\n', "'id'"),
        ('game = "G"\n[sections]\n"CI-T" = "S"\n[[rule]]\nid = "CI-T.1"\n', "field 'text'"),
        ('game = "G"\n[sections]\n[[rule]]\nid = "CI-T.1"\ntext = "One."\n', "no heading"),
        (
            'game = "G"\n[sections]\n"CI-T" = "S"\n[[rule]]\nid = "CI-T.1"\ntext = "One."\n'
            '[[rule]]\nid = "CI-T.1"\ntext = "Two."\n',
            "CI-T.1 is given twice",
        ),
        ('game = "G"\n[sections]\n"CI-T" = "S"\n[[rule]]\nid = "CI-T.1"\nsee = 1\n', "unknown"),
        ("game = ", "not valid TOML"),
    ],
)
def test_a_bad_reference_file_is_refused_naming_the_problem(
    tmp_path: Path, text: str, message: str
) -> None:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulebookError, match=re.escape(message)) as error:
        load_rulebook(path)
    assert str(path) in str(error.value)


def test_an_unknown_rule_id_is_refused_with_the_ids_near_it() -> None:
    book = rulebook_of(get_game("cafe"))
    missing = "CI-T" + ".9"  # written in two parts: the rule-coverage tool would read a citation
    with pytest.raises(RulebookError, match=r"no rule 'CI-T\.9'; CI-T has CI-T\.1, CI-T\.2"):
        book.rule(missing)
    assert missing not in book and "ci-t.2" in book

"""The command line given bad input (issues 7 and 9): exit code 2 and one line ``error: ...``,
never a traceback; and the command-line conveniences a new player asked for."""

from __future__ import annotations

import json
import random
import re
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from kafeneio import __version__, cli
from kafeneio.cli import app
from kafeneio.core import CHANCE, State, sample_chance
from kafeneio.games import get_game, load_record
from kafeneio.games.souvlaki.cards import builtin_cards, load_cards

runner = CliRunner()


def run(*args: str, stdin: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=stdin)


def refused(result: Result, *fragments: str) -> str:
    """The one-line error of a refused command; it must exit 2 without a traceback."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def souvlaki_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("records") / "game.json"
    args = ["play", "souvlaki", "--seats", "random,random", "--seed", "4", "--quiet"]
    result = run(*args, "--record", str(path))
    assert result.exit_code == 0, result.output
    record: dict[str, Any] = json.loads(path.read_text())
    return record


def write(tmp_path: Path, content: str | bytes | dict[str, Any], name: str = "r.json") -> Path:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


# --- records --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"game": "caf\xe9"}', "not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper than a record"),
        ('{"game": "cafe", "seed": ' + "7" * 5000 + "}", "more than 4300 digits"),
        ('{"setup": ' + "[" * 100 + "]" * 100 + "}", "nested deeper than a record"),
    ],
)
def test_replay_of_a_file_that_is_no_record_exits_2_with_one_line(
    tmp_path: Path, content: str | bytes, problem: str
) -> None:
    path = write(tmp_path, content)
    refused(run("replay", str(path)), problem)
    refused(run("play", "cafe", "--from", str(path)), problem)


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("options.cards_dir", 5, "cards_dir must be a directory path"),
        ("options.cards_dir", ["cards"], "cards_dir must be a directory path"),
        ("cards", {"files": {"shops.toml": 5}}, "field 'cards.files'"),
        ("cards", {"files": {"shops.toml": "x = " + "[" * 10_000}}, "nested too deep"),
        ("cards", {"files": {"shops.toml": "#" * 1_000_001}}, "at most 1,000,000 bytes"),
        ("cards", {"files": {"../../etc/passwd": ""}}, "card files are"),
        ("seats", [1, 2], "field 'seats'"),
        ("seats", 5, "field 'seats'"),
        ("seats", ["random"], "field 'seats'"),
        ("players", 10**100, "field 'players'"),
    ],
)
def test_a_record_with_a_malformed_field_is_refused_by_replay_and_play_from(
    tmp_path: Path, souvlaki_record: dict[str, Any], field: str, value: Any, problem: str
) -> None:
    record = json.loads(json.dumps(souvlaki_record))
    if field.startswith("options."):
        record["options"][field.split(".")[1]] = value
    else:
        record[field] = value
    path = write(tmp_path, record)
    refused(run("replay", str(path)), problem)
    refused(run("play", "souvlaki", "--from", str(path)), problem)


def test_replay_json_adds_the_observation_of_the_viewer_up_to_action_k(
    tmp_path: Path, souvlaki_record: dict[str, Any]
) -> None:
    path = write(tmp_path, souvlaki_record)
    full = json.loads(run("replay", str(path), "--json").stdout)
    public = full["observation"]
    assert full["viewer"] is None and public["player"] is None and public["hand"] is None
    for field in ("money", "reputation", "loans"):
        assert all(field in player for player in public["players"]), field
    assert {"phase", "to_move", "round", "queues"} <= set(public)
    cut = json.loads(run("replay", str(path), "--json", "--upto", "5", "--viewer", "1").stdout)
    assert cut["decisions"] == 6 and cut["upto"] == 5 and not cut["finished"]
    state = load_record({**souvlaki_record, "actions": souvlaki_record["actions"][:6]})
    assert cut["observation"] == json.loads(json.dumps(state.observation(1)))
    assert cut["observation"] != json.loads(json.dumps(state.observation(0)))


def test_replay_refuses_a_viewer_or_upto_outside_the_record(
    tmp_path: Path, souvlaki_record: dict[str, Any]
) -> None:
    path = write(tmp_path, souvlaki_record)
    refused(run("replay", str(path), "--viewer", "2"), "players of this record are 0 to 1")
    refused(run("replay", str(path), "--viewer", "-1"), "--viewer -1")
    last = len(souvlaki_record["actions"]) - 1
    refused(run("replay", str(path), "--upto", str(last + 1)), f"numbered 0 to {last}")
    refused(run("replay", str(path), "--upto", "-1"), "--upto -1")


def test_a_refused_action_under_json_is_one_json_object_with_index_and_rule(
    tmp_path: Path, souvlaki_record: dict[str, Any]
) -> None:
    record = json.loads(json.dumps(souvlaki_record))
    index = next(i for i, text in enumerate(record["actions"]) if text.startswith("pick"))
    record["actions"][index] = "serve"
    result = run("replay", str(write(tmp_path, record)), "--json")
    assert result.exit_code == 2
    answer = json.loads(result.stdout)
    assert set(answer) == {"error", "index", "rule"}
    assert answer["index"] == index and f"action {index}" in answer["error"]
    assert answer["rule"] and answer["rule"].startswith("SW-")
    result = run("replay", str(write(tmp_path, b"\xff", "bad.json")), "--json")
    assert result.exit_code == 2
    assert json.loads(result.stdout)["index"] is None


# --- options and counts ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["play", "cafe", "-o", "x=" + "[" * 100_000], "nested too deep"),
        (["play", "cafe", "-o", "hand_size=" + "9" * 5000], "a number too long"),
        (["simulate", "cafe", "-o", "hand_size=" + "9" * 5000], "a number too long"),
        (["play", "cafe", "-o", "hand_size=" + "9" * 4000], "from 1 to 10"),
        (["play", "cafe", "--players", "0"], "not 0"),
        (["play", "cafe", "--players", "0", "--seats", "random"], "not 0"),
        (["simulate", "cafe", "--players", "0"], "takes 2 to 4 players, not 0"),
        (["simulate", "cafe", "--workers", "100000"], "--workers must be from 1 to 64"),
        (["simulate", "souvlaki", "-o", 'shops=["pita"]'], "add --fixed-roles"),
        (["tournament", "souvlaki", "--bots", "random,greedy", "-o", 'shops=["pita"]'], "-o shops"),
        (["play", "cafe", "--from", "x.json", "-o", "dance=true"], "drop -o"),
        (["play", "cafe", "--from", "x.json", "--players", "3"], "drop --players"),
        (["play", "cafe", "--players", "3", "--seats", "random,human"], "names 2 seats for 3"),
        (["bench", "cafe", "--seconds", "-1"], "--seconds must be more than 0"),
        (["bench", "cafe", "--seconds", "nan"], "not nan"),
        (["bench", "cafe", "--seconds", "0"], "not 0"),
        (["analyse", "x.json", "--iterations", "0"], "--iterations must be at least 1, not 0"),
        (["bench", "cafe", "--seconds", "inf"], "at most 3600"),
        (["bench", "chess"], "unknown game 'chess'"),
        (["play", "cafe", "--seats", "human,random", "--quiet"], "--quiet is for bots only"),
        (["play", "cafe", "--cards", "."], "--cards is for Souvlaki Wars"),
        (["play", "souvlaki", "-o", "cards_dir=3"], "cards_dir must be a directory path"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args: list[str], problem: str) -> None:
    message = refused(run(*args), problem)
    assert len(message) < 300


def test_one_seat_name_fills_every_seat_as_in_simulate() -> None:
    result = run("play", "cafe", "--players", "3", "--seats", "random", "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.output
    assert "3 players: P1 random, P2 random, P3 random" in result.output


def test_names_of_games_and_bots_are_read_in_any_case() -> None:
    result = run("play", "CAFE", "--seats", "Random,GREEDY", "--seed", "2", "--quiet")
    assert result.exit_code == 0, result.output
    assert "P1 random, P2 greedy" in result.output
    result = run("simulate", "Souvlaki", "--seats", "Random", "--games", "1", "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["game"] == "souvlaki"


def test_version_and_flags_in_help() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"kafeneio {__version__}"
    for command in ("replay", "bench", "simulate"):
        lines = [line for line in run(command, "--help").stdout.splitlines() if "--json" in line]
        assert lines and "<bool>" not in lines[0], lines
    play_help = run("play", "--help").stdout
    assert "--no-quiet" not in play_help and "--force" in play_help


@pytest.mark.parametrize("command", ["play", "bench", "simulate", "tournament", "serve"])
def test_help_shows_what_to_write_not_pythons_types(command: str) -> None:
    """-o showed ``<list[str]>``, serve's --cards too, and --deal-roles ``<bool>``: Python's
    types, where a user needs the shape of what to write."""
    text = run(command, "--help").stdout
    assert "list[str]" not in text
    options = [line.split() for line in text.splitlines() if line.startswith("  -")]
    lines = {next(w for w in words if w.startswith("--")): " ".join(words) for words in options}
    if "--option" in lines:
        words = " ".join(text.split())
        assert "NAME=VALUE" in lines["--option"] and "(kafeneio games lists them)" in words
    if "--deal-roles" in lines:
        assert "<bool>" not in lines["--deal-roles"]
    assert command not in {"play", "simulate"} or "--option" in lines
    assert command != "serve" or "NAME=DIR" in lines["--cards"]


def test_the_command_list_gives_each_command_its_docstrings_first_paragraph_unbroken() -> None:
    """The summaries `kafeneio --help` lists keep no line break of the docstring's, which Rich
    would print as a break in mid-sentence."""
    listed = run("--help").stdout
    for group in (cli.app, cli.cards_app):
        for command in group.registered_commands:
            assert command.callback and command.short_help and "\n" not in command.short_help
            doc = command.callback.__doc__ or ""
            assert command.short_help == " ".join(doc.split("\n\n")[0].split())
    assert "clone and determinize" in " ".join(listed.replace("│", " ").split())
    for command in ("analyse", "replay"):  # named as the issue and the README name it
        assert f" {command} [OPTIONS] {{RECORD}}" in run(command, "--help").stdout


def test_games_says_what_every_option_does_and_its_values() -> None:
    result = run("games")
    assert result.exit_code == 0
    assert "-o bar_draw=one    (one | extra)" in result.stdout
    assert "CI-D.3 ruling (a): one (exactly one card" in result.stdout
    assert "-o hand_size=5    (a whole number from 1 to 10)" in result.stdout
    assert "-o round_limit=30    (a whole number from 1 to 1000)" in result.stdout
    assert "-o shops=null\n      (null | a list of 2 to 4 shop ids, one a seat" in result.stdout


def test_games_keeps_to_80_columns() -> None:
    """The descriptions were wrapped at 96 columns and an option's allowed values went on its
    line whatever its length: a terminal broke them anywhere. Only a default with no space to
    break at (bar_values' list) may run past 80."""
    lines = run("games").stdout.splitlines()
    long = [line for line in lines if len(line) > 80]
    assert long == [line for line in long if re.fullmatch(r"  -o \w+=\S+", line)], long
    assert (
        "      (a list of 1 to 100 whole numbers from -1000000 to 1000000)" in lines
    )  # bar_values' own, below it


@pytest.mark.parametrize(
    ("option", "value", "problem"),
    [("--port", "99999", "--port must be from 0 to 65535, not 99999"),
     ("--port", "-1", "--port must be from 0 to 65535, not -1"),
     ("--bot-pause", "-1", "--bot-pause must be from 0 to 60 seconds, not -1"),
     ("--bot-pause", "nan", "--bot-pause must be from 0 to 60 seconds, not nan")],
)  # fmt: skip
def test_serve_refuses_a_port_or_a_pause_out_of_range_before_it_starts(
    option: str, value: str, problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--port 99999 ended in the socket's OverflowError traceback; --bot-pause -1 served."""
    pytest.importorskip("kafeneio.server")
    import kafeneio.server

    def started(**settings: Any) -> None:
        raise AssertionError(f"the server started with {settings}")

    monkeypatch.setattr(kafeneio.server, "serve", started)
    refused(run("serve", option, value), problem)


# --- the record file is checked before play -------------------------------------------------


def test_a_record_path_that_cannot_be_written_is_refused_before_play(tmp_path: Path) -> None:
    prompts: list[str] = []
    missing = tmp_path / "no" / "such" / "game.json"
    result = runner.invoke(app, ["play", "cafe", "--record", str(missing)], input="quit\n")
    refused(result, "no directory", str(missing.parent))
    assert "P1>" not in result.output and not prompts
    refused(run("play", "cafe", "--record", str(tmp_path)), "is a directory")


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs a file system that refuses")
def test_a_record_path_the_file_system_refuses_is_refused_before_play() -> None:
    """`os.access` said yes (to root, and where a file system refuses all the same): the game
    was played to its end, then its record lost."""
    bots = ["play", "souvlaki", "--seats", "heuristic,greedy", "--quiet"]
    result = run(*bots, "--record", "/sys/no-record.json")
    refused(result, "cannot write the record to /sys/no-record.json")
    assert "The game ends" not in result.output  # refused before play, not after it


def test_a_record_path_that_is_a_dangling_link_is_left_a_link(tmp_path: Path) -> None:
    """The check created the link's target, then unlinked the link."""
    link = tmp_path / "game.json"
    link.symlink_to(tmp_path / "target.json")
    bots = ["play", "cafe", "--seats", "random,random", "--quiet", "--seed", "1"]
    assert run(*bots, "--record", str(link)).exit_code == 0
    assert link.is_symlink() and json.loads((tmp_path / "target.json").read_text())["seed"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "target.json"]
    lost = tmp_path / "lost.json"  # a link to a folder that is not there: no record there
    lost.symlink_to(tmp_path / "no-such-folder" / "game.json")
    refused(run(*bots, "--record", str(lost)), "cannot write the record")


def test_a_record_path_checked_leaves_no_file_behind(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    bots = ["play", "cafe", "--seats", "random,random", "--quiet", "--seed", "1"]
    assert run(*bots, "--record", str(path)).exit_code == 0 and path.exists()
    refused(run(*bots, "--seats", "nobody", "--record", str(tmp_path / "other.json")), "nobody")
    assert not (tmp_path / "other.json").exists()


def test_an_existing_record_is_overwritten_only_with_force(tmp_path: Path) -> None:
    path = write(tmp_path, "keep me", "game.json")
    bots = ["play", "cafe", "--seats", "random,random", "--quiet", "--seed", "1"]
    refused(run(*bots, "--record", str(path)), "exists", "--force")
    assert path.read_text() == "keep me"
    assert run(*bots, "--record", str(path), "--force").exit_code == 0
    assert json.loads(path.read_text())["seed"] == 1


# --- Souvlaki card files --------------------------------------------------------------------


def test_cards_export_writes_the_shipped_files_and_they_play(tmp_path: Path) -> None:
    target = tmp_path / "my-cards"
    result = run("cards", "export", str(target))
    assert result.exit_code == 0, result.output
    package = resources.files("kafeneio.games.souvlaki").joinpath("cards")
    for name in ("shops.toml", "customers.toml", "foods.toml", "unforeseen.toml"):
        assert (target / name).read_text() == package.joinpath(name).read_text()
    refused(run("cards", "export", str(target)), "already there", "--force")
    shops_file = str(target / "shops.toml")  # a file where the directory belongs
    refused(run("cards", "export", shops_file, "--force"), "shops.toml is a file")
    assert run("cards", "export", str(target), "--force").exit_code == 0
    args = ["play", "souvlaki", "--cards", str(target), "--seats", "random,random", "--quiet"]
    assert run(*args).exit_code == 0
    # a set of one's own is simulated and played in tournaments too, to see how it plays
    shops = target / "shops.toml"
    shops.write_text(shops.read_text().replace('name = "Souvlakia o Thanasis"', 'name = "Mine"'))
    digest = load_cards(target).digest  # the set played, told as a record tells it
    simulated = run("simulate", "souvlaki", "--cards", str(target), "--games", "2", "--json")
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.stdout)["cards"]["sha256"] == digest != builtin_cards().digest
    both = ["tournament", "souvlaki", "--bots", "random,greedy", "--games", "1"]
    played = run(*both, "--cards", str(target), "--json")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["cards"]["sha256"] == digest
    refused(run("simulate", "cafe", "--cards", str(target)), "--cards is for Souvlaki Wars")
    shops.write_text("not toml [")
    refused(run("simulate", "souvlaki", "--cards", str(target)), "shops.toml")


# --- the prompt -----------------------------------------------------------------------------


class Terminal:
    def isatty(self) -> bool:
        return True


def test_the_prompt_edits_lines_with_readline_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("readline")
    monkeypatch.delitem(sys.modules, "readline")
    monkeypatch.setattr(cli.sys, "stdin", Terminal())
    cli._enable_line_editing()
    assert "readline" in sys.modules
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda prompt: asked.append(prompt) or "pass")
    assert cli.ask("P1> ") == "pass" and asked == ["P1> "]  # readline knows the prompt


# --- moves ----------------------------------------------------------------------------------


def test_moves_lists_each_cards_chairs_in_order_with_the_points_they_score() -> None:
    state = get_game("cafe").new_state(2, seed=7)
    state.apply_notation("CUf@1")
    listing = cli.list_moves(state).splitlines()
    assert listing[0].startswith("10 legal moves")
    assert "  TRm@ 2 (+2)  3 (+2)  4 (+2)" in listing
    for line in listing[1:]:
        card, at, chairs = line.strip().partition("@ ")
        if not at:
            continue
        numbers = [int(word) for word in chairs.split() if word.isdigit()]
        assert numbers == sorted(numbers)
        for number in numbers:
            after = state.clone()
            after.apply_notation(f"{card}@{number}")
            gain = after.scores()[0] - state.scores()[0]
            shown_gain = f"{number} ({gain:+d})" if gain else f"{number}"
            assert f" {shown_gain}" in f" {chairs}  "


def test_moves_breaks_a_jokers_chairs_into_lines_of_80_columns() -> None:
    """A joker may take any of the 68 chairs of an empty board: its line ran to 280 columns.
    Its chairs go on under the first, in order, within 80 columns."""
    state = get_game("cafe").new_state(2, seed=7)  # P1 holds Jm
    listing = cli.list_moves(state).splitlines()
    assert max(map(len, listing)) <= 80
    start = listing.index(next(line for line in listing if line.startswith("  Jm@ ")))
    rest = [line for line in listing[start + 1 :] if line.startswith(" " * len("  Jm@ "))]
    assert rest  # it took more than one line
    chairs = [int(word) for word in " ".join([listing[start], *rest]).split()[1:]]
    assert chairs == list(range(1, 69))


def test_moves_folds_a_card_played_on_targets_into_lines_of_that_card() -> None:
    """``use wrong-number p1.2 p2.3`` and its 50 others, one a move, ran a 4-player Souvlaki list
    to 30 rows: each card is written once, its targets after it, within 80 columns."""
    state = get_game("souvlaki").new_state(4, seed=5)
    rng = random.Random(5)
    while state.current_player() == CHANCE or len(state.legal_actions()) < 40:
        state.apply(rng.choice(state.legal_actions()))
    listing = cli.list_moves(state).splitlines()
    assert max(map(len, listing)) <= 80 and len(listing) + 1 <= 24  # and the prompt
    folded: dict[str, str] = {}
    for line in listing[1:]:
        if line.startswith("  use "):  # "  use wrong-number: p1.2  p2.3 (+1)": one target a move
            card, _, folded[card] = line.strip().partition(": ")
        elif line.startswith("   "):  # the card's targets go on under the first
            folded[card] += "  " + line.strip()
    # moves of two targets ("p1.2 p2.3") are set apart by a semicolon
    listed = {f"{card} {target.split(' (')[0]}" for card, targets in folded.items()
              for target in re.split(r";?  ", targets)}  # fmt: skip
    example = listing[-1]  # how one of them is typed, said once
    assert re.fullmatch(r"  \(one entry is one move: type '.+'\)", example)
    assert example.split("type '")[1][:-2] in legal_notations(state)
    legal = {a.notation for a in state.legal_actions() if len(a.notation.split(" ", 2)) == 3}
    assert listed == legal and len(folded) < len(legal) // 4


def test_a_dance_is_listed_under_its_table_once_each_arrangement_a_move() -> None:
    """The listing took "dance US1: ..." for a card and its targets: "dance US1:: ..." and
    a footer about unforeseen cards, 97 columns wide."""
    state = get_game("cafe", {"dance": True}).new_state(
        3,
        setup={
            "rest": {"seed": 3},
            "chairs": {"8": "TRm", "9": "TRf"},
            "hands": [["USm", "USm", "USm", "Jm", "USf"], 5, 5],
            "scores": [10, 4, 2],
        },
    )
    listing = cli.list_moves(state).splitlines()
    assert max(map(len, listing)) <= 80 and not any("::" in line for line in listing)
    heads = [line for line in listing if line.startswith("  dance ")]
    assert [line.split(":")[0] for line in heads] == ["  dance US1", "  dance US2"]
    entries = heads[0].split(": ", 1)[1].split(";  ")
    assert all(f"dance US1: {entry.split(' (')[0]}" in legal_notations(state) for entry in entries)
    example = listing[-1] if listing[-1].startswith("  (one") else listing[-2] + listing[-1]
    assert "(one entry is one move: type 'dance US1: " in example


def legal_notations(state: State) -> set[str]:
    return {action.notation for action in state.legal_actions()}


def test_moves_says_1_legal_move_in_the_singular() -> None:
    state = get_game("souvlaki").new_state(2, seed=1)
    rng = random.Random(0)
    while len(state.legal_actions()) != 1 or state.current_player() == CHANCE:
        if state.current_player() == CHANCE:
            state.apply(sample_chance(state, rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert cli.list_moves(state).startswith("1 legal move (")

"""The `kafeneio` command: play, replay and bench, as a user runs them."""

from __future__ import annotations

import io
import json
import math
import os
import pty
import random
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from rich.console import Console
from rich.markup import escape
from typer.testing import CliRunner

import kafeneio
from kafeneio import cli
from kafeneio.bots import make_bot
from kafeneio.cli import app
from kafeneio.core import State
from kafeneio.games import get_game, load_record

runner = CliRunner()


def write_game(tmp_path: Path, seed: int = 3) -> Path:
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "cafe",
            "--seats",
            "random,greedy",
            "--seed",
            str(seed),
            "--quiet",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("module", ["kafeneio", "kafeneio.cli"])
def test_python_dash_m_runs_the_command(module: str) -> None:
    """``python -m kafeneio.cli`` exited 0 and did nothing: it runs the command now, as does
    ``python -m kafeneio``, for where the `kafeneio` script is not on the PATH."""
    source = Path(kafeneio.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source)}
    ran = subprocess.run(
        [sys.executable, "-m", module, "--version"], capture_output=True, text=True, env=env
    )
    assert ran.returncode == 0 and ran.stdout == f"kafeneio {kafeneio.__version__}\n", ran


@pytest.mark.parametrize("signal_name", ["SIGHUP", "SIGTERM"])
def test_a_closed_terminal_still_writes_the_record(tmp_path: Path, signal_name: str) -> None:
    """A window shut or an ssh link lost (SIGHUP), or a kill (SIGTERM), ended the process on
    the spot, and a game played with --record was lost: it stops as Ctrl-C does now."""
    record = tmp_path / "game.json"
    process = started_at_the_prompt(record)
    process.send_signal(getattr(signal, signal_name))
    rest, _ = process.communicate(timeout=30)
    assert record.exists(), rest.decode()
    assert load_record(json.loads(record.read_text())).ply == 0
    assert f"Stopped ({signal_name}).".encode() in rest and b"Record written" in rest
    assert process.returncode == 128 + getattr(signal, signal_name)  # as the kill would exit


def started_at_the_prompt(record: Path) -> subprocess.Popen[bytes]:
    """A terminal game of P1 against a bot played with --record, started and waiting at P1's
    first prompt, its moves listed (so play is surely under way)."""
    source = Path(kafeneio.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source)}
    command = ["play", "cafe", "--seats", "human,random", "--seed", "7", "--record", str(record)]
    process = subprocess.Popen(
        [sys.executable, "-m", "kafeneio", *command],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"moves\n")
    process.stdin.flush()
    seen = b""
    while b"@" not in seen.partition(b"P1>")[2]:
        chunk = process.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    return process


def test_two_hangups_at_once_still_write_the_record(tmp_path: Path) -> None:
    """A window closing sends SIGHUP twice (the shell's and the terminal's): the second came
    after the handler was put back, and killed the process before the record was written."""
    record = tmp_path / "game.json"
    process = started_at_the_prompt(record)
    process.send_signal(signal.SIGHUP)
    process.send_signal(signal.SIGHUP)
    _, errors = process.communicate(timeout=30)
    assert record.exists() and process.returncode == 128 + signal.SIGHUP
    assert b"Traceback" not in errors, errors.decode()


def test_a_terminal_gone_before_its_hangup_still_writes_the_record(tmp_path: Path) -> None:
    """A terminal that closes fails reads and writes (EIO) before its hangup signal comes, if
    it comes: the failed read or write ended play in a traceback, exit code 1."""
    source = Path(kafeneio.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source), "TERM": "dumb"}
    record = tmp_path / "game.json"
    command = ["play", "cafe", "--seats", "human,random", "--seed", "7", "--record", str(record)]
    screen, keyboard = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "kafeneio", *command],
        stdin=keyboard,
        stdout=keyboard,
        stderr=subprocess.PIPE,
        env=env,
    )
    os.close(keyboard)
    seen = b""
    while b"P1>" not in seen:
        seen += os.read(screen, 4096)
    os.close(screen)  # the window shut
    _, errors = process.communicate(timeout=30)
    assert record.exists(), errors.decode()
    assert process.returncode == 128 + signal.SIGHUP and b"Traceback" not in errors, errors


def test_a_kill_at_a_yes_or_no_question_stops_the_game_too(tmp_path: Path) -> None:
    """The questions that take Ctrl-C as "no" took a kill so too, and asked for a move again:
    the process went on running."""
    source = Path(kafeneio.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source)}
    record = tmp_path / "game.json"
    command = ["play", "cafe", "--seats", "human,random", "--seed", "7", "--record", str(record)]
    red = ["-o", "bar_values=[-3,-3,-3,-3,-3,-3]"]  # a bar seat P1 cannot pay: asked about
    process = subprocess.Popen(
        [sys.executable, "-m", "kafeneio", *command, *red],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"CUf@bar\n")  # and no answer to the question: it waits
    process.stdin.flush()
    seen = b""
    while b"all the same? [y/N]" not in seen:
        chunk = process.stdout.read1(4096)
        assert chunk, seen.decode()
        seen += chunk
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=20)  # by itself: its input is still open
    except subprocess.TimeoutExpired:
        process.kill()
        pytest.fail("still running after SIGTERM at the question")
    assert process.returncode == 128 + signal.SIGTERM and record.exists()


def test_importing_the_main_module_runs_nothing() -> None:
    """Spawned processes and doc tools import ``kafeneio.__main__``: only ``python -m`` runs it."""
    source = Path(kafeneio.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(source)}
    code = "import kafeneio.__main__; print('imported')"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert ran.returncode == 0 and ran.stdout == "imported\n", ran


def test_bots_play_a_full_game_and_the_record_replays_to_its_result(tmp_path: Path) -> None:
    path = write_game(tmp_path)
    record = json.loads(path.read_text())
    assert record["game"] == "cafe" and record["seed"] == 3
    assert record["seats"] == ["random", "greedy"]
    result = runner.invoke(app, ["replay", str(path), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "cafe" and summary["players"] == 2
    assert summary["finished"] and summary["winners"]
    # Café has no chance outcomes: every action is a player's decision
    assert summary["decisions"] == summary["player_decisions"] == len(record["actions"])
    assert summary["turns"] <= summary["decisions"]
    best = max(summary["scores"][w] for w in summary["winners"])
    assert all(score <= best for score in summary["scores"])


def test_a_human_is_shown_the_board_and_told_why_a_move_is_refused() -> None:
    result = runner.invoke(
        app,
        ["play", "cafe", "--seed", "7", "--seats", "human,random"],
        input="help\nmoves\nUSm@99\nJm@bar\nJf@bar\nswap Jm@16\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert (
        "[US1]" in result.output
        and "Bar: 0 of 20 seats taken; the next score +1 +2" in result.output
    )
    assert "legal moves" in result.output
    assert "chairs are numbered 1 to 68" in result.output
    # written right, refused by a rule: said as every refusal is, not as a typo (seed 7: P1
    # holds a joker man; a joker not held is refused as any card not held)
    said = " ".join(result.output.split())  # broken into lines of 80 columns
    assert (
        "Not allowed: joker (man) to the bar (Jm@bar): a joker never goes to the bar (CI-M.2)"
        in said
    )
    assert "Not allowed: Jf is not in the hand of P1" in result.output
    # and a joker is never exchanged for a joker (CI-M.4)
    assert (
        "Not allowed: joker (man) to chair 16 in place of its joker (swap Jm@16): a joker is "
        "exchanged for a guest, not for another joker (CI-M.4)" in said
    )


def test_a_human_move_that_breaks_a_rule_names_the_rule() -> None:
    # Seed 7: player 0 holds a French lady; chair 2 belongs only to the Turkish table TR1.
    result = runner.invoke(app, ["play", "cafe", "--seed", "7"], input="FRf@2\nquit\n")
    # in the words the board and the web page use for the card, the notation kept as typed
    assert (
        "Not allowed: France lady to chair 2 (FRf@2): chair 2 belongs to TR1 (Turkey); the "
        "France lady is of another nation (CI-T.2)" in " ".join(result.output.split())
    )


def test_a_finished_record_replayed_says_why_the_game_ended_as_live_play_does(
    tmp_path: Path,
) -> None:
    path = write_game(tmp_path)
    played = runner.invoke(app, ["play", "cafe", "--seats", "random,greedy", "--seed", "3"])
    replayed = runner.invoke(app, ["replay", str(path)])
    assert replayed.exit_code == 0, replayed.output
    end = next(line for line in played.output.splitlines() if line.startswith("The game ends"))
    assert end in replayed.output and "penalty" in replayed.output  # the same table, the reason
    again = runner.invoke(app, ["play", "cafe", "--from", str(path), "--quiet"])
    assert end in again.output and "points" in again.output  # the score column says its unit


@pytest.mark.parametrize("game", ["cafe", "souvlaki"])
def test_the_end_screen_tells_why_the_game_ended_once(game: str) -> None:
    result = runner.invoke(app, ["play", game, "--seats", "random,greedy", "--seed", "3"])
    assert result.exit_code == 0, result.output
    told = [line for line in result.output.splitlines() if "The game ends" in line]
    assert len(told) == 1 and told[0].startswith("The game ends")
    # why first, then the scores, then who won (the winner was told before the final board,
    # and why the game ended last of all)
    won = next(line for line in result.output.splitlines() if " wins with " in line)
    assert result.output.count(won) == 1
    assert result.output.index(told[0]) < result.output.index("Final scores")
    assert result.output.index("Final scores") < result.output.index(won)


def test_replay_of_an_illegal_action_exits_2_naming_its_index(tmp_path: Path) -> None:
    path = write_game(tmp_path)
    record = json.loads(path.read_text())
    record["actions"][5] = "pass"
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2
    assert "action 5" in result.output and "'pass'" in result.output


def test_replay_of_a_malformed_record_exits_2_naming_the_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "is not JSON" in result.output
    path.write_text(json.dumps({"format": "kafeneio-record", "game": "chess"}))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 2 and "field 'game'" in result.output


def test_bench_reports_its_figures_as_json() -> None:
    result = runner.invoke(app, ["bench", "cafe", "--seconds", "0.2", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["games"] >= 1 and figures["decisions"] > 0
    assert figures["decisions_per_second"] > 0 and figures["clone_microseconds"] > 0


def test_bench_plays_the_rules_options_given_and_says_whether_events_were_on() -> None:
    result = runner.invoke(
        app,
        ["bench", "souvlaki", "--seconds", "0.2", "-o", "food_play=needed", "--quiet", "--json"],
    )
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["quiet"] is True and figures["decisions"] > 0
    assert figures["options"]["food_play"] == "needed"  # and the rest of the rules played
    assert figures["format"] == "kafeneio-bench" and figures["engine"] >= 1
    result = runner.invoke(app, ["bench", "souvlaki", "--seconds", "0.2", "--json"])
    assert json.loads(result.stdout)["quiet"] is False
    told = runner.invoke(app, ["bench", "souvlaki", "--seconds", "0.1", "-o", "food_play=needed"])
    assert told.stdout.splitlines()[-1] == "rules: food_play=needed"
    searched = ["bench", "cafe", "--bot", "mcts:iterations=3", "-o", "hand_size=4"]
    assert runner.invoke(app, searched).stdout.splitlines()[-1] == "rules: hand_size=4"
    figures = json.loads(runner.invoke(app, [*searched, "--json"]).stdout)
    assert figures["format"] == "kafeneio-search-bench" and figures["options"]["hand_size"] == 4
    result = runner.invoke(app, ["bench", "souvlaki", "-o", "food_play=some"])
    assert result.exit_code == 2 and "food_play must be one of" in result.output


def test_bench_against_openspiel_times_its_python_tic_tac_toe_in_the_same_run() -> None:
    pytest.importorskip("pyspiel")
    result = runner.invoke(
        app, ["bench", "cafe", "--seconds", "0.3", "--against-openspiel", "--json"]
    )
    assert result.exit_code == 0, result.output
    versus = json.loads(result.stdout)["openspiel"]
    assert versus["decisions_per_second"] > 0 and versus["tic_tac_toe_decisions_per_second"] > 0
    expected = versus["decisions_per_second"] / versus["tic_tac_toe_decisions_per_second"]
    assert versus["ratio"] == pytest.approx(expected, abs=0.01)
    result = runner.invoke(app, ["bench", "cafe", "--seconds", "0.3", "--against-openspiel"])
    assert "python_tic_tac_toe" in result.output and "ratio" in result.output


def test_bench_against_openspiel_says_what_is_missing_without_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # as if it were not installed
    result = runner.invoke(app, ["bench", "cafe", "--seconds", "0.1", "--against-openspiel"])
    assert result.exit_code == 2
    assert "--against-openspiel needs open_spiel" in result.output


def test_unknown_bot_and_bad_option_are_refused_with_exit_2() -> None:
    result = runner.invoke(app, ["play", "cafe", "--seats", "human,alphazero"])
    assert result.exit_code == 2 and "unknown seat 'alphazero'" in result.output
    result = runner.invoke(app, ["play", "cafe", "-o", "bar_draw=twice"])
    assert result.exit_code == 2 and "bar_draw must be one of" in result.output


def test_a_mistyped_option_name_is_a_plain_line_and_help_shows_no_bool() -> None:
    """Typer's Rich boxes drew a mistyped option's error in a frame, and the help's table
    gave -h, --help a "<bool>" value; Click's own text says it on one line each."""
    result = runner.invoke(app, ["play", "cafe", "--seetz", "x"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "error: no such option: --seetz (Possible options: --seats, --seed); "
        "see root play --help"  # CliRunner names the program root; the command, kafeneio
    ]
    assert not set("╭│╰") & set(result.stderr)
    for command in (["play"], ["cards"], []):
        shown = runner.invoke(app, [*command, "-h"]).stdout.splitlines()
        assert [line.split() for line in shown if "--help" in line] == [
            ["-h,", "--help", "Show", "this", "message", "and", "exit."]
        ]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["simulate", "cafe", "--games", "abc"], "invalid value for '--games'"),
        (["simulate", "cafe", "--players", "abc"], "invalid value for '--players'"),
        (["simulate", "cafe", "--gamez", "3"], "no such option: --gamez"),
        (["simulate"], "missing argument 'GAME'"),
        (["tournament", "cafe"], "missing option '--bots'"),
        (["cards", "export"], "missing argument 'DIR'"),
        (["nosuch"], "no such command 'nosuch'"),
        (["simulate", "cafe", "--games"], "option '--games' requires an argument"),
    ],
)
def test_a_command_line_click_refuses_is_one_line_naming_the_problem(
    args: list[str], named: str
) -> None:
    """The README promises one line ``error: ...`` for bad input; Click's refusals printed the
    usage, a line of help and ``Error: ...``."""
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"error: {named}") and line.endswith(" --help"), line
    assert result.stdout == ""


def test_an_option_without_its_value_says_where_the_command_s_help_is() -> None:
    """Click names no command where an option lacks its value: the line had no "see"."""
    result = runner.invoke(app, ["tournament", "cafe", "--bots"])
    assert result.stderr == (
        "error: option '--bots' requires an argument; see root tournament --help\n"
    )


def test_the_usage_errors_caught_are_those_typer_raises() -> None:
    """They were imported from Typer's private typer._click, else from Click: a Typer without
    _click beside Click would raise errors of a class not caught (three lines again)."""
    plain = typer.Typer(no_args_is_help=True)

    @plain.command()
    def one(number: int) -> None:
        """A command to refuse a word for a number."""

    @plain.command()
    def two() -> None:
        """A second command, so that the app is a group."""

    command = typer.main.get_command(plain)
    with pytest.raises(Exception) as refused:  # any class: the test is which
        command.main(["one", "x"], standalone_mode=False)
    assert cli.is_click_error(refused.value, "UsageError")
    assert not cli.is_click_error(refused.value, "NoArgsIsHelpError")
    with pytest.raises(Exception) as helped:
        command.main([], standalone_mode=False)
    assert cli.is_click_error(helped.value, "NoArgsIsHelpError")
    assert not cli.is_click_error(ValueError("x"), "UsageError")


def test_no_arguments_still_show_help() -> None:
    for args in ([], ["cards"]):
        result = runner.invoke(app, args)
        assert "Usage: root" in result.output and "error" not in result.output  # root: CliRunner


def test_play_goes_on_from_a_record_cut_short(tmp_path: Path) -> None:
    path = write_game(tmp_path)
    record = json.loads(path.read_text())
    record["actions"] = record["actions"][:10]
    start = tmp_path / "start.json"
    start.write_text(json.dumps(record))
    end = tmp_path / "end.json"
    result = runner.invoke(
        app,
        [
            "play",
            "cafe",
            "--from",
            str(start),
            "--seats",
            "greedy,greedy",
            "--quiet",
            "--record",
            str(end),
        ],
    )
    assert result.exit_code == 0, result.output
    # said first: which record the game goes on from, and how far it got, not a new game's start
    assert f"P2 greedy; going on from {start} after 10 actions" in " ".join(result.output.split())
    banner = result.output.split("Final scores")[0].splitlines()
    # a long path: broken at spaces (a path longer than a line stands on a line of its own)
    assert all(len(line) <= 80 or " " not in line.strip() for line in banner), banner
    finished = json.loads(end.read_text())
    assert finished["actions"][:10] == record["actions"]
    assert len(finished["actions"]) > 10 and finished["seed"] == record["seed"]


def test_souvlaki_bots_play_to_the_end_through_chance_nodes(tmp_path: Path) -> None:
    """Ninja and Rats pick food cards at random: play resolves those chance nodes itself."""
    path = tmp_path / "souvlaki.json"
    result = runner.invoke(
        app,
        [
            "play",
            "souvlaki",
            "--players",
            "3",
            "--seats",
            "random,random,greedy",
            "--seed",
            "1",
            "--quiet",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(path.read_text())
    assert any(action.startswith("random ") for action in record["actions"])
    summary = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert summary["finished"] and summary["game"] == "souvlaki"


def test_souvlaki_plays_with_the_users_own_card_files(tmp_path: Path) -> None:
    from importlib import resources

    cards = tmp_path / "cards"
    cards.mkdir()
    shops = resources.files("kafeneio.games.souvlaki").joinpath("cards/shops.toml").read_text()
    (cards / "shops.toml").write_text(shops.replace("start_money = 13", "start_money = 14", 1))
    path = tmp_path / "game.json"
    result = runner.invoke(
        app,
        [
            "play",
            "souvlaki",
            "--seats",
            "random,random",
            "--seed",
            "2",
            "--quiet",
            "--cards",
            str(cards),
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    written = json.loads(path.read_text())
    assert "cards_dir" not in written["options"] and written["cards"]["files"]
    assert runner.invoke(app, ["replay", str(path), "--json"]).exit_code == 0
    (cards / "shops.toml").write_text("[[shop]]\nid = 3\n")
    result = runner.invoke(app, ["play", "souvlaki", "--cards", str(cards)])
    assert result.exit_code == 2 and "shops.toml" in result.output


def test_heuristic_bots_finish_a_souvlaki_game_before_the_round_limit(tmp_path: Path) -> None:
    path = tmp_path / "shops.json"
    result = runner.invoke(
        app,
        [
            "play",
            "souvlaki",
            "--players",
            "4",
            "--seats",
            "heuristic,heuristic,heuristic,random",
            "--seed",
            "3",
            "--quiet",
            "--record",
            str(path),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert summary["finished"] and 3 not in summary["winners"]  # the random shop never wins
    final = load_record(json.loads(path.read_text())).observation(0)
    assert final["round"] < final["round_limit"]  # someone reached 25 money and 25 reputation


@pytest.mark.parametrize(
    ("game", "seats"), [("cafe", "human,random"), ("souvlaki", "human,heuristic,random")]
)
def test_a_human_plays_a_whole_game_at_the_prompt(
    game: str, seats: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The human types a legal move (asking for the list first, once) at every prompt."""
    states = []
    real_loop = cli._play_loop

    def spy_loop(*args: object) -> None:
        states.append(args[1])
        real_loop(*args)  # type: ignore[arg-type]

    prompts = []

    def typist(prompt: str) -> str:
        if prompt.endswith(escape(cli.ALL_THE_SAME)):  # a move whose numbers moved: meant
            return "y"
        prompts.append(prompt)
        legal = states[0].legal_actions()
        return "moves" if len(prompts) == 1 else legal[len(prompts) % len(legal)].notation

    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    monkeypatch.setattr(cli.console, "input", typist)
    players = str(len(seats.split(",")))
    result = runner.invoke(
        app, ["play", game, "--players", players, "--seats", seats, "--seed", "5"]
    )
    assert result.exit_code == 0, result.output
    assert states[0].is_terminal() and "Final scores" in result.output
    assert len(prompts) > 20 and all(p == "P1> " for p in prompts)


def test_the_cafe_board_fits_an_80_column_terminal_to_the_end_of_a_game() -> None:
    """The bar's line gives as many of its next seats as 80 columns hold (it ran to 140)."""
    state = get_game("cafe").new_state(2, seed=3)
    first = state.game.render(state, 0)
    rng = random.Random(3)
    widest = 0
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        picture = state.game.render(state, 0)
        widest = max(widest, *(len(line) for line in picture.splitlines()))
    assert "Bar: " in picture and " …" in first  # the next seats cut short at the start
    assert 77 <= widest <= 80  # the grid is 77 wide


ROWS = 24


def _rows(lines: list[str]) -> int:
    """The rows `lines` take in an 80-column terminal, and the prompt's."""
    return sum(max(1, math.ceil(len(line) / 80)) for line in lines) + 1


def _screens(
    monkeypatch: pytest.MonkeyPatch, game: str, players: int, answer: Callable[[State, int], str]
) -> tuple[list[list[str]], State]:
    """A whole game played at the prompt, P1 typing `answer(state, prompts so far)` against
    heuristic seats (seed 4): the lines printed before each of P1's prompts, and the end."""
    screen = io.StringIO()
    printed_to = [0]
    states: list[State] = []
    seen: list[list[str]] = []
    real_loop = cli._play_loop

    def spy_loop(*args: Any) -> None:
        states.append(args[1])
        real_loop(*args)

    def typist(prompt: str) -> str:
        if prompt.endswith(cli.ALL_THE_SAME):  # a move whose numbers moved: `answer` read them
            return "y"
        text = screen.getvalue()[printed_to[0] :]
        printed_to[0] += len(text)
        seen.append(text.splitlines())
        return answer(states[0], len(seen))

    monkeypatch.setattr(cli, "console", Console(file=screen, width=80, soft_wrap=True))
    monkeypatch.setattr(cli, "ask", typist)
    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    seats = ",".join(["human"] + ["heuristic"] * (players - 1))
    result = runner.invoke(app, ["play", game, "--seats", seats, "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert states[0].is_terminal()
    return seen, states[0]


@pytest.mark.parametrize("players", [2, 4])
def test_a_cafe_turn_fits_24_rows_with_the_last_opponents_turn(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At each of P1's turns the screen holds, in 80 x 24, the turn of the player before them
    (who moves last before P1), the board with every hand, the status and the prompt."""

    def answer(state: State, prompts: int) -> str:
        legal = state.legal_actions()
        return legal[prompts % len(legal)].notation

    seen, _ = _screens(monkeypatch, "cafe", players, answer)
    last = f"  P{players} (heuristic): "
    heights = []
    for lines in seen:
        starts = [i for i, line in enumerate(lines) if line.startswith(last)]
        if starts:  # a new turn of P1's: what a terminal shows from the last turn on
            text = "\n".join(lines)
            assert "[AF1]" in text and "| hand: " in text  # the board and the hands
            heights.append(_rows(lines[starts[0] :]))
    assert len(heights) > 10
    assert max(heights) <= ROWS, heights


STEP = re.compile(r"  (P\d) \(heuristic\): |  chance decides")
"""The first line of a decision in the log: a bot's, or chance's."""


def _last_turn(lines: list[str]) -> int | None:
    """Where the last opponent's turn begins in `lines`, the log since P1's last decision: the
    last opponent's decisions in a row (chance's among them), from the round's start where
    they run across it (who serves last and maintains first makes two turns in a row); None
    where no opponent decided (P1 decides again)."""
    steps = [(i, STEP.match(line)) for i, line in enumerate(lines)]
    movers = [(i, step.group(1)) for i, step in steps if step]  # group 1: None for chance
    players = [who for _, who in movers if who]
    if not players:
        return None
    start = movers[-1][0]
    for i, who in reversed(movers):
        if who not in (players[-1], None):
            break
        start = i
    ends = [i for i in range(start, len(lines)) if re.match(r" +Round \d+ is over", lines[i])]
    return ends[-1] if ends else start


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_souvlaki_turn_fits_80_columns_and_24_rows_with_the_last_opponents_turn(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a whole game, played at the prompt, every line on screen holds in 80 columns
    (the turn order ran to 118, the decks to 89, the legend to 81, a card's text to 110, the
    widest to 201), and at each of P1's turns the screen holds in 24 rows the last opponent's
    turn, the board (each shop with its queue, the draft row, the hand) and the prompt (10-17,
    13-21 and 12-24 rows at 2, 3 and 4 players; 20-33, 22-33 and 24-39 before). A draft's last
    pick at 4 players, the six phone orders it deals a line each and an unforeseen card above
    four long queues, ran to 26 rows: the orders, told together, take two."""
    choose = make_bot("heuristic", 9)  # P1 plays as a player would, serving its queue
    seen, _ = _screens(monkeypatch, "souvlaki", players, lambda s, _: choose(s).notation)
    widths = [max(len(line) for line in lines) for lines in seen]
    heights = []
    for lines in seen:
        start = _last_turn(lines)
        if start is not None:  # a new turn of P1's: what a terminal shows from the last turn on
            text = "\n".join(lines)
            assert "Your food cards: " in text and "queue: " in text  # the hand, the queues
            heights.append(_rows(lines[start:]))
    assert len(heights) > 20
    assert max(widths) <= 80, widths
    assert max(heights) <= ROWS, heights


def test_a_run_of_one_players_decisions_names_their_seat_once() -> None:
    """A bot's service is many decisions in a row: the log names the seat on the first
    (``P2 (greedy): play GF``), then the player alone (``P2: serve``), so that a decision and
    its result share a line of 80 columns where the full name would push the result below. A
    run of cards played and customers served is told together after who decided, its clauses
    naming each decision (``P2 (greedy): plays GF; serves ...``)."""
    result = runner.invoke(app, ["play", "souvlaki", "--seats", "heuristic,greedy", "--seed", "3"])
    assert result.exit_code == 0, result.output
    seats = {"P1": "heuristic", "P2": "greedy"}
    before = None
    named_again = 0
    for line in result.output.splitlines():
        step = re.match(r"  (?:(P\d)(?: \((\w+)\))?: |chance decides)", line)
        if not step:
            continue
        mover, seat = step.groups()
        if seat is not None:  # the first decision of a run names the seat
            assert mover != before and seat == seats[mover], line
        elif mover is not None:
            assert mover == before, line
            named_again += 1
        before = mover
    # a run of cards played and customers served, told together after who decided
    told = " ".join(result.output.split())  # the lines broken at spaces, joined again
    served_on_one_line = len(re.findall(r"P\d \(\w+\): plays [\w, ]+; serves ", told))
    assert named_again > 30 and served_on_one_line > 10


def test_a_decision_shares_its_line_only_with_what_it_did_itself() -> None:
    """A decision's line holds its first result beside it (``P2: serve — P2 serves ...``) only
    where that result is the mover's own: ``P3: done — P2 pays the operating cost`` read as if
    P3's ``done`` made P2 pay, where it is the next shop's maintenance starting."""
    result = runner.invoke(app, ["play", "souvlaki", "--seats", "heuristic,greedy,heuristic",
                                 "--seed", "5", "-o", "round_limit=4"])  # fmt: skip
    assert result.exit_code == 0, result.output
    joined = 0
    for line in result.output.splitlines():
        step = re.match(r"  (P\d)(?: \(\w+\))?: .* — (.*)", line)
        if step:
            mover, caused = step.groups()
            assert caused.startswith(f"{mover} "), line
            joined += 1
    assert joined > 20
    # seed 5: P1 next, its cost below P3's run, which ends in its done
    assert re.search(r"; done\n    P1 pays the operating cost", result.output)


def test_a_souvlaki_queue_wraps_at_80_columns() -> None:
    state = get_game("souvlaki").new_state(4, seed=3)
    rng = random.Random(3)
    queues = []
    while not state.is_terminal() and not any(line.startswith(" " * 10) for line in queues):
        state.apply(rng.choice(state.legal_actions()))
        lines = state.game.render(state, 0).splitlines()
        queues += [line for line in lines if line.startswith(("   queue: ", " " * 10))]
    assert queues and max(len(line) for line in queues) <= 80
    assert any(line.startswith(" " * 10) for line in queues)  # a long queue went on a line below


def souvlaki_record(tmp_path: Path, rounds: int) -> Path:
    """The record of a seeded game of random Souvlaki players that ends after `rounds` rounds
    (the `round_limit` option)."""
    path = tmp_path / "s.json"
    played = runner.invoke(
        app, ["play", "souvlaki", "--seats", "random,random", "--seed", "4", "--quiet",
              "-o", f"round_limit={rounds}", "--record", str(path)],
    )  # fmt: skip
    assert played.exit_code == 0, played.output
    return path


def test_replay_counts_the_players_decisions_apart_from_chance(tmp_path: Path) -> None:
    from kafeneio.sim.analysis import count_decisions

    path = souvlaki_record(tmp_path, rounds=6)
    summary = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    record = json.loads(path.read_text())
    assert summary["decisions"] == len(record["actions"])
    assert summary["player_decisions"] == count_decisions(record)  # as analyse counts them
    assert summary["player_decisions"] < summary["decisions"]  # seed 4: chance took cards


def test_replay_counts_one_action_in_the_singular_and_names_the_viewer(tmp_path: Path) -> None:
    """``--upto 0`` said "1 actions replayed."; with ``--viewer 1`` the board's "Your food
    cards" are P2's, which nothing on screen said."""
    path = souvlaki_record(tmp_path, rounds=2)
    first = runner.invoke(app, ["replay", str(path), "--upto", "0"])
    assert first.exit_code == 0 and "\n1 action replayed.\n" in first.output
    assert first.output.endswith("Not over: stopped at --upto.\n")  # not the record's end
    seen = runner.invoke(app, ["replay", str(path), "--upto", "3", "--viewer", "1"])
    assert "\n4 actions replayed, shown as P2 sees it.\n" in seen.output
    # a record cut short says it is not over, and how to go on, where a finished one says why
    record = json.loads(path.read_text())
    record["actions"] = record["actions"][:10]
    path.write_text(json.dumps(record))
    short = " ".join(runner.invoke(app, ["replay", str(path)]).output.split())
    assert "Not over: the record stops before the game ends (kafeneio play souvlaki" in short


def test_a_record_of_another_engine_version_replays_with_a_note(tmp_path: Path) -> None:
    path = write_game(tmp_path)
    record = json.loads(path.read_text())
    other = tmp_path / "other.json"
    other.write_text(json.dumps({**record, "engine": 99}))
    shown = runner.invoke(app, ["replay", str(other)])
    assert shown.exit_code == 0 and "Note: this record was made by" in shown.output
    summary = json.loads(runner.invoke(app, ["replay", str(other), "--json"]).stdout)
    assert summary["engine"] == 99 and "engine version 99" in summary["engine_note"]
    same = json.loads(runner.invoke(app, ["replay", str(path), "--json"]).stdout)
    assert (
        same["engine_note"] is None
        and "Note:" not in runner.invoke(app, ["replay", str(path)]).output
    )


def _bots_souvlaki(monkeypatch: pytest.MonkeyPatch, p2: Any) -> tuple[str, State]:
    """A seeded two-player Souvlaki game of heuristic bots, P2's decisions made by `p2(state,
    heuristic's choice)`, played by the terminal's loop: what it printed, and the state."""
    screen = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=screen, width=80, soft_wrap=True))
    game = get_game("souvlaki")
    state = game.new_state(2, seed=1)
    heuristic = make_bot("heuristic", 2)
    bots: dict[int, Any] = {0: make_bot("heuristic", 1), 1: lambda s: p2(s, heuristic(s))}
    seats = ["heuristic", "heuristic"]
    cli._play_loop(game, state, bots, seats, False, True, random.Random(1))
    return screen.getvalue(), state


def test_ctrl_c_while_a_bot_thinks_mid_run_tells_what_it_decided_and_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run of a bot's decisions is told when it ends: Ctrl-C while the bot thought on lost
    the cards it had played (and ended in a traceback)."""

    def interrupted(state: Any, choice: Any) -> Any:
        """P2's choice, but Ctrl-C once it has just played two cards in a row."""
        last = [action.notation for action in state.history[-2:]]
        if state.phase == "service" and all(move.startswith("play ") for move in last):
            raise KeyboardInterrupt
        return choice

    try:
        printed, state = _bots_souvlaki(monkeypatch, interrupted)
    except KeyboardInterrupt:
        pytest.fail("Ctrl-C went through the play loop, telling nothing of the bot's run")
    last = printed.rstrip().splitlines()
    assert last[-1] == "Stopped." and not state.is_terminal()
    played = [action.notation.split()[1] for action in state.history[-2:]]
    told = " ".join(" ".join(last[-4:-1]).split())
    assert f"P2 (heuristic): plays {played[0]}, {played[1]} (SW-4.2)" in told


def test_a_bots_run_longer_in_coming_than_run_told_after_is_told_in_parts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(cli, "RUN_TOLD_AFTER", 0.0)  # every second decision: told at once
    printed, state = _bots_souvlaki(monkeypatch, lambda state, choice: choice)
    assert state.is_terminal()
    parts = re.findall(r"^  P2: (?:plays|serves) ", printed, re.MULTILINE)
    assert len(parts) > 5  # a service goes on in a new part, its seat named alone


def test_a_record_goes_on_the_same_way_every_time_it_is_played_on(tmp_path: Path) -> None:
    """Without --seed the bots and chance after --from were seeded at random: the same saved
    game went on another way at each resume (Souvlaki's random bots and its steals)."""
    start = tmp_path / "start.json"
    args = ["play", "souvlaki", "--seats", "random,random,random", "--seed", "8", "--quiet"]
    result = runner.invoke(app, [*args, "--record", str(start)])
    assert result.exit_code == 0, result.output
    record = json.loads(start.read_text())
    record["actions"] = record["actions"][:40]
    start.write_text(json.dumps(record))
    ends = []
    for name in ("one", "two", "seeded"):
        end = tmp_path / f"{name}.json"
        seeded = ["--seed", "9"] if name == "seeded" else []
        again = ["play", "souvlaki", "--from", str(start), "--quiet", "--record", str(end)]
        assert runner.invoke(app, [*again, *seeded]).exit_code == 0
        ends.append(json.loads(end.read_text())["actions"])
    assert ends[0] == ends[1] and ends[0][:40] == record["actions"]
    assert ends[2] != ends[0]  # --seed still chooses another way on


def test_a_bot_s_turn_of_one_decision_is_told_as_a_turn_of_two_is() -> None:
    """A guest sent to the bar read "P2 (greedy): ESf@bar — P2 sends ESf to bar seat 1",
    where a turn of two guests read "P2 (greedy): seats INf on chair 22: +3, ...": the same
    player's turns told two ways."""
    args = ["play", "cafe", "--seats", "heuristic,greedy,heuristic,greedy", "--seed", "11"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    told = [line for line in result.output.splitlines() if re.match(r"  P\d \(", line)]
    assert any(re.match(r"  P\d \(\w+\): sends \w+ to bar seat \d+: ", line) for line in told)
    assert any(re.match(r"  P\d \(\w+\): seats \w+ on chair \d+: [+-]\d+ points", line)
               for line in told)  # fmt: skip
    assert not [line for line in told if " — " in line]


def test_play_says_the_rules_and_cards_a_game_plays_where_they_are_not_the_defaults(
    tmp_path: Path,
) -> None:
    """`play --cards` never said on screen that one's own cards were in play, nor a variant
    that it was on; a set exported and not changed read as one's own."""
    from kafeneio.games.souvlaki.cards import export_builtin

    quit_now = "quit\ny\n"
    plain = runner.invoke(app, ["play", "cafe", "--seats", "human,random"], input=quit_now)
    assert "Rules:" not in plain.output
    dance = ["play", "cafe", "-o", "dance=true", "--seats", "human,random"]
    assert "\nRules: dance=true\n" in runner.invoke(app, dance, input=quit_now).output
    export_builtin(tmp_path)
    own = ["play", "souvlaki", "--cards", str(tmp_path), "--seats", "human,random"]
    said = " ".join(runner.invoke(app, own, input=quit_now).output.split())
    assert f"Rules: the defaults; cards: own, from {tmp_path} (" in said
    assert ": the same cards as the built-in set)" in said


def test_the_end_of_a_game_is_told_within_80_columns() -> None:
    """The round limit's end ran 123 characters on one line, broken by the terminal mid-word."""
    args = ["play", "souvlaki", "--seats", "random", "--players", "4", "-o", "round_limit=1"]
    result = CliRunner().invoke(app, [*args, "--seed", "3"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("The game ends: round 1"))
    assert lines[start + 1].strip().startswith("and nobody reached")
    assert all(len(line) <= 80 for line in lines[start : start + 2])

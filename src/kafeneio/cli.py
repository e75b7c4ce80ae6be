"""The `kafeneio` command: play in the terminal, replay records, benchmark the engines.

Bad input never prints a traceback: every command runs under `guarded`, which turns the
package's own errors (`KafeneioError`) into ``error: ...`` on one line and exit code 2. The
parsers, the record reader, the options and the card loader raise those errors for every input
they refuse, so nothing else needs catching here.

Seats are P1-P4 on screen and in every message; in JSON and the Python API they are the
indices 0-3 (P1 is 0). ``--viewer`` takes the index, as the JSON it shapes does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import errno
import functools
import hashlib
import json
import math
import os
import random
import re
import shlex
import signal
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar, cast

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from typer.core import TyperGroup

from kafeneio.bots import BOTS, check_seat, make_bot, parse_seat
from kafeneio.bots.base import ActionEstimate, Analysis, Bot
from kafeneio.bots.spec import seat_in_lower_case
from kafeneio.core import CHANCE, SPECTATOR, Action, Game, KafeneioError, State
from kafeneio.core.errors import NotationError, RecordError, shown
from kafeneio.core.events import (
    RUNS,
    Event,
    HistoryEntry,
    RunWords,
    end_losses,
    packed,
    subject_of,
    texts_told,
)
from kafeneio.core.options import RulesOptions
from kafeneio.core.play import Player, Step
from kafeneio.core.play import play as play_game
from kafeneio.core.record import engine_note, read_record_file
from kafeneio.core.rulebook import Rule, Rulebook, rulebook_of
from kafeneio.games import GAMES, get_game, load_record
from kafeneio.server import MAX_BOT_GAMES
from kafeneio.sim import commands as sim_commands
from kafeneio.sim.analysis import HINT_SECONDS, Budget, hint, position_after, with_budget
from kafeneio.sim.bench import OPENSPIEL_GAME, OpenSpielComparison, against_openspiel, bench_search
from kafeneio.sim.bench import bench as run_bench
from kafeneio.sim.report import rules_text
from kafeneio.sim.runner import KILLS, handled
from kafeneio.sim.stamp import stamp


class Commands(TyperGroup):
    """The `kafeneio` group: a command line it or a command refuses (a bad value, an unknown
    option, a missing argument) is told as the package's own errors are, one line ``error:
    ...`` with where help is, exit code 2, where Click printed the usage, a line of help and
    its ``Error:``; help asked for by giving no arguments stays help."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: Any = None,
        **extra: Any,
    ) -> Any:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except Exception as error:
            if not is_click_error(error, "UsageError"):
                raise
            raise usage_failure(error, None) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except Exception as error:
            if not is_click_error(error, "UsageError"):
                raise
            # Click's parser names no command where an option lacks its value: the command
            # line does (the subcommand Click was making when it failed)
            called = ctx.invoked_subcommand
            path = f"{ctx.command_path} {called}" if called else ctx.command_path
            raise usage_failure(error, path) from None


def is_click_error(error: BaseException, name: str) -> bool:
    """Whether `error` is Click's exception `name` (``UsageError``: or a kind of it), of
    whichever Click Typer runs on: Typer 0.2x carries a Click of its own in a private module
    (typer._click), an older Typer runs on Click itself, and Click may be installed beside
    either. The class's name holds wherever the module is."""
    return any(kind.__name__ == name for kind in type(error).__mro__)


def usage_failure(error: Any, command_path: str | None) -> Exception:
    """`fail` for Click's `error`, worded as this package's errors are ("invalid value for
    '--games': ...", no closing full stop) and saying where help is (the command of the
    error's context, else `command_path`); `error` itself where it is help to show."""
    if is_click_error(error, "NoArgsIsHelpError"):
        return cast(Exception, error)
    message = " ".join(error.format_message().split()).removesuffix(".")
    if message[:2].istitle():  # "Invalid value", not "GAME"
        message = message[0].lower() + message[1:]
    if error.ctx is not None:
        command_path = error.ctx.command_path
    where = f"; see {command_path} --help" if command_path else ""
    return fail(message + where)


app = typer.Typer(
    cls=Commands,
    help="Café International and Souvlaki Wars: play in the terminal or the browser, replay, "
    "simulate, run tournaments, analyse a game, benchmark.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    add_completion=False,
    # Click's plain text, not Rich's boxes: help lists "-h, --help" as a flag, where Rich's
    # table gave it a "<bool>" value; a usage error is one line (`Commands`, `usage_failure`)
    rich_markup_mode=None,
)
cards_app = typer.Typer(
    help="Souvlaki Wars card files.", no_args_is_help=True, rich_markup_mode=None
)
app.add_typer(cards_app, name="cards")
console = Console(highlight=False, soft_wrap=True)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

HUMAN = "human"
COMMANDS = {
    "moves": "the legal moves, what each scores",
    "hint": "the search bot's suggestion for you",
    "board": "show the board again",
    "log": "what happened since your last turn began, told again (it may have scrolled off)",
    "cards": "what the board leaves out, to look up now and then",
    "rule ID": "what a rule says (a refusal names the rule it cites)",
    "rule WORDS": "the rules that use those words (a card's name, a mark on screen)",
    "help": "the notation and the commands; help all: in full; help COMMAND: one command; "
    "help MOVE (a move's first word): how that move is written",
    "quit": "stop the game (--record keeps it)",
}
"""The prompt's commands and what each does; `cards` only in a game whose board leaves things
to look up (`Game.reference`)."""
QUIT = {"quit", "exit"}
SURE_TO_QUIT = "Not recorded (--record FILE keeps a game): quit and lose this one? [y/N] "
ALL_THE_SAME = " all the same? [y/N] "
"""How the question ends that asks whether a move whose numbers have moved is meant."""
COLUMNS = 80
"""A terminal's width: the log of the moves keeps to it where the game's words allow."""
LONGER_MOVES_SHOWN = 8
"""How many moves that go on from a word typed alone (``send``) a refusal lists."""
RULES_SHOWN = 4
"""How many of the rules found by their words `rule` shows; it names the rest."""
RULE_ID_SHAPE = re.compile(r"[A-Za-z]+-[\w.]*\d[\w.]*")
"""What `rule` reads as a rule's id rather than words: letters, a dash, a number in what
follows (``SW-4.8``, ``XX-9.9``); ``rule 25 money`` looks for the words."""
HINT_OTHERS = 3
"""How many more of the search's best moves a hint names, as the web app's does."""
MAX_BENCH_SECONDS = 3600.0
DEFAULT_BENCH_SECONDS = 5.0
MAX_WORKERS = 64
MAX_PORT = 65535
MAX_BOT_PAUSE = 60.0
"""The longest wait of a bot before it moves in the browser: a longer one stalls the game."""
MAX_BOT_GAMES_LIMIT = 1000
"""The most --max-bot-games takes."""
HIDE_ASKED = 3
"""How many times a hot seat's hide prompt asks for Enter when given a line instead (a move
typed there is said not played), before it hides the hand all the same."""
RUN_TOLD_AFTER = 2.0
"""Seconds a run of one player's decisions told together may keep the screen waiting: a
search bot's service, at 0.2 s and more a decision, is told in parts as it thinks."""
FLAG = ""
"""The metavar of a flag: help shows no value after it."""

P = ParamSpec("P")
R = TypeVar("R")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print `message` as one line on stderr; the `Exit` to raise."""
    errors.print(f"error: {' '.join(message.split())}", markup=False)
    return typer.Exit(code)


def guarded(command: Callable[P, R]) -> Callable[P, R]:
    """`command`, with the package's errors (bad input) printed by `fail`, exit code 2."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except KafeneioError as err:
            raise fail(str(err)) from None

    return run


def version_callback(value: bool) -> None:
    if value:
        from kafeneio import __version__

        console.print(f"kafeneio {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            metavar=FLAG,
            callback=version_callback,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Café International and Souvlaki Wars: play, replay, benchmark and simulate."""


def parse_options(pairs: list[str]) -> dict[str, Any]:
    """`name=value` pairs; values are read as JSON where they parse (true, 30, [1,2]), else text."""
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or not name:
            raise KafeneioError(f"option {shown(pair)} must be written name=value")
        try:
            options[name] = json.loads(text)
        except json.JSONDecodeError:
            options[name] = text
        except RecursionError:
            raise KafeneioError(f"option {shown(name)}: its value is nested too deep") from None
        except ValueError:  # a number of more digits than Python converts
            raise KafeneioError(f"option {shown(name)}: its value is a number too long") from None
    return options


@app.command()
def games() -> None:
    """List the games, their player counts, and every rules option: what it does, its values."""
    for name in sorted(GAMES):
        game = get_game(name)
        info = game.info
        console.print(
            f"[bold]{name}[/bold]: {info.title}, {info.min_players}-{info.max_players} players"
        )
        for option, default in game.options_schema().items():
            console.print(_option_text(type(game.options), option, default), markup=False)


def _option_text(options: type[RulesOptions], option: str, default: Any) -> str:
    """An option of `games`: how to write it with its default, its allowed values (on a line of
    their own where they would run past `COLUMNS`), what it does, in lines of `COLUMNS`."""
    value = default if isinstance(default, str) else json.dumps(default, separators=(",", ":"))
    written = f"  -o {option}={value}"
    allowed = f"({options.allowed(option)})"
    if len(f"{written}    {allowed}") <= COLUMNS:
        lines = [f"{written}    {allowed}"]
    else:  # the default kept whole, to copy; the values below it
        lines = [written, *textwrap.wrap(allowed, COLUMNS, initial_indent=" " * 6)]
    text = options.DESCRIPTIONS.get(option, "")
    lines += textwrap.wrap(text, COLUMNS, initial_indent=" " * 6, subsequent_indent=" " * 6)
    return "\n".join(lines)


@app.command()
@guarded
def play(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="cafe or souvlaki")],
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: one per seat, or 2).")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated, one per player: human or a bot (random, greedy, heuristic, "
            "mcts, mcts:seconds=0.05); one name fills every seat. Default: human, then random "
            "seats."
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Seed of the shuffle, the bots and chance (random if omitted); with --from, "
            "of the bots and chance from there on (default: made from the record, so that a "
            "record goes on the same way every time)."
        ),
    ] = None,
    option: sim_commands.Options = None,
    record: Annotated[
        Path | None,
        typer.Option(help="Write the game record to this file (checked before play starts)."),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", metavar=FLAG, help="Overwrite an existing --record file.")
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", metavar=FLAG, help="Bots only: print just the result.")
    ] = False,
    start: Annotated[
        Path | None,
        typer.Option("--from", help="Go on from a record: its options, setup and actions."),
    ] = None,
    cards: Annotated[
        Path | None, typer.Option(help="Souvlaki Wars: a directory of your own card files.")
    ] = None,
) -> None:
    """Play a game in the terminal, against bots or friends at one keyboard."""
    if record is not None:
        _check_writable(record, force)
    if start is not None and (option or players is not None or cards is not None):
        asked = (("-o", option), ("--players", players), ("--cards", cards))
        given = [name for name, value in asked if value is not None]
        raise KafeneioError(
            f"--from goes on with the record's own rules, players and cards: drop {given[0]}"
        )
    options = parse_options(option or [])
    if cards is not None:
        check_takes_cards(game_name)
        options["cards_dir"] = str(cards)
    game = get_game(game_name, options)
    source = read_record_file(start) if start is not None else None
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "big") if source is None else _seed_of_record(source)
    ended: Sequence[Event] = ()  # a record over already: its last events, for the result
    if source is None:
        named = len(seats.split(",")) if seats else 1
        count = players if players is not None else max(named, 2)
        state = game.new_state(count, seed=seed)
    else:
        state = load_record(source)
        if state.game.info.name != game.info.name:
            raise KafeneioError(f"{start} is a record of {state.game.info.title}")
        seats = seats or ",".join(source.get("seats") or []) or None
        ended = _last_events(source) if state.is_terminal() else ()
    seat_names = _seat_names(seats, state.num_players)
    if quiet and HUMAN in seat_names:
        raise KafeneioError("--quiet is for bots only: a human seat needs to see the game")
    if HUMAN in seat_names:
        _enable_line_editing()
    bots = {p: make_bot(name, seed + p) for p, name in enumerate(seat_names) if name != HUMAN}
    going_on = f"; going on from {start} after {plural(state.ply, 'action')}" if start else ""
    banner = (
        f"{game.info.title}, {state.num_players} players: "
        + ", ".join(f"P{p + 1} {name}" for p, name in enumerate(seat_names))
        + going_on
    )
    played = state.game  # a record's own rules and cards with --from
    options = {**played.options.to_dict(), **({"cards_dir": str(cards)} if cards else {})}
    rules = rules_text(played.info.name, options, played.record_data())
    lines = [banner]
    if rules not in ("rules: the defaults", "rules: the defaults; cards: built in"):
        lines.append(rules[0].upper() + rules[1:])  # the variants and cards this game plays
    print_within_columns(lines)  # a long --from path
    if HUMAN in seat_names:
        console.print(_commands(game, state), markup=False)
    stopped: _Hangup | None = None
    with _stopped_as_by_signal() as hold_signals:
        try:
            recorded = record is not None
            _play_loop_to_a_signal(
                game, state, bots, seat_names, quiet, recorded, random.Random(seed), ended
            )
        except _Hangup as signalled:
            stopped = signalled
            with contextlib.suppress(OSError):  # a terminal that closed takes no more output
                console.print(f"Stopped ({signalled}).", markup=False)
        finally:
            hold_signals()  # the record is written whole: a second signal waits
            if record is not None:
                data = state.to_record()
                data["seats"] = seat_names
                try:
                    record.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
                except OSError as err:
                    raise fail(f"cannot write the record to {record}: {err.strerror}") from None
                with contextlib.suppress(OSError):
                    console.print(f"Record written to {record}", markup=False)
    if stopped is not None:  # as a process killed by it exits, for whoever started this one
        raise typer.Exit(128 + stopped.signum)


GONE = frozenset({errno.EIO, errno.EPIPE})
"""What writing to a terminal that closed (or a pipe whose reader left) fails with."""


def _play_loop_to_a_signal(*args: Any) -> None:
    """`_play_loop`; a terminal gone from under it (its input ended and its output fails, the
    hangup signal maybe still to come) stops it as the hangup would."""
    try:
        _play_loop(*args)
    except OSError as err:
        if err.errno not in GONE:
            raise
        raise _Hangup(signal.SIGHUP if hasattr(signal, "SIGHUP") else signal.SIGTERM) from None


class _Hangup(BaseException):
    """The terminal closed (SIGHUP) or the process was asked to stop (SIGTERM). Not a
    `KeyboardInterrupt`: the prompts that take Ctrl-C as "no" must not take a kill so."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def _stopped_as_by_signal() -> Any:
    """A closed terminal (a window shut, an ssh link lost) or a kill stops play where it is, so
    that the record is still written: by default either signal ends the process at once. The
    first signal stops play; any after it (a window closing sends two) are ignored until the
    record is written, as they are once the caller holds them (the function yielded). A signal
    ignored when play began (``nohup``) stays ignored."""

    def hold() -> None:  # the signals play took (none outside the main thread, nor ignored)
        for number in KILLS:
            if signal.getsignal(number) is stop:
                signal.signal(number, signal.SIG_IGN)

    def stop(signum: int, frame: object) -> None:
        hold()
        raise _Hangup(signum)

    with handled(KILLS, stop):
        yield hold


def _check_writable(record: Path, force: bool) -> None:
    """Refuse a --record path that cannot be written, or would overwrite a file unasked."""
    if record.is_dir():
        raise KafeneioError(f"--record {record} is a directory; name a file")
    if record.exists() and not force:
        raise KafeneioError(f"--record {record} exists; add --force to overwrite it")
    folder = record.parent
    if not folder.is_dir():
        raise KafeneioError(f"cannot write the record to {record}: no directory {folder}")
    # tried, not asked: `os.access` says yes to root, and where a file system refuses anyway
    # (/sys, a read-only mount) the game was played to its end and then its record lost
    try:
        if record.exists():
            with record.open("a"):  # appends nothing: the file is left as it is
                pass
        else:  # a file of its own beside it: the path itself (a link, maybe) is not touched,
            # and beside where the record will go (a link's target's folder)
            with tempfile.NamedTemporaryFile(dir=record.resolve().parent, prefix=".kafeneio-"):
                pass
    except OSError as err:
        raise KafeneioError(f"cannot write the record to {record}: {err.strerror}") from None


def check_takes_cards(game_name: str) -> None:
    """--cards replaces a game's card files: only a game whose records carry its cards
    (`Game.record_data`) has them."""
    game = get_game(game_name)
    if "cards" not in game.record_data():
        with_cards = [get_game(name) for name in sorted(GAMES)]
        titles = " and ".join(g.info.title for g in with_cards if "cards" in g.record_data())
        raise KafeneioError(
            f"--cards is for {titles}: {game.info.title} has no card files to replace"
        )


typed_lines: Any = None
"""The readline module, where this command turned line editing on (`_enable_line_editing`):
its history is forgotten at a hot seat's handover (`Keyboard.clear`); None elsewhere, and in
a Python session that runs the command (its own history is not this game's)."""


def _enable_line_editing() -> None:
    """Line editing and history at the prompt, where the standard library has readline."""
    global typed_lines
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):  # not on every platform (Windows)
            import readline  # importing it is what makes input() edit lines

            typed_lines = readline


def ask(prompt: str) -> str:
    """A line typed at `prompt`: through `input` on a terminal, so readline knows the prompt."""
    if sys.stdin.isatty():
        return input(prompt)
    return console.input(escape(prompt))  # plain text, as all the game prints: "[y/N]" too


def _seat_names(seats: str | None, players: int) -> list[str]:
    names = [HUMAN] + ["random"] * (players - 1) if seats is None else seats.split(",")
    names = [seat_in_lower_case(name) for name in names]
    if len(names) == 1:  # one name fills every seat, as in `simulate`
        names *= players
    if len(names) != players:
        raise KafeneioError(f"--seats names {len(names)} seats for {players} players")
    for name in names:
        if name != HUMAN and parse_seat(name)[0] not in BOTS:
            known = ", ".join([HUMAN, *sorted(BOTS)])
            raise KafeneioError(f"unknown seat {name!r}; seats are {known}")
        if name != HUMAN:
            check_seat(name)  # a clear error for a malformed or unknown parameter
    return names


class _Quit(Exception):
    """A person at the prompt stopped the game."""


Words = Callable[[int], str | None]
"""Lines as one viewer may see them (None: not shown to them)."""


def _turn_starts(history: Sequence[HistoryEntry], player: int) -> list[int]:
    """Where each of `player`'s turns began in `history` (indexes): a turn is a run of their
    decisions that no other player's breaks (chance's amid it does not)."""
    starts, last = [], CHANCE
    for index, entry in enumerate(history):
        if entry.player == CHANCE:
            continue
        if entry.player == player and last != player:
            starts.append(index)
        last = entry.player
    return starts


def _last_decider(history: Sequence[HistoryEntry]) -> int:
    """The last player who decided in `history` (chance's decisions passed over)."""
    return next((e.player for e in reversed(history) if e.player != CHANCE), CHANCE)


class Keyboard:
    """What the players at one keyboard see. Where hands are hidden (a game without perfect
    information) and two or more seats are human, the keyboard is handed over between them
    through a cleared screen, so that nobody sees another human's hand: the human who had it
    reads what their move did, then hides the screen; the next one presses Enter alone and is
    shown what they missed, as they may see it. Where hands are public, the humans just take
    turns at the keyboard."""

    def __init__(self, seats: list[str], hands_hidden: bool) -> None:
        self.humans = [p for p, name in enumerate(seats) if name == HUMAN]
        self.hot_seat = hands_hidden and len(self.humans) > 1
        """Whether the screen is hidden between humans."""
        self.seen_by: int | None = None
        """The human whose view is on the screen."""
        self.missed: dict[int, list[str]] = {p: [] for p in self.humans}
        self.told: dict[int, list[str]] = {p: [] for p in self.humans}
        """What each human may read of the game, since their previous turn began (`log`)."""
        self.turn_began: dict[int, int] = dict.fromkeys(self.humans, 0)
        """Where in `told` each human's turn under way began."""
        self.turns: dict[int, int] = dict.fromkeys(self.humans, 0)
        """How many turns each human has begun."""

    @property
    def viewer(self) -> int:
        """Who is looking at the screen now: the human who has the keyboard (the one human,
        before their first turn), or everyone (a spectator)."""
        if self.seen_by is not None:
            return self.seen_by
        return self.humans[0] if len(self.humans) == 1 else SPECTATOR

    def say(self, words: Words) -> None:
        """Print `words` as the screen's viewer may see them, and keep them, as each other human
        may see them, for when that human takes the keyboard."""
        line = words(self.viewer)
        if line is not None:
            console.print(line, markup=False)
        for human, lines in self.told.items():
            text = line if human == self.viewer else words(human)
            if text is not None:
                lines.append(text)
        if self.hot_seat:
            for human, lines in self.missed.items():
                text = words(human)
                if text is not None and human != self.seen_by:
                    lines.append(text)

    def turn_begins(self, player: int) -> None:
        """`player` begins a turn (a run of their decisions): what came before their previous
        one is dropped from `told`."""
        del self.told[player][: self.turn_began[player]]
        self.turn_began[player] = len(self.told[player])
        self.turns[player] += 1

    def had_a_turn(self, player: int) -> bool:
        """Whether `player` had a turn before the one under way: what they are told is "since
        your last turn", else "since the game began" (the others moved first)."""
        return self.turns[player] > 1

    def recall(self, state: State) -> None:
        """For a game that goes on from a record: what each human may read of its moves since
        their last turn began, as `log` tells it (`log` said "Nothing has happened yet" halfway
        through a game). A turn is a run of one player's decisions, chance's amid it not
        breaking it, as the play loop counts them; where the human is in the middle of one,
        their last turn is the one before it."""
        mover = state.current_player()
        for human in self.humans:
            history = state.history_for(human)
            starts = _turn_starts(history, human)
            in_one = bool(starts) and mover == human and _last_decider(history) == human
            done = starts[:-1] if in_one else starts  # their turns before the one under way
            start = done[-1] if done else 0
            self.turns[human] = len(done[-1:])  # 1: "since your last turn began"
            for entry in history[start:]:
                who = "chance" if entry.player == CHANCE else f"P{entry.player + 1}"
                told = f"{who}: {entry.action}"
                if entry.events:
                    told += f" — {'; '.join(entry.events)}"
                self.told[human].extend(_within_columns([f"  {told}"]))

    def log(self, player: int) -> str:
        """What `log` answers: `told` as one text."""
        if not self.told[player]:
            return "Nothing has happened yet."
        since = "Since your last turn began" if self.had_a_turn(player) else "Since the game began"
        return f"{since}:\n" + "\n".join(self.told[player])

    def hand_to(self, player: int) -> bool:
        """Hide the screen of the human who has the keyboard, then wait until `player` has it;
        False if either quits."""
        if not self.hot_seat:  # nothing to hide: the keyboard just goes round
            self.seen_by = player
            return True
        if self.seen_by == player:
            return True
        if not self.hide(f"pass the keyboard to P{player + 1}"):
            return False
        try:
            typed = ask(
                f"Pass the keyboard to P{player + 1} and press Enter (P{player + 1} only). "
            )
        except (EOFError, KeyboardInterrupt):
            console.print()
            return False
        self.clear()
        if typed.strip():  # a move typed here is not played: said, not lost without a word
            console.print(
                f"Not played: '{typed.strip()[:40]}' (that prompt only hands the keyboard over).",
                markup=False,
            )
        self.seen_by = player
        if self.missed[player]:
            since = "since your last turn" if self.had_a_turn(player) else "since the game began"
            console.print(f"P{player + 1}, {since}:", markup=False)
            console.print("\n".join(self.missed[player]), markup=False)
            self.missed[player].clear()
        return True

    def hide(self, then: str) -> bool:
        """Clear the screen once the human whose view it shows has read it (what their own move
        did is the last thing on it) and pressed Enter; False, the screen kept, if they quit. A
        screen that shows nobody's hand (the game's first: its seats and the prompt's commands,
        for everyone to read) is left as it is."""
        if self.seen_by is None:
            return True
        prompt = f"Press Enter to hide your hand, then {then}. "
        for _ in range(HIDE_ASKED):  # then hidden all the same: input may never be empty
            try:
                typed = ask(prompt)
            except (EOFError, KeyboardInterrupt):
                console.print()
                return False
            if typed.strip().lower() == "quit":  # stops here as closed input does
                return False
            if not typed.strip():
                break
            # said before the screen is cleared, to the one who typed it: after, the next
            # player would read it (a move names a card of the hand)
            console.print(
                f"Not played: '{typed.strip()[:40]}' (your turn is over: that prompt only "
                "hides your hand).",
                markup=False,
            )
        self.clear()
        return True

    def clear(self) -> None:
        """Clear the screen and, where the terminal keeps one, its scrollback, and forget the
        lines typed: with them the next human's Up arrow brought back the last one's (a refused
        'play SS' names a card of their hand)."""
        self.seen_by = None
        if console.is_terminal:
            console.clear()
            console.file.write("\x1b[3J")
        # (not in every build of readline: libedit's may lack it)
        forget = getattr(typed_lines, "clear_history", None)
        if forget is not None:
            forget()


def _play_loop(
    game: Game,
    state: State,
    bots: dict[int, Bot],
    seats: list[str],
    quiet: bool,
    recorded: bool,
    chance: random.Random,
    ended: Sequence[Event] = (),
) -> None:
    """Play `state` on to its end; `recorded`: whether the game's record will be written (a
    human who quits a game that is not is asked first); `ended`: the last action's events of a
    record that is over already (go on from it, and there is only the result to show)."""
    keyboard = Keyboard(seats, hands_hidden=not game.info.perfect_information)
    keyboard.recall(state)  # a game gone on from a record: what came before, for `log`
    shown_at = [-1]
    hints = _Hints()
    last_events: list[Event] = list(ended)
    last_mover = [CHANCE]  # who made the last decision told: a run of theirs names them once
    last_decider = [CHANCE]  # the last player who decided (not chance): whose turn it was

    # A run of one player's decisions told together once it ends (`_run_wording_of`), with
    # who decided. Told when it ends, so a bot's service appears at once rather than decision by
    # decision: a search bot's 0.2 s a decision shows as a short wait before it. A run longer in
    # coming than `RUN_TOLD_AFTER` is told as it stands and goes on in a new one, and a stop
    # (quit, Ctrl-C while a bot thinks) tells what was decided.
    run: list[Step] = []
    run_who = [""]  # who made the run's decisions (`_step_who` of its first)
    run_since = [0.0]  # when the run's first decision was told

    def tell_run() -> None:
        if run:
            keyboard.say(_run_words(run_who[0], run))
            run.clear()

    numbers = _ReadNumbers(state)

    def human(player: int) -> Player:
        def choose(state: State) -> Action:
            tell_run()  # the run before this prompt, on the screen of who has had it
            if last_mover[0] != player:  # the first of their run of decisions: a new board
                numbers.read(state)
            if last_decider[0] != player:  # chance's draw amid their turn begins none
                keyboard.turn_begins(player)
            if keyboard.seen_by != player:
                if not keyboard.hand_to(player):
                    raise _Quit
                shown_at[0] = -1
            if shown_at[0] != state.ply:
                # no blank line above: the log of the last turn, the board and the prompt
                # fit 24 rows (the board's first line sets it off from the log)
                console.print(game.render(state, player), markup=False)
                shown_at[0] = state.ply
            log = functools.partial(keyboard.log, player)
            action = _human_turn(game, state, player, recorded, hints, numbers, log)
            if action is None:
                raise _Quit
            return action

        return choose

    def tell(step: Step) -> None:
        last_events[:] = step.events
        again = step.player == last_mover[0]
        last_mover[0] = step.player
        if step.player != CHANCE:
            last_decider[0] = step.player
        if quiet:
            return
        wording = _run_wording_of(step)
        if run and step.player == run[0].player:
            if wording and wording is _run_wording_of(run[0]):
                run.append(step)
                if time.monotonic() - run_since[0] >= RUN_TOLD_AFTER:
                    tell_run()  # a bot that thinks long: what it decided so far, as it goes on
                return
            if not any(subject_of(event) == step.player for event in _caused(step)):
                # `done`, `finish`: said last in the run, what they caused (the next shop's
                # maintenance, the round's end) below it, as another's doing
                run.append(dataclasses.replace(step, events=[]))
                tell_run()
                keyboard.say(_step_words("", step))
                return
        tell_run()
        if wording and step.player != CHANCE:
            run.append(step)
            run_who[0] = _step_who(step, seats, again)
            run_since[0] = time.monotonic()
        else:
            keyboard.say(_step_words(_step_head(step, seats, again), step))

    players: dict[int, Player] = {p: human(p) for p in keyboard.humans}
    players.update(bots)
    try:
        play_game(state, players, chance, on_step=tell)
    except (_Quit, KeyboardInterrupt):  # Ctrl-C at a prompt quits there; while a bot thinks, here
        tell_run()
        console.print("Stopped.")
        return
    except _Hangup:  # what a bot decided before the signal, then the record (`play`)
        with contextlib.suppress(OSError):
            tell_run()
        raise
    tell_run()
    if keyboard.hot_seat and not keyboard.hide("see the final scores"):
        keyboard.clear()  # input closed: the final scores all the same, with no hand on screen
    if not quiet:
        console.print(game.render(state, keyboard.viewer), markup=False)
    _print_result(state, last_events)


def _step_head(step: Step, seats: list[str], again: bool) -> str:
    """Who decided what: ``P2 (heuristic): serve``, or ``P2: serve`` where it follows a decision
    of the same player's (`again`) that was not told with it (a run that `_run_wording_of` tells
    together is one head for all its decisions), so that each line fits beside its results;
    chance's decision, but not which card it took (only the players concerned may know
    that)."""
    if step.player == CHANCE:
        return "  chance decides"
    return f"{_step_who(step, seats, again)}: {step.action}"


def _step_who(step: Step, seats: list[str], again: bool) -> str:
    """Who made a player's decision, as `_step_head` names them: ``  P2 (heuristic)``, or
    ``  P2`` `again`."""
    return f"  P{step.player + 1}" if again else f"  P{step.player + 1} ({seats[step.player]})"


def _run_wording_of(step: Step) -> RunWords | None:
    """The wording of the run (`RUNS`) that tells every event a decision caused, if one does:
    a run of one player's decisions of that kind (a bot's service, a card played and a customer
    served at a time) is told together, as a run of the events alike is (`_run_words`)."""
    told = _caused(step)
    runs = {RUNS.get(event.words) for event in told}
    own = all(subject_of(event) == step.player for event in told)
    return runs.pop() if len(runs) == 1 and own else None  # not the next shop's maintenance


def _run_words(who: str, run: list[Step]) -> Words:
    """A run of one player's decisions (`who` made them), each of which
    `_run_wording_of` tells alike, in words: who decided, and what they caused told together,
    whose clauses name each decision, broken at spaces into lines of `COLUMNS`: ``P3
    (heuristic): plays S, GF; serves phone order SF 1/2: +1 money, +2 reputation (SW-4.2,
    SW-4.3)``, where a row for each decision ran a bot's service past 24 rows (and a head of
    the decisions said each again: ``play S, play GF, serve — P3 plays S, GF; serves ...``)."""
    first = run[0]
    head = f"{who}: {', '.join(str(step.action) for step in run)}"
    if len(run) == 1:  # told as a run of more is: ``P2 (greedy): sends ESf to bar seat 1: ...``
        return _step_words(head, first, folded=(who, ""))
    events = [event for step in run for event in step.events]
    then = ", ".join(str(step.action) for step in run[1:] if not step.events)
    return _step_words(head, dataclasses.replace(first, events=events), folded=(who, then))


FINAL_KINDS = ("end", "penalty", "result")
"""Events the final scores tell (`_print_result`), in their order: why the game ended, what the
end's penalties took, who won. Told with the last move they came before the final board, and
why the game ended last of all."""


def _caused(step: Step) -> list[Event]:
    """What a decision caused that is told with it (the game's end is the final scores')."""
    return [event for event in step.events if event.kind not in FINAL_KINDS]


def _step_words(head: str, step: Step, folded: tuple[str, str] | None = None) -> Words:
    """A step in words for each viewer: `head` (who did what; none: what it caused alone), and
    what it caused indented below, the first on the head's own line where that line holds it
    and it is the mover's own doing (so that a Café turn and the board fit 24 rows). A run's
    decisions `folded` into one step (who made them, `_step_who`, and the decisions after the
    first that caused nothing of theirs, as ``done``): who, then what they caused, its first
    text's player left out, where that text begins with the mover (its clauses name each
    decision), and the decisions that caused nothing last; else below the head. The human
    who typed the move sees only what it caused. Why the game ended is left to the final
    scores (`_print_result`), which tell it once."""
    told = _caused(step)
    mover = f"P{step.player + 1} "

    def words(viewer: int) -> str | None:
        said = texts_told(told, viewer)  # a run of events alike may be one text, in lines
        lines = [f"    {line}" for text in said for line in text.split("\n")]
        if viewer != step.player and head:  # a viewer who moved is the human who typed it
            joined = f"{head} — {said[0]}" if said else ""
            # beside the decision, another's doing reads as its result: `done — P2 pays` (the
            # next shop's maintenance) as if the mover made P2 pay; chance's outcomes are no one's
            own = step.player == CHANCE or (said and said[0].startswith(mover))
            if said and own and folded is not None:
                who, then = folded
                lines[0] = f"{who}: {lines[0].strip().removeprefix(mover)}"
                lines[-1] += f"; {then}" if then else ""
            elif said and own and len(joined) <= COLUMNS and "\n" not in joined:
                lines[0] = joined
            else:
                lines.insert(0, head)
        return "\n".join(_within_columns(lines)) if lines else None

    return words


def print_within_columns(lines: list[str]) -> None:
    """`lines` printed as they are (no markup), each broken at spaces within `COLUMNS`."""
    console.print("\n".join(_within_columns(lines)), markup=False)


def _within_columns(lines: list[str]) -> list[str]:
    """`lines` broken at spaces where longer than `COLUMNS`, the rest indented under the line
    it continues (the terminal would break them anywhere, under nothing)."""
    broken = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        wrapped = textwrap.wrap(
            line, COLUMNS, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
        )
        broken.extend(wrapped or [line])
    return broken


def _human_turn(
    game: Game,
    state: State,
    player: int,
    recorded: bool,
    hints: _Hints,
    numbers: _ReadNumbers,
    log: Callable[[], str],
) -> Action | None:
    """Read one legal decision; None when the player quits (and, the game not `recorded`,
    says so again) or their input ends. A move whose numbers name another thing than where
    the player read them is played only once they say they mean it (`_ReadNumbers`)."""
    while True:
        try:
            text = ask(f"P{player + 1}> ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        command = text.lower()
        if command in QUIT:
            if recorded or _sure_to_quit():
                return None
            continue
        if command in {"help", "?"} or command.startswith("help "):
            console.print(_help(game, state, player, command[4:].strip()), markup=False)
        elif command == "cards":
            console.print(_reference(game, state, player), markup=False)
        elif command == "rule" or command.startswith("rule "):
            console.print(_rule_text(game, text[4:].strip()), markup=False)
        elif command == "hint":
            console.print(hints.ask(state), markup=False)
            numbers.read(state)  # the hint names its moves by the numbers as they are now
        elif command == "moves":
            console.print(list_moves(state), markup=False)
        elif command == "board":
            console.print(game.render(state, player), markup=False)
        elif command == "log":
            console.print(log(), markup=False)
        elif text:
            try:
                action = state.parse_legal(text)
            except NotationError as err:  # not read as a move at all
                _refuse(f"Not understood: {err}{_close_moves(state, text)}")
            except KafeneioError as err:
                _refuse(f"Not allowed: {err}")
            else:
                if numbers.meant(state, action) and _leaves_the_game_meant(state, action):
                    return action


class _ReadNumbers:
    """Where the human to move read the numbers they type (`State.numbered_words`): at the
    first of their run of decisions, where they last said they meant a move whose numbers
    had moved, or where a hint named moves by the numbers as they were. A queue moves up
    under a plan of ``send 1``, ``send 2`` made at the first: the second would send away the
    customer read as 3, so it is asked about first."""

    def __init__(self, state: State) -> None:
        self.at = state.clone()

    def read(self, state: State) -> None:
        self.at = state.clone()

    def meant(self, state: State, action: Action) -> bool:
        """Whether the player plays `action`: asked where its numbers name another thing now
        than where they were read (no by default, and at the end of input). A number that
        named nobody then (a customer drafted since, at a queue's end) was not read as
        another's: nothing moved up under it."""
        now = state.numbered_words(action)
        then = self.at.numbered_words(action)
        if now is None or then is None or now == then:
            return True
        reason = (
            f"The numbers have moved since you read them (your turn's start, or a hint): "
            f"{action.notation} now means {now}; it meant {then}."
        )
        if not _played_all_the_same(
            action, reason, "Not played: the board shows the numbers as they are now."
        ):
            return False
        self.read(state)  # they have read the numbers as they are now
        return True


def _played_all_the_same(action: Action, reason: str, declined: str) -> bool:
    """Whether the player answers yes to playing `action`, refused first for `reason` (no by
    default, and at the end of input; `declined` is said to a no)."""
    _refuse(reason)
    try:
        answer = ask(f"Play {action.notation}{ALL_THE_SAME}").strip().lower()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return False
    if answer not in {"y", "yes"}:
        console.print(declined, markup=False)
        return False
    return True


OUT_MEANS = "you would play no more and cannot win"
"""What a move that puts the player out of the game means for them (Café's CI-M.3)."""


def _leaves_the_game_meant(state: State, action: Action) -> bool:
    """Whether the player plays `action` where it puts them out of the game: asked first (no by
    default, and at the end of input), as nothing else on screen says so."""
    player = state.current_player()
    after = state.clone().quiet()
    after.apply(action)
    if not after.is_out(player):
        return True
    reason = f"{action.notation} puts you out of the game: {OUT_MEANS}."
    return _played_all_the_same(action, reason, "Not played.")


def _refuse(words: str) -> None:
    """A refused move's reason, in lines of `COLUMNS` at most (a terminal broke the long ones
    anywhere: "Did you mea" / "n use generous-tip p2.3", "...; 'moves' f" / "or the legal")."""
    print_within_columns([words])


def _commands(game: Game, state: State) -> str:
    """The prompt's commands on one line, said once as a game with a human starts."""
    cards = " cards," if game.reference(state, SPECTATOR) else ""
    return f"At the prompt: a move, or help, moves, hint, board, log,{cards} rule ID, quit."


def _help(game: Game, state: State, player: int, asked: str = "") -> str:
    """What `help` answers: how the game's moves are written and the commands' names, within
    24 rows with the prompt (help ran to 27-34); with ``all``, every command and what it does,
    then the game's notation in full; with a command's name, what it does."""
    commands = {
        name: text
        for name, text in COMMANDS.items()
        if name != "cards" or game.reference(state, player)
    }
    if asked == "all":
        width = max(map(len, commands)) + 4
        under = " " * width  # a long description goes on under itself
        listed = ["Type a move in the game's notation, or a command:"]
        for name, text in commands.items():
            line = f"  {name.ljust(width - 2)}{text}"
            listed += textwrap.wrap(line, COLUMNS, subsequent_indent=under)
        return "\n".join([*listed, "", game.notation_help()])
    if asked:
        found = [f"{name}: {text}" for name, text in commands.items() if name.startswith(asked)]
        if found:
            return "\n".join(_within_columns(found))
        move = _notation_rows(game, asked)
        if move:  # a move's word (serve, pick, swap): its rows of the notation
            return "\n".join([f"{asked} is a move, written:", *move])
        found = [
            f"No command or move {asked!r}: the commands are {', '.join(commands)}; help "
            "alone shows how the moves are written."
        ]
        return "\n".join(_within_columns(found))
    named = ", ".join(name for name in commands if name != "help")
    more = (
        f"Or a command: {named}. help COMMAND says what one does; help all says all of it in full."
    )
    return "\n".join([game.notation_table(), "", *_within_columns([more])])


def _notation_rows(game: Game, word: str) -> list[str]:
    """The rows of the game's notation table (`Game.notation_help`) for the moves that begin
    with `word` (``serve``; ``keep`` of "keep, redraw"), each with the lines it goes on in."""
    rows: list[list[str]] = []
    row: list[str] | None = None
    for line in game.notation_help().splitlines():
        if line[:1].strip() and "  " in line:  # a row: the notation, then what it does
            row = [line]
            rows.append(row)
        elif row is not None and line[:1] == " " and line.strip():
            row.append(line)  # the row's words go on
        else:
            row = None
    wanted = word.strip().lower()
    found: list[str] = []
    for lines in rows:
        notations = lines[0].split("  ", 1)[0].split(",")
        if wanted in {notation.split()[0].lower() for notation in notations if notation.split()}:
            found += lines
    return found


def _reference(game: Game, state: State, player: int) -> str:
    """What `player` may look up beside the board (`Game.reference`), or that it shows all."""
    return game.reference(state, player) or "The board shows everything: there is nothing more."


def _sure_to_quit() -> bool:
    """Whether a player who asked to quit a game that is not recorded still does, told so; an
    end of input quits (a script that typed quit means it)."""
    try:
        answer = ask(SURE_TO_QUIT).strip().lower()
    except (EOFError, KeyboardInterrupt):
        console.print()
        return True
    return answer in {"y", "yes", *QUIT}


CLOSE_ENOUGH = 0.6
"""How alike a typed move and a legal one are (`difflib`'s ratio) for it to be offered."""


def _close_moves(state: State, text: str) -> str:
    """The legal moves that go on from `text` (``send``, ``use generous-tip``: its targets,
    folded as `moves` folds them), else those written most like it, for a typo; else where to
    find them. (A card typed without its target got the three likest by spelling, all of them
    the opponent's customers: a Generous Tip offered for the other shop's queue.)"""
    legal = [action.notation for action in state.legal_actions()]
    typed = " ".join(text.split())
    longer = [move for move in legal if move.lower().startswith(f"{typed} ".lower())]
    if longer:
        rest = [move[len(typed) + 1 :] for move in longer]
        more = len(rest) - LONGER_MOVES_SHOWN
        listed = ", ".join(rest[:LONGER_MOVES_SHOWN]) + (
            f" and {more} more ('moves' lists them)" if more > 0 else ""
        )
        return f". Legal now: {longer[0][: len(typed)]} {listed}"  # as written, not as typed
    # the likest, as `difflib.get_close_matches` finds them, but moves alike in the legal
    # moves' order (it took a tie's last and listed them backwards: "pick 4 or pick 3")
    matcher = difflib.SequenceMatcher(b=text.strip())
    likeness = []
    for index, move in enumerate(legal):
        matcher.set_seq1(move)
        if (ratio := matcher.ratio()) >= CLOSE_ENOUGH:
            likeness.append((-ratio, index, move))
    close = [move for _, _, move in sorted(likeness)[:3]]
    if close:
        return f". Did you mean {' or '.join(close)}?"
    return ". Type 'moves' for the legal moves."


def _rule_text(game: Game, asked: str) -> str:
    """What `rule` answers: the packaged rules reference's entry for a rule id (``rule
    CI-T.2``), or the entries that use every word asked (``rule annoyed``, ``rule
    impatient-customer``: what a mark or a card named on screen means), in lines of 80
    columns at most."""
    book = rulebook_of(game)
    if not asked:
        example = book.ids()[0]
        return f"rule ID: what a rule says (rule {example}); rule WORDS: the rules that use them"
    if RULE_ID_SHAPE.fullmatch(asked):  # written as an id (SW-4.8, ci-t.2), known or not
        try:
            rule = _in_this_game(game, str(book.rule(asked.upper())))
            notes = game.rule_notes(asked.upper())  # one's own card of that rule, as it is
            return "\n".join(_within_columns([rule, *notes]))
        except KafeneioError as err:  # the section's ids may run past 80 columns
            return "\n".join(_within_columns([str(err)]))
    found = _rules_using(book, asked)
    own = game.rule_notes(None, asked)  # a card of one's own files, named by these words
    if not found:
        if own:
            return "\n".join(_within_columns(own))
        return f"No rule of {game.info.title} uses the words {asked!r}."
    shown = [
        line
        for rule in found[:RULES_SHOWN]
        for line in _within_columns([_in_this_game(game, str(rule))])
    ]
    if len(found) > RULES_SHOWN:
        more = ", ".join(rule.id for rule in found[RULES_SHOWN:])
        shown.extend(_within_columns([f"Also: {more} (rule ID to read one)."]))
    return "\n".join([*shown, *_within_columns(own)])


OPTION_IN_RULE = re.compile(r"\(option (\w+), ([^)]+)\)")
"""An option's default where a rule says it: "(option birthday_threshold, 30)"."""


def _in_this_game(game: Game, rule: str) -> str:
    """`rule` with the game's own value beside an option's default the rule names, where
    this game sets another (``-o birthday_threshold=2``): the rules reference says 30."""
    values = game.options.to_dict()

    def this_game(found: re.Match[str]) -> str:
        name, default = found.group(1), found.group(2)
        value = values.get(name)
        if value is None or json.dumps(value) == default:
            return found.group(0)
        return f"(option {name}, {json.dumps(value)} in this game; {default} by default)"

    return OPTION_IN_RULE.sub(this_game, rule)


def _rules_using(book: Rulebook, words: str) -> list[Rule]:
    """The rules whose text has a word beginning with each of `words` (a card's id, as
    ``impatient-customer``, is its name's words; ``annoy`` finds ``annoyed``)."""
    starts = [
        re.compile(rf"\b{re.escape(word)}") for word in words.lower().replace("-", " ").split()
    ]
    return [rule for rule in book if all(start.search(rule.text.lower()) for start in starts)]


class _Hints:
    """The last hint of a game, kept with its position (ply): asked again there, it is shown
    again rather than searched again, since a search for time may answer otherwise."""

    def __init__(self) -> None:
        self.ply = -1
        self.text = ""

    def ask(self, state: State) -> str:
        """The hint for the player to move: the one given at this ply, or a new search."""
        if self.ply == state.ply:
            return f"As before (the same position, not searched again):\n{self.text}"
        self.text = _hint(state)
        self.ply = state.ply
        return self.text


def _hint(state: State) -> str:
    """What the search bot would play for the player to move, from that player's own view."""
    analysis = hint(state, seed=state.ply, budget=Budget(HINT_SECONDS))
    chance = round(100 * analysis.win_chance)
    others = [e for e in analysis.actions if e.action != analysis.best][:HINT_OTHERS]
    others.sort(key=lambda e: e.win_chance, reverse=True)  # the most searched, likeliest first
    also = [
        f"    {_named(state, e.action)} ({round(100 * e.win_chance)}%{_looked(e, analysis)})"
        for e in others
    ]
    best = _named(state, analysis.best)
    line = f"hint: {best} (the bot puts your chance to win at about {chance}%)"
    if analysis.then is not None:  # a turn's second guest, as the search planned it
        line += f"; then {_named(position_after(state, analysis), analysis.then)}"
    head = "  also considered, less closely:"
    return "\n".join(_within_columns([line, head, *also] if also else [line]))


def _looked(estimate: ActionEstimate, analysis: Analysis) -> str:
    """A move's share of the search, beside its chance: a move looked at a few times may be
    rated above the hint's own by the luck of those few (the bot plays the most looked at)."""
    if not estimate.visits or not analysis.iterations:
        return ""
    return f", {round(100 * estimate.visits / analysis.iterations)}% of the search"


def _named(state: State, action: Action) -> str:
    """A move as typed and in words: ``FRf@25, France lady to chair 25 at FR2``."""
    words = state.action_words(action)
    return action.notation if words == action.notation else f"{action.notation}, {words}"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def list_moves(state: State) -> str:
    """The legal moves with the points each would score now (shown where not 0), placements of
    one card folded into one line with the chairs in order, and a card played on targets
    (``use wrong-number p1.2 p2.3``: a verb, the card, its targets) into lines of that card
    with its targets (a 4-player Souvlaki list ran to 30 rows, its head off the screen)."""
    player = state.current_player()
    before = state.scores()[player]
    by_card: dict[str, list[tuple[int, str]]] = {}
    any_out = False  # a move that puts the player out: what that means is said once
    on_targets: dict[str, list[str]] = {}
    others = []
    for action in state.legal_actions():
        after = state.clone()
        after.apply(action)
        gain = after.scores()[player] - before
        out = after.is_out(player)
        any_out = any_out or out
        points = " (out of the game)" if out else f" ({gain:+d})" if gain else ""
        card, at, where = action.notation.partition("@")
        words = action.notation.split(" ", 2)
        if at and where.isdigit() and " " not in card:
            by_card.setdefault(card, []).append((int(where), f"{where}{points}"))
        elif len(words) == 3:
            on_targets.setdefault(" ".join(words[:2]), []).append(words[2] + points)
        else:
            others.append(action.notation + points)
    count = len(state.legal_actions())
    what = state.game.info.score_name
    lines = [f"{plural(count, 'legal move')} (with the {what} each gains now, where not 0):"]
    if any_out:  # said once, not on each move
        lines.append(f"  (a move marked 'out of the game' puts you out: {OUT_MEANS})")
    for card, chairs in sorted(by_card.items()):  # a joker's 68 chairs ran to 280 columns
        lines.extend(packed(f"  {card}@ ", [text for _, text in sorted(chairs)], "  "))
    if others:
        lines.extend(packed("  ", others, "  "))  # at most 80 columns (Souvlaki's ran to 200)
    for played, targets in on_targets.items():
        # a dance's head ends with its colon ("dance US1:"), and each of its moves has spaces
        label = f"  {played} " if played.endswith(":") else f"  {played}: "
        lines.extend(packed(label, targets, ";  " if " " in targets[0] else "  "))
    if on_targets:  # "use eurovision-party p1, p2" read as one move, and typed so was refused
        played, targets = next(iter(on_targets.items()))
        example = f"{played} {targets[0].split(' (')[0]}"
        lines.extend(packed("  ", f"(one entry is one move: type '{example}')".split(), " "))
    return "\n".join(lines)


def _print_result(state: State, last_events: Sequence[Event] = ()) -> None:
    """Why the game ended, what the end-of-game penalties took (`end_losses`), the final
    scores and who won (`FINAL_KINDS`, in that order)."""
    for kind in FINAL_KINDS[:2]:  # broken at spaces, as every line (the round limit's ran long)
        for event in last_events:
            if event.kind == kind:
                print_within_columns([event.text_for(SPECTATOR) or ""])
    losses = end_losses(last_events)
    table = Table(title="Final scores")
    table.add_column("seat")
    if losses:
        table.add_column("before penalties", justify="right")
        table.add_column("penalty", justify="right")
    table.add_column(state.game.info.score_name, justify="right")  # Souvlaki: money + reputation
    table.add_column("")
    winners = state.winners()
    for player, score in enumerate(state.scores()):
        loss = losses.get(player, 0)
        cells = [str(score + loss), f"-{loss}" if loss else "0"] if losses else []
        mark = "winner" if player in winners else "out" if state.is_out(player) else ""
        table.add_row(f"P{player + 1}", *cells, str(score), mark)
    console.print(table)
    for event in last_events:
        if event.kind == "result":
            print_within_columns([event.text_for(SPECTATOR) or ""])


@app.command()
@guarded
def replay(
    file: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            metavar=FLAG,
            help="Print one JSON object, with the final observation of the --viewer.",
        ),
    ] = False,
    viewer: Annotated[
        int | None,
        typer.Option(
            help="Show the position as this player sees it: the index 0-3 as in JSON (P1 is "
            "0). Default: what everyone sees."
        ),
    ] = None,
    upto: Annotated[
        int | None,
        typer.Option(help="Stop after action K (counted from 0, as error messages count)."),
    ] = None,
) -> None:
    """Replay a game record and show the final position (exit code 2 if the record is bad)."""
    try:
        record = read_record_file(file)
        state = load_record(_cut(record, upto))
        seen_by = _viewer(viewer, state.num_players)
    except KafeneioError as err:
        if not as_json:
            raise
        index, rule = (err.index, err.rule) if isinstance(err, RecordError) else (None, None)
        sys.stdout.write(json.dumps({"error": str(err), "index": index, "rule": rule}) + "\n")
        raise typer.Exit(2) from None
    game = state.game
    note = engine_note(game, record)  # replayed, yet by another version of the rules: say so
    if as_json:
        summary = {
            "engine": record.get("engine", 1),
            "engine_note": note,
            "game": game.info.name,
            "players": state.num_players,
            "seats": record.get("seats"),
            "scores": state.scores(),
            "winners": state.winners(),
            "turns": state.turns_completed(),
            "decisions": state.ply,  # every action, chance outcomes too, as it always counted
            # the players' own, as `analyse` counts them: chance outcomes are nobody's decision
            "player_decisions": sum(1 for e in state.history_for(SPECTATOR) if e.player != CHANCE),
            "finished": state.is_terminal(),
            "options": record.get("options", {}),
            "upto": upto,
            "viewer": viewer,
            "observation": state.observation(seen_by),
        }
        sys.stdout.write(json.dumps(summary) + "\n")
        return
    console.print(game.render(state, seen_by), markup=False)
    # "1 actions replayed" at --upto 0; with --viewer, whose the hand under "Your" is
    seen = "" if seen_by == SPECTATOR else f", shown as P{seen_by + 1} sees it"
    console.print(f"{plural(state.ply, 'action')} replayed{seen}.", markup=False)
    if note:
        console.print(f"Note: {note}.", markup=False)
    if state.is_terminal():
        _print_result(state, _last_events(_cut(record, upto)))
    elif upto is not None and upto + 1 < len(record["actions"]):
        console.print("Not over: stopped at --upto.", markup=False)
    else:  # a game cut short, or a set-up position: it did not end, and may go on
        name = game.info.name
        console.print(
            f"Not over: the record stops before the game ends (kafeneio play {name} --from "
            f"{shlex.quote(str(file))} goes on from here).",
            markup=False,
        )


def _seed_of_record(source: Mapping[str, Any]) -> int:
    """A seed made from a record (its every field), for the bots and chance of a game that
    goes on from it: the same record goes on the same way, another record another way."""
    text = json.dumps(source, sort_keys=True, ensure_ascii=False)
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:4], "big")


def _last_events(record: dict[str, Any]) -> Sequence[Event]:
    """The events of a (valid) record's last action: the end's reason and penalties, which
    the final table shows as it does after a game played here."""
    actions = record["actions"]
    before = load_record({**record, "actions": actions[:-1]})
    return before.apply(before.parse_legal(actions[-1]))


def _cut(record: dict[str, Any], upto: int | None) -> dict[str, Any]:
    """`record` with only its actions 0 to `upto`."""
    actions = record.get("actions")
    if upto is None or not isinstance(actions, list):
        return record
    if not 0 <= upto < len(actions):
        last = f"0 to {len(actions) - 1}" if actions else "none: it has no actions"
        raise KafeneioError(f"--upto {upto}: the record's actions are numbered {last}")
    return {**record, "actions": actions[: upto + 1]}


def _viewer(viewer: int | None, players: int) -> int:
    if viewer is None:
        return SPECTATOR
    if not 0 <= viewer < players:
        raise KafeneioError(
            f"--viewer {viewer}: the players of this record are 0 to {players - 1} (P1 is 0)"
        )
    return viewer


@cards_app.command(name="export")
@guarded
def cards_export(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Where to write the files.")],
    force: Annotated[
        bool, typer.Option("--force", metavar=FLAG, help="Overwrite files already there.")
    ] = False,
) -> None:
    """Write Souvlaki Wars' shipped card files to DIR, to edit into a set of your own (then
    play with --cards DIR)."""
    from kafeneio.games.souvlaki.cards import export_builtin

    for path in export_builtin(directory, force):
        console.print(f"wrote {path}", markup=False)


@app.command(name="bench")
@guarded
def bench_command(
    game_name: Annotated[str, typer.Argument(metavar="GAME", help="cafe or souvlaki")],
    seconds: Annotated[
        float | None,
        typer.Option(
            help="How long to play random games, in CPU seconds "
            f"(more than 0, at most {MAX_BENCH_SECONDS:.0f}; default 5); with --bot, how long "
            "each search thinks, unless the bot's spec says (mcts:iterations=300)."
        ),
    ] = None,
    players: Annotated[int, typer.Option(help="Number of players.")] = 2,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 0,
    option: sim_commands.Options = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet",
            metavar=FLAG,
            help="Play with events off, as search and simulations do (default: on, as in play).",
        ),
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", metavar=FLAG, help="Print one JSON object.")
    ] = False,
    bot: Annotated[
        str | None,
        typer.Option(help="Time a search bot instead (mcts, mcts:iterations=300): iterations/s."),
    ] = None,
    rl: Annotated[
        bool,
        typer.Option(
            "--rl", metavar=FLAG, help="Also PettingZoo env steps/s (needs the rl extra)."
        ),
    ] = False,
    openspiel: Annotated[
        bool,
        typer.Option(
            "--against-openspiel",
            metavar=FLAG,
            help="Also OpenSpiel's Python tic-tac-toe, played in alternation: the ratio of "
            "decisions/s (needs open_spiel, in the rl extra).",
        ),
    ] = False,
) -> None:
    """Random play on one core: decisions/s (by CPU time), games/s, and the cost of clone and
    determinize."""
    game = get_game(game_name, parse_options(option or []))
    if seconds is not None and not (math.isfinite(seconds) and 0 < seconds <= MAX_BENCH_SECONDS):
        raise KafeneioError(
            f"--seconds must be more than 0 and at most {MAX_BENCH_SECONDS:.0f}, not {seconds:g}"
        )
    if bot is not None:
        flags = (("--quiet", quiet), ("--rl", rl), ("--against-openspiel", openspiel))
        if unused := [flag for flag, on in flags if on]:
            raise fail(f"{', '.join(unused)} applies to random play, not to a search (--bot)")
        spec = bot if seconds is None else with_budget(bot, Budget(seconds))
        _bench_search(game, players, spec, seed, as_json)
        return
    seconds = DEFAULT_BENCH_SECONDS if seconds is None else seconds
    result = run_bench(game, players, seconds, seed, quiet=quiet)
    env_result = _rl_bench(game_name, players, seconds, seed) if rl else None
    versus = against_openspiel(game, players, seconds, seed, quiet=quiet) if openspiel else None
    if as_json:
        data = {
            **stamp("bench", game_name),
            **result.to_dict(),
            "options": game.options.to_dict(),
            **({"rl": env_result} if env_result else {}),
            **({"openspiel": versus.to_dict()} if versus else {}),
        }
        sys.stdout.write(json.dumps(data) + "\n")
        return
    events = "events off" if quiet else "events on"
    table = Table(title=f"{game.info.title}, {players} players, random play, one core, {events}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("decisions per CPU second", f"{result.decisions_per_second:,.0f}")
    table.add_row("games per CPU second", f"{result.games_per_second:,.1f}")
    table.add_row("mean decisions per game", f"{result.mean_decisions_per_game:,.1f}")
    table.add_row("clone (µs)", f"{result.clone_microseconds:.2f}")
    table.add_row("determinize (µs)", f"{result.determinize_microseconds:.2f}")
    if result.observation_key_microseconds is not None:
        table.add_row("observation_key (µs)", f"{result.observation_key_microseconds:.2f}")
    table.add_row("games played", f"{result.games:,} in {result.seconds:.1f} CPU s")
    console.print(table)
    console.print(rules_text(game_name, game.options.to_dict()), markup=False)
    if env_result:
        console.print(_rl_table(env_result))
    if versus:
        console.print(_openspiel_table(versus))


def _openspiel_table(versus: OpenSpielComparison) -> Table:
    table = Table(title="Against OpenSpiel's Python tic-tac-toe, the same loop, in alternation")
    table.add_column("random play")
    table.add_column("decisions per CPU second", justify="right")
    table.add_row(versus.game, f"{versus.decisions_per_second:,.0f}")
    table.add_row(OPENSPIEL_GAME, f"{versus.tic_tac_toe_decisions_per_second:,.0f}")
    table.add_row("ratio", f"{versus.ratio:.2f} ×")
    return table


def _rl_bench(game_name: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    try:
        from kafeneio.rl.bench import rl_bench
    except ImportError as err:
        raise KafeneioError(
            f"--rl needs the rl extra (pip install 'kafeneio[rl]'): {err}"
        ) from None
    return rl_bench(game_name, players, seconds, seed).to_dict()


def _rl_table(rates: dict[str, Any]) -> Table:
    table = Table(title="PettingZoo environment, the same random games, in alternation")
    table.add_column("loop")
    table.add_column("per second", justify="right")
    table.add_column("cost of the raw rate", justify="right")
    table.add_row("raw engine (quiet)", f"{rates['raw_decisions_per_second']:,.0f}", "")
    overhead = f"{rates['wrapper_overhead']:.0%}"
    table.add_row("env step", f"{rates['env_steps_per_second']:,.0f}", overhead)
    observed = f"{rates['observed_overhead']:.0%}"
    table.add_row("env step + observe", f"{rates['env_observed_steps_per_second']:,.0f}", observed)
    return table


def _bench_search(game: Game, players: int, spec: str, seed: int, as_json: bool) -> None:
    try:
        result = bench_search(game, players, spec, seed=seed)
    except KafeneioError as err:
        raise fail(str(err)) from None
    if as_json:
        data = {
            **stamp("search-bench", game.info.name),
            **result.to_dict(),
            "options": game.options.to_dict(),
        }
        sys.stdout.write(json.dumps(data) + "\n")
        return
    table = Table(title=f"{game.info.title}, {players} players, {spec} on one core")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_row("search iterations per CPU second", f"{result.iterations_per_second:,.0f}")
    table.add_row("iterations per decision", f"{result.mean_iterations_per_decision:,.1f}")
    table.add_row("CPU seconds per decision", f"{result.mean_seconds_per_decision:.3f}")
    table.add_row("rollout and evaluation (µs)", f"{result.rollout_microseconds:,.1f}")
    table.add_row("decisions timed", str(result.decisions))
    console.print(table)
    console.print(rules_text(game.info.name, game.options.to_dict()), markup=False)


@app.command(name="serve")
@guarded
def serve_command(
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="An SQLite file's path or an SQLAlchemy database URL "
            "(default: an SQLite file in kafeneio-data/)."
        ),
    ] = None,
    bot_pause: Annotated[
        float, typer.Option(help=f"Seconds a bot waits before moving (0 to {MAX_BOT_PAUSE:g}).")
    ] = 0.6,
    cards: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=DIR", help="Offer a Souvlaki Wars card set (--cards again for another)."
        ),
    ] = None,
    allow_host: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME",
            help="A host name the server also answers to, and whose pages may open its "
            "websockets and send it moves: a proxy's in front of it (games.example.com, with "
            ":PORT where it is not the scheme's own); --allow-host again for another.",
        ),
    ] = None,
    max_bot_games: Annotated[
        int,
        typer.Option(
            help=f"Games of bots alone played at once, at most (1 to {MAX_BOT_GAMES_LIMIT}); "
            "anyone who reaches the server may start one."
        ),
    ] = MAX_BOT_GAMES,
    access_log: Annotated[
        bool, typer.Option(help="Log every request (a lobby open polls every 5 seconds).")
    ] = True,
) -> None:
    """Play in the browser: run the web server and open the address it prints."""
    if not 0 <= port <= MAX_PORT:  # else the socket's OverflowError, a traceback
        raise fail(f"--port must be from 0 to {MAX_PORT}, not {port}")
    if not 0 <= bot_pause <= MAX_BOT_PAUSE:  # (nan too)
        raise fail(f"--bot-pause must be from 0 to {MAX_BOT_PAUSE:g} seconds, not {bot_pause:g}")
    if not 1 <= max_bot_games <= MAX_BOT_GAMES_LIMIT:
        raise fail(f"--max-bot-games must be from 1 to {MAX_BOT_GAMES_LIMIT}, not {max_bot_games}")
    try:
        from kafeneio.server import database_url, serve
    except ImportError as err:
        raise fail(
            f"the web server needs the 'web' extra (pip install 'kafeneio[web]'): {err}"
        ) from None
    card_sets: dict[str, str] = {}
    for pair in cards or []:
        name, sep, directory = pair.partition("=")
        if not sep or not name or not Path(directory).is_dir():
            raise fail(f"--cards {pair!r} must be NAME=DIR with an existing directory")
        card_sets[name] = str(Path(directory).resolve())
        try:  # at the start, as play --cards: not when a player first picks the set
            get_game("souvlaki", {"cards_dir": card_sets[name]})
        except KafeneioError as err:
            raise fail(f"--cards {name}: {err}") from None
    try:
        url = database_url(db)
    except ValueError as err:
        raise fail(str(err)) from None
    # (`guarded`: a database another server holds, or one it cannot write)
    allowed = []
    for name in allow_host or []:
        named, _, at = name.partition(":")  # a name, and a port if given
        if not named or any(c in named for c in "/@ []") or (at and not at.isdigit()):
            raise fail(
                f"--allow-host takes a host name, with :PORT if need be (games.example.com), "
                f"not {name!r}"
            )
        allowed.append(name.lower())
    serve(
        host=host,
        port=port,
        db=url,
        bot_pause=bot_pause,
        card_sets=card_sets,
        allowed_hosts=frozenset(allowed),
        max_bot_games=max_bot_games,
        access_log=access_log,
    )


sim_commands.register(app)


def one_line_summaries(*apps: typer.Typer) -> None:
    """Give every command the first paragraph of its docstring, on one line, as the summary
    that `kafeneio --help` lists: in Rich's help the docstring's own line breaks would
    otherwise break the summaries mid-sentence."""
    for group in apps:
        for command in group.registered_commands:
            summary = (command.callback.__doc__ or "") if command.callback else ""
            if command.short_help is None and summary:
                command.short_help = " ".join(summary.split("\n\n", 1)[0].split())


one_line_summaries(app, cards_app)

if __name__ == "__main__":  # `python -m kafeneio.cli`: without this it would exit 0, doing nothing
    app()

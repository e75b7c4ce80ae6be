"""The `simulate`, `tournament` and `analyse` commands, registered on the `kafeneio` app."""

from __future__ import annotations

import functools
import json
import math
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from kafeneio.bots import parse_seat
from kafeneio.bots.spec import seat_in_lower_case
from kafeneio.core import KafeneioError
from kafeneio.core.events import plural
from kafeneio.core.game import check_seed
from kafeneio.core.record import read_record_file
from kafeneio.games import get_game, title_of
from kafeneio.sim import report as reports
from kafeneio.sim.analysis import (
    ANALYSER,
    Budget,
    GameAnalysis,
    analyse_game,
    count_decisions,
)
from kafeneio.sim.runner import (
    KILLS,
    MAX_GAMES,
    Backend,
    check_roles,
    check_seats,
    handled,
    lineup,
)
from kafeneio.sim.simulate import SimulationReport, Tally, simulate
from kafeneio.sim.stats import Spread
from kafeneio.sim.tournament import TournamentReport, tournament

FILE_WIDTH = 200
"""The width of tables written to a file or a pipe, where Rich would cut them to 80 columns and
a seat spec such as mcts:iterations=50 to 'mcts:iterations=…'."""
OPTION_HELP = "A rules option (kafeneio games lists them); -o again for another."
"""The help of `-o` (`Options`), the same for every command that takes rules options."""
console = Console(
    highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else FILE_WIDTH
)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

Game = Annotated[str, typer.Argument(metavar="GAME", help="cafe or souvlaki")]
Games = Annotated[int, typer.Option(help="Number of games.")]


def checked_seed(seed: int) -> int:
    """`seed` if it is one (`check_seed`: 0 to 2**63 - 1, as ``play`` takes); else the error."""
    try:
        return check_seed(seed)
    except KafeneioError as err:
        raise fail(str(err)) from None


Seed = Annotated[
    int,
    typer.Option(
        help="Seed of the whole run: the same seed, the same results.", callback=checked_seed
    ),
]
Options = Annotated[
    list[str] | None, typer.Option("--option", "-o", metavar="NAME=VALUE", help=OPTION_HELP)
]
DealRoles = Annotated[
    bool,
    typer.Option(
        "--deal-roles/--fixed-roles",
        metavar="",
        help="Deal the roles (Souvlaki Wars: shops) at random, so every bot plays every shop "
        "equally; --fixed-roles keeps the options' shops.",
    ),
]
Workers = Annotated[
    int | None,
    typer.Option(help="Local worker processes, or the CPUs of a local Ray (default: every core)."),
]
BackendName = Annotated[str, typer.Option("--backend", help="local or ray.")]
Address = Annotated[
    str | None, typer.Option(help="Ray: the address of a cluster to join (default: a local Ray).")
]
FLAG = ""
"""The metavar of an on/off option: none (no ``<bool>`` in the help)."""
MAX_WORKERS = 64
AsJson = Annotated[
    bool, typer.Option("--json", metavar=FLAG, help="Print one JSON object; no progress bar.")
]
CardsDir = Annotated[
    Path | None,
    typer.Option(
        "--cards",
        help="Souvlaki Wars: a directory of your own card files (kafeneio cards export makes "
        "one), to see how they play.",
    ),
]
ReportDir = Annotated[
    Path | None, typer.Option("--report", help="Write report.html and results.json here.")
]
Force = Annotated[
    bool,
    typer.Option("--force", metavar=FLAG, help="Overwrite an earlier run's --report files."),
]
ForceRecords = Annotated[
    bool,
    typer.Option(
        "--force",
        metavar=FLAG,
        help="Overwrite an earlier run's --report files and replace its --records.",
    ),
]
Records = Annotated[
    Path | None,
    typer.Option(
        "--records",
        help="Write each game's record here (game-0001.json, ...), to replay or analyse.",
    ),
]


def register(app: typer.Typer) -> None:
    app.command(name="simulate")(stoppable(simulate_command))
    app.command(name="tournament")(stoppable(tournament_command))
    app.command(name="analyse")(stoppable(analyse_command))


class Stopped(BaseException):
    """The process was asked to stop (SIGTERM, SIGHUP): raised where it runs, so that the
    run's worker processes are ended with it (by default the signal ends this process alone,
    and its workers played on)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


Command = TypeVar("Command", bound=Callable[..., Any])


def stoppable(command: Command) -> Command:
    """`command`, stopped by Ctrl-C, SIGTERM or SIGHUP at once, in one line, with the exit
    status of the signal (128 + its number), its workers ended."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            with handled(KILLS, _raise_stopped):
                return command(*args, **kwargs)
        except (KeyboardInterrupt, Stopped) as stopped:
            signum = stopped.signum if isinstance(stopped, Stopped) else signal.SIGINT
            errors.print(f"Stopped ({signal.Signals(signum).name}).", markup=False)
            raise typer.Exit(128 + signum) from None

    return run  # type: ignore[return-value]


def _raise_stopped(signum: int, _frame: object) -> None:
    raise Stopped(signum)


def game_title_name(name: str) -> str:
    """The game's own name for `name` (game names are read in any case)."""
    from kafeneio.games import get_game

    return get_game(name).info.name


def check_workers(workers: int | None) -> None:
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise KafeneioError(f"--workers must be from 1 to {MAX_WORKERS}, not {workers}")


def say(words: str) -> None:
    """Print `words` broken at spaces to the console's width (a terminal's; a file's is
    `FILE_WIDTH`), where the terminal would break a long line mid-word."""
    console.print(words, markup=False, soft_wrap=False)


def fail(message: str) -> typer.Exit:
    errors.print(f"error: {message}", markup=False)
    return typer.Exit(2)


def parse_options(pairs: list[str] | None, cards: Path | None = None) -> dict[str, Any]:
    """The rules options of ``-o name=value``, and ``--cards``' directory as ``cards_dir``;
    the game is made with them at once, so that a bad card file is refused before any game."""
    from kafeneio.cli import parse_options as parse  # cli registers these commands

    options = parse(pairs or [])
    if cards is not None:
        options["cards_dir"] = str(cards.resolve())
    return options


@dataclass(frozen=True)
class Run:
    """What `simulate` and `tournament` read alike from their options, checked."""

    game: str
    bots: list[str]
    where: Backend
    options: dict[str, Any]


def read_run(
    game_name: str,
    bots: str,
    games: int,
    option: list[str] | None,
    workers: int | None,
    backend: str,
    address: str | None,
    deal_roles: bool,
    cards: Path | None = None,
    seated: Callable[[list[str]], list[str]] = list,
) -> Run:
    """The game, the bots (comma-separated, any case; `seated` turns them into the seats of a
    game), the back end and the rules options; a bad one exits with its error."""
    names = [seat_in_lower_case(name) for name in bots.split(",")]
    try:
        game = game_title_name(game_name)
        names = seated(names)
        check_seats(names)
        if not 1 <= games <= MAX_GAMES:
            raise KafeneioError(f"--games must be from 1 to {MAX_GAMES:,}, not {games:,}")
        check_workers(workers)
        if cards is not None:
            from kafeneio.cli import check_takes_cards  # cli registers these commands

            check_takes_cards(game)
        options = parse_options(option, cards)
        # bad options or card files are refused before any game, and roles set and dealt too
        check_roles(get_game(game, options), options, deal_roles)
        return Run(game, names, Backend(backend, workers, address), options)
    except KafeneioError as err:
        raise fail(str(err)) from None


def command_words() -> list[str]:
    return ["kafeneio", *sys.argv[1:]]


class RateColumn(ProgressColumn):
    """Items per second, for a bar whose unit is a game or a decision."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:.1f} {self.unit}/s" if speed else f"– {self.unit}/s")


@contextmanager
def progress_bar(total: int, unit: str, shown: bool) -> Iterator[Callable[[int], None] | None]:
    """A bar on stderr with the rate and the time left; nothing when not `shown`."""
    if not shown:
        yield None
        return
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(unit),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
    with bar:
        task = bar.add_task(unit, total=total)
        yield lambda count: bar.advance(task, count)


def show_progress(as_json: bool) -> bool:
    return not as_json and sys.stderr.isatty()


class Result(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Result)


def execute(
    work: Callable[[Callable[[int], None] | None], R],
    total: int,
    unit: str,
    as_json: bool,
    report: Path | None,
    force: bool,
    write_report: Callable[[R, Path, list[str]], Path],
    show: Callable[[R], None],
) -> None:
    """Do `work` under a progress bar counting `total` units, write the report if asked (over
    an earlier one only with `force`), and print the result as tables or as one JSON object."""
    try:
        if report is not None:
            reports.check_report_directory(report, force)
        with progress_bar(total, unit, show_progress(as_json)) as advance:
            result = work(advance)
    except KafeneioError as err:
        raise fail(str(err)) from None
    # the results are shown before the report is written: a report that cannot be written
    # after all (a disk full in the meantime) loses the file, not the run
    if as_json:
        sys.stdout.write(json.dumps(result.to_dict()) + "\n")
    else:
        show(result)
    if report is None:
        return
    try:
        write_report(result, report, command_words())
    except KafeneioError as err:
        raise fail(str(err)) from None
    if not as_json:
        console.print(f"Report written to {report / 'report.html'}", markup=False)


# --- simulate ---------------------------------------------------------------------------------
def simulate_command(
    game_name: Game,
    games: Games = 100,
    players: Annotated[
        int | None, typer.Option(help="Number of players (default: one per seat, or 2).")
    ] = None,
    seats: Annotated[
        str,
        typer.Option(
            help="Bots, comma-separated, one a seat (they rotate over the seats from game to "
            "game), or one bot for every seat."
        ),
    ] = "random",
    seed: Seed = 0,
    option: Options = None,
    cards: CardsDir = None,
    deal_roles: DealRoles = True,
    workers: Workers = None,
    backend: BackendName = "local",
    address: Address = None,
    as_json: AsJson = False,
    report: ReportDir = None,
    records: Records = None,
    force: ForceRecords = False,
) -> None:
    """Play many bot games: wins, win rates with 95% intervals and scores by bot, seat and shop;
    game lengths."""

    def seated(names: list[str]) -> list[str]:
        if players is not None:  # a count the game never takes is the error, not the lineup
            get_game(game_name).check_num_players(players)
        return lineup(names, players if players is not None else max(len(names), 2))

    run = read_run(
        game_name, seats, games, option, workers, backend, address, deal_roles, cards, seated
    )
    refuse_records_directory(records, force)

    def played(advance: Callable[[int], None] | None) -> SimulationReport:
        result = simulate(
            run.game, run.bots, games, seed, run.options, deal_roles, run.where, advance,
            keep_records=records is not None,
        )  # fmt: skip
        if records is not None:
            write_records(result, records)
        return warned(result)

    execute(
        played,
        games,
        "games",
        as_json,
        report,
        force,
        reports.simulation,
        print_simulation,
    )


RECORD_NAME = re.compile(r"game-\d+\.json")
"""The name of a record `write_records` writes (``game-0001.json``), which a run with --force
replaces; any other file (a user's ``game-notes.json``) stays."""


def refuse_records_directory(records: Path | None, force: bool) -> None:
    """A command's --records directory refused before any game (`check_records_directory`),
    as a usage error; nothing where no records are asked for."""
    if records is None:
        return
    try:
        check_records_directory(records, force)
    except KafeneioError as err:
        raise fail(str(err)) from None


def check_records_directory(directory: Path, force: bool) -> None:
    """Refuse a --records directory that cannot be written, or that holds anything without
    `force`: one run's records among another's would pass for games of one run."""
    reports.check_directory(directory, "--records")
    if force or not directory.is_dir():
        return
    held = sorted(path.name for path in directory.iterdir())
    if held:
        shown = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
        raise KafeneioError(
            f"--records {directory} is not empty ({plural(len(held), 'file')}: {shown}): name "
            "a new directory or add --force to replace its game records"
        )


Run_ = TypeVar("Run_", SimulationReport, TournamentReport)


def warned(result: Run_) -> Run_:
    """`result`, with a line on stderr (tables or JSON on stdout) where its bots did not play
    every seat equally often."""
    if result.uneven is not None:
        errors.print(f"warning: {result.uneven}", markup=False)
    return result


def write_records(result: SimulationReport | TournamentReport, directory: Path) -> None:
    """Each game's record as ``game-0001.json`` (numbered from 1, as the games were played),
    in place of the records of an earlier run there (`RECORD_NAME`), so that the directory
    holds this run's games only."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        for old in directory.iterdir():
            if RECORD_NAME.fullmatch(old.name):
                old.unlink()
        for game in result.results:
            path = directory / f"game-{game.index + 1:04d}.json"
            path.write_text(json.dumps(game.record, indent=1) + "\n", encoding="utf-8")
    except OSError as err:
        raise KafeneioError(f"cannot write the records in {directory}: {err.strerror}") from None


def spread_text(spread: Spread) -> str:
    """A game length's mean ± sd and its range: "41.5 ± 6.2 (30–55)"; of one game, its one
    value ("57"): it has no spread nor range."""
    if spread.sd is None:
        return f"{spread.mean:g}"
    return f"{spread.mean:.1f} ± {spread.sd:.1f} ({spread.low:g}–{spread.high:g})"


def mean_and_sd(mean: float, sd: float | None) -> str:
    """A mean and its sd, "87.5 ± 30.4", or the mean alone where there is none (one game)."""
    return f"{mean:.1f}" if sd is None else f"{mean:.1f} ± {sd:.1f}"


def tally_table(title: str, first: str, rows: Sequence[Tally], even: float | None = None) -> Table:
    """A table of `rows`, each interval marked where it leaves out the `even` share."""
    table = Table(title=title)
    for header in (first, "games", "wins", "win rate", "95% interval", "mean score ± sd"):
        table.add_column(header, justify="left" if header == first else "right")
    for row in rows:
        table.add_row(
            row.name,
            str(row.games),
            reports.wins_text(row.wins),
            f"{row.win_rate:.3f}",
            reports.interval_text(row.low, row.high, even),
            mean_and_sd(row.mean_score, row.score_sd),
        )
    return table


def print_simulation(result: SimulationReport) -> None:
    heading = reports.run_title(result)
    even = result.even_share
    by_bot = tally_table(f"{heading} — by bot", "bot", result.by_bot, even)
    by_bot.caption = reports.INTERVALS
    tables = [(by_bot, result.by_bot)]
    tables.append((tally_table("by seat", "seat", result.by_seat, even), result.by_seat))
    if result.by_role:
        role = get_game(result.game).role_noun
        tables.append((tally_table(f"by {role}", role, result.by_role, even), result.by_role))
    marked = [table for table, rows in tables if reports.marks_off_even(rows, even)]
    if marked:  # said under the last marked table, once
        last = marked[-1]
        last.caption = "\n".join(filter(None, [str(last.caption or ""), reports.OFF_EVEN_MEANS]))
    for table, _ in tables:
        console.print(table)
    lengths = result.lengths
    turns, rounds, decisions = (
        spread_text(of) for of in (lengths.turns, lengths.rounds, lengths.decisions)
    )
    rate = result.games_per_second
    console.print(f"winner's lead: {spread_text(result.margin)} in final score", markup=False)
    console.print(
        f"game length: {turns} turns, {rounds} rounds, {decisions} decisions; "
        f"{reports.duration(result.seconds)} on {result.backend} "
        f"({result.parallelism} in parallel)" + (f", {rate:.1f} games/s" if rate else ""),
        markup=False,
    )
    if result.endings_text is not None:
        console.print(result.endings_text, markup=False)
    if result.at_limit is not None:
        say(f"note: {result.at_limit}.")
    for note in result.notes:
        say(f"note: {note}.")
    say(
        f"seed {result.seed}; {reports.rules_text(result.game, result.options, result.record_data)}"
    )


# --- tournament -------------------------------------------------------------------------------
def tournament_command(
    game_name: Game,
    bots: Annotated[str, typer.Option(help="The bots, comma-separated (at least two).")],
    games: Annotated[int, typer.Option(help="Games for each pair (or group) of bots.")] = 100,
    players: Annotated[int, typer.Option(help="Players a game: every group this size plays.")] = 2,
    seed: Seed = 0,
    option: Options = None,
    cards: CardsDir = None,
    deal_roles: DealRoles = True,
    workers: Workers = None,
    backend: BackendName = "local",
    address: Address = None,
    as_json: AsJson = False,
    report: ReportDir = None,
    records: Records = None,
    force: ForceRecords = False,
) -> None:
    """A round robin of bots with seats rotated: standings, head-to-head results and
    Bradley–Terry ratings (Elo scale) with 95% intervals."""
    run = read_run(game_name, bots, games, option, workers, backend, address, deal_roles, cards)
    refuse_records_directory(records, force)

    def played(advance: Callable[[int], None] | None) -> TournamentReport:
        result = tournament(
            run.game, run.bots, games, players, seed, run.options, deal_roles, run.where, advance,
            keep_records=records is not None,
        )  # fmt: skip
        if records is not None:
            write_records(result, records)
        return warned(result)

    execute(
        played,
        games * _count_groups(len(run.bots), players),
        "games",
        as_json,
        report,
        force,
        reports.tournament,
        print_tournament,
    )


def _count_groups(bots: int, players: int) -> int:
    from math import comb

    return comb(bots, players) if 0 < players <= bots else 1


def print_tournament(result: TournamentReport) -> None:
    games = plural(result.games_per_pairing, "game")
    title = f"{title_of(result.game)} round robin, {games} a pairing"
    table = Table(title=title)
    for header in ("bot", "rating", "95% interval"):
        table.add_column(header, justify="left" if header == "bot" else "right")
    for rating in result.ratings:
        table.add_row(rating.name, f"{rating.elo:+.0f}", f"{rating.low:+.0f} to {rating.high:+.0f}")
    console.print(table)
    # best first, as the ratings; each interval marked off the even share, as simulate's
    standings = tally_table("standings", "bot", result.ranked, 1 / result.players)
    if reports.marks_off_even(result.ranked, 1 / result.players):
        standings.caption = reports.OFF_EVEN_MEANS
    console.print(standings)
    matrix = Table(
        title="head to head: the row bot's share of the games either of the two won "
        "(in brackets, of how many)"
    )
    matrix.add_column("")
    for name in result.bots:
        matrix.add_column(name, justify="right")
    for name, row in zip(result.bots, reports.head_to_head_cells(result), strict=True):
        matrix.add_row(name, *row)
    console.print(matrix)
    if reports.unresolved(result):
        say(reports.NO_RESULT)
    if result.endings_text is not None:
        console.print(result.endings_text, markup=False)
    if result.at_limit is not None:
        say(f"note: {result.at_limit}.")
    for note in result.notes:
        say(f"note: {note}.")
    say(
        f"{result.players} players a game, seats rotated; seed {result.seed}; "
        f"{reports.duration(result.seconds)} on {result.backend} "
        f"({result.parallelism} in parallel)"
    )
    say(reports.rules_text(result.game, result.options, result.record_data))


# --- analyse ----------------------------------------------------------------------------------
def analyse_command(
    record: Annotated[Path, typer.Argument(metavar="RECORD", help="A game record (JSON).")],
    budget: Annotated[
        float | None, typer.Option(help="Seconds of thought for each decision (default 1).")
    ] = None,
    iterations: Annotated[
        int | None,
        typer.Option(
            help="Search iterations (flat: samples) for each decision instead: the same result "
            "on every machine."
        ),
    ] = None,
    bot: Annotated[
        str,
        typer.Option(
            help="The search bot that analyses (mcts, or with parameters: mcts:c=0.5), or flat "
            "(flat Monte Carlo: games finished by rule-of-thumb bots)."
        ),
    ] = ANALYSER,
    seed: Seed = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            help="Processes analysing decisions side by side (default 1), or the CPUs of a "
            "local Ray."
        ),
    ] = None,
    backend: BackendName = "local",
    address: Address = None,
    as_json: AsJson = False,
    report: ReportDir = None,
    force: Force = False,
) -> None:
    """For every decision of a game, from the mover's own information: their win chance before
    and after the move, the move preferred and the win chance lost; each player's biggest
    mistakes; a plot of the win chances over the game with --report."""
    try:  # the options first: they are wrong whatever the record holds
        if budget is not None and iterations is not None:
            raise KafeneioError("give --budget or --iterations, not both")
        if iterations is not None and iterations < 1:
            raise KafeneioError(f"--iterations must be at least 1, not {iterations}")
        if budget is not None and not 0 < budget < math.inf:
            raise KafeneioError(f"--budget must be a positive number of seconds, not {budget:g}")
        own = {"seconds", "iterations"} & set(parse_seat(bot)[1])
        if own and (budget is not None or iterations is not None):
            option = "--budget" if budget is not None else "--iterations"
            raise KafeneioError(f"--bot {bot} sets its own {own.pop()}: drop it or {option}")
        data = read_record_file(record)
        thought = Budget(budget, iterations)  # neither given: the budget's default second
        decisions = count_decisions(data)
        check_workers(workers)
        where = Backend(backend, workers or (1 if backend == "local" else None), address)
    except KafeneioError as err:
        raise fail(str(err)) from None
    execute(
        lambda advance: analyse_game(data, bot, thought, seed, advance, backend=where),
        decisions,
        "decisions",
        as_json,
        report,
        force,
        reports.analysis,
        print_analysis,
    )


def print_analysis(result: GameAnalysis) -> None:
    names = reports.player_names(result)
    if not result.decisions:
        console.print("The record has no decision to analyse.")
        return
    title = (
        f"{title_of(result.game)}: {len(result.decisions)} decisions, by {result.analyser} "
        f"({result.budget_words})"
    )
    if result.skips_chance_outcomes:
        title += " (moves numbered as in the game's log, where chance outcomes count too)"
    say(title)  # as the table's title, a terminal broke it mid-word ("wher" / "e chance")
    table = Table()
    numbers = {"move", "before", "after", "lost ± margin"}
    for header in ("move", "player", "played", "preferred", "before", "after", "lost ± margin"):
        table.add_column(header, justify="right" if header in numbers else "left")
    for d in result.decisions:
        table.add_row(
            str(d.ply + 1),
            names[d.player],
            d.played,
            "" if d.best == d.played else d.best,
            reports.percent(d.before),
            reports.percent(d.after),
            reports.loss_column(d),
        )
    console.print(table)
    if any(d.clear_mistake for d in result.decisions):
        say("! a clear mistake: the loss is beyond its sampling margin")
    thin = sum(1 for d in result.decisions if d.legal > 1 and d.iterations < d.legal)
    if thin:
        say(
            f"{plural(thin, 'decision')} had fewer samples than legal moves: "
            + (
                "its preferred move and margin are"
                if thin == 1
                else "their preferred moves and margins are"
            )
            + " rough (a larger --budget or --iterations sharpens them)."
        )
    for player, name in enumerate(names):
        worst = "biggest mistakes:" if result.mistakes(player) else "no clear mistake"
        say(f"{name}: {reports.loss_text(result, player)}; {worst}")
        for d in result.mistakes(player):
            say(
                f"  move {d.ply + 1}: {d.played}, {d.played_words} (−{reports.percent(d.lost)}); "
                f"better {d.best}, {d.best_words}"
            )
    if not result.finished:
        console.print("The record stops before the game's end: no winner yet.")

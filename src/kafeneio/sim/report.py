"""`--report DIR`: a self-contained `report.html` (plots embedded as PNG data URIs) and
`results.json`, for simulations, tournaments and game analyses."""

from __future__ import annotations

import base64
import html
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from kafeneio.core import Game, KafeneioError
from kafeneio.core.events import plural
from kafeneio.games import game_from_parts, get_game, title_of
from kafeneio.sim import plots
from kafeneio.sim.analysis import Decision, GameAnalysis
from kafeneio.sim.simulate import SimulationReport, Tally
from kafeneio.sim.stats import Spread
from kafeneio.sim.tournament import TournamentReport

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; color: #222;
       line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { margin-top: 1.6em; font-size: 1.2em; }
.meta { color: #555; } table { border-collapse: collapse; margin: 0.6em 0; }
th, td { padding: 0.25em 0.8em; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child, th.words, td.words { text-align: left; } th { background: #f3f3f3; }
td:not(.words):not(:first-child) { white-space: nowrap; }
img { max-width: 100%; display: block; margin: 0.6em 0; } code { background: #f3f3f3; }
.word { white-space: nowrap; }
"""


NO_RESULT = "— where no game set one above the other (never met, or only lost together)"
"""What a head-to-head "—" means: in a game of three or more, two losers tell nothing of each
other, so two bots can share games yet have no result between them."""
INTERVALS = (
    "95% interval: Wilson's score interval of the win rate (of a bot in several seats of each "
    "game, of its games, its share of each game's win; exact where it fills every seat)"
)
"""What the tables' intervals are (`kafeneio.sim.simulate.win_interval`)."""


def head_to_head_cells(report: TournamentReport) -> list[list[str]]:
    """The head-to-head table's cells: each share with the games it rests on, "0.250 (4)"."""
    return [
        [f"{v:.3f} ({n})" if v is not None else "—" for v, n in zip(row, games, strict=True)]
        for row, games in zip(report.head_to_head, report.head_to_head_games, strict=True)
    ]


def note_line(note: str) -> str:
    """A note on a run, a line of its page."""
    return f"<p class='meta'><strong>Note:</strong> {html.escape(note)}.</p>"


def notes_lines(report: SimulationReport | TournamentReport) -> str:
    """The run's notes (`notes`), a line of its page each."""
    return "".join(note_line(note) for note in report.notes)


def unresolved(report: TournamentReport) -> bool:
    """Whether two different bots have no head-to-head result ("—" off the diagonal)."""
    return any(
        value is None
        for i, row in enumerate(report.head_to_head)
        for j, value in enumerate(row)
        if i != j
    )


def check_directory(directory: Path, option: str = "--report") -> None:
    """Refuse a directory (`option`'s) that cannot be written, before any game is played: a
    long run should not fail at its end."""
    if directory.exists() and not directory.is_dir():
        raise KafeneioError(f"{option} {directory} is a file: name a directory (made if missing)")
    existing = directory
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise KafeneioError(f"cannot make the {option} directory {directory}: {existing} is a file")
    try:  # a file made and removed: the permission bits say yes to root, and in /proc or /sys
        with tempfile.TemporaryFile(dir=existing):
            pass
    except OSError as err:
        raise KafeneioError(
            f"cannot write in the {option} directory {directory}: {err.strerror or err}"
        ) from None


REPORT_FILES = ("report.html", "results.json")


def check_report_directory(directory: Path, force: bool) -> None:
    """`check_directory`, and refuse to overwrite an earlier report there without `force`: a
    report replaced without a word is an earlier run's results lost."""
    check_directory(directory)
    for name in REPORT_FILES:  # refused now, not after the whole run
        if (directory / name).exists() and not (directory / name).is_file():
            raise KafeneioError(f"--report {directory}: {name} there is not a file")
    there = [name for name in REPORT_FILES if (directory / name).exists()]
    if there and not force:
        raise KafeneioError(
            f"--report {directory} already holds {' and '.join(there)}: name another directory "
            "or add --force to overwrite"
        )


def write(directory: Path, title: str, body: str, results: dict[str, Any]) -> Path:
    """Write `report.html` and `results.json` into `directory` (made if missing)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        page = (
            f"<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>{body}</body></html>\n"
        )
        report, data = (directory / name for name in REPORT_FILES)
        texts = {report: page, data: json.dumps(results, indent=1) + "\n"}
        # each written aside, then put in place whole: a failure (a full disk) leaves no file
        # cut short, though the two may then be of two runs
        aside = {path: path.with_name(f".{path.name}.new") for path in texts}
        try:
            for path, text in texts.items():
                aside[path].write_text(text, encoding="utf-8")
            for path in texts:
                os.replace(aside[path], path)
        finally:
            for spare in aside.values():
                spare.unlink(missing_ok=True)
    except OSError as err:
        raise KafeneioError(f"cannot write the report in {directory}: {err.strerror}") from None
    return report


def image(data: bytes, alt: str) -> str:
    encoded = base64.b64encode(data).decode("ascii")
    return f"<img alt='{html.escape(alt)}' src='data:image/png;base64,{encoded}'>"


def table(
    headers: Sequence[str], rows: Sequence[Sequence[object]], words: Sequence[str] = ()
) -> str:
    """An HTML table, figures set right; the columns headed by one of `words` (moves in
    words) set left, as text is read."""
    kind = [" class='words'" if header in words else "" for header in headers]
    head = "".join(f"<th{k}>{html.escape(h)}</th>" for h, k in zip(headers, kind, strict=True))
    body = "".join(
        "<tr>"
        + "".join(f"<td{k}>{html.escape(str(c))}</td>" for c, k in zip(row, kind, strict=True))
        + "</tr>"
        for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def interval_text(low: float, high: float, even: float | None = None) -> str:
    """A win rate's 95% interval, "0.403–0.500"; for a bot in every seat, whose share is
    1/players by construction, said so, not as an interval of no width ("0.250–0.250"); marked
    `ABOVE_EVEN` or `BELOW_EVEN` where it lies wholly above or below the `even` share (a seat's
    advantage or handicap the run measured, which a reader had to spot by eye)."""
    if low == high:
        return "exact: every seat"
    mark = ""
    if even is not None and low > even:
        mark = ABOVE_EVEN
    elif even is not None and high < even:
        mark = BELOW_EVEN
    return f"{low:.3f}–{high:.3f}{mark}"


ABOVE_EVEN = " ▲"
"""The mark of an interval wholly above the even share (`interval_text`)."""
BELOW_EVEN = " ▼"
"""The mark of an interval wholly below the even share (`interval_text`)."""
OFF_EVEN_MEANS = (
    "▲ ▼ the interval lies wholly above or below the even share (1 in the number of players): "
    "more or less than chance at 95%"
)


def marks_off_even(rows: Iterable[Tally], even: float | None) -> bool:
    """Whether a table of `rows` marks an interval off the `even` share (`interval_text`):
    `OFF_EVEN_MEANS` is said under the tables only then, in the text and the report alike."""
    marks = (ABOVE_EVEN, BELOW_EVEN)
    return any(interval_text(row.low, row.high, even).endswith(marks) for row in rows)


def off_even_note(rows: Sequence[Tally], even: float | None) -> str:
    """`OFF_EVEN_MEANS`, after a semicolon, where a table of `rows` marks an interval."""
    return f"; {html.escape(OFF_EVEN_MEANS)}" if marks_off_even(rows, even) else ""


def tally_table(rows: Sequence[Tally], first: str, even: float | None = None) -> str:
    return table(
        [first, "games", "wins", "win rate", "95% interval", "mean score", "score sd"],
        [
            [
                row.name,
                row.games,
                wins_text(row.wins),
                f"{row.win_rate:.3f}",
                interval_text(row.low, row.high, even),
                f"{row.mean_score:.2f}",
                sd_text(row.score_sd, 2),
            ]
            for row in rows
        ],
    )


def sd_text(sd: float | None, digits: int) -> str:
    """A standard deviation to `digits` places, or "—" where there is none (a single game)."""
    return "—" if sd is None else f"{sd:.{digits}f}"


def duration(seconds: float) -> str:
    """A run's time, to a tenth of a second, or to two figures where it is shorter than one (a
    short run said 0.0 s beside its 100 games/s), but never finer than a hundredth: below it,
    "<0.01 s" (two figures of 0.00001 s read "1e-05 s")."""
    if seconds >= 1:
        return f"{seconds:.1f} s"
    return f"{seconds:.2g} s" if seconds >= 0.01 else "<0.01 s"


def run_title(report: SimulationReport) -> str:
    return f"{title_of(report.game)}: {plural(report.games, 'game')}, {report.players} players"


def rules_text(
    game_name: str, options: Mapping[str, Any], record_data: Mapping[str, Any] | None = None
) -> str:
    """The rules a run played, as its tables and report tell them: the options that differ
    from the defaults ("the defaults" where none does), and the card set where the game has
    one (its records' ``cards``): built in, or one's own with its files and hash."""
    chosen = rules_game(game_name, options, record_data).options.to_dict()
    defaults = get_game(game_name).options.to_dict()
    changed = [f"{name}={option_value(v)}" for name, v in chosen.items() if defaults[name] != v]
    words = f"rules: {', '.join(changed) or 'the defaults'}"
    cards = (record_data or {}).get("cards")
    if not isinstance(cards, Mapping):
        return words
    files = sorted(cards.get("files") or {})
    if not files:
        return f"{words}; cards: built in"
    where = f", from {options['cards_dir']}" if options.get("cards_dir") else ""
    digest = str(cards.get("sha256", ""))
    built_in = get_game(game_name).record_data().get("cards", {}).get("sha256")
    same = ": the same cards as the built-in set" if digest == built_in else ""
    return f"{words}; cards: own{where} ({', '.join(files)}; sha256 {digest[:12]}{same})"


def option_value(value: Any) -> str:
    """An option's value as ``-o`` takes it: JSON (true, 3, ["pita"]), a word as it is."""
    return value if isinstance(value, str) else json.dumps(value)


def wins_text(wins: float) -> str:
    """Wins as a table shows them: shared wins are fractions, shown to two places ("16.25",
    "1.42", "3"), not as Python writes them ("1.41667", "0.916667")."""
    return f"{wins:.2f}".rstrip("0").rstrip(".")


def rules_line(report: SimulationReport | TournamentReport) -> str:
    """A report's `rules_text` as a line of its page."""
    text = rules_text(report.game, report.options, report.record_data)
    return f"<p class='meta'>{html.escape(text[0].upper() + text[1:])}.</p>"


def rules_game(
    game_name: str, options: Mapping[str, Any], record_data: Mapping[str, Any] | None = None
) -> Game:
    """The game under a run's rules options, less its ``cards_dir`` (where its card set was
    read: no rule), with the card set its records carry (`record_data`): an option may name a
    card of the user's own (``-o shops=["kebab-king", ...]``), which the built-in set lacks."""
    rules = {name: value for name, value in options.items() if name != "cards_dir"}
    return game_from_parts(game_name, rules, record_data or {})


def score_label(report: SimulationReport) -> str:
    """What a final score is, for a plot's axis, as the game says under the run's rules."""
    game = rules_game(report.game, report.options, report.record_data)
    return f"final score: {game.score_description()}"


def warning_line(report: SimulationReport | TournamentReport) -> str:
    """The report's warning that the seats were not shared out equally, where they were not."""
    if report.uneven is None:
        return ""
    return f"<p class='meta'><strong>Warning:</strong> {html.escape(report.uneven)}.</p>"


def endings_line(report: SimulationReport | TournamentReport) -> str:
    """Which of the rules' ends the games came to, where the game says."""
    if report.endings_text is None:
        return ""
    return f"<p>{html.escape(report.endings_text)}.</p>"


def limit_line(report: SimulationReport | TournamentReport) -> str:
    """How many games ended at the engine's limit, not by a win, where any did."""
    if report.at_limit is None:
        return ""
    return note_line(report.at_limit)


def lead_text(margin: Spread) -> str:
    """A spread of the winner's leads: "20.2 on average, sd 15.3, from 0 to 64"; of one game,
    its one value ("4"), as the text says it: it has no spread nor range."""
    if margin.sd is None:
        return f"{margin.mean:g}"
    return (
        f"{margin.mean:.1f} on average, sd {margin.sd:.1f}, from {margin.low:g} to {margin.high:g}"
    )


def command_line(parts: Sequence[str]) -> str:
    # a line breaks between words, never inside one ("--" at a line's end, "report DIR" below)
    words = " ".join(f"<span class='word'>{html.escape(part)}</span>" for part in parts)
    return f"<p class='meta'>Command: <code>{words}</code></p>"


# --- simulate ---------------------------------------------------------------------------------
def simulation(report: SimulationReport, directory: Path, command: Sequence[str]) -> Path:
    title = run_title(report)
    lengths = report.lengths
    game = get_game(report.game)
    dealt = ""
    if report.by_role:  # only a game whose seats play roles (its role_option) deals them
        dealt = f"; {game.role_option} " + ("dealt at random" if report.deal_roles else "as set")
    panels = [("by seat", report.by_seat), (f"by {game.role_noun}", report.by_role)]
    if len(report.by_bot) > 1:
        panels.insert(0, ("by bot", report.by_bot))
    sections = [
        f"<h1>Simulation — {html.escape(title)}</h1>",
        command_line(command),
        rules_line(report),
        warning_line(report),
        limit_line(report),
        notes_lines(report),
        f"<p class='meta'>Lineup {html.escape(', '.join(report.seats))} (seats rotate from game "
        f"to game); seed {report.seed}{dealt}; "
        f"{duration(report.seconds)} on {report.backend} ({report.parallelism} in parallel).</p>",
        image(
            plots.win_rates(panels, report.even_share),
            "win rates with 95% intervals",
        ),
        f"<p class='meta'>{html.escape(INTERVALS)}; each row says its games"
        f"{off_even_note([*report.by_bot, *report.by_seat, *report.by_role], report.even_share)}"
        ".</p>",
        "<h2>By bot</h2>",
        tally_table(report.by_bot, "bot", report.even_share),
        "<h2>By seat</h2>",
        tally_table(report.by_seat, "seat", report.even_share),
    ]
    if report.by_role:
        role = game.role_noun
        sections += [f"<h2>By {role}</h2>", tally_table(report.by_role, role, report.even_share)]
    scores = [
        (
            bot.name,
            [
                r.scores[s]
                for r in report.results
                for s in range(report.players)
                if r.seats[s] == bot.name
            ],
        )
        for bot in report.by_bot
    ]
    sections += [
        "<h2>Scores</h2>",
        image(
            # a bot in two seats of a game has two scores there: seats counted, not games
            plots.distributions(
                scores, score_label(report), "Score distribution by bot", counted="seat-games"
            ),
            "scores",
        ),
        f"<p>The winner's lead over the best of the rest, in final score (negative where a rule "
        f"made a lower score win; 0 where every seat shared it): "
        f"{html.escape(lead_text(report.margin))}.</p>",
        "<h2>Game length</h2>",
        table(
            ["measure", "mean", "sd", "least", "most"],
            [
                [name, f"{s.mean:.1f}", sd_text(s.sd, 1), f"{s.low:g}", f"{s.high:g}"]
                for name, s in (
                    ("turns", lengths.turns),
                    ("rounds", lengths.rounds),
                    ("decisions", lengths.decisions),
                )
            ],
        ),
        image(
            plots.lengths([r.turns for r in report.results], [r.rounds for r in report.results]),
            "game lengths",
        ),
    ]
    sections.insert(-2, endings_line(report))
    return write(directory, title, "\n".join(sections), report.to_dict())


# --- tournament -------------------------------------------------------------------------------
def tournament(report: TournamentReport, directory: Path, command: Sequence[str]) -> Path:
    title = f"{title_of(report.game)} tournament: {', '.join(report.bots)}"
    ratings = report.ratings
    matrix = [
        [name, *row] for name, row in zip(report.bots, head_to_head_cells(report), strict=True)
    ]
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        command_line(command),
        rules_line(report),
        warning_line(report),
        limit_line(report),
        notes_lines(report),
        f"<p class='meta'>{report.players} players a game, {report.games_per_pairing} games for "
        f"each group of bots, seats rotated; seed {report.seed}; {duration(report.seconds)} on "
        f"{report.backend} ({report.parallelism} in parallel).</p>",
        image(
            plots.ratings(
                [r.name for r in ratings],
                [r.elo for r in ratings],
                [r.low for r in ratings],
                [r.high for r in ratings],
            ),
            "ratings",
        ),
        "<h2>Ratings</h2>",
        table(
            ["bot", "rating", "95% interval"],
            [[r.name, f"{r.elo:+.0f}", f"{r.low:+.0f} to {r.high:+.0f}"] for r in ratings],
        ),
        "<h2>Standings</h2>",
        "<p>Every game of each bot in the tournament, best first"
        f"{off_even_note(report.ranked, 1 / report.players)}.</p>",
        tally_table(report.ranked, "bot", 1 / report.players),
        "<h2>Head to head</h2>",
        "<p>The row bot's share of the games either of the two won, and in brackets of how "
        "many (a win shared with the other counts a half; a game both lost counts for neither)"
        + (f"; {html.escape(NO_RESULT)}" if unresolved(report) else "")
        + ".</p>",
        table(["", *report.bots], matrix),
        endings_line(report),
        image(
            plots.win_rates(
                [("win rate over all games", report.ranked)],
                1 / report.players,
                bots="win rate over all games",
            ),
            "win rates over all games",
        ),
    ]
    return write(directory, title, "\n".join(sections), report.to_dict())


# --- analyse ----------------------------------------------------------------------------------
def analysis(result: GameAnalysis, directory: Path, command: Sequence[str]) -> Path:
    names = player_names(result)
    # moves numbered from 1, as the tables and the replay page number them
    last = max((d.ply for d in result.decisions), default=0) + 1
    curves, lost = [], []
    for player, name in enumerate(names):
        own = [d for d in result.decisions if d.player == player]
        xs, ys = [d.ply + 1 for d in own], [d.before for d in own]
        if result.finished:  # the final result closes each curve, after the last move
            xs.append(last + 1)
            ys.append(1.0 / len(result.winners) if player in result.winners else 0.0)
        elif xs:  # else the last estimate holds to the end: drawn 'post', it was a mere tick
            xs.append(last + 1)
            ys.append(ys[-1])
        curves.append((name, xs, ys))
        lost.append(
            plots.Losses(
                name,
                [d.ply + 1 for d in own],
                [d.lost for d in own],
                [d.margin for d in own],
                [d.clear_mistake for d in own],
            )
        )
    title = f"Analysis of a game of {title_of(result.game)}"
    sections = [
        f"<h1>{html.escape(title)}</h1>",
        command_line(command),
        f"<p class='meta'>{plural(len(result.decisions), 'decision')} analysed by "
        f"{html.escape(result.analyser)} ({result.budget_words}) from each mover's own "
        f"information in {duration(result.seconds)}. "
        f"{'Final scores' if result.finished else 'Scores so far'} "
        # the seats' names are the record's, which anybody may write: escaped, as in the tables
        f"{html.escape(', '.join(f'{n} {s}' for n, s in zip(names, result.scores, strict=True)))}; "
        f"winner {html.escape(', '.join(names[w] for w in result.winners)) or 'none yet'}.</p>",
    ]
    if not result.decisions:  # said as the table says it, not as empty plots and "0 moves"
        sections.append("<p>The record has no decision to analyse.</p>")
        return write(directory, title, "\n".join(sections), result.to_dict())
    sections += [
        image(
            plots.win_chance_over_game(curves, last, result.skips_chance_outcomes),
            "win chance over the game",
        ),
        image(plots.losses(lost, last, result.skips_chance_outcomes), "win chance lost"),
        "<h2>Biggest mistakes</h2>",
        "<p>A move's loss is the preferred move's win chance less the played one's; a mistake "
        "is listed when its loss is beyond the 95% sampling margin of that difference.</p>",
    ]
    for player, name in enumerate(names):
        rows = [
            [
                d.ply + 1,
                f"{d.played}, {d.played_words}",
                f"{d.best}, {d.best_words}",
                percent(d.before),
                percent(d.after),
                loss_cell(d),
            ]
            for d in result.mistakes(player)
        ]
        loss = loss_text(result, player).capitalize()
        sections.append(f"<h3>{html.escape(name)}</h3><p>{html.escape(loss)}.</p>")
        sections.append(
            table(
                ["move", "played", "preferred", "before", "after", "lost ± margin"],
                rows,
                words=("played", "preferred"),
            )
            if rows
            else "<p>No clear mistake: no loss beyond its sampling margin.</p>"
        )
    sections += [  # move by move, as the terminal's table
        "<h2>Every decision</h2>",
        "<p>The move played; the move preferred, where it is another; the mover's win chance "
        "before and after; the win chance lost with its margin (! a clear mistake; forced: the "
        "only legal move).</p>",
        table(
            ["move", "player", "played", "preferred", "before", "after", "lost ± margin"],
            [
                [
                    d.ply + 1,
                    names[d.player],
                    f"{d.played}, {d.played_words}",
                    "" if d.best == d.played else f"{d.best}, {d.best_words}",
                    percent(d.before),
                    percent(d.after),
                    loss_column(d),
                ]
                for d in result.decisions
            ],
            words=("player", "played", "preferred"),
        ),
    ]
    return write(directory, title, "\n".join(sections), result.to_dict())


def percent(chance: float) -> str:
    """A win chance as people read it, as the replay page shows it: ``52%``."""
    return f"{100 * chance:.0f}%"


def loss_cell(decision: Decision) -> str:
    """A move's loss with its margin, in win chance: ``19% ± 5%`` (a margin is at most 100%;
    an analysis kept before that cap may hold more)."""
    return f"{percent(decision.lost)} ± {percent(min(decision.margin, 1.0))}"


def loss_column(decision: Decision) -> str:
    """A move's loss with its margin, `!` before a clear mistake; "forced" for a move that
    was the only legal one (a blank read as no loss, and it counts in no mean)."""
    if decision.forced:
        return "forced"
    if not decision.lost:
        return ""
    return f"{'!' if decision.clear_mistake else ''}{loss_cell(decision)}"


def loss_text(result: GameAnalysis, player: int) -> str:
    """What `player` lost, as the replay page says it: a chance a move with a choice, on
    average, and how many forced moves that leaves out."""
    choices = result.choices_of(player)
    forced = result.moves_of(player) - choices
    text = (
        f"lost {result.mean_lost(player):.1%} of win chance a move on average, over "
        f"{plural(choices, 'move')} with a choice"
    )
    return text + (f" ({plural(forced, 'forced move')} not counted)" if forced else "")


def player_names(result: GameAnalysis) -> list[str]:
    seats = result.seats or []
    return [
        f"P{p + 1} ({seats[p]})" if p < len(seats) else f"P{p + 1}" for p in range(result.players)
    ]

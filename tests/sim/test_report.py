"""Reports: one self-contained HTML page with its plots embedded, and the results as JSON."""

from __future__ import annotations

import html
import itertools
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.core import KafeneioError
from kafeneio.sim import report as reports
from kafeneio.sim.report import interval_text, wins_text

from .own_cards import RICH_SHOP, rich_shop_cards

pytest.importorskip("matplotlib")


def images(page: str) -> list[bytes]:
    import base64

    found = re.findall(r"src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    return [base64.b64decode(data) for data in found]


def test_a_simulation_report_embeds_its_plots_and_writes_the_results(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "souvlaki", "--games", "4", "--seats", "heuristic,random"]
    result = runner.invoke(app, [*args, "--workers", "1", "--report", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    pictures = images(page)
    assert len(pictures) == 3 and all(p.startswith(b"\x89PNG") for p in pictures)
    assert "http" not in page.replace("data:image", "")  # nothing to fetch: self-contained
    assert "<h1>Simulation — Souvlaki Wars: 4 games, 2 players</h1>" in page  # the game's title
    for heading in ("By bot", "By seat", "By shop", "Game length", "95% interval"):
        assert heading in page
    assert "shops dealt at random" in page
    cafe = tmp_path / "cafe"
    args = ["simulate", "cafe", "--games", "2", "--seats", "greedy,random", "--workers", "1"]
    assert runner.invoke(app, [*args, "--report", str(cafe)]).exit_code == 0
    assert "roles" not in (cafe / "report.html").read_text(encoding="utf-8")  # Café has none
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["games"] == 4 and len(results["results"]) == 4
    assert [row["name"] for row in results["by_bot"]] == ["heuristic", "random"]


def test_a_tournament_report_shows_the_ratings(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["tournament", "cafe", "--bots", "random,heuristic", "--games", "4", "--workers", "1"]
    result = runner.invoke(app, [*args, "--report", str(tmp_path)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert len(images(page)) == 2 and "Head to head" in page and "Ratings" in page
    assert "<h1>Café International tournament: random, heuristic</h1>" in page
    assert "Café International round robin, 4 games a pairing" in result.output
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["ratings"]
    # the standings best first in the report as in the table (the report kept --bots' order)
    best = [row["name"] for row in sorted(results["standings"], key=lambda r: -r["win_rate"])]
    standings = page.split("<h2>Standings</h2>")[1].split("</table>")[0]
    assert re.findall(r"<tr><td>(\w+)</td>", standings) == best
    shown = result.output.split("standings")[1]
    assert shown.index(best[0]) < shown.index(best[1])
    assert "seed 0; " in result.output and " s on local (1 in parallel)" in result.output
    assert "ended at" not in page  # Café ends by its rules alone
    limited = tmp_path / "souvlaki"  # random shops reach the round limit
    args = ["tournament", "souvlaki", "--bots", "random,greedy", "--games", "2", "--seed", "1"]
    assert runner.invoke(app, [*args, "--workers", "1", "--report", str(limited)]).exit_code == 0
    assert "games ended at the round limit" in (limited / "report.html").read_text()


def test_a_report_directory_that_cannot_be_made_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    runner = CliRunner()
    refusals = ((blocker, "is a file: name a directory"), (blocker / "in", "is a file"))
    for report, problem in refusals:
        args = ["simulate", "cafe", "--games", "2", "--workers", "1", "--report", str(report)]
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and problem in result.output
        assert "games/s" not in result.output  # refused before any game was played


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="a Linux /proc")
def test_a_report_directory_no_file_can_be_made_in_is_refused_before_the_run() -> None:
    """/proc and /sys passed the permission bits' check (and any directory did for root): the
    games were played, and the report failed at the end."""
    args = ["simulate", "cafe", "--games", "2", "--workers", "1", "--report", "/proc/kafeneio"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "cannot write in the --report directory" in result.output
    assert "games/s" not in result.output and "by bot" not in result.output


def test_a_report_that_fails_at_the_end_loses_the_file_not_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A report that could not be written after the run (a disk filled meanwhile) printed
    only its error: the run's results were lost. They are shown first now."""

    def full_disk(*_: object) -> None:
        raise KafeneioError(f"cannot write the report in {tmp_path}: No space left on device")

    monkeypatch.setattr(reports, "write", full_disk)
    args = ["simulate", "cafe", "--games", "2", "--workers", "1", "--report", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "by bot" in result.output
    assert result.output.rstrip().endswith("No space left on device")
    assert "Report written" not in result.output


def test_overlaid_histograms_share_their_bins_across_every_series() -> None:
    from kafeneio.sim.plots import histogram_bins

    apart = [-43.0, -21.0, -1.0, 51.0, 55.0, 59.0]  # two bots' scores, far apart
    edges = histogram_bins(apart, integer=True)
    assert edges[0] == -43.5 and edges[-2] < 59 < edges[-1]
    # the same count of whole numbers in every bin (30 equal bins held 3 in some, 2 in others)
    assert {b - a for a, b in itertools.pairwise(edges)} == {4}
    lengths = histogram_bins([15, 78], integer=True)
    assert {b - a for a, b in itertools.pairwise(lengths)} == {3} and len(lengths) <= 31
    assert histogram_bins([3, 5, 9], integer=True) == [x - 0.5 for x in range(3, 11)]
    assert histogram_bins([0.25, 0.75], integer=False)[::15] == [0.25, 0.5, 0.75]
    assert histogram_bins([4.0], integer=False) == [3.5, 4.5]


def test_every_json_result_says_what_it_is_and_what_made_it(tmp_path: Path) -> None:
    """A results.json found later names its kind, its layout's version, the package and the
    game engine, as a game record does."""
    from kafeneio import __version__
    from kafeneio.games import get_game
    from kafeneio.sim.stamp import RESULT_VERSION

    runner = CliRunner()
    records = tmp_path / "records"
    common = ["--games", "1", "--workers", "1", "--json"]
    simulated = runner.invoke(
        app, ["simulate", "cafe", "--seats", "random", *common, "--records", str(records)]
    )
    played = runner.invoke(app, ["tournament", "cafe", "--bots", "random,greedy", *common])
    record = str(records / "game-0001.json")
    analysed = runner.invoke(
        app, ["analyse", record, "--bot", "flat", "--iterations", "2", "--json"]
    )
    engine = get_game("cafe").info.engine_version
    for kind, result in (("simulation", simulated), ("tournament", played), ("analysis", analysed)):
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert list(data)[:4] == ["format", "version", "kafeneio", "engine"]
        assert data["format"] == f"kafeneio-{kind}" and data["version"] == RESULT_VERSION == 3
        assert data["kafeneio"] == __version__ and data["engine"] == engine


def test_an_analysis_report_is_overwritten_only_with_force(tmp_path: Path) -> None:
    runner = CliRunner()
    records, report = tmp_path / "records", tmp_path / "report"
    simulated = ["simulate", "cafe", "--games", "1", "--workers", "1", "--records", str(records)]
    assert runner.invoke(app, simulated).exit_code == 0
    args = ["analyse", str(records / "game-0001.json"), "--bot", "flat", "--iterations", "2"]
    assert runner.invoke(app, [*args, "--report", str(report)]).exit_code == 0
    (report / "report.html").write_text("earlier")
    refused = runner.invoke(app, [*args, "--report", str(report)])
    assert refused.exit_code == 2 and "already holds report.html" in refused.output
    assert (report / "report.html").read_text() == "earlier"
    forced = runner.invoke(app, [*args, "--report", str(report), "--force"])
    assert forced.exit_code == 0, forced.output
    assert (report / "report.html").read_text() != "earlier"


def test_an_analysis_plots_moves_numbered_from_1_as_its_tables_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plots' axis started at 0 while the tables and the replay page count from 1."""
    from kafeneio.sim import plots
    from kafeneio.sim.analysis import Decision, GameAnalysis
    from kafeneio.sim.report import analysis

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        plots, "win_chance_over_game", lambda c, last, counted: seen.update(c=c) or b""
    )
    monkeypatch.setattr(
        plots, "losses", lambda p, last, counted: seen.update(p=p, last=last) or b""
    )

    def decision(ply: int, player: int) -> Decision:
        return Decision(ply, player, "end", "end", "end", "end", 0.5, 0.5, 0.0, 0.0, 1, 1)

    moves = [decision(0, 0), decision(1, 1), decision(3, 0)]  # move 3 a chance outcome
    result = GameAnalysis("cafe", 2, None, [1, 0], [0], True, "mcts", moves)
    analysis(result, tmp_path, ["analyse"])
    assert seen["c"] == [("P1", [1, 4, 5], [0.5, 0.5, 1.0]), ("P2", [2, 5], [0.5, 0.0])]
    assert seen["p"] == [
        ("P1", [1, 4], [0.0, 0.0], [0.0, 0.0], [False, False]),
        ("P2", [2], [0.0], [0.0], [False]),
    ]
    assert seen["last"] == 4


def test_the_move_axis_says_chance_outcomes_count_only_where_the_numbers_skip_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The axis said 'chance outcomes count' for Café too, whose records number none."""
    from kafeneio.sim import plots
    from kafeneio.sim.analysis import Decision, GameAnalysis
    from kafeneio.sim.report import analysis

    labels: list[str] = []
    drawn = plots.png

    def label_kept(figure: Any, *_: Any) -> bytes:
        labels.append(figure.axes[0].get_xlabel())
        return drawn(figure)

    monkeypatch.setattr(plots, "png", label_kept)

    def decision(ply: int, player: int) -> Decision:
        return Decision(ply, player, "end", "end", "end", "end", 0.5, 0.5, 0.0, 0.0, 1, 1)

    for game, plies in (("cafe", [0, 1, 2]), ("souvlaki", [0, 1, 3])):  # 2: a draw
        moves = [decision(ply, ply % 2) for ply in plies]
        result = GameAnalysis(game, 2, None, [1, 0], [0], True, "mcts", moves)
        analysis(result, tmp_path / game, ["analyse"])
    chance = "chance outcomes count"
    assert [chance in label for label in labels] == [False, False, True, True], labels
    assert all(label.startswith("move (numbered from 1 as in the table") for label in labels)


def test_a_run_time_reads_as_a_time_however_short(tmp_path: Path) -> None:
    """Two figures of a run of 0.00001 s read "1e-05 s"; an analysis of 0.3 s said "in 0 s";
    and a run timed at 0 s claimed a billion games a second."""
    from kafeneio.sim import commands
    from kafeneio.sim.analysis import Decision, GameAnalysis
    from kafeneio.sim.commands import print_simulation
    from kafeneio.sim.report import analysis, duration
    from kafeneio.sim.runner import Backend
    from kafeneio.sim.simulate import simulate

    assert [duration(s) for s in (0.0, 0.00001, 0.0099)] == ["<0.01 s"] * 3
    shown = [duration(s) for s in (0.012, 0.5, 0.999, 12.34)]
    assert shown == ["0.012 s", "0.5 s", "1 s", "12.3 s"]
    move = Decision(0, 0, "end", "end", "end", "end", 0.5, 0.5, 0.0, 0.0, 1, 1)
    result = GameAnalysis("cafe", 2, None, [1, 0], [0], True, "mcts", [move], seconds=0.3)
    page = analysis(result, tmp_path, ["analyse"]).read_text(encoding="utf-8")
    assert "information in 0.3 s." in page
    report = simulate("cafe", ["random", "random"], 1, backend=Backend("local", workers=1))
    report.seconds = 0.0  # too quick to measure (timed to a thousandth)
    assert report.games_per_second is None and report.to_dict()["games_per_second"] is None
    with commands.console.capture() as captured:
        print_simulation(report)
    line = next(line for line in captured.get().splitlines() if line.startswith("game length"))
    assert line.endswith("<0.01 s on local (1 in parallel)") and "games/s" not in line


def test_histograms_of_whole_numbers_are_ticked_at_whole_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One game of 57 turns was plotted on an axis ticked 56.6, 56.8, 57.0, ..., and the
    analysis of a 2-move record on moves 1.2, 1.4, ..."""
    from kafeneio.sim import plots

    figures: list[object] = []
    monkeypatch.setattr(plots, "png", lambda figure, *_: figures.append(figure) or b"")
    plots.lengths([57], [29])
    plots.distributions([("greedy", [87]), ("random", [111])], "final score", "Scores")
    plots.win_chance_over_game([("P1", [1, 3], [0.5, 1.0]), ("P2", [2, 3], [0.5, 0.0])], 2)
    plots.losses(
        [plots.Losses("P1", [1], [0.1], [0.05], [True]), plots.Losses("P2", [2], [0.0], [0], [0])],
        2,
    )
    axes = [axis for figure in figures for axis in figure.axes]  # type: ignore[attr-defined]
    assert len(axes) == 5
    for axis in axes:
        axis.figure.canvas.draw()
        low, high = axis.get_xlim()
        ticks = [t for t in axis.get_xticks() if low <= t <= high]
        assert ticks and all(float(t).is_integer() for t in ticks), ticks
    plt = plots.pyplot()
    for figure in figures:
        plt.close(figure)


def test_a_loss_within_its_margin_is_drawn_faint_with_its_margin_beside_every_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A loss of 26% ± 38% was the tallest bar, solid as a blunder, where the text said no
    clear mistake: every loss now has its margin, and one within it is faint and hatched."""
    from matplotlib.collections import LineCollection

    from kafeneio.sim import plots

    figures: list[Any] = []
    monkeypatch.setattr(plots, "png", lambda figure, *_: figures.append(figure) or b"")
    series = plots.Losses(
        "P1", [1, 2, 3], [0.26, 0.1, 0.0], [0.38, 0.04, 0.0], [False, True, False]
    )
    plots.losses([series], 3)
    (axis,) = figures[0].axes
    bars = {bar.get_x() + bar.get_width() / 2: bar for bar in axis.patches}
    assert sorted(bars) == [1, 2]  # no bar where nothing was lost
    noise, clear = bars[1], bars[2]
    assert noise.get_hatch() and not clear.get_hatch()
    assert noise.get_alpha() < clear.get_alpha()
    segments = [
        segment
        for collection in axis.collections
        if isinstance(collection, LineCollection)
        for segment in collection.get_segments()
        if segment[0][0] == segment[1][0]  # the vertical bars, not their caps
    ]
    spans = sorted(
        (s[0][0], round(min(s[0][1], s[1][1]), 6), round(max(s[0][1], s[1][1]), 6))
        for s in segments
    )
    assert spans == [(1, 0.0, 0.64), (2, 0.06, 0.14)]
    plots.pyplot().close(figures[0])


def test_the_analysis_legends_stand_beside_the_plots_not_over_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Inside the axes, a legend hid a curve near 0.9 (Souvlaki) or the tallest bar."""
    from kafeneio.sim import plots

    figures: list[Any] = []
    monkeypatch.setattr(plots, "png", lambda figure, *_: figures.append(figure) or b"")
    plots.win_chance_over_game([("P1", [1, 3], [0.9, 1.0]), ("P2", [2, 3], [0.1, 0.0])], 2)
    plots.losses([plots.Losses("P1", [1], [0.9], [0.05], [True])], 2)
    for figure in figures:
        (axis,) = figure.axes
        figure.canvas.draw()
        legend = axis.get_legend().get_window_extent()
        assert legend.x0 > axis.get_window_extent().x1
        plots.pyplot().close(figure)


def test_histograms_of_several_series_put_their_bars_side_by_side(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Overlaid translucent bars blended two bots' colours into a third that named no bot."""
    from kafeneio.sim import plots

    figures: list[object] = []
    monkeypatch.setattr(plots, "png", lambda figure, *_: figures.append(figure) or b"")
    plots.distributions([("a", [3, 4, 4]), ("b", [4, 5])], "final score", "Scores")
    (axis,) = figures[0].axes  # type: ignore[attr-defined]
    spans = [
        (bar.get_x(), bar.get_x() + bar.get_width()) for bar in axis.patches if bar.get_height() > 0
    ]
    assert len(spans) == 4  # 3 and 4 of a, 4 and 5 of b
    for index, (left, right) in enumerate(spans):
        assert all(right <= other or left >= end for other, end in spans[index + 1 :])
    assert [text.get_text() for text in axis.get_legend().get_texts()] == ["a", "b"]
    # each bar edged apart from its neighbour: two bins of one height read as one wide bar
    assert all(bar.get_edgecolor()[:3] == (1, 1, 1) for bar in axis.patches)
    assert axis.get_ylabel() == "games"
    plots.distributions([("a", [3])], "final score", "Scores", counted="seat-games")
    assert figures[1].axes[0].get_ylabel() == "seat-games"  # type: ignore[attr-defined]
    plots.pyplot().close(figures[0])


def test_an_unfinished_or_empty_record_is_reported_as_what_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record stopped mid-game drew each player's last estimate as a bare tick and called
    the scores so far "Final scores"; a record of no decision got two empty plots and "lost
    0.0% of win chance a move on average, over 0 moves" for each player."""
    from kafeneio.sim import plots
    from kafeneio.sim.analysis import Decision, GameAnalysis
    from kafeneio.sim.report import analysis

    seen: dict[str, object] = {}
    monkeypatch.setattr(
        plots, "win_chance_over_game", lambda c, last, counted: seen.update(c=c) or b""
    )
    monkeypatch.setattr(plots, "losses", lambda p, last, counted: b"")

    def decision(ply: int, player: int, before: float) -> Decision:
        return Decision(ply, player, "end", "end", "end", "end", before, before, 0.0, 0.0, 1, 1)

    moves = [decision(0, 0, 0.6), decision(1, 1, 0.4), decision(2, 0, 0.7)]
    stopped = GameAnalysis("cafe", 2, None, [6, 5], [], False, "mcts", moves)
    page = analysis(stopped, tmp_path / "stopped", ["analyse"]).read_text(encoding="utf-8")
    assert seen["c"] == [("P1", [1, 3, 4], [0.6, 0.7, 0.7]), ("P2", [2, 4], [0.4, 0.4])]
    assert "Scores so far P1 6, P2 5; winner none yet" in page and "Final scores" not in page
    seen.clear()
    empty = GameAnalysis("cafe", 2, None, [0, 0], [], False, "mcts", [])
    page = analysis(empty, tmp_path / "empty", ["analyse"]).read_text(encoding="utf-8")
    assert "The record has no decision to analyse." in page and "0 decisions analysed" in page
    assert not seen and "<img" not in page and "over 0 moves" not in page


def test_a_head_to_head_dash_between_two_bots_is_explained(tmp_path: Path) -> None:
    """In games of three, two losers tell nothing of each other: random and greedy played
    together yet their head-to-head cell read "—", which the page said nothing of."""
    args = ["tournament", "cafe", "--bots", "random,greedy,heuristic", "--players", "3"]
    result = CliRunner().invoke(
        app, [*args, "--games", "2", "--workers", "1", "--report", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    results = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert results["head_to_head"][0][1] is None  # random and greedy: both lost every game
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    explained = "— where no game set one above the other (never met, or only lost together)"
    assert explained in page and explained in result.output


def test_the_score_axis_says_what_a_final_score_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Souvlaki's axis said 'final score', which is money + reputation net of loans."""
    from kafeneio.sim import plots
    from kafeneio.sim.report import simulation
    from kafeneio.sim.runner import Backend
    from kafeneio.sim.simulate import simulate

    labels: list[str] = []
    monkeypatch.setattr(
        plots, "distributions", lambda series, xlabel, title, **_: labels.append(xlabel) or b""
    )
    for game, options in (
        ("souvlaki", {}),
        ("souvlaki", {"loan_in_tiebreak": False}),
        ("cafe", {}),
    ):
        report = simulate(game, ["random"] * 2, 1, options=options, backend=Backend(workers=1))
        simulation(report, tmp_path / f"{game}{len(labels)}", ["simulate"])
    assert labels == [
        "final score: money + reputation, net of loans",
        "final score: money + reputation",
        "final score: points",
    ]


def test_a_run_takes_its_words_for_the_score_and_the_roles_from_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sim named Souvlaki's option (loan_in_tiebreak) and its shops itself: a game that calls
    them otherwise was told in Souvlaki's words."""
    from kafeneio.games.souvlaki import SouvlakiGame
    from kafeneio.sim import plots
    from kafeneio.sim.report import simulation
    from kafeneio.sim.runner import Backend
    from kafeneio.sim.simulate import simulate
    from kafeneio.sim.tournament import tournament

    local = Backend(workers=1)
    played = simulate("souvlaki", ["random", "greedy"], 3, backend=local)
    pairings = tournament("souvlaki", ["random", "greedy"], 3, backend=local)
    labels: list[str] = []
    monkeypatch.setattr(
        plots, "distributions", lambda series, xlabel, title, **_: labels.append(xlabel) or b""
    )
    monkeypatch.setattr(SouvlakiGame, "score_description", lambda self: "takings")
    monkeypatch.setattr(SouvlakiGame, "role_option", "stalls")
    monkeypatch.setattr(SouvlakiGame, "role_noun", "stall")
    page = simulation(played, tmp_path, ["simulate"]).read_text(encoding="utf-8")
    assert labels == ["final score: takings"]
    assert "stalls dealt at random" in page and "<h2>By stall</h2>" in page
    for report in (played, pairings):
        assert report.uneven is not None
        assert "nor every one of the stalls dealt" in report.uneven


def test_only_the_bots_panel_gives_bars_the_bots_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat panel coloured its bars by place too, so P1's bar took the first bot's blue
    beside it, as if P1 were that bot."""
    from matplotlib.colors import to_hex

    from kafeneio.sim import plots
    from kafeneio.sim.simulate import Tally

    def tally(name: str) -> Tally:
        return Tally(name, 10, 5.0, 0.5, 0.2, 0.8, 40.0, 3.0)

    figures: list[Any] = []
    monkeypatch.setattr(plots, "png", lambda figure, *_: figures.append(figure) or b"")
    bots = [tally("heuristic"), tally("greedy")]
    plots.win_rates([("by bot", bots), ("by seat", [tally("P1"), tally("P2")])], 0.5)
    by_bot, by_seat = figures[0].axes
    colours = [[to_hex(bar.get_facecolor()[:3]) for bar in a.patches] for a in (by_bot, by_seat)]
    assert colours[0] == list(plots.COLOURS[:2])
    assert colours[1] == [plots.PLAIN] * 2
    plots.pyplot().close(figures[0])


def test_shared_wins_are_shown_to_two_places() -> None:
    """A 4-player run's shared wins read "1.41667" and "0.916667" in the seat table."""
    assert [wins_text(w) for w in (3, 16.25, 17 / 12, 11 / 12, 0.5, 0)] == [
        "3", "16.25", "1.42", "0.92", "0.5", "0"
    ]  # fmt: skip


def test_an_interval_that_leaves_out_the_even_share_is_marked_above_or_below() -> None:
    """A seat's advantage had to be spotted by eye in the tables (docs/balance.md bolds it);
    one mark for both sides said "more than chance" of a seat clearly below the even share."""
    assert interval_text(0.552, 0.801, 0.5) == "0.552–0.801 ▲"
    assert interval_text(0.1, 0.45, 0.5) == "0.100–0.450 ▼"
    assert interval_text(0.4, 0.6, 0.5) == "0.400–0.600"
    assert interval_text(0.25, 0.25, 0.25) == "exact: every seat"
    args = ["simulate", "cafe", "--players", "2", "--games", "20", "--workers", "1"]
    marked = CliRunner().invoke(app, [*args, "--seats", "greedy,random"]).output
    assert " ▲ │" in marked and " ▼ │" in marked  # greedy above, random below
    assert reports.OFF_EVEN_MEANS in " ".join(marked.split())
    even = CliRunner().invoke(app, [*args, "--seats", "greedy"]).output
    assert "▲" not in even and "▼" not in even and "lies wholly above" not in even


def test_the_report_explains_the_marks_only_where_an_interval_is_marked(tmp_path: Path) -> None:
    """The HTML report said what the mark means under tables that marked nothing."""
    args = ["simulate", "cafe", "--players", "2", "--games", "20", "--workers", "1"]
    for seats, said in (("greedy,random", True), ("greedy", False)):
        out = tmp_path / seats.replace(",", "-")
        result = CliRunner().invoke(app, [*args, "--seats", seats, "--report", str(out)])
        assert result.exit_code == 0, result.output
        page = (out / "report.html").read_text()
        assert (html.escape(reports.OFF_EVEN_MEANS) in page) is said
        assert ("▲" in page) is said


def test_a_bot_in_every_seat_reads_exact_not_an_interval_of_no_width() -> None:
    """ "0.250–0.250" read as a measured interval: the share is 1/players by construction."""
    assert interval_text(0.25, 0.25) == "exact: every seat"
    assert interval_text(0.403, 0.5) == "0.403–0.500"
    result = CliRunner().invoke(
        app, ["simulate", "cafe", "--players", "3", "--seats", "greedy", "--games", "2"]
    )
    assert result.exit_code == 0 and "exact: every seat" in result.output


def test_a_report_file_that_is_a_directory_is_refused_before_the_run(tmp_path: Path) -> None:
    """With --force the run was played, then report.html written without its results.json."""
    (tmp_path / "results.json").mkdir()
    command = ["simulate", "cafe", "--seats", "random", "--games", "2", "--force"]
    result = CliRunner().invoke(app, [*command, "--report", str(tmp_path)])
    assert result.exit_code == 2 and "results.json there is not a file" in result.output
    assert not (tmp_path / "report.html").exists()


def test_a_report_file_is_never_left_half_written(tmp_path: Path, monkeypatch: Any) -> None:
    """Each file is written aside, then put in place whole: a full disk leaves the earlier
    file as it was, not a file cut short, and no spare file behind."""
    (tmp_path / "results.json").write_text("old")
    real = os.replace
    calls: list[str] = []

    def failing(source: Any, target: Any) -> None:
        calls.append(str(target))
        if str(target).endswith("results.json"):
            raise OSError(28, "No space left on device")
        real(source, target)

    monkeypatch.setattr(reports.os, "replace", failing)
    with pytest.raises(KafeneioError, match="No space left"):
        reports.write(tmp_path, "t", "<p>body</p>", {"a": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "results.json"]
    assert (tmp_path / "results.json").read_text() == "old"


def test_a_report_says_its_notes_and_the_games_behind_each_share(tmp_path: Path) -> None:
    """The notes the tables print (what a seat is, a shop table that is the seat table) and
    what the intervals are, in the report too; each head-to-head share with its games."""
    runner = CliRunner()
    args = ["simulate", "souvlaki", "--games", "2", "--seats", "greedy", "--workers", "1"]
    fixed = ["--fixed-roles", "-o", 'shops=["pita","express"]']
    result = runner.invoke(app, [*args, *fixed, "--report", str(tmp_path / "s")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "s" / "report.html").read_text()
    assert "<strong>Note:</strong> a seat (P1, P2, ...) is a place at the set-up" in page
    assert "the table by shop is the table by seat under other names" in page
    assert "Wilson&#x27;s score interval of the win rate" in page
    args = ["tournament", "cafe", "--bots", "random,greedy", "--games", "2", "--workers", "1"]
    result = runner.invoke(app, [*args, "--report", str(tmp_path / "t")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "t" / "report.html").read_text()
    assert re.search(r"<td>[01]\.000 \(2\)</td>", page), page
    assert json.loads((tmp_path / "t" / "results.json").read_text())["head_to_head_games"]


def test_a_run_that_sets_a_shop_of_one_s_own_card_set_writes_its_rules_and_report(
    tmp_path: Path,
) -> None:
    """`-o shops=[...]` naming a shop of the run's own cards: the games were played, then the
    rules line was made with the built-in set, which has no such shop: a traceback, and no
    report."""
    cards = rich_shop_cards(tmp_path / "cards")
    shops = f'shops=["{RICH_SHOP}","pita"]'
    simulation = ["simulate", "souvlaki", "--seats", "heuristic", "--games", "2"]
    rounds = ["tournament", "souvlaki", "--bots", "heuristic,greedy", "--games", "2"]
    for command in (simulation, rounds):
        report = tmp_path / command[0]
        args = [*command, "--cards", str(cards), "-o", shops, "--fixed-roles", "--workers", "1"]
        result = CliRunner().invoke(app, [*args, "--report", str(report)])
        assert result.exit_code == 0, result.output
        said = " ".join(result.output.split())
        assert f'rules: shops=["{RICH_SHOP}", "pita"]; cards: own, from {cards}' in said
        assert RICH_SHOP in (report / "report.html").read_text(encoding="utf-8")


def test_the_analysis_plots_share_their_move_axis_one_above_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Their legends differ in width, and each figure's own layout set a move about 30 px
    apart in the two plots: a loss could not be read straight down from a drop in the curve."""
    pytest.importorskip("matplotlib")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from kafeneio.sim import plots

    drawn: list[tuple[float, float, tuple[float, float]]] = []
    png = plots.png

    def spy(figure: Any, sides: tuple[float, float] | None = None) -> bytes:
        made = png(figure, sides)  # laid out as the report has it
        axis = figure.axes[0]
        box = axis.get_position()
        drawn.append((round(box.x0, 6), round(box.x1, 6), axis.get_xlim()))
        # and the legend beside it whole: with the plot area fixed, the PNG is not cropped
        # to its content, and a legend of long names ran past the figure's edge
        renderer = FigureCanvasAgg(figure).get_renderer()
        legend = axis.get_legend().get_window_extent(renderer)
        assert legend.x1 <= figure.bbox.width, (legend.x1, figure.bbox.width)
        return made

    monkeypatch.setattr(plots, "png", spy)
    wide = "P1 " + "W" * 40  # the widest letters
    plots.win_chance_over_game([(wide, [1, 3], [0.5, 0.7]), ("P2", [2], [0.5])], 3)
    lost = plots.Losses(wide, [2], [0.2], [0.05], [True])
    plots.losses([lost], 3)
    assert len(drawn) == 2 and drawn[0] == drawn[1], drawn
    assert (
        plots.legend_name(wide).endswith("…") and len(plots.legend_name(wide)) == plots.LEGEND_NAME
    )

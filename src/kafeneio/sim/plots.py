"""The plots of the reports, drawn with matplotlib's Agg back end as PNG bytes.

matplotlib is an optional extra (``pip install 'kafeneio[sim]'``); it is imported only when a
report is asked for.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from kafeneio.core import KafeneioError
from kafeneio.sim.simulate import Tally

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")
"""A bot's colour, by its place in the report's list of bots (or a player's, by seat, in an
analysis)."""

PLAIN = "#8a8a8a"
"""The bars of what is not a bot (a seat, a shop): of one colour, so that no seat's bar takes
the colour a bot has in the panel beside it."""


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise KafeneioError(
            "reports need matplotlib: pip install 'kafeneio[sim]' (or bash scripts/setup)"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def png(figure: Any, sides: tuple[float, float] | None = None) -> bytes:
    """The figure as PNG bytes; `sides`: its plot area's left and right edges (fractions of
    its width), fixed where two figures' move axes must line up, one above the other."""
    plt = pyplot()
    buffer = io.BytesIO()
    figure.tight_layout()
    if sides is not None:
        figure.subplots_adjust(left=sides[0], right=sides[1])
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def whole_numbers_along(axis: Any) -> None:
    """Ticks at whole numbers only on `axis`'s x axis, for counts, scores and move numbers: a
    one-game run's length (57 turns) was ticked 56.6, 56.8, ..., a 2-move record 1.2, 1.4, ..."""
    from matplotlib.ticker import MaxNLocator

    axis.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def counted_in_games(axis: Any, what: str = "games") -> None:
    """Label `axis`'s y axis as a count of games (or of `what`), its ticks whole numbers."""
    from matplotlib.ticker import MaxNLocator

    axis.set_ylabel(what)
    axis.yaxis.set_major_locator(MaxNLocator(integer=True))


def win_rates(
    groups: Sequence[tuple[str, Sequence[Tally]]], even: float | None, bots: str = "by bot"
) -> bytes:
    """One panel per group (by bot, by seat, by shop): win rates with their 95% intervals. The
    group titled `bots` has each bot's colour (`COLOURS`), the others one plain colour."""
    plt = pyplot()
    shown = [(title, rows) for title, rows in groups if rows]
    figure, axes = plt.subplots(1, len(shown), figsize=(3.6 * len(shown) + 0.6, 3.4), squeeze=False)
    for axis, (title, rows) in zip(axes[0], shown, strict=True):
        names = [row.name for row in rows]
        rates = [row.win_rate for row in rows]
        below = [row.win_rate - row.low for row in rows]
        above = [row.high - row.win_rate for row in rows]
        colours = [COLOURS[i % len(COLOURS)] for i in range(len(rows))]
        axis.bar(names, rates, color=colours if title == bots else PLAIN, alpha=0.8)
        axis.errorbar(names, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=4)
        if even is not None:  # said in the title: a legend could cover a bar that reaches 1
            axis.axhline(even, color="grey", linestyle="--", linewidth=1)
        axis.set_title(title if even is None else f"{title} (dashed: even share)", fontsize=10)
        axis.set_ylim(0, 1)
        axis.set_ylabel("win rate (95% interval)")
        axis.tick_params(axis="x", labelrotation=20, labelsize=8)
    return png(figure)


def distributions(
    series: Sequence[tuple[str, Sequence[float]]],
    xlabel: str,
    title: str,
    integer: bool = True,
    counted: str = "games",
) -> bytes:
    """Histograms of the named series on shared bins, their bars side by side in each bin
    (overlaid and translucent, two series' bars blended into a colour of no series); each bar
    a count of `counted`."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 3.2))
    bins = histogram_bins([v for _, data in series for v in data], integer)
    colours = [COLOURS[index % len(COLOURS)] for index in range(len(series))]
    axis.hist(
        [list(data) for _, data in series],
        bins=bins,
        alpha=0.85,
        label=[name for name, _ in series],
        color=colours,
        edgecolor="white",  # neighbouring bins of one height read as one wide bar without
        linewidth=0.6,
    )
    axis.set_xlabel(xlabel)
    if integer:
        whole_numbers_along(axis)
    counted_in_games(axis, counted)
    axis.set_title(title)
    if len(series) > 1:
        axis.legend(fontsize=8)
    return png(figure)


def histogram_bins(values: Sequence[float], integer: bool) -> list[float]:
    """Bin edges over all of `values`, for every series of one histogram alike (a bin count
    alone would span each series' own range): one bin a whole number where there are fewer
    than 60 of them, else for whole numbers the same count of them in every bin (30 equal bins
    over 64 of them held 3 in some, 2 in others: bars half as tall again for nothing), and
    for fractions 30 equal bins."""
    low, high = (min(values), max(values)) if values else (0, 1)
    if integer:
        start, stop = math.floor(low), math.floor(high)
        width = 1 if stop - start < 60 else math.ceil((stop - start + 1) / 30)
        return [x - 0.5 for x in range(start, stop + width + 1, width)]
    if high == low:
        return [low - 0.5, high + 0.5]
    return [low + (high - low) * k / 30 for k in range(31)]


def lengths(turns: Sequence[int], rounds: Sequence[int]) -> bytes:
    """Histograms of the game lengths in turns and in rounds, side by side."""
    plt = pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(9.6, 3.0))
    for axis, (name, data) in zip(axes, (("turns", turns), ("rounds", rounds)), strict=True):
        bins = histogram_bins(data, integer=True)
        axis.hist(data, bins=bins, color=COLOURS[0], alpha=0.8, edgecolor="white", linewidth=0.6)
        axis.set_xlabel(name)
        whole_numbers_along(axis)
        counted_in_games(axis)
        axis.set_title(f"Game length in {name}")
    return png(figure)


def ratings(
    names: Sequence[str], elo: Sequence[float], low: Sequence[float], high: Sequence[float]
) -> bytes:
    """Ratings with their intervals, best at the top."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(6.4, 0.5 * len(names) + 1.4))
    rows = list(range(len(names)))[::-1]
    below = [e - lo for e, lo in zip(elo, low, strict=True)]
    above = [hi - e for e, hi in zip(elo, high, strict=True)]
    axis.errorbar(elo, rows, xerr=[below, above], fmt="o", color=COLOURS[0], capsize=4)
    axis.set_yticks(rows, list(names))
    axis.axvline(0, color="grey", linestyle="--", linewidth=1)
    axis.set_xlabel("rating (Elo scale, mean 0; 95% interval)")
    axis.set_title("Bradley–Terry ratings")
    return png(figure)


MOVE_AXIS = "move (numbered from 1 as in the table)"
CHANCE_COUNTED = "move (numbered from 1 as in the table; chance outcomes count)"
"""The move axis where the move numbers skip the chance outcomes between decisions (Souvlaki
Wars' draws, moves of its log that nobody decides); Café's records number no chance outcome."""


def move_axis(chance_counted: bool) -> str:
    return CHANCE_COUNTED if chance_counted else MOVE_AXIS


MOVE_AXIS_SIDES = (0.08, 0.75)
"""The plot area's edges of an analysis's two plots by move number, alike (the legends beside
them differ in width, and with each figure's own tight layout a move stood about 30 px apart
in the two): the legend has the width that is left, its names cut to `LEGEND_NAME`."""
LEGEND_NAME = 18


def legend_name(name: str) -> str:
    """A player's name short enough for the legend beside a move axis."""
    return name if len(name) <= LEGEND_NAME else f"{name[: LEGEND_NAME - 1]}…"


def legend_beside(axis: Any, handles: Sequence[Any] | None = None) -> None:
    """The legend right of `axis`, outside it: inside, wherever it went it covered a curve
    near 0.9 (Souvlaki) or the tallest bar of a game (3 players)."""
    extra = {} if handles is None else {"handles": list(handles)}
    axis.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, **extra)


def win_chance_over_game(
    curves: Sequence[tuple[str, Sequence[int], Sequence[float]]],
    last: int,
    chance_counted: bool = False,
) -> bytes:
    """Each player's own estimate of their win chance at each of their decisions, by move
    number (from 1; `last` is the last decision's; `chance_counted`: the numbers skip chance
    outcomes, and the axis says so)."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(9.6, 3.6))
    for index, (name, xs, ys) in enumerate(curves):
        colour = COLOURS[index % len(COLOURS)]
        axis.step(xs, ys, where="post", label=legend_name(name), color=colour, linewidth=1.6)
    axis.set_xlim(0.5, last + 1)  # as the losses' below it
    axis.set_ylim(-0.02, 1.02)
    axis.set_xlabel(move_axis(chance_counted))
    whole_numbers_along(axis)
    axis.set_ylabel("win chance, as the mover sees it")
    axis.set_title("Win chance over the game")
    axis.grid(alpha=0.3)
    legend_beside(axis)
    return png(figure, MOVE_AXIS_SIDES)


class Losses(NamedTuple):
    """One player's losses by move number, each with its 95% margin and whether it is beyond
    it (`Decision.clear_mistake`: the one rule of a clear mistake, applied by the caller)."""

    name: str
    moves: Sequence[int]
    lost: Sequence[float]
    margins: Sequence[float]
    clear: Sequence[bool]


WITHIN_MARGIN_ALPHA = 0.3
"""How faint a loss within its margin is drawn: there, but not to be read as a blunder."""


def losses(players: Sequence[Losses], last: int, chance_counted: bool = False) -> bytes:
    """The win chance each decision lost, per player, by move number (from 1; as in
    `win_chance_over_game`), each with its 95% margin as an error bar: a clear mistake (beyond
    it) solid, a loss within it faint and hatched, since it may be the search's noise (a loss
    of 26% ± 38% was the tallest bar where the text said no clear mistake)."""
    from matplotlib.patches import Patch

    plt = pyplot()
    figure, axis = plt.subplots(figsize=(9.6, 3.0))
    top = 0.0
    for index, series in enumerate(players):
        colour = COLOURS[index % len(COLOURS)]
        shown = [i for i, lost in enumerate(series.lost) if lost > 0]
        for clear in (True, False):
            at = [i for i in shown if series.clear[i] == clear]
            axis.bar(
                [series.moves[i] for i in at],
                [series.lost[i] for i in at],
                width=1.0,
                color=colour,
                alpha=0.85 if clear else WITHIN_MARGIN_ALPHA,
                hatch=None if clear else "////",
                edgecolor=colour,
                linewidth=0,
            )
        lost = [series.lost[i] for i in shown]
        # a loss is a difference of two chances: the bar never reaches below 0 nor above 1
        margins = [min(series.margins[i], 1.0 - series.lost[i]) for i in shown]
        below = [min(series.margins[i], v) for i, v in zip(shown, lost, strict=True)]
        axis.errorbar(
            [series.moves[i] for i in shown],
            lost,
            yerr=[below, margins],
            fmt="none",
            ecolor=colour,
            elinewidth=0.8,
            capsize=2,
        )
        top = max([top, *(v + m for v, m in zip(lost, margins, strict=True))])
    axis.set_xlim(0.5, last + 1)  # as the win chances' above it
    axis.set_ylim(0, min(1.0, top) * 1.05 or 0.1)
    axis.set_xlabel(move_axis(chance_counted))
    whole_numbers_along(axis)
    axis.set_ylabel("win chance lost (±95% margin)")
    axis.set_title("Win chance lost by each move")
    handles = [
        Patch(color=COLOURS[i % len(COLOURS)], label=legend_name(p.name))
        for i, p in enumerate(players)
    ]
    handles += [
        Patch(facecolor="grey", label="clear mistake:\nbeyond its margin"),
        Patch(
            facecolor="grey",
            alpha=WITHIN_MARGIN_ALPHA,
            hatch="////",
            label="within its margin:\nmay be noise",
        ),
    ]
    legend_beside(axis, handles)
    return png(figure, MOVE_AXIS_SIDES)

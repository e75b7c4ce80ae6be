"""The plots of the reports, drawn with matplotlib's Agg back end as PNG bytes.

matplotlib is an optional extra (``pip install 'kafeneio[sim]'``); it is imported only when a
report is asked for.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import Any

from kafeneio.core import KafeneioError
from kafeneio.sim.simulate import Tally

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2")


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


def png(figure: Any) -> bytes:
    plt = pyplot()
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=110)
    plt.close(figure)
    return buffer.getvalue()


def whole_numbers_along(axis: Any) -> None:
    """Ticks at whole numbers only on `axis`'s x axis, for counts, scores and move numbers: a
    one-game run's length (57 turns) was ticked 56.6, 56.8, ..., a 2-move record 1.2, 1.4, ..."""
    from matplotlib.ticker import MaxNLocator

    axis.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def counted_in_games(axis: Any) -> None:
    """Label `axis`'s y axis as a count of games, its ticks whole numbers."""
    from matplotlib.ticker import MaxNLocator

    axis.set_ylabel("games")
    axis.yaxis.set_major_locator(MaxNLocator(integer=True))


def win_rates(groups: Sequence[tuple[str, Sequence[Tally]]], even: float | None) -> bytes:
    """One panel per group (by bot, by seat, by shop): win rates with their 95% intervals."""
    plt = pyplot()
    shown = [(title, rows) for title, rows in groups if rows]
    figure, axes = plt.subplots(1, len(shown), figsize=(3.6 * len(shown) + 0.6, 3.4), squeeze=False)
    for axis, (title, rows) in zip(axes[0], shown, strict=True):
        names = [row.name for row in rows]
        rates = [row.win_rate for row in rows]
        below = [row.win_rate - row.low for row in rows]
        above = [row.high - row.win_rate for row in rows]
        axis.bar(names, rates, color=COLOURS[: len(rows)], alpha=0.8)
        axis.errorbar(names, rates, yerr=[below, above], fmt="none", ecolor="black", capsize=4)
        if even is not None:  # said in the title: a legend could cover a bar that reaches 1
            axis.axhline(even, color="grey", linestyle="--", linewidth=1)
        axis.set_title(title if even is None else f"{title} (dashed: even share)", fontsize=10)
        axis.set_ylim(0, 1)
        axis.set_ylabel("win rate (95% interval)")
        axis.tick_params(axis="x", labelrotation=20, labelsize=8)
    return png(figure)


def distributions(
    series: Sequence[tuple[str, Sequence[float]]], xlabel: str, title: str, integer: bool = True
) -> bytes:
    """Histograms of the named series on shared bins, their bars side by side in each bin
    (overlaid and translucent, two series' bars blended into a colour of no series)."""
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
    )
    axis.set_xlabel(xlabel)
    if integer:
        whole_numbers_along(axis)
    counted_in_games(axis)
    axis.set_title(title)
    if len(series) > 1:
        axis.legend(fontsize=8)
    return png(figure)


def histogram_bins(values: Sequence[float], integer: bool) -> list[float]:
    """Bin edges over all of `values`, for every series of one histogram alike (a bin count
    alone would span each series' own range): one bin a whole number where there are fewer
    than 60 of them, else 30 equal bins."""
    low, high = (min(values), max(values)) if values else (0, 1)
    if integer and high - low < 60:
        return [x - 0.5 for x in range(math.floor(low), math.floor(high) + 2)]
    if high == low:
        return [low - 0.5, high + 0.5]
    return [low + (high - low) * k / 30 for k in range(31)]


def lengths(turns: Sequence[int], rounds: Sequence[int]) -> bytes:
    """Histograms of the game lengths in turns and in rounds, side by side."""
    plt = pyplot()
    figure, axes = plt.subplots(1, 2, figsize=(9.6, 3.0))
    for axis, (name, data) in zip(axes, (("turns", turns), ("rounds", rounds)), strict=True):
        axis.hist(data, bins=histogram_bins(data, integer=True), color=COLOURS[0], alpha=0.8)
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


def win_chance_over_game(
    curves: Sequence[tuple[str, Sequence[int], Sequence[float]]],
    last: int,
    chance_counted: bool = False,
) -> bytes:
    """Each player's own estimate of their win chance at each of their decisions, by move
    number (from 1; `last` is the last decision's; `chance_counted`: the numbers skip chance
    outcomes, and the axis says so)."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(8.4, 3.6))
    for index, (name, xs, ys) in enumerate(curves):
        colour = COLOURS[index % len(COLOURS)]
        axis.step(xs, ys, where="post", label=name, color=colour, linewidth=1.6)
    axis.set_xlim(1, last + 1)
    axis.set_ylim(-0.02, 1.02)
    axis.set_xlabel(move_axis(chance_counted))
    whole_numbers_along(axis)
    axis.set_ylabel("win chance, as the mover sees it")
    axis.set_title("Win chance over the game")
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8, loc="upper left")
    return png(figure)


def losses(
    points: Sequence[tuple[str, Sequence[int], Sequence[float]]],
    last: int,
    chance_counted: bool = False,
) -> bytes:
    """The win chance each decision lost, per player, by move number (from 1; as in
    `win_chance_over_game`)."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(8.4, 2.8))
    for index, (name, xs, ys) in enumerate(points):
        axis.bar(xs, ys, width=1.0, label=name, color=COLOURS[index % len(COLOURS)], alpha=0.8)
    axis.set_xlim(0.5, last + 0.5)
    axis.set_xlabel(move_axis(chance_counted))
    whole_numbers_along(axis)
    axis.set_ylabel("win chance lost")
    axis.set_title("Win chance lost by each move")
    axis.legend(fontsize=8, loc="upper right")
    return png(figure)

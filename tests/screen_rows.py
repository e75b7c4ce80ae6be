"""How tall the terminal's output is between two prompts of a human playing against bots: what
a person must read between two of their decisions, which scrolls off the top of a 24-row
terminal when it is longer (a new-player review: the `finish` of a Souvlaki round printed about
40 lines, the bots' service, the end of the round, maintenance and the next draft).

`prompt_heights` plays a seeded game at the prompt, P1 a human who types the heuristic bot's
choice, the other seats heuristic bots, and counts the rows printed from one prompt of P1's to
the next, the new prompt's own row included, lines longer than 80 columns counted as the rows a
terminal wraps them to. `report` gives their distribution per game and player count::

    PYTHONPATH=src:tests python -c 'import screen_rows; screen_rows.report()'
"""

from __future__ import annotations

import io
import math
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rich.cells import cell_len
from rich.console import Console

from kafeneio import cli
from kafeneio.bots import make_bot
from kafeneio.games import get_game

COLUMNS = 80
ROWS = 24
SEEDS = (1, 2, 3, 4, 5)
"""The seeds measured: 5 games of each game and player count."""
TABLES = (("souvlaki", 2), ("souvlaki", 3), ("souvlaki", 4), ("cafe", 2), ("cafe", 3), ("cafe", 4))


def rows(lines: Sequence[str]) -> int:
    """The rows `lines` take in a terminal of `COLUMNS`, a longer line wrapped to more."""
    return sum(max(1, math.ceil(cell_len(line) / COLUMNS)) for line in lines)


@contextmanager
def _at_the_prompt(screen: io.StringIO, answer: Callable[[str], str]) -> Iterator[None]:
    """The command line's console writing to `screen` (80 columns), its prompts answered by
    `answer`, and a bot's run of decisions told when it ends however long it takes (not after
    `cli.RUN_TOLD_AFTER` seconds: the screens do not hang on the machine's speed); all put
    back after."""
    console, ask, told_after = cli.console, cli.ask, cli.RUN_TOLD_AFTER
    cli.console = Console(file=screen, width=COLUMNS, highlight=False, soft_wrap=True)
    cli.ask = answer
    cli.RUN_TOLD_AFTER = math.inf
    try:
        yield
    finally:
        cli.console, cli.ask, cli.RUN_TOLD_AFTER = console, ask, told_after


def screens(game_name: str, players: int, seed: int) -> list[list[str]]:
    """A whole game played as `kafeneio play GAME --seats human,heuristic,... --seed SEED`, P1
    typing the heuristic bot's choice: the lines printed between each two of P1's prompts (from
    the line after one prompt to the line before the next)."""
    game = get_game(game_name)
    state = game.new_state(players, seed=seed)
    seats = ["human"] + ["heuristic"] * (players - 1)
    bots = {p: make_bot(name, seed + p) for p, name in enumerate(seats) if name != "human"}
    me = make_bot("heuristic", seed)
    screen = io.StringIO()
    read_to = 0
    printed: list[list[str]] = []

    def answer(prompt: str) -> str:
        nonlocal read_to
        if prompt.endswith(cli.ALL_THE_SAME):  # its numbers moved since it was read
            return "y"  # the heuristic's choice, made from the numbers as they are
        text = screen.getvalue()[read_to:]
        read_to += len(text)
        printed.append(text.splitlines())
        return me(state).notation

    with _at_the_prompt(screen, answer):
        cli._play_loop(game, state, bots, seats, False, True, random.Random(seed))
    assert state.is_terminal()
    return printed[1:]  # the first: the game's start, before any prompt


def prompt_heights(game_name: str, players: int, seed: int) -> list[int]:
    """The rows between each two of P1's prompts, the new prompt's row included."""
    return [rows(lines) + 1 for lines in screens(game_name, players, seed)]


def percentile(heights: Sequence[int], share: float) -> int:
    """The height that `share` of `heights` do not exceed (nearest rank)."""
    ordered = sorted(heights)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def summary(heights: Sequence[int]) -> str:
    over = sum(h > ROWS for h in heights)
    return (
        f"{len(heights):5d} prompts, median {statistics.median(heights):4.1f}, "
        f"90th percentile {percentile(heights, 0.9):3d}, max {max(heights):3d}, "
        f"over {ROWS}: {over} ({over / len(heights):.1%})"
    )


def report(seeds: Sequence[int] = SEEDS) -> None:
    """Print the distribution of the rows between prompts for each game and player count."""
    for game_name, players in TABLES:
        heights = [h for seed in seeds for h in prompt_heights(game_name, players, seed)]
        print(f"{game_name} {players}p: {summary(heights)}")

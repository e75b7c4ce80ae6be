"""`kafeneio tournament`: a round robin of bots, seats rotated, with Bradley–Terry ratings.

Every group of `players` different bots (every pair, for 2 players) plays the same number of
games with the seats turning round. Each game gives pairwise results (a winner beats each
loser; winners sharing a win split the point between them), from which Bradley–Terry strengths
are fitted and shown on the Elo scale, with 95% intervals from draws of each pairing's chance
given its results (`kafeneio.sim.stats.rate`).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from kafeneio.bots.spec import canonical_seat
from kafeneio.core import KafeneioError
from kafeneio.core.game import check_seed
from kafeneio.games import get_game
from kafeneio.sim.runner import (
    MAX_GAMES,
    Backend,
    GameJob,
    GameResult,
    Progress,
    check_games,
    check_seats,
    plan,
    run,
    timed_note,
    uneven_seats,
)
from kafeneio.sim.simulate import (
    Tally,
    at_limit_note,
    ended_at_limit,
    endings_of,
    endings_words,
    tallies,
)
from kafeneio.sim.stamp import stamp
from kafeneio.sim.stats import Outcome, Rating, rate


@dataclass(frozen=True)
class Pairing:
    bots: list[str]
    """The bots of this group, in the seats of its first game."""
    by_bot: list[Tally]


@dataclass
class TournamentReport:
    game: str
    players: int
    bots: list[str]
    games_per_pairing: int
    seed: int
    options: dict[str, Any]
    deal_roles: bool
    ratings: list[Rating]
    """Best first."""
    standings: list[Tally]
    """Every bot's games in the whole tournament."""
    pairings: list[Pairing]
    head_to_head: list[list[float | None]]
    """Row bot's share of the pairwise points against the column bot (None: no game set one
    above the other: they never met, or only lost together)."""
    head_to_head_games: list[list[int]]
    """The games each share of `head_to_head` rests on: those that set one of the two above
    the other."""
    backend: str = "local"
    parallelism: int = 1
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list)
    record_data: dict[str, Any] = field(default_factory=dict)
    """What the games' records carry beside the options (Souvlaki Wars: the card set played,
    its hash and its user files), among the fields of `to_dict` as a record has it (`cards`)."""

    @property
    def uneven(self) -> str | None:
        """Why the bots of a pairing did not play every seat equally often; None where they
        did."""
        dealt = get_game(self.game).role_option if self.deal_roles else None  # Café: none
        return uneven_seats(self.games_per_pairing, self.pairings[0].bots, " a pairing", dealt)

    @property
    def ranked(self) -> list[Tally]:
        """The standings best first (by win rate), as the tables and the report show them;
        `standings` keeps the order of `bots`."""
        return sorted(self.standings, key=lambda tally: tally.win_rate, reverse=True)

    def outcome(self) -> dict[str, Any]:
        data = self.to_dict()
        for key in ("backend", "parallelism", "seconds"):
            data.pop(key)
        return data

    @property
    def endings(self) -> dict[str, int]:
        """How many games came to each of the rules' ends (`endings_of`): a rating won where
        most games end at Souvlaki Wars' round limit reads otherwise."""
        return endings_of(self.results)

    @property
    def endings_text(self) -> str | None:
        """`endings` in words (`endings_words`)."""
        return endings_words(self.endings, len(self.results))

    @property
    def games_at_limit(self) -> list[GameResult]:
        """The games that ended at the engine's limit (`ended_at_limit`)."""
        return ended_at_limit(self.results)

    @property
    def at_limit(self) -> str | None:
        """How many games ended at the engine's limit (`at_limit_note`): the ratings of such
        games rest on the limit's tiebreak, not on a win."""
        return at_limit_note(self.results)

    @property
    def notes(self) -> list[str]:
        """What to know in reading the tables: bots whose results a seed does not repeat."""
        timed = timed_note(self.bots)
        return [] if timed is None else [timed]

    def to_dict(self) -> dict[str, Any]:
        data = {**stamp("tournament", self.game), **asdict(self)}
        data.update(data.pop("record_data"))
        data["results"] = [result.to_dict() for result in self.results]
        data["games_at_limit"] = len(self.games_at_limit)
        data["endings"] = self.endings
        data["uneven"] = self.uneven  # the warning the text gives on stderr, for a script
        data["notes"] = self.notes
        return data


def tournament(
    game_name: str,
    bots: Sequence[str],
    games: int,
    players: int = 2,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    deal_roles: bool = True,
    backend: Backend | None = None,
    progress: Progress | None = None,
    keep_records: bool = False,
) -> TournamentReport:
    """`games` games for every group of `players` different bots among `bots`; with
    `keep_records`, each result holds its game's record (`GameResult.record`)."""
    seed = check_seed(seed)  # as the report keeps it, to run again
    games = check_games(games)
    names = [name.strip() for name in bots]
    if len(names) < 2:
        raise KafeneioError("a tournament needs at least two different bots (--bots)")
    check_seats(names)  # before they are made canonical, which would pass 'iterations=5.0'
    check_different(names)
    names = [canonical_seat(name) for name in names]  # as the games' seats name them
    players = get_game(game_name).check_num_players(players)  # numpy's too, as an int
    if players > len(names):
        raise KafeneioError(f"{players} players need at least {players} bots, not {len(names)}")
    backend = backend or Backend()
    options = dict(options or {})
    groups = [list(group) for group in itertools.combinations(names, players)]
    if games >= 1 and len(groups) * games > MAX_GAMES:
        raise KafeneioError(
            f"{len(groups):,} groups of {players} bots × {games:,} games is "
            f"{len(groups) * games:,} games: a run plays at most {MAX_GAMES:,}"
        )
    jobs: list[GameJob] = []
    for number, group in enumerate(groups):
        jobs += plan(
            game_name, group, games, seed, options, deal_roles, number * games, keep_records
        )
    start = time.perf_counter()
    results = run(jobs, backend, progress)
    seconds = time.perf_counter() - start
    by_group = [results[n * games : (n + 1) * games] for n in range(len(groups))]
    outcomes = [pairwise(result, names) for result in results]
    ratings = sorted(rate(names, outcomes, seed), key=lambda rating: -rating.elo)
    shares, meetings = head_to_head(outcomes, len(names))
    return TournamentReport(
        game=game_name,
        players=players,
        bots=names,
        games_per_pairing=games,
        seed=seed,
        options=options,
        deal_roles=deal_roles,
        ratings=ratings,
        standings=tallies(results, lambda r, seat: r.seats[seat], order=names),
        pairings=[
            Pairing(group, tallies(chunk, lambda r, seat: r.seats[seat], order=group))
            for group, chunk in zip(groups, by_group, strict=True)
        ],
        head_to_head=shares,
        head_to_head_games=meetings,
        backend=backend.name,
        parallelism=backend.parallelism(),
        seconds=round(seconds, 3),
        results=results,
        record_data=dict(jobs[0].data),
    )


def check_different(names: Sequence[str]) -> None:
    """`KafeneioError` if two seat specs name the same bot with the same parameters, however
    written (``mcts:c=0.3:seconds=1`` and ``MCTS:seconds=1.0:c=0.3``): their games against each
    other would be rated as between two bots."""
    seen: dict[str, str] = {}
    for name in names:
        key = canonical_seat(name)  # as simulate counts its bots
        if key in seen:
            raise KafeneioError(f"--bots names one bot twice: {seen[key]!r} and {name!r}")
        seen[key] = name


def pairwise(result: GameResult, names: list[str]) -> list[Outcome]:
    """A game as pairwise results between the bots' indices in `names`; two losers tell
    nothing about each other."""
    outcomes = []
    for s, t in itertools.combinations(range(len(result.seats)), 2):
        mine, theirs = result.returns[s], result.returns[t]
        if mine + theirs > 0:
            i, j = names.index(result.seats[s]), names.index(result.seats[t])
            outcomes.append((i, j, mine / (mine + theirs)))
    return outcomes


def head_to_head(
    outcomes: Sequence[Sequence[Outcome]], count: int
) -> tuple[list[list[float | None]], list[list[int]]]:
    """Each bot's share of the pairwise points against each other (`head_to_head`), and the
    games each share rests on."""
    points = [[0.0] * count for _ in range(count)]
    meetings = [[0] * count for _ in range(count)]
    for game in outcomes:
        for i, j, share in game:
            points[i][j] += share
            points[j][i] += 1 - share
            meetings[i][j] += 1
            meetings[j][i] += 1
    shares = [
        [points[i][j] / meetings[i][j] if meetings[i][j] else None for j in range(count)]
        for i in range(count)
    ]
    return shares, meetings

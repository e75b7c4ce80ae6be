"""`kafeneio simulate`: many games of a lineup of bots, and what they say about bots, seats and
roles (Souvlaki Wars' shops)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from kafeneio.core.game import check_seed
from kafeneio.games import get_game
from kafeneio.sim.runner import (
    Backend,
    GameResult,
    Progress,
    plan,
    run,
    timed_note,
    uneven_seats,
)
from kafeneio.sim.stamp import stamp
from kafeneio.sim.stats import Interval, Spread, seat_win_interval, wilson


@dataclass(frozen=True)
class Tally:
    """The games of one bot, one seat or one role: a seat-game counts once for each seat."""

    name: str
    games: int
    wins: float
    """Shared wins count as fractions."""
    win_rate: float
    low: float
    high: float
    """The 95% interval of `win_rate` (`win_interval`: Wilson's, of the games where one name
    fills several seats of each)."""
    mean_score: float
    score_sd: float | None
    """None for a single game: one score has no spread."""


@dataclass(frozen=True)
class Lengths:
    turns: Spread
    rounds: Spread
    decisions: Spread


@dataclass
class SimulationReport:
    game: str
    players: int
    seats: list[str]
    """The lineup: seat i's bot in the first game; later games turn it round."""
    games: int
    seed: int
    options: dict[str, Any]
    deal_roles: bool
    by_bot: list[Tally]
    by_seat: list[Tally]
    by_role: list[Tally]
    lengths: Lengths
    margin: Spread
    """The winners' lead over the best of the rest, in final score (`lead`; negative where a
    rule made a lower score win): what a rule that makes games closer or less close changes."""
    backend: str = "local"
    parallelism: int = 1
    seconds: float = 0.0
    results: list[GameResult] = field(default_factory=list)
    record_data: dict[str, Any] = field(default_factory=dict)
    """What the games' records carry beside the options (Souvlaki Wars: the card set played,
    its hash and its user files), among the fields of `to_dict` as a record has it (`cards`)."""

    @property
    def uneven(self) -> str | None:
        """Why the bots did not play every seat equally often; None where they did."""
        dealt = get_game(self.game).role_option if self.deal_roles else None  # Café: none
        return uneven_seats(self.games, self.seats, dealt=dealt)

    @property
    def endings(self) -> dict[str, int]:
        """How many games came to each of the rules' ends (`endings_of`)."""
        return endings_of(self.results)

    @property
    def endings_text(self) -> str | None:
        """`endings` in words (`endings_words`)."""
        return endings_words(self.endings, self.games)

    @property
    def games_at_limit(self) -> list[GameResult]:
        """The games that ended at the engine's limit (`ended_at_limit`)."""
        return ended_at_limit(self.results)

    @property
    def at_limit(self) -> str | None:
        """How many games ended at the engine's limit (`at_limit_note`)."""
        return at_limit_note(self.results)

    @property
    def even_share(self) -> float:
        return 1 / self.players

    @property
    def notes(self) -> list[str]:
        """What to know in reading the tables: what a seat is, where it is not a place in the
        order of play; a role table that is the seat table renamed (the same role in each seat
        in every game); bots whose results a seed does not repeat."""
        notes = []
        game = get_game(self.game)
        if game.seat_note is not None:
            notes.append(game.seat_note)
        if self.by_role and len({result.roles for result in self.results}) == 1:
            role = game.role_noun
            notes.append(
                f"every game gave each seat the same {role}: the table by {role} is the table "
                "by seat under other names"
            )
        timed = timed_note(self.seats)
        if timed is not None:
            notes.append(timed)
        return notes

    def outcome(self) -> dict[str, Any]:
        """Everything that the seed decides (not the timing nor where it ran)."""
        data = self.to_dict()
        for key in ("backend", "parallelism", "seconds", "games_per_second"):
            data.pop(key)
        return data

    def to_dict(self) -> dict[str, Any]:
        data = {**stamp("simulation", self.game), **asdict(self)}
        data.update(data.pop("record_data"))
        data["results"] = [result.to_dict() for result in self.results]
        data["games_at_limit"] = len(self.games_at_limit)
        data["endings"] = self.endings
        data["uneven"] = self.uneven  # the warning the text gives on stderr, for a script
        data["notes"] = self.notes
        data["games_per_second"] = self.games_per_second
        return data

    @property
    def games_per_second(self) -> float | None:
        """None where the time is unknown or too short to measure (rounded to 0)."""
        return round(self.games / self.seconds, 2) if self.seconds else None


def simulate(
    game_name: str,
    seats: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    deal_roles: bool = True,
    backend: Backend | None = None,
    progress: Progress | None = None,
    keep_records: bool = False,
) -> SimulationReport:
    """Play `games` games of the lineup `seats` (one bot a seat), seats rotating from game to
    game and, where the game has roles and `deal_roles`, roles dealt at random; with
    `keep_records`, each result holds its game's record (`GameResult.record`)."""
    seed = check_seed(seed)  # as the report keeps it, to run again
    backend = backend or Backend()
    options = dict(options or {})
    jobs = plan(game_name, seats, games, seed, options, deal_roles, keep_records=keep_records)
    start = time.perf_counter()
    results = run(jobs, backend, progress)
    lineup = list(jobs[0].seats)  # the first game's seating: the seats, their specs canonical
    report = summarize(game_name, lineup, results, seed, options, deal_roles)
    report.record_data = dict(jobs[0].data)
    report.backend = backend.name
    report.parallelism = backend.parallelism()
    report.seconds = round(time.perf_counter() - start, 3)
    return report


def summarize(
    game: str,
    seats: list[str],
    results: list[GameResult],
    seed: int,
    options: dict[str, Any],
    deal_roles: bool,
) -> SimulationReport:
    players = len(seats)
    return SimulationReport(
        game=game,
        players=players,
        seats=seats,
        games=len(results),
        seed=seed,
        options=options,
        deal_roles=deal_roles,
        by_bot=tallies(results, lambda r, seat: r.seats[seat], order=list(dict.fromkeys(seats))),
        by_seat=tallies(
            results, lambda r, seat: f"P{seat + 1}", order=[f"P{s + 1}" for s in range(players)]
        ),
        by_role=tallies(results, lambda r, seat: r.roles[seat] if r.roles else None),
        lengths=Lengths(
            turns=Spread.of([r.turns for r in results]),
            rounds=Spread.of([r.rounds for r in results]),
            decisions=Spread.of([r.decisions for r in results]),
        ),
        margin=Spread.of([lead(r.scores, r.returns) for r in results]),
        results=results,
    )


Key = Callable[[GameResult, int], "str | None"]


def tallies(results: Iterable[GameResult], key: Key, order: list[str] | None = None) -> list[Tally]:
    """One `Tally` per value of `key(result, seat)` (None: not counted), in `order` or sorted."""
    wins: dict[str, float] = {}
    scores: dict[str, list[float]] = {}
    fills: dict[str, set[tuple[int, int]]] = {}
    """Each name's (seats it filled, seats of the game), over its games."""
    for result in results:
        filled: dict[str, int] = {}
        for seat, share in enumerate(result.returns):
            name = key(result, seat)
            if name is None:
                continue
            wins[name] = wins.get(name, 0.0) + share
            scores.setdefault(name, []).append(result.scores[seat])
            filled[name] = filled.get(name, 0) + 1
        for name, seats in filled.items():
            fills.setdefault(name, set()).add((seats, len(result.returns)))
    names = [name for name in order if name in scores] if order else sorted(scores)
    table = []
    for name in names:
        count = len(scores[name])
        interval = win_interval(wins[name], count, fills[name])
        spread = Spread.of(scores[name])
        table.append(
            Tally(
                name=name,
                games=count,
                wins=wins[name],
                win_rate=wins[name] / count,
                low=interval.low,
                high=interval.high,
                mean_score=spread.mean,
                score_sd=spread.sd,
            )
        )
    return table


def endings_of(results: Sequence[GameResult]) -> dict[str, int]:
    """How many games came to each of the rules' ends (`GameResult.ended_by`), most first;
    empty where the game does not say: whether an option such as Café's ``end_bag`` plays
    any part shows here, not in the win rates."""
    counts = Counter(result.ended_by for result in results if result.ended_by)
    return dict(counts.most_common())


def endings_words(endings: Mapping[str, int], games: int) -> str | None:
    """`endings` of `games` games in words, as the tables and the reports say them: "how the
    games ended: the bar full (14, 70%), a hand emptied at target 0 (3, 15%)"; None where the
    game does not say."""
    if not endings:
        return None
    told = [f"{case} ({count}, {count / games:.0%})" for case, count in endings.items()]
    return "how the games ended: " + ", ".join(told)


def ended_at_limit(results: Sequence[GameResult]) -> list[GameResult]:
    """The games that ended at the engine's limit, not by the rules' own end (Souvlaki Wars'
    round limit: their winner is the highest money + reputation)."""
    return [result for result in results if result.at_limit]


def at_limit_note(results: Sequence[GameResult]) -> str | None:
    """How many of `results` ended at the engine's limit, and which: a designer would read
    such wins as strength; None where none did."""
    limited = ended_at_limit(results)
    if not limited:
        return None
    return f"{len(limited)} of {len(results)} games ended at {limited[0].at_limit}, not by a win"


def lead(scores: Sequence[int], returns: Sequence[float]) -> int:
    """The winners' best score less the best of the others' (0 where every seat shares the
    win, or nobody won). Negative where a rule made a lower score the winner's: in Souvlaki
    Wars only the shops at 25/25 may win (SW-5.2), and in Café a player sent home may hold the
    most points."""
    winners = [score for score, share in zip(scores, returns, strict=True) if share > 0]
    others = [score for score, share in zip(scores, returns, strict=True) if share == 0]
    return max(winners) - max(others) if winners and others else 0


def win_interval(wins: float, seat_games: int, fills: set[tuple[int, int]]) -> Interval:
    """The 95% interval of a win rate over `seat_games`, by how many seats of how many it
    filled in its games (`fills`): `seat_win_interval` where that never changed (so it is in
    a simulation's lineup, rotated), else the Wilson interval of the seat-games, which takes
    them for independent trials and is too wide, never too narrow, where a game held several."""
    if len(fills) == 1:
        (seats, players) = next(iter(fills))
        return seat_win_interval(wins, seat_games, seats, players)
    return wilson(wins, seat_games)

"""Many bot games on one machine or a Ray cluster, with results that depend on the seed only.

A simulation is first laid out as a list of `GameJob`s, each fully determined by the simulation's
seed and the game's index (its game seed, bot seeds, chance seed, seating and shops). Jobs are
then played anywhere, in any order and in any grouping, and the results are put back in index
order, so the same seed gives the same results on one worker, on many, or on Ray.
"""

from __future__ import annotations

import functools
import json
import math
import multiprocessing
import os
import random
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import closing, contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from kafeneio.bots import canonical_seat, check_seat, enter_bots, make_bot, run_time_bots
from kafeneio.bots.base import Bot
from kafeneio.core import Game, KafeneioError, State
from kafeneio.core.events import plural
from kafeneio.core.game import check_seed
from kafeneio.core.notation import integer_value
from kafeneio.core.play import play
from kafeneio.games import game_from_parts, get_game

BACKENDS = ("local", "ray")

Progress = Callable[[int], None]
"""Called with the number of games just finished."""


@dataclass(frozen=True)
class GameJob:
    """One game to play, with everything that decides it."""

    index: int
    game: str
    seats: tuple[str, ...]
    """The bot of each seat."""
    options: Mapping[str, Any]
    """The rules options, with the seats' roles (Souvlaki Wars: shops) dealt."""
    data: Mapping[str, Any]
    """The game's record data (Souvlaki Wars: its card set, files and hash): a worker makes the
    game from it, not from a card directory it may not see (another machine of a cluster)."""
    game_seed: int
    bot_seeds: tuple[int, ...]
    chance_seed: int
    keep_record: bool = False
    """Send the game's record back with its result (`simulate --records`)."""


@dataclass(frozen=True)
class GameResult:
    index: int
    seats: tuple[str, ...]
    scores: tuple[int, ...]
    returns: tuple[float, ...]
    """Each seat's share of the win: 1 for a lone winner, 1/k each for k winners sharing it."""
    roles: tuple[str, ...] | None
    decisions: int
    """Actions applied, chance outcomes included."""
    turns: int
    rounds: int
    record: dict[str, Any] | None = None
    """The game's record, with its seats, where the job asked for it (not in `to_dict`)."""
    at_limit: str | None = None
    """The engine's limit the game ended at, not by its rules' own end (`Game.ended_at_limit`:
    Souvlaki Wars' round limit); None for a game that ended by its rules."""
    ended_by: str | None = None
    """Which of the rules' ends the game came to (`Game.ended_by`: Café's bar full, bag at its
    end, ...); None where the game does not say."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seats": list(self.seats),
            "scores": list(self.scores),
            "returns": list(self.returns),
            "roles": list(self.roles) if self.roles is not None else None,
            "decisions": self.decisions,
            "turns": self.turns,
            "rounds": self.rounds,
            "at_limit": self.at_limit,
            "ended_by": self.ended_by,
        }


def check_seats(seats: Sequence[str]) -> None:
    """`KafeneioError` naming the first seat that is not a bot (a name or a seat spec such as
    ``mcts:seconds=0.05``)."""
    for spec in seats:
        check_seat(spec)


def make_seat_bot(spec: str, seed: int) -> Bot:
    return make_bot(spec, seed)


def lineup(names: Sequence[str], players: int) -> list[str]:
    """The bots of a simulation, one a seat: one name fills every seat."""
    names = [name.strip() for name in names]
    if len(names) == 1 and players >= 1:
        return names * players
    if len(names) != players:
        raise KafeneioError(f"--seats names {plural(len(names), 'bot')} for {players} players")
    return names


def seating(names: Sequence[str], index: int) -> tuple[str, ...]:
    """Game `index`'s seating: the lineup turned by `index` places, so that over any number of
    games that is a multiple of the players every bot sits in every seat equally often."""
    players = len(names)
    turn = index % players
    return tuple(names[(seat - turn) % players] for seat in range(players))


def rotation(names: Sequence[str]) -> int:
    """The games of one turn of the lineup `names` round the seats, after which every bot has
    sat in every seat equally often: the players, or 1 where one bot fills every seat."""
    return len(names) if len(set(names)) > 1 else 1


def period(names: Sequence[str]) -> int:
    """The fewest games after which every bot of the lineup `names` has sat in every seat
    equally often: the places the lineup turns by before it repeats (2 for ``random, greedy,
    random, greedy``, where every other game seats the bots as the first did), a divisor of
    the `rotation`."""
    return next(
        places for places in range(1, len(names) + 1) if seating(names, places) == tuple(names)
    )


def uneven_seats(
    games: int, names: Sequence[str], each: str = "", dealt: str | None = None
) -> str | None:
    """Why `games` of the lineup `names` (`each`: " a pairing") did not give every bot every
    seat equally often, nor every role where roles were `dealt` ("shops"): their number is no
    multiple of the lineup's `period`; None where it is. (Roles are dealt once a `rotation`,
    a multiple of the period: within it the seats keep their roles.)"""
    cycle = period(names)
    if games % cycle == 0:
        return None
    seats = f"every seat (nor every one of the {dealt} dealt)" if dealt else "every seat"
    return (
        f"{plural(games, 'game')}{each}, not a multiple of the {cycle} seats the bots rotate "
        f"over: the bots did not play {seats} equally often"
    )


def timed_note(specs: Sequence[str]) -> str | None:
    """A note where some of `specs` think for a time, not a count of iterations: the same seed
    need not give the same results (on a busier machine they search less); None where none do."""
    timed = sorted({spec for spec in specs if make_bot(spec, 0).timed})
    if not timed:
        return None
    return (
        f"{', '.join(timed)} {'thinks' if len(timed) == 1 else 'think'} for a time, not a count "
        "of iterations: the same seed need not repeat these results (mcts:iterations=N does)"
    )


def check_roles(game: Game, options: Mapping[str, Any], deal_roles: bool) -> None:
    """Roles set by an option are not dealt over without a word: `deal_roles` would replace
    them, and a report would name the options' roles beside the games' own. The option's
    default, null, sets none."""
    role = game.role_option
    if deal_roles and role is not None and options.get(role) is not None:
        raise KafeneioError(
            f"-o {role}=... sets the {role}, which are dealt at random (--deal-roles, the "
            f"default; deal_roles=True from Python): add --fixed-roles to play the {role} as set"
        )


MAX_GAMES = 1_000_000
"""The most games one run plays (a simulation, or a tournament's groups together): every game
is planned, and its result kept, in memory before the tables are made, so a mistyped
`--games 99999999999` filled the machine's memory and never ended. A million games of the
fastest bots take hours; a larger study is several runs of other seeds."""


def check_games(games: object) -> int:
    """`games` as a plain int if it is a whole number from 1 to `MAX_GAMES`; else the error."""
    count = integer_value(games)
    if count is None or not 1 <= count <= MAX_GAMES:
        shown_games = f"{count:,}" if count is not None else repr(games)
        raise KafeneioError(f"a simulation plays from 1 to {MAX_GAMES:,} games, not {shown_games}")
    return count


def plan(
    game_name: str,
    names: Sequence[str],
    games: int,
    seed: int,
    options: Mapping[str, Any] | None = None,
    deal_roles: bool = True,
    first_index: int = 0,
    keep_records: bool = False,
) -> list[GameJob]:
    """The jobs of a simulation of `games` games of the lineup `names` (one bot a seat, each
    named by its canonical spec in the jobs).

    Seats rotate from game to game. Roles are dealt at random once for each cycle of rotations,
    so within a cycle the seats keep their roles while the bots go round, and every bot plays
    every role as often as every other bot; with one bot in every seat each game gets its own
    deal. `first_index` numbers the games (a tournament gives each pairing its own numbers)."""
    if isinstance(names, str) or not names:
        raise KafeneioError(f"the seats are a list of bot names, not {names!r}")
    games = check_games(games)
    seed = check_seed(seed)  # a float or a flag would seed other games than the whole number
    check_seats(names)
    names = [canonical_seat(name) for name in names]  # one bot however its spec is written
    game = get_game(game_name, options)
    check_roles(game, options or {}, deal_roles)
    options = game.options.to_dict()
    data = game.record_data()
    players = len(names)
    cycle = rotation(names)
    dealt: dict[int, Mapping[str, Any]] = {}
    jobs = []
    for index in range(first_index, first_index + games):
        block = index // cycle
        if deal_roles and block not in dealt:
            deal = random.Random(f"deal:{seed}:{block}")
            dealt[block] = game.deal_roles(players, deal).options.to_dict()
        seeds = random.Random(f"game:{seed}:{index}")
        jobs.append(
            GameJob(
                index=index,
                game=game_name,
                seats=seating(names, index),
                options=dealt[block] if deal_roles else options,
                data=data,
                game_seed=seeds.getrandbits(32),
                bot_seeds=tuple(seeds.getrandbits(32) for _ in range(players)),
                chance_seed=seeds.getrandbits(32),
                keep_record=keep_records,
            )
        )
    return jobs


def play_job(job: GameJob) -> GameResult:
    """Play one game to its end."""
    game = bound_game(
        job.game, json.dumps(job.options, sort_keys=True), json.dumps(job.data, sort_keys=True)
    )
    state = game.new_state(len(job.seats), seed=job.game_seed)
    bots = [make_seat_bot(spec, seed) for spec, seed in zip(job.seats, job.bot_seeds, strict=True)]
    try:
        play(state, bots, random.Random(job.chance_seed))
    except Exception as err:
        # which game, and which bot sat where: seats rotate, so "P1" alone is no bot
        seats = ", ".join(f"P{seat + 1} {spec}" for seat, spec in enumerate(job.seats))
        where = f"game {job.index + 1} (seed {job.game_seed}; {seats}), at action {state.ply}"
        if isinstance(err, KafeneioError) and len(err.args) == 1:
            err.args = (f"{where}: {err.args[0]}",)  # its type and rule kept
        else:
            err.add_note(where)
        raise
    roles = game.roles(state)
    return GameResult(
        index=job.index,
        seats=job.seats,
        scores=tuple(state.scores()),
        returns=tuple(state.returns()),
        roles=tuple(roles) if roles is not None else None,
        decisions=state.ply,
        turns=state.turns_completed(),
        rounds=rounds_played(state),
        record={**state.to_record(), "seats": list(job.seats)} if job.keep_record else None,
        at_limit=game.ended_at_limit(state),
        ended_by=game.ended_by(state),
    )


@functools.lru_cache(maxsize=64)
def bound_game(name: str, options: str, data: str) -> Game:
    """The game bound to the options written `options` with the record data `data` (JSON),
    made once per process: a simulation's games share a few deals of options, and a card set
    is read once."""
    return game_from_parts(name, json.loads(options), json.loads(data))


def rounds_played(state: State) -> int:
    """The rounds the game lasted: the round a game's observation tells, where it tells one
    (Souvlaki Wars), else whole turns of every player (Café International)."""
    round_number = state.observation(0).get("round")
    if isinstance(round_number, int):
        return round_number
    return math.ceil(state.turns_completed() / state.num_players)


def play_chunk(jobs: Sequence[GameJob]) -> list[GameResult]:
    return [play_job(job) for job in jobs]


# --- back ends ------------------------------------------------------------------------------
@dataclass
class Backend:
    """Where the games are played: `local` processes or `ray` tasks."""

    name: str = "local"
    workers: int | None = None
    """Local: worker processes; a local Ray (no address): its CPUs (``num_cpus``); by default
    every core. On a Ray cluster only the size of the chunks of work follows it."""
    address: str | None = None
    """Ray: the cluster to join; None starts a local Ray for the run."""

    def __post_init__(self) -> None:
        if self.name not in BACKENDS:
            raise KafeneioError(f"unknown back end {self.name!r}; back ends: {', '.join(BACKENDS)}")
        if self.workers is not None:
            workers = integer_value(self.workers)
            if workers is None or workers < 1:
                raise KafeneioError(f"workers (--workers) must be at least 1, not {self.workers!r}")
            self.workers = workers  # numpy's whole numbers too, kept as the int a report writes
        if self.address is not None and self.name != "ray":
            raise KafeneioError(
                "an address (--address) is that of a Ray cluster: use the ray back end "
                "(--backend ray)"
            )

    def parallelism(self) -> int:
        return self.workers or available_cores()


def available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def split(jobs: Sequence[GameJob], parallelism: int) -> list[list[GameJob]]:
    """Chunks small enough for a live progress bar and an even load, large enough to keep the
    cost of sending work to a worker small."""
    size = max(1, min(25, math.ceil(len(jobs) / (parallelism * 8))))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run(
    jobs: Sequence[GameJob], backend: Backend | None = None, progress: Progress | None = None
) -> list[GameResult]:
    """Play every job; the results in index order, whatever the back end."""
    backend = backend or Backend()
    finished = run_items(play_chunk, split(jobs, backend.parallelism()), backend)
    results: list[GameResult] = []
    # a run stopped here ends its workers now, not when the generator is collected
    with closing(finished):
        for chunk_results in finished:
            results.extend(chunk_results)
            if progress is not None:
                progress(len(chunk_results))
    return sorted(results, key=lambda result: result.index)


Item = TypeVar("Item")
Result = TypeVar("Result")


def run_items(
    work: Callable[[Item], Result], items: Sequence[Item], backend: Backend
) -> Generator[Result, None, None]:
    """`work` on each item where `backend` says; the results as they finish."""
    if backend.name == "ray":
        from kafeneio.sim.ray_backend import run_on_ray

        # Ray's workers import the package anew: bots entered at run time go with the tasks
        # (the local back end forks its workers, which have them already).
        work = with_bots(run_time_bots(), work)
        return run_on_ray(work, items, backend.address, backend.workers)
    if backend.parallelism() == 1:
        return (work(item) for item in items)
    return on_processes(work, items, backend.parallelism())


def with_bots(
    bots: Mapping[str, Callable[..., Bot]], work: Callable[[Item], Result]
) -> Callable[[Item], Result]:
    """`work`, entering `bots` in the process's `BOTS` first; `work` itself where there are
    none. A closure, which Ray pickles by value with the bots' classes, wherever they were
    defined (a script, a notebook); `enter_bots` by reference, so that it enters them in the
    worker's own `BOTS`, not in a copy pickled with the closure."""
    if not bots:
        return work

    def entering_bots(item: Item) -> Result:
        enter_bots(bots)
        return work(item)

    return entering_bots


def on_processes(
    work: Callable[[Item], Result], items: Sequence[Item], workers: int
) -> Generator[Result, None, None]:
    """`work` on each item in worker processes; the results as they finish."""
    if not items:  # (a pool of no workers is an error)
        return
    # fork where there is one: workers start at once, without importing the caller's script
    # again (a script run without a __main__ guard must work too).
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    pool = ProcessPoolExecutor(
        min(workers, len(items)), mp_context=context, initializer=_worker_signals
    )
    before = set(multiprocessing.active_children())
    started: set[multiprocessing.process.BaseProcess] = set()
    try:
        # the workers start as the items are handed out, the signals that stop a run held
        # back meanwhile: a worker takes its own handlers before it hears one (one forked
        # with the run's handler raised it there, and printed a traceback)
        with _stopping_signals_held():
            pending: set[Future[Result]] = {pool.submit(work, item) for item in items}
            # its workers: the processes started since (another thread's later are not)
            started = set(multiprocessing.active_children()) - before
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    except BaseException:
        # A run stopped (Ctrl-C, a signal, a failed game, its caller gone) ends its workers
        # now: the pool's own shutdown waits for the games under way, and a process killed
        # by itself leaves them playing on. (A worker that dies breaks the pool: an error
        # here at once, where a `multiprocessing.Pool` replaced it and waited for ever.)
        for worker in started:
            worker.terminate()
        # waited for: its thread sees the workers gone and ends (left running, it raced the
        # interpreter's exit: "Exception ignored ... Bad file descriptor")
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown()


KILLS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
"""The signals that ask a process to end (a kill, a terminal closed): by default they end it
at once, where a run or a game wants to end as it should."""
STOPPING = (signal.SIGINT, *KILLS)
"""The signals that stop a run: Ctrl-C and `KILLS`."""


@contextmanager
def handled(numbers: Sequence[int], handler: Callable[[int, Any], Any]) -> Iterator[list[int]]:
    """`handler` for each signal of `numbers` while the block runs, the handlers before put
    back after; yields the signals it took. A signal ignored before (``nohup``) stays ignored,
    and outside the main thread, which alone takes signals, none is taken."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    previous = {number: signal.getsignal(number) for number in numbers}
    taken = [number for number, before in previous.items() if before != signal.SIG_IGN]
    for number in taken:
        signal.signal(number, handler)
    try:
        yield taken
    finally:
        for number in taken:  # (None: a handler not set from Python, where the default was)
            signal.signal(number, previous[number] or signal.SIG_DFL)


@contextmanager
def _stopping_signals_held() -> Iterator[None]:
    """`STOPPING` held back in this thread (and in the processes it forks meanwhile), then
    delivered."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows: no fork either)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _worker_signals() -> None:
    """A worker leaves Ctrl-C to the process that runs it (which ends the pool, so that the
    terminal shows one line, not a traceback a worker), and is ended by SIGTERM at once; then
    it hears the signals held back while it started."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for number in KILLS:
        signal.signal(number, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)

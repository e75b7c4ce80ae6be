"""Live games: the authoritative state of each game, its seats, bots and watchers.

The server holds the game. A client names the action and the ply it last saw; the action is
checked against the rules on the true state, written to the store, and only then applied and
announced. Everything runs on the event loop except bot thinking, which runs in a thread pool
on a copy of the state, and the hints' and analyses' searches, each kind on a thread of its
own. Chance outcomes and bot seeds are drawn from the game's seed and the ply, so that a
restarted server replays and continues every game exactly as it would have.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import inspect
import logging
import random
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy.exc import OperationalError

from kafeneio.bots import BOTS, make_bot
from kafeneio.bots.base import Analysis, Bot
from kafeneio.core import CHANCE, Action, Game, KafeneioError, State, sample_chance
from kafeneio.core.events import end_losses
from kafeneio.games import game_from_parts, load_record
from kafeneio.server import MAX_BOT_GAMES
from kafeneio.server.contract import Step, Viewer, log_entry, observation
from kafeneio.server.models import MAX_BUDGET
from kafeneio.server.store import (
    ActionWrite,
    ActionWriter,
    DuplicatePly,
    SeatSpec,
    Store,
    StoredGame,
    digest,
    now,
)
from kafeneio.sim.analysis import (
    ANALYSER,
    Budget,
    analyse_game,
    count_decisions,
    hint,
    position_after,
    with_budget,
)

LOG = logging.getLogger("kafeneio.server")
OPEN, RUNNING, FINISHED = "open", "running", "finished"
ABANDONED = "abandoned"
"""A game its only person left before the end (`Hub.abandon`): kept as it stood, played no more."""
IDLE_AFTER = timedelta(hours=1)
"""A game not over in which nobody has moved for this long, and no person is connected, is
idle: the lobby lists it apart from the games being played (an abandoned game against bots
would otherwise stay among them for ever)."""
PREVIEW_GAMES = frozenset({"cafe"})
"""Games whose legal moves come with the points each would score: Café's placements score at
once from the public board, so trying each on a copy tells the mover nothing hidden."""


class ActionRefused(KafeneioError):
    """An action the server does not accept; `code` says why (for the client)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


MAX_ENDED_KEPT = 64
"""Games played no more kept in memory besides those a page watches (`Hub._forget_ended`)."""
MAX_HINTS_WAITING = 4
"""Hints the server works out at most, one after another, before it refuses more (`hints-busy`):
a second of search each, so the fifth would wait five seconds, the tenth ten."""
MAX_ANALYSED_MOVES = 2_000
"""The longest game the server analyses: a decision takes its search about a quarter of a
second, so a game of 41,000 moves (Souvlaki at round_limit 1000) took one anonymous request
three hours of the analysis thread, which nobody could stop."""
MAX_REPLAYS_WAITING = 32
"""Replay positions worked out at most, one after another, before more are refused
(`replays-busy`): each is replayed from the game's start, and twenty asked of a long game kept
another player's short replay waiting 33 s; a player stepping quickly through a game, the
page's tests too, asks several at once (8 refused some)."""
MAX_UNSENT = 32
"""The most messages a websocket may have waiting to be sent. Views do not pile up (only the
newest waits), but each message a client sends may be answered by an error: a client that sends
and never reads its answers (its sends wait) would otherwise hold ever more of them."""


def ended_view(view: dict[str, Any]) -> bool:
    """Whether `view` is of a game played no more (over or abandoned): its log is then told
    anew, naming what chance took (`GameSession.ended`)."""
    return bool(view["over"]) or view["status"] == ABANDONED


class Watcher:
    """One websocket: a seat or a spectator.

    A view is sent with only the log entries this socket has not had yet (`log_from` says
    where they start; 0 means the whole log), so that a long game does not send its whole log
    after every move. Only the newest view waits to be sent: a slow client skips views, never
    gets them out of order, and the log entries of a skipped view come with the next one."""

    def __init__(self, viewer: Viewer, token: str | None) -> None:
        self.viewer = viewer
        self.token = token
        """The token that made `viewer`: the link its page holds, which opens that person's
        seat of a rematch only if the rematch takes it (`Hub.rematch_seat`)."""
        self.pending: list[dict[str, Any]] = []
        self.ready = asyncio.Event()
        self.log_sent = 0
        """Log entries sent, or waiting in `pending` to be sent."""
        self.whole_log_at_end = True

    def push(self, message: dict[str, Any]) -> None:
        self.pending.append(message)
        self.ready.set()

    @property
    def overrun(self) -> bool:
        """Whether more messages wait than `MAX_UNSENT`: the client is not reading them."""
        return len(self.pending) > MAX_UNSENT

    def push_view(self, view: dict[str, Any]) -> None:
        """Queue `view` (whose "log" is the whole log) with the entries not sent yet."""
        start = self.log_sent
        waiting = [m for m in self.pending if m.get("type") == "state"]
        if waiting:
            start = waiting[0]["log_from"]
            self.pending = [m for m in self.pending if m.get("type") != "state"]
        if ended_view(view) and self.whole_log_at_end:
            start, self.whole_log_at_end = 0, False  # at the end, everything may be shown
        log = view["log"]
        self.log_sent = len(log)
        self.push({**view, "log": log[start:], "log_from": start})

    async def next_messages(self) -> list[dict[str, Any]]:
        await self.ready.wait()
        self.ready.clear()
        messages, self.pending = self.pending, []
        return messages


ANALYSIS_BUDGET = Budget(None, 200)
"""What the analysis of a finished game gives each decision: search iterations, so that the same
game gets the same analysis every time (a tenth of a second a Café decision, a fifth a
Souvlaki one)."""


AnalysisStatus = Literal["running", "done", "failed"]


ANALYSIS_QUEUE = 4
"""At most this many analyses under way or waiting: anyone may ask for one, and each takes
seconds to minutes of a thread."""


@dataclass
class AnalysisJob:
    """The analysis of a finished game, worked out once in the background (`Hub.analyse`)."""

    total: int = 0
    """The decisions to analyse (0 until they are counted)."""
    done: int = 0
    result: dict[str, Any] | None = None
    failed: str | None = None
    stop: threading.Event = field(default_factory=threading.Event)
    """Set when the server stops: the analysis ends after the decision it is on."""

    @property
    def status(self) -> AnalysisStatus:
        return "failed" if self.failed else "done" if self.result is not None else "running"

    def advance(self, count: int) -> None:
        """One more decision analysed (`analyse_game`'s progress): stop here if told to."""
        if self.stop.is_set():
            raise KafeneioError("the server stopped during the analysis")
        self.done += count

    @classmethod
    def kept(cls, result: dict[str, Any]) -> AnalysisJob:
        """An analysis made before, as the store kept it."""
        decisions = len(result["decisions"])
        return cls(total=decisions, done=decisions, result=result)


@dataclass(frozen=True)
class WordedHint:
    """A hint's search, and each move it rates in words (by action code), as worded in the
    position the hint is for: the game may have moved on by the time it is answered."""

    analysis: Analysis
    words: dict[int, str]
    then_words: str | None = None
    """The decision planned after the suggestion (`Analysis.then`), in words."""


@dataclass(frozen=True)
class KeptHint:
    """A seat's last hint: the ply it is for and its search, pending or done."""

    ply: int
    search: asyncio.Future[WordedHint]

    def answer(self) -> WordedHint | None:
        """The search's answer once it is done; None while it runs, or if it failed."""
        if not self.search.done() or self.search.cancelled() or self.search.exception():
            return None
        return self.search.result()


def _drop_stale_hints(session: GameSession) -> None:
    """Cancel the hints still waiting for a position the game has left: each holds a place
    among the hints the server works out (`MAX_HINTS_WAITING`), for an answer nobody may use
    (one already searching finishes, unheard). Whoever waits for one is told the game moved on."""
    for kept in session.kept_hints.values():
        if kept.ply != session.ply and not kept.search.done():
            kept.search.cancel()


def _worded_hint(state: State, seed: int, budget: Budget | None) -> WordedHint:
    words = {action.code: state.action_words(action) for action in state.legal_actions()}
    try:
        suggested = hint(state, seed, budget)
    except StopIteration as err:  # an asyncio future cannot hold one: the request hung
        raise RuntimeError(f"the hint's search stopped: {err!r}") from err
    then = suggested.then  # worded where it is made: after the suggestion
    then_words = None if then is None else position_after(state, suggested).action_words(then)
    return WordedHint(suggested, words, then_words)


def _refuse_stale(session: GameSession, ply: int) -> None:
    """Refuse a request made at `ply` once the game has moved past it, saying both positions
    as the log numbers its moves (from 1; the API's plies count the moves made, from 0); one
    made at a position the game has not reached is refused as stale too (the page is sent the
    game as it is), but not said to be one it moved on from."""
    if ply > session.ply:
        raise ActionRefused(
            "stale",
            f"the game has not reached that position (you sent {position_words(ply)}; "
            f"it is {position_words(session.ply)})",
        )
    if ply != session.ply:
        raise ActionRefused(
            "stale",
            f"the game has moved on (you saw it {position_words(ply)}; "
            f"it is now {position_words(session.ply)})",
        )


def position_words(ply: int) -> str:
    """The position after `ply` moves, in the log's numbering: "after move 10" is the position
    the log's tenth entry leads to."""
    return "at the start, before move 1" if ply == 0 else f"after move {ply}"


def derived_seed(seed: int, *parts: object) -> int:
    """A seed for one decision, drawn from the game's seed: the same on every replay."""
    text = "/".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def check_bot(index: int, bot: str | None) -> None:
    """Refuse a bot seat (the seat at `index`) whose bot this server does not have: a new
    game's, asked for by name, or a rematch's, copied from a game stored before an upgrade."""
    if bot not in BOTS:
        bots = ", ".join(sorted(BOTS))
        raise ActionRefused("bad-request", f"seat {index + 1}: unknown bot {bot!r}; bots: {bots}")


BUDGET_PARAMETER = "iterations"
"""The bot parameter a seat's budget sets: a search bot's iterations per move. A count, not a
time, so that the same seed plays the same moves after a restart."""


def takes_budget(name: str) -> bool:
    factory = BOTS.get(name)
    try:
        return factory is not None and BUDGET_PARAMETER in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def played_budget(budget: int | None) -> int | None:
    """The budget a seat's bot plays with: at most `MAX_BUDGET`, also for a game stored before
    the cap with a larger one (it is shown, made and played again so)."""
    return None if budget is None else min(budget, MAX_BUDGET)


def build_bot(name: str, seed: int, budget: int | None) -> Bot:
    """The bot `name`, seeded; a budget goes to bots that search (`played_budget`)."""
    budget = played_budget(budget)
    if budget is not None and takes_budget(name):
        factory: Callable[..., Bot] = BOTS[name]
        return factory(seed, **{BUDGET_PARAMETER: budget})
    return make_bot(name, seed)


def rematch_order(players: int) -> list[int]:
    """The old seat of each seat of a rematch: everyone moves one seat on (P2 becomes P1, P1
    the last), so that the start player changes from one rematch to the next where seats
    decide it (Café's P1; in Souvlaki Wars the shops do, by reputation, then starting
    reputation, and seat order breaks only a tie of both, SW-R.2)."""
    return [(seat + 1) % players for seat in range(players)]


def seat_infos(seats: list[SeatSpec], connected: Callable[[int], bool]) -> list[dict[str, Any]]:
    """The seats as every viewer sees them: who plays, who has joined, who is connected."""
    return [
        {
            "seat": index,
            "kind": seat.kind,
            "name": seat.name,
            "bot": seat.bot,
            "budget": played_budget(seat.budget),
            "joined": seat.joined or seat.kind == "bot",
            "connected": seat.kind == "bot" or connected(index),
        }
        for index, seat in enumerate(seats)
    ]


def is_idle(status: str, active: datetime, seats: list[dict[str, Any]], at: datetime) -> bool:
    """Whether a game of `status`, last moved in (or made) at `active`, is idle at `at`: not
    over, nobody has moved for `IDLE_AFTER` and no person is connected (`seat_infos`)."""
    people_here = any(seat["kind"] == "human" and seat["connected"] for seat in seats)
    return status in (OPEN, RUNNING) and at - active >= IDLE_AFTER and not people_here


def seat_opened_by(seats: list[SeatSpec], token: str | None) -> int | None:
    """The seat of `seats` that `token` opens, None if none; every seat is asked, so that the
    time taken does not tell which seat matched."""
    opened = [index for index, seat in enumerate(seats) if seat.opened_by(token)]
    return opened[-1] if opened else None


def seat_labels(seats: list[SeatSpec]) -> list[str]:
    """The record's `seats`: each a bot's name or ``human``."""
    return [seat.bot or "bot" if seat.kind == "bot" else "human" for seat in seats]


def game_result(session: GameSession) -> dict[str, Any]:
    """The scores and winners of a game over, and what each player lost at its end
    (`end_losses` of its last step's events)."""
    state = session.state
    lost = end_losses(session.steps[-1].events if session.steps else ())
    losses = [lost.get(player, 0) for player in range(state.num_players)]
    return {"scores": state.scores(), "winners": state.winners(), "losses": losses}


@dataclass
class GameSession:
    stored: StoredGame
    game: Game
    state: State
    steps: list[Step] = field(default_factory=list)
    """Every decision with the events it caused, from which the logs are made."""
    logs: dict[Viewer, list[dict[str, Any]]] = field(default_factory=dict)
    """Each viewer's log so far, made once per decision (not again for every view)."""
    watchers: set[Watcher] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held from checking an action until it is applied: one decision at a time."""
    kept_hints: dict[int, KeptHint] = field(default_factory=dict)
    """Each seat's last hint, with the ply it is for: asked again there, by that seat only, it
    is given again, not searched again (a search for time may answer otherwise). A seat's hint
    is never another's: in Souvlaki Wars it is worked out from the mover's hidden hand."""

    @property
    def id(self) -> str:
        return self.stored.id

    @property
    def ply(self) -> int:
        return self.state.ply

    def seat_of(self, token: str | None) -> int | None:
        """The seat this token opens (`SeatSpec.opened_by`), None if none: a rematch's seat is
        opened by its own token and by those of the same person's seats in the games before."""
        return seat_opened_by(self.stored.seats, token)

    @property
    def abandoned(self) -> bool:
        return self.stored.status == ABANDONED

    @property
    def ended(self) -> bool:
        """Over, or abandoned: played no more, so all of it may be shown, as at the end (its
        replay as any seat saw it, its full record, its analysis). Only a game against bots
        can be abandoned: the hands it shows are the bots' and those of the player who left."""
        return self.state.is_terminal() or self.abandoned

    def status(self) -> str:
        if self.state.is_terminal():
            return FINISHED
        if self.abandoned:
            return ABANDONED
        if any(seat.kind == "human" and not seat.joined for seat in self.stored.seats):
            return OPEN
        return RUNNING

    def apply(self, notation: str, mover: int) -> None:
        """Play a stored action; keep what it caused. At the end every log is made again,
        since then everything may be shown (`forget_logs`)."""
        action = self.state.parse_legal(notation)
        self.steps.append(Step(mover, action, self.state.apply(action)))
        if self.state.is_terminal():
            self.forget_logs()

    def forget_logs(self) -> None:
        """Make every log again when next asked for: the game ended (over or abandoned), and
        its log now tells what chance took, as its replay and full record do."""
        self.logs.clear()

    def log_for(self, viewer: Viewer) -> list[dict[str, Any]]:
        log = self.logs.setdefault(viewer, [])
        for ply in range(len(log), len(self.steps)):
            log.append(log_entry(self.state, ply, self.steps[ply], viewer, self.ended))
        return log

    def connected(self, seat: int) -> bool:
        return any(watcher.viewer == seat for watcher in self.watchers)

    def hints_for(self, viewer: Viewer) -> bool:
        """Whether `viewer` may ask for a hint now (`hint_refusal`)."""
        return self.hint_refusal(viewer) is None

    def hint_refusal(self, viewer: Viewer) -> ActionRefused | None:
        """Why `viewer` may not ask for a hint now, or None: a hint is for a seat, to move, in a
        game that is not over, against bots only (a hint in a game between people would help
        one of them)."""
        if viewer is None:
            return ActionRefused("spectator", "a spectator cannot ask for a hint")
        ended = self.ended_refusal()
        if ended is not None:
            return ended
        if self.state.current_player() != viewer:
            return ActionRefused("not-your-turn", "a hint is for the player to move")
        if self.with_people(viewer):
            return ActionRefused("no-hints", "hints are only given in games against bots")
        return None

    def ended_refusal(self) -> ActionRefused | None:
        """Why nothing more is done in this game, or None while it is played: it is over, or
        it was abandoned. Moves, hints and leaving ask this first."""
        if self.state.is_terminal():
            return ActionRefused("game-over", "the game is over")
        if self.abandoned:
            return ActionRefused("abandoned", "this game was abandoned: it is not played any more")
        return None

    def to_move(self) -> int | None:
        """The seat whose turn it is while the game is played (public: every view says it);
        None when nobody's is: the game is over or abandoned, or chance is to draw."""
        player = self.state.current_player()
        return player if player >= 0 and not self.ended else None

    def of_bots_alone(self) -> bool:
        """Whether every seat is a bot's."""
        return all(seat.kind == "bot" for seat in self.stored.seats)

    def with_people(self, seat: int) -> bool:
        """Whether a person plays another seat than `seat`."""
        return any(other.kind != "bot" for i, other in enumerate(self.stored.seats) if i != seat)

    def may_abandon(self, viewer: Viewer) -> bool:
        """Whether `viewer` may abandon the game now (`abandon_refusal`)."""
        return self.abandon_refusal(viewer) is None

    def abandon_refusal(self, viewer: Viewer) -> ActionRefused | None:
        """Why `viewer` may not abandon the game, or None: a seat may leave a game not over
        against bots only, whoever is to move (leaving is no move: no ply to be stale). In a
        game between people, leaving would spoil it for the others. A game of bots alone may
        be stopped by whoever watches it: nobody else could, and its bots would play on (for
        hours, with long searches and a high round limit)."""
        if viewer is None and not self.of_bots_alone():
            return ActionRefused("spectator", "a spectator has no game to leave")
        ended = self.ended_refusal()
        if ended is not None:
            return ended
        if viewer is not None and self.with_people(viewer):
            return ActionRefused(
                "with-people", "only a game against bots can be abandoned: people play this one"
            )
        return None

    def bot_to_move(self) -> int | None:
        if self.abandoned:
            return None
        player = self.state.current_player()
        if 0 <= player < len(self.stored.seats) and self.stored.seats[player].kind == "bot":
            return player
        return None


def _turn_taker_wanted(session: GameSession) -> bool:
    """Whether a bot, or chance, is to move (`Hub._bot_turn`): chance is left to move only
    where the database refused its draw's write."""
    if session.abandoned:
        return False
    return session.bot_to_move() is not None or session.state.current_player() == CHANCE


STORAGE_RETRY = 5.0
"""Seconds a bot waits before it tries again a write the database refused."""


class Hub:
    """Every game of the server, live in memory and written through to the store."""

    def __init__(
        self,
        store: Store,
        bot_pause: float = 0.6,
        executor: Executor | None = None,
        card_sets: dict[str, str] | None = None,
        hint_budget: Budget | None = None,
        analysis_budget: Budget = ANALYSIS_BUDGET,
        max_bot_games: int = MAX_BOT_GAMES,
    ) -> None:
        self.store = store
        self.max_bot_games = max_bot_games
        """Games of bots alone played at once, at most (`MAX_BOT_GAMES`)."""
        self.bot_pause = bot_pause
        self.hint_budget = hint_budget
        """How long a hint thinks (None: the analysis module's default)."""
        self.analysis_budget = analysis_budget
        self.analyser = with_budget(ANALYSER, analysis_budget)
        """What makes this server's analyses, as a seat spec (`mcts:iterations=200`): an
        analysis kept by a server set up otherwise is made again, not shown as this one's."""
        self.analyses: dict[str, AnalysisJob] = {}
        """The analyses of finished games asked for or read from the store since the start;
        each one done is kept in the store too, so a restarted server has it."""
        self.analyst = ThreadPoolExecutor(max_workers=1, thread_name_prefix="analysis")
        """One analysis at a time, beside the bots' threads."""
        self.executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="bot")
        """The bots of games with a person in them."""
        self.alone = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="bots-alone")
        """The bots of games of bots alone, on a thread of their own: however many such games
        run, a person's opponent does not wait behind all of their searches."""
        self.hinter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint")
        """The hints' searches, one at a time, on a thread of their own: a second of search
        each, which on the bots' threads would keep the bots of every game waiting."""
        self.hints_waiting = 0
        """Hints asked for and not yet worked out (`MAX_HINTS_WAITING`)."""
        self.replays_waiting = 0
        """Replay positions asked for and not yet worked out (`MAX_REPLAYS_WAITING`)."""
        self.replayer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="replay")
        """The replays' positions, one at a time, worked out off the loop."""
        self.card_sets = card_sets or {}
        self.sessions: dict[str, GameSession] = {}
        self.writer = ActionWriter(store)
        self.stopping = False

    # --- loading ----------------------------------------------------------------------------
    def load_unfinished(self) -> None:
        """Rebuild every game still going on by replaying its record. A game whose record no
        longer replays (written by another engine version) is left out, and said so."""
        for stored in self.store.load_unfinished():
            try:
                self.sessions[stored.id] = self._rebuild(stored)
            except KafeneioError as err:
                LOG.error("game %s cannot be replayed and is left out: %s", stored.id, err)

    def _rebuild(self, stored: StoredGame) -> GameSession:
        """The game replayed from its record (its header checked by `load_record`), step by
        step to keep what each action caused."""
        start = load_record({**stored.record(), "actions": []})
        session = GameSession(stored, start.game, start)
        for notation in stored.actions:
            session.apply(notation, start.current_player())
        return session

    def start_bots(self) -> None:
        """After a start: every game whose turn is a bot's goes on."""
        for session in self.sessions.values():
            self._after_change(session)

    # --- games ------------------------------------------------------------------------------
    async def create(
        self, game: Game, seats: list[SeatSpec], rematch_of: str | None = None
    ) -> tuple[GameSession, dict[int, str]]:
        """A new game of `game` (bound to its options); returns it and each human seat's
        secret token (shown once). The seats are taken as checked (`check_bot`): a new game's
        by the API, which names the seat that is wrong, a rematch's by `rematch`."""
        if all(seat.kind == "bot" for seat in seats):
            self._check_room_for_bots()
        seed = secrets.randbelow(2**62)
        state = game.new_state(len(seats), seed=seed)  # refuses a wrong number of players
        tokens: dict[int, str] = {}
        for index, seat in enumerate(seats):
            if seat.kind == "human":
                tokens[index] = secrets.token_urlsafe(24)
                seat.token_digest = digest(tokens[index])
        stored = StoredGame(
            id=secrets.token_urlsafe(6),
            game=game.info.name,
            players=len(seats),
            options=game.options.to_dict(),
            seed=seed,
            status=OPEN,
            created=now(),
            seats=seats,
            rematch_of=rematch_of,
            engine=game.info.engine_version,
            record_data=game.record_data(),
        )
        session = GameSession(stored, game, state)
        stored.status = session.status()
        self.store.create(stored)
        self.sessions[stored.id] = session
        self._forget_ended(stored.id, rematch_of)  # (a rematch's game: it is being written)
        async with session.lock:
            await self._resolve_chance(session)
        self._after_change(session)
        return session, tokens

    def _check_room_for_bots(self) -> None:
        """`bots-busy` where `max_bot_games` games of bots alone are being played."""
        playing = sum(1 for s in self.sessions.values() if s.of_bots_alone() and not s.ended)
        if playing >= self.max_bot_games:
            raise ActionRefused(
                "bots-busy",
                f"the server is playing {playing} games of bots alone, as many as it takes: "
                "watch one, or start one when one has ended",
            )

    async def rematch(self, session: GameSession) -> tuple[GameSession, dict[int, str]]:
        """A new game with the same people and options, each moved one seat on
        (`rematch_order`), so that the start player changes from one rematch to the next, with
        the role they chose (a Souvlaki shop: `Game.reseated`). Each person's seat there is
        also opened by their links to this game and the games before it. Each connected seat
        of the old game is sent its own new link over its own websocket, then every watcher
        the old game's view with the rematch (their pages offer it at once, not the Rematch
        button). Refused while the game is played: its players would be sent to a new game in
        the middle of this one."""
        if not session.ended:
            raise ActionRefused("not-over", "a rematch is for a game over (or abandoned)")
        if session.stored.rematch is not None:
            raise ActionRefused("rematch-exists", "this game already has a rematch")
        old = session.stored.seats
        for index, seat in enumerate(old):  # a bot this server no longer has would stall it
            if seat.kind == "bot":
                check_bot(index, seat.bot)
        order = rematch_order(len(old))
        seats = [
            SeatSpec(
                kind=old[was].kind,
                name=old[was].name,
                bot=old[was].bot,
                budget=played_budget(old[was].budget),
                previous_digests=old[was].digests_for_rematch(),
            )
            for was in order
        ]
        stored = session.stored
        game = game_from_parts(stored.game, stored.options, stored.record_data).reseated(order)
        new, tokens = await self.create(game, seats, rematch_of=session.id)
        session.stored.rematch = new.id
        self.store.set_rematch(session.id, new.id)
        moved_to = {was: seat for seat, was in enumerate(order)}
        for watcher in session.watchers:
            theirs = moved_to.get(watcher.viewer) if watcher.viewer is not None else None
            token = tokens.get(theirs) if theirs is not None else None
            watcher.push({"type": "rematch", "game": new.id, "seat": theirs, "token": token})
        self.broadcast(session)
        return new, tokens

    def rematch_seat(self, session: GameSession, token: str | None) -> int | None:
        """The seat of the game's rematch that `token` (a seat's link to this game) opens: the
        same person's seat there; None for a spectator, a game without a rematch, or a link the
        rematch does not take (one of a game more than `OLD_LINKS_KEPT` rematches back, or a
        rematch made before seats kept the old links' digests). The rematch's seats are read
        from the store when it is not in memory: a finished game is not replayed to show it."""
        rematch_id = session.stored.rematch
        if token is None or rematch_id is None:
            return None
        live = self.sessions.get(rematch_id)
        seats = live.stored.seats if live is not None else self.store.seats(rematch_id)
        return seat_opened_by(seats or [], token)

    def get(self, game_id: str) -> GameSession:
        """The game `game_id`; a finished one is rebuilt from the store when first asked for."""
        session = self.sessions.get(game_id)
        if session is None:
            stored = self.store.load(game_id)
            if stored is None:
                raise ActionRefused("no-game", f"there is no game {game_id!r}")
            try:
                session = self.sessions[game_id] = self._rebuild(stored)
            except KafeneioError as err:  # the server's data, not the request, is at fault
                LOG.error("game %s cannot be replayed: %s", game_id, err)
                raise ActionRefused(
                    "unreadable",
                    f"game {game_id!r} is stored, but its record no longer replays on this "
                    "server (made by another version of kafeneio, or its card files changed)",
                ) from None
            self._forget_ended(game_id)
        elif session.ended:  # read again: the last of those to be forgotten
            self.sessions[game_id] = self.sessions.pop(game_id)
        return session

    def _forget_ended(self, *keep: str | None) -> None:
        """Keep in memory the games played no more (over or abandoned) that a page watches,
        and the `MAX_ENDED_KEPT` last read or made besides `keep`; drop the others, which are
        read back from the store if asked for again. Else every finished game anyone looked at
        stayed in memory as long as the server ran."""
        ended = [
            game_id
            for game_id, session in self.sessions.items()
            if session.ended and not session.watchers and game_id not in keep
        ]
        for game_id in ended[: max(0, len(ended) - MAX_ENDED_KEPT)]:
            del self.sessions[game_id]

    def join(self, session: GameSession, token: str | None) -> Viewer:
        """The viewer a token makes (None: a spectator); a wrong token is refused. Asking with
        a token opens no seat (`open_seat`): a script reading the view, or a record, is not the
        seat's person at the table."""
        if token is None or token == "":
            return None
        seat = session.seat_of(token)
        if seat is None:
            raise ActionRefused("bad-token", "this join link is not valid for this game")
        return seat

    def open_seat(self, session: GameSession, seat: Viewer) -> None:
        """`seat` is opened: its page connected, or it made a move. The game is open until
        every person's seat is, and the lobby says which links were opened."""
        if seat is not None and self._mark_joined(session, seat):
            self._store_status(session)
            self.broadcast(session)

    def _mark_joined(self, session: GameSession, seat: int) -> bool:
        """Mark `seat` opened; whether it was not before."""
        if session.stored.seats[seat].joined:
            return False
        session.stored.seats[seat].joined = True
        self.store.mark_joined(session.id, seat)
        return True

    # --- actions ----------------------------------------------------------------------------
    async def act(self, session: GameSession, seat: Viewer, ply: int, text: str) -> None:
        """Play `text` for `seat`, which saw the game at `ply`. Refused with a reason, changing
        nothing, when out of turn, for a spectator, stale or illegal."""
        try:
            async with session.lock:
                action = self._check(session, seat, ply, text)
                assert seat is not None  # a spectator's action was refused
                await self._commit(session, action.notation, seat)
                self._mark_joined(session, seat)  # played: opened, through the API alone too
                await self._resolve_chance(session)
        finally:
            if session.ply != ply:  # taken, though a write after it (chance's) may have failed
                self._after_change(session)

    def _check(self, session: GameSession, seat: Viewer, ply: int, text: str) -> Action:
        """The legal action `text` for `seat`, or the `ActionRefused` that says why not."""
        state = session.state
        if seat is None:
            raise ActionRefused("spectator", "a spectator cannot play: open your join link")
        ended = session.ended_refusal()
        if ended is not None:
            raise ended
        _refuse_stale(session, ply)
        if state.current_player() != seat:
            raise ActionRefused("not-your-turn", "it is not your turn")
        if not isinstance(text, str) or not text.strip():
            raise ActionRefused("illegal", "no action given")
        try:
            return state.parse_legal(text.strip())
        except KafeneioError as err:
            raise ActionRefused("illegal", str(err)) from None

    async def abandon(self, session: GameSession, seat: Viewer) -> None:
        """`seat` leaves its game against bots before the end: the game is kept as it stands,
        marked abandoned, and played no more (its bots stop; every action is refused). Refused,
        changing nothing, for a spectator, a game over or already abandoned, or a game with
        other people in it (`abandon_refusal`)."""
        async with session.lock:  # not in the middle of a move: the last one is written
            refusal = session.abandon_refusal(seat)
            if refusal is not None:
                raise refusal
            self.store.set_status(session.id, ABANDONED)
            session.stored.status = ABANDONED
            session.forget_logs()
            if session.bot_task is not None:
                session.bot_task.cancel()  # a bot thinking now is not heard
        self.broadcast(session)

    # --- hints ------------------------------------------------------------------------------
    async def hint(self, session: GameSession, seat: Viewer, ply: int) -> WordedHint:
        """The search bot's suggestion for `seat`, to move at `ply`, from that seat's own
        information; refused with a reason when the seat may not ask (`hints_for`) or the game
        has moved on. The search runs beside the bots, on a copy of the state; asked again at
        the same ply, the same search answers, unless it failed."""
        self._check_hint(session, seat, ply)
        assert seat is not None  # a spectator was refused
        kept = session.kept_hints.get(seat)
        if kept is None or kept.ply != ply:
            if self.hints_waiting >= MAX_HINTS_WAITING:
                raise ActionRefused(
                    "hints-busy",
                    f"the server is working out {self.hints_waiting} hints: ask again in a "
                    "few seconds",
                )
            seed = derived_seed(session.stored.seed, "hint", ply)
            copy = session.state.clone()
            loop = asyncio.get_running_loop()
            pending = loop.run_in_executor(self.hinter, _worded_hint, copy, seed, self.hint_budget)
            self.hints_waiting += 1
            pending.add_done_callback(self._hint_done)
            kept = session.kept_hints[seat] = KeptHint(ply, pending)
        try:
            return await asyncio.shield(kept.search)
        except asyncio.CancelledError:
            if not kept.search.cancelled():
                raise  # this request's own cancellation (its client left)
            _refuse_stale(session, ply)  # the game moved on: the search was dropped
            raise
        except Exception as err:
            if session.kept_hints.get(seat) is kept:
                del session.kept_hints[seat]  # asked again, it is searched again
            LOG.error("a hint of game %s failed: %s", session.id, err)
            raise ActionRefused("hint-failed", "the hint could not be worked out") from err

    def _hint_done(self, _: object) -> None:
        self.hints_waiting -= 1

    def kept_hint(self, session: GameSession, seat: Viewer, ply: int) -> WordedHint | None:
        """The hint `seat` was given at `ply`, to show again (a page reloaded); None if none
        was, or its search is still under way (asking for the hint joins it) or failed. Never
        searches; refused as `hint` is."""
        self._check_hint(session, seat, ply)
        kept = session.kept_hints.get(seat) if seat is not None else None
        return kept.answer() if kept is not None and kept.ply == ply else None

    def _check_hint(self, session: GameSession, seat: Viewer, ply: int) -> None:
        """Refuse a hint `seat` may not have at `ply`, saying why."""
        refusal = session.hint_refusal(seat)
        if seat is not None:  # a spectator is told so, whatever ply they saw
            _refuse_stale(session, ply)
        if refusal is not None:
            raise refusal

    # --- the analysis of a finished game -----------------------------------------------------
    def analyse(self, session: GameSession) -> AnalysisJob:
        """The analysis of a game over or abandoned (every decision from its mover's own
        information, by the hint's search bot), started in the background if it has not been
        yet or if it failed."""
        job = self.analysis_of(session)
        if job is None or job.failed is not None:
            if session.ply > MAX_ANALYSED_MOVES:
                raise ActionRefused(
                    "too-long",
                    f"a game of {session.ply} moves is more than the server analyses (at most "
                    f"{MAX_ANALYSED_MOVES}): it would take hours; `kafeneio analyse` its "
                    "record on your own machine",
                )
            waiting = sum(1 for other in self.analyses.values() if other.status == "running")
            if waiting >= ANALYSIS_QUEUE:
                raise ActionRefused("busy", "the server is analysing other games: try again soon")
            job = AnalysisJob()
            self.analyst.submit(self._analyse, session.id, self.full_record(session), job)
            self.analyses[session.id] = job  # only once submitted: a refused one holds no place
        return job

    def analysis_of(self, session: GameSession) -> AnalysisJob | None:
        """The analysis of an ended game (`GameSession.ended`) asked for so far, if any. An
        abandoned game is analysed as far as it went: each decision is judged from its mover's
        information at that point, which needs no end."""
        if not session.ended:
            raise ActionRefused("not-over", "a game can be analysed once it is over (or abandoned)")
        job = self.analyses.get(session.id)
        if job is None:
            kept = self.store.load_analysis(session.id, self.analyser)
            if kept is not None and isinstance(kept.get("decisions"), list):
                job = self.analyses[session.id] = AnalysisJob.kept(kept)
            elif kept is not None:  # not one this server wrote: made again when asked
                LOG.warning("the kept analysis of game %s is not readable", session.id)
        return job

    def _analyse(self, game_id: str, record: dict[str, Any], job: AnalysisJob) -> None:
        try:
            job.total = count_decisions(record)
            result = analyse_game(record, ANALYSER, self.analysis_budget, progress=job.advance)
            job.result = result.to_dict()
        except Exception as err:  # shown to whoever asks; the server goes on
            if not self.stopping:
                LOG.exception("the analysis of a game failed")
            job.failed = str(err) or type(err).__name__
            return
        try:
            self.store.save_analysis(game_id, self.analyser, job.result)
        except Exception:  # still shown until the server stops, and made again after
            LOG.exception("the analysis of game %s could not be kept", game_id)

    async def _commit(self, session: GameSession, notation: str, mover: int) -> None:
        """Write, then apply: an action is acknowledged only once it is stored."""
        try:
            await self.writer.write(ActionWrite(session.id, session.ply, notation, mover))
        except DuplicatePly as err:
            raise ActionRefused("stale", str(err)) from None
        session.apply(notation, mover)
        session.stored.actions.append(notation)
        _drop_stale_hints(session)

    async def _resolve_chance(self, session: GameSession) -> None:
        state = session.state
        while state.current_player() == CHANCE:
            rng = random.Random(derived_seed(session.stored.seed, "chance", session.ply))
            await self._commit(session, sample_chance(state, rng).notation, CHANCE)

    def _after_change(self, session: GameSession) -> None:
        """Store a new status, show everyone the new view, and wake the bot whose turn it is
        (the bot's own loop, if running, goes on by itself)."""
        self._store_status(session)
        self.broadcast(session)
        if _turn_taker_wanted(session) and session.bot_task is None and not self.stopping:
            session.bot_task = asyncio.get_running_loop().create_task(self._bot_turn(session))

    def _store_status(self, session: GameSession) -> None:
        status = session.status()
        if status != session.stored.status:
            session.stored.status = status
            self.store.set_status(session.id, status)

    async def _bot_turn(self, session: GameSession) -> None:
        """The bots' moves and chance's, while one of them is to move. A write the database
        refuses (its disk full) is tried again, so the game goes on once it takes writes."""
        try:
            while not self.stopping and _turn_taker_wanted(session):
                try:
                    await self._bot_move(session)
                except OperationalError as err:
                    LOG.error(
                        "game %s: the database refused a write (%s); its bot tries again in %g s",
                        session.id,
                        err.orig,
                        STORAGE_RETRY,
                    )
                    await asyncio.sleep(STORAGE_RETRY)
        except Exception:
            LOG.exception("the bot of game %s failed; its seat waits", session.id)
        finally:
            session.bot_task = None

    async def _bot_move(self, session: GameSession) -> None:
        """One move of the bot to move, after its pause; first, what chance left undrawn (a
        draw whose write the database refused)."""
        if session.state.current_player() == CHANCE:
            async with session.lock:
                await self._resolve_chance(session)
            self._after_change(session)
            return
        seat = session.bot_to_move()
        assert seat is not None  # (`_turn_taker_wanted`)
        await asyncio.sleep(self.bot_pause)
        ply = session.ply
        spec = session.stored.seats[seat]
        seed = derived_seed(session.stored.seed, seat, ply)
        bot = build_bot(spec.bot or "random", seed, spec.budget)
        copy = session.state.clone()
        loop = asyncio.get_running_loop()
        pool = self.alone if session.of_bots_alone() else self.executor
        action = await loop.run_in_executor(pool, bot.choose, copy)
        async with session.lock:
            if session.ply != ply or session.abandoned:
                return
            await self._commit(session, action.notation, seat)
            await self._resolve_chance(session)
        self._after_change(session)

    # --- views ------------------------------------------------------------------------------
    def broadcast(self, session: GameSession) -> None:
        views: dict[tuple[Viewer, str | None], dict[str, Any]] = {}
        for watcher in session.watchers:
            who = (watcher.viewer, watcher.token)  # a seat's links may reach other rematches
            if who not in views:
                views[who] = self.view(session, watcher.viewer, watcher.token)
            watcher.push_view(views[who])

    def view(self, session: GameSession, viewer: Viewer, token: str | None) -> dict[str, Any]:
        """Everything `viewer` is sent about the game: nothing another seat holds. `token`
        made `viewer` (None: a spectator's): the rematch's seat is the one it opens."""
        state = session.state
        over = state.is_terminal()
        to_move = session.to_move()  # the lobby's summary says the same: nobody's once ended
        yours = viewer is not None and to_move == viewer
        return {
            "type": "state",
            "id": session.id,
            "game": session.stored.game,
            "title": session.game.info.title,
            "status": session.status(),
            "ply": session.ply,
            "viewer": viewer,
            "seats": self.seats(session),
            "to_move": to_move,
            "your_turn": yours,
            "hints": session.hints_for(viewer),
            "abandon": session.may_abandon(viewer),
            "over": over,
            "observation": observation(state, viewer),
            "legal": self.legal(session) if yours else [],
            "log": session.log_for(viewer),
            "log_from": 0,
            "result": game_result(session) if over else None,
            "options": session.stored.options,
            "rematch": session.stored.rematch,
            "rematch_seat": self.rematch_seat(session, token) if viewer is not None else None,
            "rematch_of": session.stored.rematch_of,
        }

    def seats(self, session: GameSession) -> list[dict[str, Any]]:
        return seat_infos(session.stored.seats, session.connected)

    def legal(self, session: GameSession) -> list[dict[str, Any]]:
        """The legal moves, for the seat to move only: each in the game's notation and in its
        words as the mover reads them (`state.action_words`: the mover's own cards are named),
        Café's with the points it would score and whether it puts the mover out (CI-M.3)."""
        state = session.state
        player = state.current_player()
        preview = session.stored.game in PREVIEW_GAMES
        before = state.scores()[player] if preview else 0
        # played in a world the mover thinks possible, never on the true state: a move that ends
        # the game scores the hand left after the draw (Café's CI-E.2, a joker dearer than a
        # guest), and which cards the bag gives is hidden from everyone
        if preview:
            seen = random.Random(derived_seed(session.stored.seed, "preview", state.ply))
            world = state.determinize(player, seen)
        moves = []
        for action in state.legal_actions():
            gain, out = None, False
            if preview:
                copy = world.clone()
                copy.apply(action)
                gain, out = copy.scores()[player] - before, copy.is_out(player)
            words = state.action_words(action)
            moves.append({"notation": action.notation, "words": words, "gain": gain, "out": out})
        return moves

    def full_record(self, session: GameSession) -> dict[str, Any]:
        record = session.state.to_record()  # the seed and every outcome: only once it ended
        record["seats"] = seat_labels(session.stored.seats)
        return record

    def own_record(self, session: GameSession, viewer: Viewer) -> dict[str, Any]:
        """The record as `viewer` may have it before the end: no seed, no hidden outcomes."""
        return {
            "format": "kafeneio-view",
            "version": 1,
            "game": session.stored.game,
            "players": session.stored.players,
            "options": session.stored.options,
            "seats": seat_labels(session.stored.seats),
            "viewer": viewer,
            "log": session.log_for(viewer),
            "observation": observation(session.state, viewer),
        }

    async def stop(self) -> None:
        self.stopping = True
        tasks = [s.bot_task for s in self.sessions.values() if s.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.alone.shutdown(wait=False, cancel_futures=True)
        self.hinter.shutdown(wait=False, cancel_futures=True)
        self.replayer.shutdown(wait=False, cancel_futures=True)
        for job in self.analyses.values():
            job.stop.set()
        self.analyst.shutdown(wait=False, cancel_futures=True)
        await self.writer.close()

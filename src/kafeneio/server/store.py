"""Persistence: games, seats, every accepted action and the analyses of finished games,
through SQLAlchemy.

A game is stored as its record's ingredients (game, players, options, seed) and one row per
accepted action with its ply, unique per game, so that the state is rebuilt by replay. The
schema is made and upgraded by the Alembic migrations shipped in this package, run at start.
Seat tokens are stored as SHA-256 digests: the database never holds a join link.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
from collections.abc import Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    func,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), index=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    engine: Mapped[int] = mapped_column(Integer, default=1)
    record_data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seats: Mapped[list[SeatRow]] = relationship(order_by="SeatRow.seat", lazy="selectin")


class SeatRow(Base):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)
    budget: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    token_digest: Mapped[str | None] = mapped_column(String(64), nullable=True)
    joined: Mapped[bool] = mapped_column(default=False)
    previous_digests: Mapped[list[str]] = mapped_column(JSON, default=list)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    notation: Mapped[str] = mapped_column(Text)
    player: Mapped[int] = mapped_column(Integer)
    created: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    """When it was written (UTC); null for an action written before the time was kept."""


class AnalysisRow(Base):
    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    analyser: Mapped[str] = mapped_column(String(64))
    """Which bot and budget made it: an analysis by another is not shown as this one."""
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(DateTime)


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str | None, stored: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    if not token or not stored:
        return False
    return hmac.compare_digest(digest(token), stored)


@dataclass
class SeatSpec:
    kind: str
    name: str
    bot: str | None = None
    budget: int | None = None
    token_digest: str | None = None
    joined: bool = False
    previous_digests: list[str] = field(default_factory=list)
    """A rematch's seat: the digests of the tokens of the same person's seats in the games
    before it, newest first (at most `OLD_LINKS_KEPT`), whose links open this seat too (and no
    other: each token opens one seat of a game). A person away when a rematch is made plays it
    from the link they have, and the rematch of that rematch from the same link."""

    def opened_by(self, token: str | None) -> bool:
        """Whether `token` opens this seat: its own, or one of `previous_digests`'. Each
        digest is compared in constant time, and all are compared."""
        digests = [self.token_digest, *self.previous_digests]
        return any([token_matches(token, stored) for stored in digests])

    def digests_for_rematch(self) -> list[str]:
        """The `previous_digests` of this person's seat in a rematch: this seat's token and
        those that open it, the oldest let go beyond `OLD_LINKS_KEPT`."""
        if self.token_digest is None:
            return []
        return [self.token_digest, *self.previous_digests][:OLD_LINKS_KEPT]


OLD_LINKS_KEPT = 16
"""The most links of earlier games that open a seat of a rematch: a person keeps one working
link through 16 rematches in a row, and a seat's check of a token stays a few comparisons."""


@dataclass
class StoredGame:
    """A game as the store holds it: enough to rebuild the state by replay."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    created: datetime
    seats: list[SeatSpec]
    actions: list[str] = field(default_factory=list)
    rematch_of: str | None = None
    rematch: str | None = None
    engine: int = 1
    record_data: dict[str, Any] = field(default_factory=dict)
    """Fields of the game's record besides the options (Souvlaki Wars: its card set)."""

    def record(self) -> dict[str, Any]:
        """The game's record: replaying it rebuilds the state."""
        return {
            "format": "kafeneio-record",
            "version": 2,
            "game": self.game,
            "engine": self.engine,
            "players": self.players,
            "options": self.options,
            **self.record_data,
            "seed": self.seed,
            "setup": None,
            "actions": list(self.actions),
        }


@dataclass(frozen=True)
class ActionWrite:
    game_id: str
    ply: int
    notation: str
    player: int


class Listed(NamedTuple):
    """A game of the lobby's lists: without its actions, but with their count and the time of
    the last one written (None if none, or none since the time was kept)."""

    game: StoredGame
    plies: int
    last_move: datetime | None


class DuplicatePly(Exception):
    """An action row for a ply already written: another writer got there first."""


class Store:
    """The database behind the server. Every method commits before it returns."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine: Engine = create_engine(url)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        migrate(self.engine)

    def create(self, stored: StoredGame) -> None:
        with Session(self.engine) as session, session.begin():
            session.add(GameRow(**_copy(stored, GAME_FIELDS)))
            for index, seat in enumerate(stored.seats):
                session.add(SeatRow(game_id=stored.id, seat=index, **_copy(seat, SEAT_FIELDS)))

    def add_action(self, game_id: str, ply: int, notation: str, player: int) -> None:
        """Write one accepted action; `DuplicatePly` if that ply is taken."""
        self.add_actions([ActionWrite(game_id, ply, notation, player)])

    def add_actions(self, writes: list[ActionWrite]) -> None:
        """Write accepted actions in one transaction (all or none); `DuplicatePly` if a ply
        is taken."""
        written = now()
        try:
            with Session(self.engine) as session, session.begin():
                session.add_all(
                    ActionRow(
                        game_id=w.game_id,
                        ply=w.ply,
                        notation=w.notation,
                        player=w.player,
                        created=written,
                    )
                    for w in writes
                )
        except IntegrityError:
            taken = ", ".join(f"game {w.game_id} ply {w.ply}" for w in writes)
            raise DuplicatePly(f"an action is already written at one of: {taken}") from None

    def set_status(self, game_id: str, status: str) -> None:
        self._update(GameRow, game_id, status=status)

    def set_rematch(self, game_id: str, rematch: str) -> None:
        self._update(GameRow, game_id, rematch=rematch)

    def mark_joined(self, game_id: str, seat: int) -> None:
        self._update(SeatRow, (game_id, seat), joined=True)

    def _update(self, table: type[Base], key: Any, **values: Any) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(table, key)
            for name, value in values.items():
                setattr(row, name, value)

    def seats(self, game_id: str) -> list[SeatSpec] | None:
        """A game's seats alone (not its actions), None if there is no such game."""
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return [_seat(seat) for seat in row.seats] if row is not None else None

    def load(self, game_id: str) -> StoredGame | None:
        with Session(self.engine) as session:
            row = session.get(GameRow, game_id)
            return _stored(session, row) if row is not None else None

    def load_unfinished(self) -> list[StoredGame]:
        """Every game still going on (finished and abandoned ones are read when asked for)."""
        with Session(self.engine) as session:
            going_on = GameRow.status.not_in(("finished", "abandoned"))
            query = select(GameRow).where(going_on).order_by(GameRow.created)
            return [_stored(session, row) for row in session.scalars(query).all()]

    def listing(
        self, status: str | None, limit: int, ids: Collection[str] | None = None
    ) -> list[Listed]:
        """The newest games (of one status; among `ids` if given), each without its actions but
        with their count and the time of the last."""
        mine = ActionRow.game_id == GameRow.id
        plies = select(func.count()).where(mine).scalar_subquery()
        last = select(func.max(ActionRow.created)).where(mine).scalar_subquery()
        query = select(GameRow, plies, last).order_by(GameRow.created.desc()).limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        if ids is not None:
            query = query.where(GameRow.id.in_(ids))
        with Session(self.engine) as session:
            return [
                Listed(_stored(session, row, False), ply, moved)
                for row, ply, moved in session.execute(query)
            ]

    def save_analysis(self, game_id: str, analyser: str, result: dict[str, Any]) -> None:
        """Keep a finished game's analysis (`analyser` says what made it), in place of any
        made before."""
        with Session(self.engine) as session, session.begin():
            row = AnalysisRow(game_id=game_id, analyser=analyser, result=result, created=now())
            session.merge(row)

    def load_analysis(self, game_id: str, analyser: str) -> dict[str, Any] | None:
        """The analysis `analyser` made of a game, if it was kept."""
        with Session(self.engine) as session:
            row = session.get(AnalysisRow, game_id)
            return dict(row.result) if row is not None and row.analyser == analyser else None

    def close(self) -> None:
        self.engine.dispose()


GAME_FIELDS = (
    "id", "game", "players", "options", "seed", "status", "created", "rematch_of", "rematch",
    "engine", "record_data",
)  # fmt: skip
SEAT_FIELDS = ("kind", "name", "bot", "budget", "token_digest", "joined", "previous_digests")
"""The fields a stored game and its rows share, copied one way to write and the other to read."""


def _copy(source: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(source, name) for name in names}


def _stored(session: Session, row: GameRow, with_actions: bool = True) -> StoredGame:
    query = select(ActionRow.notation).where(ActionRow.game_id == row.id)
    actions = session.scalars(query.order_by(ActionRow.ply)).all() if with_actions else []
    fields = _copy(row, GAME_FIELDS)
    fields["options"], fields["record_data"] = dict(row.options), dict(row.record_data or {})
    seats = [_seat(seat) for seat in row.seats]
    return StoredGame(**fields, seats=seats, actions=list(actions))


def _seat(row: SeatRow) -> SeatSpec:
    seat = SeatSpec(**_copy(row, SEAT_FIELDS))
    seat.previous_digests = list(row.previous_digests or [])
    return seat


class ActionWriter:
    """Group commit: actions accepted while the previous transaction was being written go
    to the database together in the next one, on a thread of its own, so that the event loop
    never waits for the disk and many games share each commit. `write` returns once its
    action is committed: only then is the action applied and announced."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queue: asyncio.Queue[tuple[ActionWrite, asyncio.Future[None]]] = asyncio.Queue()
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="db-writer")
        self.task: asyncio.Task[None] | None = None

    async def write(self, action: ActionWrite) -> None:
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.queue.put((action, done))
        await done

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty():
                batch.append(self.queue.get_nowait())
            writes = [write for write, _ in batch]
            results: list[Exception | None]
            try:
                await loop.run_in_executor(self.thread, self.store.add_actions, writes)
                results = [None] * len(batch)
            except DuplicatePly:  # write them one by one: only the taken ply fails
                results = await loop.run_in_executor(self.thread, self._one_by_one, writes)
            except Exception as err:  # each waiting action gets the error, none is applied
                results = [err] * len(batch)
            for (_, done), result in zip(batch, results, strict=True):
                if done.done():
                    continue
                if result is None:
                    done.set_result(None)
                else:
                    done.set_exception(result)

    def _one_by_one(self, writes: list[ActionWrite]) -> list[Exception | None]:
        results: list[Exception | None] = []
        for write in writes:
            try:
                self.store.add_actions([write])
                results.append(None)
            except Exception as err:
                results.append(err)
        return results

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.thread.shutdown(wait=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit survives a killed process (the kill -9 case)
    without an fsync per action; foreign keys on, as in other databases."""
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration shipped in the package."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))

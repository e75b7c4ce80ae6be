"""The store: Alembic migrations from the first table, and one action per ply."""

from __future__ import annotations

import asyncio

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, inspect, text

from kafeneio.server.store import (
    MIGRATIONS,
    ActionWrite,
    ActionWriter,
    DuplicatePly,
    SeatSpec,
    Store,
    StoredGame,
    digest,
    now,
)


def stored_game(game_id: str) -> StoredGame:
    return StoredGame(
        id=game_id,
        game="cafe",
        players=2,
        options={},
        seed=7,
        status="open",
        created=now(),
        seats=[SeatSpec(kind="human", name="Ada"), SeatSpec(kind="bot", name="b", bot="random")],
    )


def database_at(db_url: str, revision: str, *rows: str) -> Engine:
    """A database migrated only to `revision`, holding the rows the SQL `rows` insert."""
    engine = create_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
        for row in rows:
            connection.execute(text(row))
    return engine


def test_a_database_of_the_first_migration_is_upgraded_in_place(db_url: str) -> None:
    engine = database_at(
        db_url,
        "0001",
        "INSERT INTO games (id, game, players, options, seed, status, created) "
        "VALUES ('old', 'cafe', 2, '{}', 7, 'running', '2026-01-01 00:00:00')",
    )
    assert "engine" not in {c["name"] for c in inspect(engine).get_columns("games")}
    store = Store(db_url)  # migrates to the newest schema at start
    old = store.load("old")
    assert old is not None and old.engine == 1 and old.record_data == {}
    assert "record_data" in {c["name"] for c in inspect(store.engine).get_columns("games")}


def test_each_ply_is_written_once(db_url: str) -> None:
    store = Store(db_url)
    store.create(stored_game("g"))
    store.add_action("g", 0, "USm@16", 0)
    with pytest.raises(DuplicatePly, match="ply 0"):
        store.add_action("g", 0, "USf@17", 0)
    loaded = store.load("g")
    assert loaded is not None and loaded.actions == ["USm@16"]
    assert [seat.name for seat in loaded.seats] == ["Ada", "b"]
    assert store.load("missing") is None


def test_the_writer_commits_waiting_actions_together(db_url: str) -> None:
    store = Store(db_url)
    store.create(stored_game("g"))
    store.create(stored_game("h"))
    store.add_action("h", 0, "USm@16", 0)

    async def write_many() -> list[BaseException | None]:
        writer = ActionWriter(store)
        writes = [ActionWrite("g", ply, f"a{ply}", 0) for ply in range(20)]
        writes.append(ActionWrite("h", 0, "taken", 1))  # that ply is already written
        results = await asyncio.gather(*(writer.write(w) for w in writes), return_exceptions=True)
        await writer.close()
        return list(results)

    results = asyncio.run(write_many())
    assert results[:20] == [None] * 20  # the taken ply in their batch did not fail them
    assert isinstance(results[20], DuplicatePly)
    loaded = store.load("g")
    assert loaded is not None and loaded.actions == [f"a{ply}" for ply in range(20)]
    assert store.load("h").actions == ["USm@16"]  # type: ignore[union-attr]


def test_an_analysis_is_kept_under_the_analyser_that_made_it(db_url: str) -> None:
    store = Store(db_url)
    store.create(stored_game("g"))
    assert store.load_analysis("g", "mcts:iterations=200") is None
    store.save_analysis("g", "mcts:iterations=200", {"decisions": [1, 2]})
    assert store.load_analysis("g", "mcts:iterations=200") == {"decisions": [1, 2]}
    assert store.load_analysis("g", "mcts:iterations=400") is None  # another analyser's
    store.save_analysis("g", "mcts:iterations=400", {"decisions": [3]})  # takes its place
    assert store.load_analysis("g", "mcts:iterations=400") == {"decisions": [3]}
    assert store.load_analysis("g", "mcts:iterations=200") is None


def test_a_database_from_before_move_times_is_upgraded_and_lists_its_games(db_url: str) -> None:
    engine = database_at(
        db_url,
        "0003",
        "INSERT INTO games (id, game, players, options, seed, status, created, engine, "
        "record_data) VALUES ('old', 'cafe', 2, '{}', 7, 'running', "
        "'2026-01-01 00:00:00', 1, '{}')",
        "INSERT INTO actions (game_id, ply, notation, player) VALUES ('old', 0, 'x', 0)",
    )
    engine.dispose()
    store = Store(db_url)  # migrates to the newest schema at start
    assert "created" in {c["name"] for c in inspect(store.engine).get_columns("actions")}
    [old] = store.listing(None, 10)
    assert old.game.id == "old" and old.plies == 1 and old.last_move is None  # not known
    store.add_action("old", 1, "y", 1)
    [old] = store.listing("running", 10)
    assert old.plies == 2 and old.last_move is not None
    assert abs((now() - old.last_move).total_seconds()) < 300
    loaded = store.load("old")
    assert loaded is not None and loaded.actions == ["x", "y"]


def test_a_rematch_seat_s_old_link_still_opens_it_once_upgraded(db_url: str) -> None:
    """A seat made when a rematch seat kept one digest, the old game's, keeps it (as a list of
    one) and is opened by the old link as before; a seat without one gets an empty list."""
    engine = database_at(
        db_url,
        "0005",
        "INSERT INTO games (id, game, players, options, seed, status, created, engine, "
        "record_data) VALUES ('new', 'cafe', 2, '{}', 7, 'open', '2026-01-01 00:00:00', 1, '{}')",
        "INSERT INTO seats (game_id, seat, kind, name, token_digest, joined, previous_digest) "
        f"VALUES ('new', 0, 'human', 'Ada', '{digest('new-link')}', 0, '{digest('old-link')}')",
        "INSERT INTO seats (game_id, seat, kind, name, bot, joined) "
        "VALUES ('new', 1, 'bot', 'R', 'random', 0)",
    )
    engine.dispose()
    store = Store(db_url)  # migrates to the newest schema at start
    seats = store.seats("new")
    assert seats is not None
    assert seats[0].previous_digests == [digest("old-link")] and seats[1].previous_digests == []
    assert [seat.opened_by("old-link") for seat in seats] == [True, False]
    assert [seat.opened_by("new-link") for seat in seats] == [True, False]
    assert store.seats("none") is None

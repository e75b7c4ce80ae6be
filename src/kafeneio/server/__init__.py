"""The web server: play both games in the browser against bots or friends.

`serve` runs the FastAPI app (`kafeneio.server.app`) on uvicorn with its data in an SQLite file
(its path, or any SQLAlchemy database URL).
"""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path
from typing import IO, Any

from kafeneio.core.errors import KafeneioError

MAX_BOT_GAMES = 8
"""Games of bots alone a server plays at once, at most, unless told otherwise (`serve
--max-bot-games`): anyone who reaches the server may start one, and forty of them, each
searching, kept a person's opponent 30 to 70 seconds from its reply (`Hub.create` refuses
more, `bots-busy`)."""

__all__ = [
    "DEFAULT_DATA",
    "check_writable",
    "database_url",
    "default_db_url",
    "hold_database",
    "listen",
    "serve",
]

DEFAULT_DATA = Path("kafeneio-data")


def default_db_url(data: Path = DEFAULT_DATA) -> str:
    """An SQLite file in the data folder, which is made if missing (`ValueError` where it
    cannot be: a working directory the server may not write in)."""
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ValueError(
            f"cannot make the data folder {data.absolute()}: {err.strerror or err} (start the "
            "server in a folder it may write in, or give --db FILE)"
        ) from None
    return f"sqlite:///{(data / 'kafeneio.sqlite3').resolve()}"


def database_url(db: str | None) -> str:
    """The database URL for `--db`: None for the default file, a SQLAlchemy URL as it is, or
    the path of an SQLite file (made with its folder if missing). `ValueError`, saying why,
    for a URL SQLAlchemy cannot read."""
    if db is None:
        return default_db_url()
    if not db.strip():
        raise ValueError("--db is empty: give a database URL or a file path")
    if "://" not in db:
        path = Path(db).expanduser()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise ValueError(
                f"cannot make the folder of --db {db}: {err.strerror or err}"
            ) from None
        return f"sqlite:///{path.resolve()}"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        parsed = make_url(db)
    except ArgumentError:
        raise ValueError(
            f"--db {db!r} is neither a database URL (like sqlite:///games.sqlite3) nor a file path"
        ) from None
    memory = parsed.database in {None, "", ":memory:"} or "mode=memory" in db
    if parsed.get_backend_name() == "sqlite" and memory:
        # each thread of the server would see a database of its own, and a stop loses all
        raise ValueError(f"--db {db} keeps the games in memory: give a file (--db games.sqlite3)")
    return db


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_pause: float = 0.6,
    card_sets: dict[str, str] | None = None,
    access_log: bool = True,
    allowed_hosts: frozenset[str] = frozenset(),
    max_bot_games: int = MAX_BOT_GAMES,
) -> None:
    """Run the server until interrupted, printing the address to open; `allowed_hosts`, the
    names it answers to beyond this machine's, and whose pages may open its websockets and send it
    moves (a proxy's in front of it); `max_bot_games`, the games of bots alone it plays at once."""
    import uvicorn

    from kafeneio.server.app import LOOPBACK_HOSTS, MAX_BODY, create_app, host_name

    url = database_url(db)
    listening = listen(host, port)  # first: a busy port leaves the database untouched
    held = None
    try:
        held = hold_database(url)  # kept open while the server runs: its lock goes with it
        check_writable(url)
        bring_up_to_date(url)  # now, not after the address to open is printed
    except BaseException:
        for bound in listening:
            bound.close()
        if held is not None:
            held.close()
        raise
    # a server on this machine alone answers only to its names and those allowed (`HostCheck`)
    loopback = host in {"127.0.0.1", "localhost", "::1"}
    hosts = LOOPBACK_HOSTS | {host_name(allowed) for allowed in allowed_hosts} if loopback else None
    app = create_app(
        url,
        bot_pause=bot_pause,
        card_sets=card_sets,
        hosts=hosts,
        origins=allowed_hosts,
        max_bot_games=max_bot_games,
    )
    port = listening[0].getsockname()[1]  # the one the system chose for --port 0
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0", "::"} else host
    shown = f"[{shown}]" if ":" in shown else shown  # an IPv6 address, as a URL writes it
    # which database: a default folder made in another working directory, or a --db mistyped
    # (its folders are made), would look like the club's games lost
    sqlite_file = _sqlite_file(url)
    kept = sqlite_file.resolve() if sqlite_file is not None else shown_url(url)
    print(f"kafeneio: the games are kept in {kept}", flush=True)
    print(f"kafeneio: open http://{shown}:{port}/ in your browser (Ctrl-C stops)", flush=True)
    if not loopback:
        print(
            f"kafeneio: other machines open http://THIS-MACHINE'S-ADDRESS:{port}/ (listening on "
            f"{host}). Anyone who reaches it may make, watch and analyse games, and the seat "
            "links travel unencrypted (plain HTTP): serve a network you trust.",
            flush=True,
        )
    # a websocket message is read up to the size of a request's body, not uvicorn's 16 MB
    config = uvicorn.Config(app, access_log=access_log, log_level="info", ws_max_size=MAX_BODY)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=listening)
    finally:
        for bound in listening:
            bound.close()
        if held is not None:
            held.close()


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to `host` and `port` for the server, one an address the name resolves to
    (``localhost``: 127.0.0.1 and ::1), as asyncio binds them, or `KafeneioError` saying why
    not, before anything is printed or opened: the address to open was printed, then uvicorn's
    "address already in use", and that address led to whatever held the port."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as err:
        raise KafeneioError(f"cannot listen on {host!r}: {err.strerror}") from None
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(found):  # each address once
            if sockets and port == 0:  # the port the system chose, on every address
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            bound = _bound(family, kind, proto, address, several=len(found) > 1)
            if bound is not None:
                sockets.append(bound)
    except OSError as err:
        for bound in sockets:
            bound.close()
        busy = err.errno == errno.EADDRINUSE
        raise KafeneioError(
            f"cannot listen on {host}:{port}: "
            + (
                "another program (another kafeneio server?) is using that port: stop it, or "
                "choose another with --port"
                if busy
                else str(err.strerror or err)
            )
        ) from None
    if not sockets:
        raise KafeneioError(f"cannot listen on {host}:{port}: no address of it can be bound here")
    return sockets


def _bound(
    family: int, kind: int, proto: int, address: tuple[Any, ...], several: bool
) -> socket.socket | None:
    """A socket bound to `address` and listening; None where its family is not enabled here
    (asyncio skips such an address too)."""
    try:
        bound = socket.socket(family, kind, proto)
    except OSError as err:
        if err.errno in NOT_HERE:
            return None
        raise
    try:
        if os.name == "posix":  # elsewhere it would let a second server take a busy port
            bound.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and several:  # its IPv4 twin is bound apart
            bound.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        bound.bind(address)
        bound.listen(2048)  # uvicorn's backlog: the address printed next answers at once
    except OSError as err:
        bound.close()
        if err.errno in NOT_HERE:
            return None
        raise
    return bound


NOT_HERE = frozenset({errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EPROTONOSUPPORT})
"""Why an address cannot be bound on this machine at all (its family not enabled here, as
IPv6 on a kernel without it): skipped where a name has other addresses."""


def _sqlite_file(url: str) -> Path | None:
    """The file of an SQLite database URL (``sqlite:///path``, or a ``file:`` URI), or None:
    another database, or one in memory."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    name = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or name in {"", ":memory:"}:
        return None
    if name.startswith("file:"):
        name = name[len("file:") :].split("?", 1)[0]
    return Path(name)


def hold_database(url: str) -> IO[str] | None:
    """Lock an SQLite database file for this server (a ``.lock`` file beside it), so that a
    second server refuses to start on it: each keeps its games in memory and writes them, and
    two would overwrite each other's moves (a game abandoned on one went on on the other).
    `KafeneioError` when another server holds it; None where there is no file to lock (another
    database, or a system without `fcntl`)."""
    path = _sqlite_file(url)
    try:
        import fcntl
    except ImportError:  # Windows: no advisory locks here
        return None
    if path is None:
        return None
    # the file itself, not a link to it: a URL through a symlink locked its own name, and a
    # second server ran on the same file
    path = path.resolve()
    try:
        lock = open(f"{path}.lock", "w")  # noqa: SIM115  # held open for the server's life
    except OSError as err:
        raise KafeneioError(
            f"cannot write beside the database {path} (its lock, {path}.lock): "
            f"{err.strerror or err}"
        ) from None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise KafeneioError(
            f"another kafeneio server is using {path}: stop it first, or give this one "
            "another --db (two servers on one database overwrite each other's games)"
        ) from None
    return lock


def check_writable(url: str) -> None:
    """`KafeneioError` unless the server can write its SQLite database (a read-only file, or a
    ``mode=ro`` URL): it would start, then fail every move and every new game."""
    if _sqlite_file(url) is None:
        return
    import sqlalchemy

    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:  # a write that changes nothing
            version = connection.exec_driver_sql("PRAGMA user_version").scalar()
            connection.exec_driver_sql(f"PRAGMA user_version = {int(version or 0)}")
            connection.commit()
    except sqlalchemy.exc.DatabaseError as err:  # read-only; not a database at all
        raise KafeneioError(f"cannot write the database {shown_url(url)}: {err.orig}") from None
    finally:
        engine.dispose()


def bring_up_to_date(url: str) -> None:
    """Open the database as the server will, its schema brought to this version's (`Store`):
    `KafeneioError`, saying why, where it cannot be (a driver not installed, a schema of a
    newer kafeneio, a file that is no database), before the server starts."""
    import sqlalchemy
    from alembic.util.exc import CommandError

    from kafeneio.server.store import Store

    try:
        Store(url).engine.dispose()
    except (ImportError, sqlalchemy.exc.NoSuchModuleError) as err:  # missing, or unloadable
        raise KafeneioError(
            f"--db {shown_url(url)} needs a database driver that is not installed ({err}): "
            "install it in this environment (PostgreSQL: pip install 'psycopg[binary]')"
        ) from None
    except CommandError as err:
        raise KafeneioError(
            f"the database {shown_url(url)} has a schema this kafeneio does not know ({err}): "
            "it was made by a newer version; run that one, or give another --db"
        ) from None
    except sqlalchemy.exc.DatabaseError as err:
        raise KafeneioError(f"cannot use the database {shown_url(url)}: {err.orig}") from None


def shown_url(url: str) -> str:
    """A database URL as it may be printed in a log: its password hidden, and its query left
    out (which may hold one too: ``?password=...``)."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(query={}).render_as_string(hide_password=True)

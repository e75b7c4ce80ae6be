"""The web server: play both games in the browser against bots or friends.

`serve` runs the FastAPI app (`kafeneio.server.app`) on uvicorn with its data in an SQLite file
(its path, or any SQLAlchemy database URL).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["DEFAULT_DATA", "database_url", "default_db_url", "serve"]

DEFAULT_DATA = Path("kafeneio-data")


def default_db_url(data: Path = DEFAULT_DATA) -> str:
    """An SQLite file in the data folder, which is made if missing."""
    data.mkdir(parents=True, exist_ok=True)
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
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path.resolve()}"
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(db)
    except ArgumentError:
        raise ValueError(
            f"--db {db!r} is neither a database URL (like sqlite:///games.sqlite3) nor a file path"
        ) from None
    return db


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_pause: float = 0.6,
    card_sets: dict[str, str] | None = None,
    access_log: bool = True,
) -> None:
    """Run the server until interrupted, printing the address to open."""
    import uvicorn

    from kafeneio.server.app import create_app

    app = create_app(database_url(db), bot_pause=bot_pause, card_sets=card_sets)
    shown = "localhost" if host in {"127.0.0.1", "0.0.0.0"} else host
    print(f"kafeneio: open http://{shown}:{port}/ in your browser (Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, access_log=access_log, log_level="info")

"""The `kafeneio serve` command's own checks (the server itself runs in the other tests)."""

from __future__ import annotations

import errno
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kafeneio.cli import app
from kafeneio.core import KafeneioError
from kafeneio.server import (
    bring_up_to_date,
    check_writable,
    database_url,
    default_db_url,
    hold_database,
    listen,
)


def test_serve_refuses_a_card_set_that_is_no_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--cards", f"mine={tmp_path / 'none'}"])
    assert result.exit_code == 2
    assert "NAME=DIR" in result.output


def test_serve_refuses_a_bad_card_set_at_its_start(tmp_path: Path) -> None:
    """A bad set was offered in the lobby, and failed only when a player picked it, with the
    host's path in the message."""
    (tmp_path / "empty").mkdir()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "shops.toml").write_text("this is [not toml", encoding="utf-8")
    for name, folder in (("empty", "empty"), ("bad one", "bad")):
        result = CliRunner().invoke(app, ["serve", "--cards", f"{name}={tmp_path / folder}"])
        assert result.exit_code == 2, result.output
        assert result.output.startswith(f"error: --cards {name}: "), result.output


def test_serve_takes_a_cap_on_games_of_bots_alone_within_bounds() -> None:
    for wrong in ("0", "1001"):
        result = CliRunner().invoke(app, ["serve", "--max-bot-games", wrong])
        assert result.exit_code == 2 and "--max-bot-games must be from 1 to 1000" in result.output


def test_the_default_database_is_a_file_in_a_data_folder_it_makes(tmp_path: Path) -> None:
    url = default_db_url(tmp_path / "data")
    assert url == f"sqlite:///{(tmp_path / 'data' / 'kafeneio.sqlite3').resolve()}"
    assert (tmp_path / "data").is_dir()


def test_the_database_may_be_a_file_path_or_a_url(tmp_path: Path) -> None:
    path = tmp_path / "new" / "games.sqlite3"
    assert database_url(str(path)) == f"sqlite:///{path.resolve()}"
    assert path.parent.is_dir()  # made, so SQLite can make the file
    assert database_url("sqlite:///x.sqlite3") == "sqlite:///x.sqlite3"


@pytest.mark.parametrize(("db", "says"), [("no such://thing", "neither"), (" ", "empty")])
def test_serve_refuses_a_database_it_cannot_use(db: str, says: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--db", db])
    assert result.exit_code == 2
    assert says in result.output


def test_a_second_server_on_one_database_is_refused(tmp_path: Path) -> None:
    """Two servers on one file each kept its games in memory and wrote them: a game abandoned
    on one went on on the other, and the file held a running game's moves under "abandoned"."""
    path = tmp_path / "games.sqlite3"
    url = database_url(str(path))
    held = hold_database(url)
    assert held is not None
    try:
        with pytest.raises(KafeneioError, match="another kafeneio server is using"):
            hold_database(url)
        result = CliRunner().invoke(app, ["serve", "--db", str(path), "--port", "0"])
        assert result.exit_code == 2 and "another kafeneio server is using" in result.output
        # a URL through a symbolic link to the same file locked the link's own name
        link = tmp_path / "link.sqlite3"
        link.symlink_to(path)
        with pytest.raises(KafeneioError, match="another kafeneio server is using"):
            hold_database(f"sqlite:///{link}")
    finally:
        held.close()
    again = hold_database(url)  # free once the first has stopped
    assert again is not None
    again.close()
    assert hold_database("sqlite://") is None  # in memory: nothing to share


def test_a_database_the_server_cannot_write_is_refused_at_the_start(tmp_path: Path) -> None:
    """A read-only database started, then failed every move and new game with a bare 500."""
    path = tmp_path / "games.sqlite3"
    check_writable(database_url(str(path)))  # made, and written
    read_only = f"sqlite:///file:{path}?mode=ro&uri=true"
    with pytest.raises(KafeneioError, match=r"cannot write the database .*readonly"):
        check_writable(read_only)
    result = CliRunner().invoke(app, ["serve", "--db", read_only, "--port", "0"])
    assert result.exit_code == 2 and "cannot write the database" in result.output


def test_a_database_it_cannot_use_is_one_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A self-hoster's review: a file that is no database, a folder that cannot be made, a
    lock that cannot be written beside it, a schema of a newer kafeneio and a missing driver
    each printed a traceback (some after the address to open)."""
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_bytes(bytes(range(256)) * 16)
    blocker = tmp_path / "afile"
    blocker.write_text("")
    for driver in ("psycopg", "psycopg2"):  # not installed, wherever the tests run
        monkeypatch.setitem(sys.modules, driver, None)
    cases = [
        (str(corrupt), "cannot write the database sqlite:///"),
        (str(blocker / "sub" / "x.sqlite3"), "cannot make the folder of --db"),
        ("postgresql://club:secret@127.0.0.1/x", "needs a database driver that is not installed"),
        # a password may be in the query too, which no line prints
        ("postgresql+psycopg://club@127.0.0.1/x?password=secret", "needs a database driver"),
        # each thread would have a database of its own, and a stop would lose every game
        ("sqlite://", "keeps the games in memory: give a file"),
        ("sqlite:///:memory:", "keeps the games in memory"),
    ]
    for db, says in cases:
        result = CliRunner().invoke(app, ["serve", "--db", db, "--port", "0"])
        assert result.exit_code == 2 and says in result.output, result.output
        assert result.output.startswith("error: ") and result.output.count("\n") == 1
        assert "secret" not in result.output and "open http" not in result.output
    newer = tmp_path / "newer.sqlite3"
    url = database_url(str(newer))
    bring_up_to_date(url)  # made at this version's schema, then marked as a newer one's
    with sqlite3.connect(newer) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    result = CliRunner().invoke(app, ["serve", "--db", str(newer), "--port", "0"])
    assert result.exit_code == 2 and "made by a newer version" in result.output, result.output
    if Path("/proc/self").is_dir():  # no file can be made there, root or not
        with pytest.raises(KafeneioError, match="cannot write beside the database"):
            hold_database("sqlite:////proc/self/games.sqlite3")
        monkeypatch.chdir("/proc/self")  # the default data folder cannot be made here
        result = CliRunner().invoke(app, ["serve", "--port", "0"])
        assert result.exit_code == 2 and "cannot make the data folder" in result.output
        assert "give --db FILE" in result.output and result.output.count("\n") == 1


def test_a_busy_port_is_refused_before_the_database_is_opened(tmp_path: Path) -> None:
    """The address to open was printed, then uvicorn's "address already in use": the address
    led to whatever held the port, and the database was made and locked for nothing."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        path = tmp_path / "games.sqlite3"
        result = CliRunner().invoke(app, ["serve", "--db", str(path), "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}: another program" in result.output
    assert "--port" in result.output and "open http" not in result.output
    assert not path.exists() and not Path(f"{path}.lock").exists()
    result = CliRunner().invoke(app, ["serve", "--host", "no.such.host.invalid", "--port", "0"])
    assert result.exit_code == 2 and "cannot listen on 'no.such.host.invalid'" in result.output


def test_port_0_serves_on_a_free_port_and_says_which(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "kafeneio", "serve", "--port", "0", "--db"]
    with subprocess.Popen(
        [*command, str(tmp_path / "games.sqlite3")], stdout=subprocess.PIPE, text=True
    ) as server:
        try:
            assert server.stdout is not None
            kept = server.stdout.readline()  # which database, first: a mistyped --db shows
            path = (tmp_path / "games.sqlite3").resolve()  # whatever folder a link led to
            assert kept == f"kafeneio: the games are kept in {path}\n"
            line = server.stdout.readline()  # printed once it listens
            address = line.split("open http://localhost:", 1)[1].split("/", 1)[0]
            assert int(address) > 0
            with socket.create_connection(("127.0.0.1", int(address)), timeout=10):
                pass  # it listens there
        finally:
            server.terminate()


def test_a_name_is_listened_on_at_every_address_it_resolves_to() -> None:
    """As asyncio binds a host name (``localhost``: 127.0.0.1, and ::1 where it resolves so),
    on one port, the one the system chose for port 0."""
    resolved = {info[4][0] for info in socket.getaddrinfo("localhost", 0, type=socket.SOCK_STREAM)}
    sockets = listen("localhost", 0)
    try:
        assert {bound.getsockname()[0] for bound in sockets} <= resolved
        assert len({bound.getsockname()[1] for bound in sockets}) == 1
    finally:
        for bound in sockets:
            bound.close()


def test_an_address_of_a_family_not_enabled_here_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`localhost` resolving to ::1 too, on a kernel without IPv6: the socket could not be
    made and the whole server was refused, where asyncio binds 127.0.0.1 alone."""
    real_getaddrinfo, real_socket = socket.getaddrinfo, socket.socket
    stream = (socket.SOCK_STREAM, socket.IPPROTO_TCP, "")
    monkeypatch.setattr(
        socket,
        "getaddrinfo",
        lambda *args, **kwargs: [
            (socket.AF_INET6, *stream, ("::1", 0, 0, 0)),
            *real_getaddrinfo("127.0.0.1", 0, type=socket.SOCK_STREAM),
        ],
    )

    def no_ipv6(family: int = socket.AF_INET, *args: Any) -> socket.socket:
        if family == socket.AF_INET6:
            raise OSError(errno.EAFNOSUPPORT, "Address family not supported by protocol")
        return real_socket(family, *args)

    monkeypatch.setattr(socket, "socket", no_ipv6)
    sockets = listen("localhost", 0)
    try:
        assert [bound.getsockname()[0] for bound in sockets] == ["127.0.0.1"]
    finally:
        for bound in sockets:
            bound.close()

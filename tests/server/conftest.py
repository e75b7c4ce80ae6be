"""Fixtures of the server tests: an app over a fresh SQLite file, driven in-process."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

import sqlalchemy  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from kafeneio.server.app import create_app  # noqa: E402


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_pause=0.0)) as test_client:
        yield test_client


def create(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    """Create a game; seats are "human" or a bot's name."""
    body = {
        "game": game,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "options": options,
    }
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def token_of(created: dict[str, Any], seat: int) -> str:
    link = next(link for link in created["links"] if link["seat"] == seat)
    path: str = link["path"]
    return path.split("token=", 1)[1]


def wait_for(check: Callable[[], Any], seconds: float = 20.0) -> Any:
    """Poll until `check` returns something true (bots play on the server's loop)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.02)
    raise AssertionError("timed out waiting for the server")


@dataclass
class LiveServer:
    """`kafeneio serve` in its own process, on a free port of 127.0.0.1."""

    db_url: str
    log: Path
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    said_from: int = 0
    """Where in the log this start's lines begin (a restart writes on after the last)."""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, bot_pause: float = 0.0, *options: str) -> LiveServer:
        """Start it; `options`, more of `serve`'s (``--allow-host``, ``NAME``). It listens on
        a port the system chooses (``--port 0``) and says which: a free port chosen here and
        given to it could be taken meanwhile by another test's server (tests run in parallel),
        and this one's requests would then reach that one."""
        self.port = 0
        self.said_from = self.log.stat().st_size if self.log.exists() else 0
        command = [
            str(Path(sys.executable).with_name("kafeneio")),
            "serve",
            "--port",
            "0",
            "--db",
            self.db_url,
            "--bot-pause",
            str(bot_pause),
            *options,
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_for(self.ready, seconds=30)
        return self

    def ready(self) -> bool:
        if not self.port:  # the port it said, in its log, after what earlier starts said
            said = self.log.read_bytes()[self.said_from :].decode(errors="replace")
            found = re.search(r"open http://localhost:(\d+)/", said)
            if found is None:
                assert self.process is not None and self.process.poll() is None, said
                return False
            self.port = int(found.group(1))
        try:
            self.get("/api/catalog")
        except OSError:
            assert self.process is not None and self.process.poll() is None, self.log.read_text()
            return False
        return True

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"X-Seat-Token": token} if token else {}
        request = urllib.request.Request(self.base + path, headers=headers)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["X-Seat-Token"] = token
        request = urllib.request.Request(
            self.base + path, data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.load(response)

    def kill(self) -> None:
        """kill -9: no shutdown, no flushing; what is not committed is lost."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


@pytest.fixture
def live_server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(db_url, tmp_path / "server.log")
    yield server
    server.stop()


def mentions(text: str, name: str) -> bool:
    """`name` stands in `text` as a whole name (patient-customer is not in impatient-customer)."""
    return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) is not None


def age(db_url: str, game_id: str, days: float) -> None:
    """Make a game and its moves `days` older, as if nobody had touched it since."""
    engine = sqlalchemy.create_engine(db_url)
    with engine.begin() as connection:
        for table, key in (("games", "id"), ("actions", "game_id")):
            rows = connection.execute(
                sqlalchemy.text(f"SELECT rowid, created FROM {table} WHERE {key} = :g"),
                {"g": game_id},
            ).all()
            for rowid, created in rows:
                older = datetime.fromisoformat(created) - timedelta(days=days)
                connection.execute(
                    sqlalchemy.text(f"UPDATE {table} SET created = :c WHERE rowid = :r"),
                    {"c": older.isoformat(sep=" "), "r": rowid},
                )
    engine.dispose()

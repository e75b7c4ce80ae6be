"""Action latency of the web server under load: many games with bots, one websocket each.

Starts `kafeneio serve` on 127.0.0.1 with a fresh SQLite file, creates GAMES games (half Café
International, half Souvlaki Wars; each a person against bots), connects one websocket per
game as that person, and for SECONDS plays: whenever it is the person's turn, the client sends
a legal action and times how long the server takes to answer with the new state (written to the
database, applied, and sent). Bot thinking is not in the figure: the answer comes before the bot
moves (bots wait --bot-pause and think in the server's thread pool meanwhile, which is the load).

    .venv/bin/python scripts/bench_server.py --games 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets


def post(base: str, path: str, body: Any) -> Any:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def start_server(port: int, db: Path, bot_pause: float) -> subprocess.Popen[bytes]:
    command = [
        str(Path(sys.executable).with_name("kafeneio")),
        "serve",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{db}",
        "--bot-pause",
        str(bot_pause),
    ]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120  # a loaded machine starts Python slowly
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=2)
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def create_games(base: str, count: int) -> list[tuple[str, str]]:
    games = []
    for index in range(count):
        if index % 2:
            body = {
                "game": "souvlaki",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            }
        else:
            body = {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
        created = post(base, "/api/games", body)
        games.append((created["id"], created["links"][0]["path"].split("token=", 1)[1]))
    return games


async def client(
    port: int,
    game_id: str,
    token: str,
    until: float,
    rng: random.Random,
    latencies: list[float],
    errors: list[str],
) -> None:
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/games/{game_id}", max_size=2**24
    ) as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_ply = -1
        while time.monotonic() < until:
            try:
                message = json.loads(
                    await asyncio.wait_for(socket.recv(), until - time.monotonic())
                )
            except TimeoutError:
                return
            if message["type"] == "error":
                errors.append(message["message"])
                sent_at = None
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None and message["ply"] > sent_ply:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if message["your_turn"] and sent_at is None and message["legal"]:
                await asyncio.sleep(rng.uniform(0.05, 0.5))  # a person takes a moment
                action = rng.choice(message["legal"])["notation"]
                sent_ply = message["ply"]
                sent_at = time.perf_counter()
                await socket.send(json.dumps({"type": "action", "ply": sent_ply, "action": action}))


async def run(
    port: int, games: list[tuple[str, str]], seconds: float
) -> tuple[list[float], list[str]]:
    latencies: list[float] = []
    errors: list[str] = []
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(
            client(port, game_id, token, until, random.Random(i), latencies, errors)
            for i, (game_id, token) in enumerate(games)
        )
    )
    return latencies, errors


def cpu_seconds(pid: int) -> float:
    """CPU time used by a process so far (Linux /proc), user and system."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--bot-pause", type=float, default=0.5)
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(args.port, Path(folder) / "bench.sqlite3", args.bot_pause)
        try:
            base = f"http://127.0.0.1:{args.port}"
            started = time.monotonic()
            games = create_games(base, args.games)
            print(f"{len(games)} games made in {time.monotonic() - started:.1f} s", file=sys.stderr)
            cpu_before, own_before = cpu_seconds(server.pid), cpu_seconds(os.getpid())
            latencies, errors = asyncio.run(run(args.port, games, args.seconds))
            server_cpu = cpu_seconds(server.pid) - cpu_before
            client_cpu = cpu_seconds(os.getpid()) - own_before
        finally:
            server.terminate()
            server.wait(timeout=30)
    if not latencies:
        raise SystemExit("no action was answered")
    ms = [1000 * value for value in latencies]
    print(
        f"{args.games} games, {args.games} websockets, {args.seconds:.0f} s, bot pause "
        f"{args.bot_pause} s: {len(ms)} actions answered ({len(ms) / args.seconds:.1f}/s), "
        f"{len(errors)} refused"
    )
    print(
        f"latency ms: p50 {percentile(ms, 0.5):.1f}  p95 {percentile(ms, 0.95):.1f}  "
        f"p99 {percentile(ms, 0.99):.1f}  max {max(ms):.1f}  mean {statistics.fmean(ms):.1f}"
    )
    share = 100 * server_cpu / args.seconds
    print(
        f"server CPU {server_cpu:.1f} s in {args.seconds:.0f} s ({share:.0f}% of one core, bots "
        f"included); this client {client_cpu:.1f} s; machine load average "
        f"{os.getloadavg()[0]:.1f}"
    )


if __name__ == "__main__":
    main()

"""Every payload of a whole Souvlaki Wars game (API, websocket, record downloads) is scanned for
anything its viewer may not see: other players' hands, the seed, chance outcomes."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient

from kafeneio.core import CHANCE, SPECTATOR, State
from kafeneio.games import get_game, load_record
from kafeneio.server import sessions
from kafeneio.server.app import create_app
from kafeneio.server.contract import HIDDEN_CHANCE, history_log
from server.conftest import LiveServer, create, mentions, token_of, wait_for

HUMANS = 2
FIELDS = {"seat", "kind", "name", "bot", "budget", "joined", "connected"}
FIELDS |= {"ply", "player", "text", "events", "notation", "words", "gain"}
"""The field names of a view's seats, log entries and legal moves."""
REPLAY_SEED = 1
"""A seed whose game of three heuristic bots has a chance outcome (a Ninja's or Rats')."""


def leaves(data: Any) -> set[str]:
    """Every text in `data`: values and the keys of objects (card names are keys of counts)."""
    if isinstance(data, dict):
        return set(data).union(*(leaves(value) for value in data.values()))
    if isinstance(data, list):
        return set().union(*(leaves(value) for value in data)) if data else set()
    return {data} if isinstance(data, str) else set()


def whole_logs(messages: list[Any]) -> list[Any]:
    """Websocket messages with each view's log made whole (a view brings only new entries)."""
    log: list[Any] = []
    whole = []
    for message in messages:
        if message.get("type") == "state":
            assert message["log_from"] <= len(log)  # no gap
            log = log[: message["log_from"]] + message["log"]
            message = {**message, "log": log, "log_from": 0}
        whole.append(message)
    return whole


async def watch(server: LiveServer, game_id: str, token: str | None, inbox: list[Any]) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as socket:
        await socket.send(json.dumps({"type": "hello", "token": token}))
        async for message in socket:
            inbox.append(json.loads(message))
            if inbox[-1].get("over"):
                return


async def play(server: LiveServer, game_id: str, tokens: list[str], seen: list[Any]) -> None:
    """Both humans play random legal moves (and try a few illegal ones) until the end."""
    rng = random.Random(5)
    loop = asyncio.get_running_loop()
    while True:
        for token in tokens:
            view = await loop.run_in_executor(None, server.get, f"/api/games/{game_id}", token)
            seen.append(("api", token, view))
            if view["over"]:
                return
            if rng.random() < 0.1:
                record = await loop.run_in_executor(
                    None, server.get, f"/api/games/{game_id}/record", token
                )
                seen.append(("record", token, record))
            if view["your_turn"]:
                action = rng.choice(view["legal"])["notation"]
                body = {"ply": view["ply"], "action": action}
                answer = await loop.run_in_executor(
                    None, server.post, f"/api/games/{game_id}/actions", body, token
                )
                seen.append(("api", token, answer))
        await asyncio.sleep(0.01)


async def whole_game(server: LiveServer) -> tuple[dict[str, Any], list[Any], dict[Any, list[Any]]]:
    created = server.post(
        "/api/games",
        {
            "game": "souvlaki",
            "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
            "options": {"round_limit": 3},
        },
    )
    tokens = [token_of(created, seat) for seat in range(HUMANS)]
    inboxes: dict[Any, list[Any]] = {seat: [] for seat in (*range(HUMANS), None)}
    watchers = [
        asyncio.create_task(watch(server, created["id"], tokens[s] if s is not None else None, box))
        for s, box in inboxes.items()
    ]
    seen: list[Any] = []
    await asyncio.wait_for(play(server, created["id"], tokens, seen), 120)
    await asyncio.wait_for(asyncio.gather(*watchers), 30)
    return created, seen, inboxes


def test_no_payload_holds_what_its_viewer_may_not_see(live_server: LiveServer) -> None:
    server = live_server.start()
    created, seen, inboxes = asyncio.run(whole_game(server))
    tokens = [token_of(created, seat) for seat in range(HUMANS)]
    record = server.get(f"/api/games/{created['id']}/record")
    assert record["seed"] is not None  # the full record, now that the game is over
    states = [load_record({**record, "actions": []})]  # the true state at every ply
    for text in record["actions"]:
        states.append(states[-1].clone())
        states[-1].apply(states[-1].parse_legal(text))
    payloads = [(tokens.index(token), kind, body) for kind, token, body in seen]
    payloads += [(seat, "ws", body) for seat, box in inboxes.items() for body in whole_logs(box)]
    checked = 0
    for viewer, kind, body in payloads:
        text = json.dumps(body)
        if body.get("over"):
            continue  # once the game is over everything may be shown
        assert '"seed"' not in text and str(record["seed"]) not in text
        ply = body["ply"] if kind != "record" else len(body["log"])
        state = states[ply]
        mine = state.observation(SPECTATOR if viewer is None else viewer)
        public = leaves(state.observation(SPECTATOR)) | leaves(mine)
        for other in range(state.num_players):
            if other == viewer:
                continue
            hand = state.observation(other)["hand"]
            secret = set(hand["unforeseen"]) - public
            leaked = [k for k in secret if mentions(text, k)]
            assert not leaked, (
                viewer,
                other,
                leaked,
                [text[max(0, text.index(k) - 300) : text.index(k) + 50] for k in leaked],
            )
            if hand != mine.get("hand"):
                assert json.dumps(hand) not in text
        if body.get("type") == "state" or kind == "record":
            assert body["observation"] == mine
            assert not any(entry["text"].startswith("random ") for entry in body["log"])
            history = state.history_for(SPECTATOR if viewer is None else viewer)
            for shown, entry in zip(body["log"], history, strict=True):
                assert shown["events"] == list(entry.events)  # the contract's words, no more
                assert shown["text"] == entry.action or shown["text"] == HIDDEN_CHANCE
        if body.get("type") == "state":
            if not body["your_turn"]:
                assert body["legal"] == []
            else:  # the moves in the words the game gives their mover, and only to the mover
                assert viewer == state.current_player()
                words = {a.notation: state.action_words(a) for a in state.legal_actions()}
                assert {m["notation"]: m["words"] for m in body["legal"]} == words
            allowed = public | leaves(body["log"]) | leaves(body["legal"])
            allowed |= leaves(body["seats"]) | leaves(body["options"])
            allowed |= {body["id"], body["game"], body["title"], body["status"], body["type"]}
            allowed |= set(body) | FIELDS
            assert leaves(body) <= allowed, leaves(body) - allowed
        checked += 1
    assert checked > 50
    log = live_server.log.read_text()
    assert "GET /api/games" in log  # the access log is on...
    assert not any(token in log for token in tokens)  # ...and holds no join token
    assert {viewer for viewer, _, _ in payloads} == {0, 1, None}


def souvlaki_with_a_chance_outcome() -> State:
    """A finished seeded Souvlaki game of random moves in which chance took a food card."""
    game = get_game("souvlaki")
    for seed in range(40):
        state = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        if CHANCE in (entry.player for entry in state.history_for(SPECTATOR)):
            return state
    raise AssertionError("no game of 40 had a chance outcome")


def test_a_chance_outcome_is_named_in_the_log_once_the_game_is_played_no_more() -> None:
    """Which food card chance took is in the full record, which anybody may download once the
    game ended; before, every viewer's log line for it says only what it was."""
    final = souvlaki_with_a_chance_outcome()
    record = final.to_record()
    last = max(e.ply for e in final.history_for(SPECTATOR) if e.player == CHANCE)
    before = load_record({**record, "actions": record["actions"][: last + 1]})  # played on
    for viewer in (None, 0, 1, 2):
        for state, over in ((before, False), (before, True), (final, True)):
            log = history_log(state, viewer, over=over)
            chances = [entry for entry in log if entry["player"] is None]
            assert chances
            for entry in chances:
                outcome = record["actions"][entry["ply"]]
                assert outcome.startswith("random ")
                assert entry["text"] == (outcome if over else "a random food card")


def test_a_finished_game_s_replay_names_what_chance_took(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sessions.secrets, "randbelow", lambda _: REPLAY_SEED)
    created = create(client, "souvlaki", ["heuristic", "heuristic", "heuristic"])
    game_id = created["id"]
    wait_for(lambda: client.get(f"/api/games/{game_id}").json()["over"], seconds=60)
    actions = client.get(f"/api/games/{game_id}/record").json()["actions"]
    chance_plies = [ply for ply, text in enumerate(actions) if text.startswith("random ")]
    assert chance_plies  # the seed is one whose game has a chance outcome
    for viewer in ("", "&viewer=0", "&viewer=2"):
        step = client.get(f"/api/games/{game_id}/replay?ply={chance_plies[0] + 1}{viewer}").json()
        assert step["ply"] < step["total"]  # a position before the end, of a game over
        assert step["log"][chance_plies[0]]["text"] == actions[chance_plies[0]]


ABANDON_SEED = 4
"""A seed whose Souvlaki game of a person (who plays their last legal move) and two heuristic
bots has a chance outcome within its first 20 plies."""


def test_an_abandoned_game_s_log_names_what_chance_took_as_its_replay_does(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Abandoned, a game is played no more: its page's log, sent anew to its open page, and
    its view after a restart tell the chance outcome as its replay and full record do."""
    monkeypatch.setattr(sessions.secrets, "randbelow", lambda _: ABANDON_SEED)
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:
        created = create(client, "souvlaki", ["human", "heuristic", "heuristic"])
        game_id, token = created["id"], token_of(created, 0)
        headers = {"X-Seat-Token": token}
        with client.websocket_connect(f"/ws/games/{game_id}") as page:
            page.send_json({"type": "hello", "token": token})
            seen = [page.receive_json()]
            while not any(entry["player"] is None for entry in seen[-1]["log"]):
                mine = client.get(f"/api/games/{game_id}", headers=headers).json()
                assert not mine["over"] and mine["ply"] < 100
                if mine["your_turn"]:
                    move = {"ply": mine["ply"], "action": mine["legal"][-1]["notation"]}
                    client.post(f"/api/games/{game_id}/actions", json=move, headers=headers)
                seen = whole_logs([*seen, page.receive_json()])
            assert HIDDEN_CHANCE not in json.dumps(seen[-1]["log"])  # the game's own words
            chance = next(e for e in seen[-1]["log"] if e["player"] is None)
            assert client.post(f"/api/games/{game_id}/abandon", headers=headers).is_success
            while (told := page.receive_json())["status"] != "abandoned":
                seen.append(told)
            shown = whole_logs([*seen, told])[-1]["log"]
        record = client.get(f"/api/games/{game_id}/record").json()
        ply = len(record["actions"])
        replay = client.get(f"/api/games/{game_id}/replay?ply={ply}&viewer=0").json()["log"]
        outcome = record["actions"][chance["ply"]]
        assert outcome.startswith("random ") and outcome != chance["text"]
        assert replay[chance["ply"]]["text"] == outcome
        assert shown == replay
        assert client.get(f"/api/games/{game_id}", headers=headers).json()["log"] == replay
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:  # after a restart too
        assert client.get(f"/api/games/{game_id}", headers=headers).json()["log"] == replay

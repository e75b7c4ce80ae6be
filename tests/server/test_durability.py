"""kill -9 and restart: every game resumes exactly, bots included (a real server process)."""

from __future__ import annotations

import random
from typing import Any

from kafeneio.core import CHANCE, sample_chance
from kafeneio.games import load_record
from kafeneio.server.sessions import build_bot, derived_seed
from server.conftest import LiveServer, token_of, wait_for


def seats(*names: str) -> list[dict[str, Any]]:
    return [{"kind": "human"} if n == "human" else {"kind": "bot", "bot": n} for n in names]


def uninterrupted(record: dict[str, Any], bots: dict[int, str], upto: int) -> list[str]:
    """The first `upto` actions the server plays from this record's seed when nobody stops it:
    humans' moves taken from the record, bots and chance drawn as the server draws them."""
    state = load_record({**record, "actions": []})
    for ply in range(upto):
        player = state.current_player()
        if player == CHANCE:
            rng = random.Random(derived_seed(record["seed"], "chance", ply))
            action = sample_chance(state, rng)
        elif player in bots:
            action = build_bot(
                bots[player], derived_seed(record["seed"], player, ply), None
            ).choose(state.clone())
        else:
            action = state.parse_legal(record["actions"][ply])
        state.apply(action)
    return [action.notation for action in state.history]


def test_kill_9_and_restart_resumes_every_game_exactly(live_server: LiveServer) -> None:
    server = live_server.start(bot_pause=0.02)
    bots_game = server.post(
        "/api/games",
        {
            "game": "souvlaki",
            "seats": seats("heuristic", "random", "heuristic"),
            "options": {"round_limit": 6},
        },
    )
    cafe = server.post("/api/games", {"game": "cafe", "seats": seats("human", "greedy")})
    duel = server.post("/api/games", {"game": "souvlaki", "seats": seats("human", "human")})
    cafe_token = token_of(cafe, 0)
    duel_tokens = [token_of(duel, 0), token_of(duel, 1)]

    acknowledged: dict[str, dict[str, Any]] = {}
    for _ in range(3):  # the human plays; the greedy bot answers each time
        view = wait_for(
            lambda: (v := server.get(f"/api/games/{cafe['id']}", cafe_token))["your_turn"] and v
        )
        acknowledged[cafe["id"]] = server.post(
            f"/api/games/{cafe['id']}/actions",
            {"ply": view["ply"], "action": view["legal"][0]["notation"]},
            cafe_token,
        )
    for _ in range(4):
        for token in duel_tokens:
            view = server.get(f"/api/games/{duel['id']}", token)
            if view["your_turn"]:
                acknowledged[duel["id"]] = server.post(
                    f"/api/games/{duel['id']}/actions",
                    {"ply": view["ply"], "action": view["legal"][-1]["notation"]},
                    token,
                )
    cafe_before = wait_for(
        lambda: (v := server.get(f"/api/games/{cafe['id']}", cafe_token))["your_turn"] and v
    )
    duel_before = [server.get(f"/api/games/{duel['id']}", t) for t in duel_tokens]
    bots_seen = wait_for(
        lambda: (v := server.get(f"/api/games/{bots_game['id']}"))["ply"] > 20 and v
    )
    server.kill()  # mid-game for the bots: they were playing when the process died

    server.start(bot_pause=0.0)
    assert server.get(f"/api/games/{cafe['id']}", cafe_token) == cafe_before
    assert [server.get(f"/api/games/{duel['id']}", t) for t in duel_tokens] == duel_before
    for game_id, ack in acknowledged.items():
        assert server.get(f"/api/games/{game_id}")["ply"] >= ack["ply"]
    final = wait_for(lambda: (v := server.get(f"/api/games/{bots_game['id']}"))["over"] and v, 120)
    told, seen = final["log"][: bots_seen["ply"]], bots_seen["log"]
    # the same log, but that the end tells what chance took ("random GF"), hidden before
    chance_untold = lambda log: [{**e, "text": None} if e["player"] is None else e for e in log]  # noqa: E731
    assert chance_untold(told) == chance_untold(seen)
    for before, after in zip(seen, told, strict=True):
        if before["player"] is None and before["text"] != after["text"]:
            assert before["text"] == "a random food card" and after["text"].startswith("random ")
    record = server.get(f"/api/games/{bots_game['id']}/record")
    names = {0: "heuristic", 1: "random", 2: "heuristic"}
    assert record["actions"] == uninterrupted(record, names, len(record["actions"]))
    # the human's game goes on after the restart
    after = server.post(
        f"/api/games/{cafe['id']}/actions",
        {"ply": cafe_before["ply"], "action": cafe_before["legal"][0]["notation"]},
        cafe_token,
    )
    assert after["ply"] > cafe_before["ply"]

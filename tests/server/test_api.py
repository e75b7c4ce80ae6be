"""The JSON API and the websocket: every endpoint, and every error changing nothing."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import websockets
from fastapi.testclient import TestClient
from sqlalchemy.exc import OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocket, WebSocketDisconnect
from typer.testing import CliRunner

from kafeneio.bots import BOTS
from kafeneio.bots.base import Bot
from kafeneio.bots.random_bot import RandomBot
from kafeneio.cli import app as cli_app
from kafeneio.core import Action, State
from kafeneio.core.rulebook import RULE_ID, rulebook_of
from kafeneio.games import GAMES, get_game, load_record, title_of
from kafeneio.server import app as app_module
from kafeneio.server import sessions as sessions_module
from kafeneio.server import store
from kafeneio.server.app import create_app
from kafeneio.server.models import MAX_BUDGET
from kafeneio.server.sessions import MAX_UNSENT, build_bot, played_budget, seat_infos
from kafeneio.server.store import SeatSpec
from server.conftest import LiveServer, age, create, token_of, wait_for

SHORT_CAFE = {"hand_size": 2, "end_bag": 90}


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"X-Seat-Token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", headers=headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def act(client: TestClient, game_id: str, token: str | None, ply: int, action: str) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(
        f"/api/games/{game_id}/actions", json={"ply": ply, "action": action}, headers=headers
    )


def play_out(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    """Play the human seat with its first legal move until the game is over."""
    while True:
        current = wait_for(lambda: (v := view(client, game_id, token))["your_turn"] or v["over"])
        current = view(client, game_id, token)
        if current["over"]:
            return current
        response = act(client, game_id, token, current["ply"], current["legal"][0]["notation"])
        assert response.status_code == 200, response.text


def test_catalog_lists_games_options_and_bots(client: TestClient) -> None:
    catalog = client.get("/api/catalog").json()
    names = {game["name"]: game for game in catalog["games"]}
    assert set(names) == {"cafe", "souvlaki"}
    cafe = {option["name"]: option for option in names["cafe"]["options"]}
    assert cafe["birthday"]["type"] == "bool" and cafe["dance"]["type"] == "bool"
    assert cafe["bar_unpaid"]["description"].startswith("CI-M.3")  # what it does, for the lobby
    assert cafe["first_move"]["choices"] == ["lone-guest", "pair-scores-both"]
    assert cafe["hand_size"]["min"] == 1 and cafe["hand_size"]["max"] == 10
    souvlaki = {option["name"] for option in names["souvlaki"]["options"]}
    assert {"first_game", "round_limit", "shops"} <= souvlaki
    assert "cards_dir" not in souvlaki  # card sets are the server's to offer
    assert {"random", "greedy", "heuristic"} <= set(catalog["bots"])
    assert catalog["max_budget"] == 2000  # the lobby's bound on a bot's iterations
    # the lobby's bound on the ids of one listing, the one the server holds to
    ids = "&".join(f"ids=g{index}" for index in range(catalog["max_ids"] + 1))
    assert client.get(f"/api/games?{ids.rsplit('&', 1)[0]}").status_code == 200
    assert client.get(f"/api/games?{ids}").status_code == 422


def test_the_rules_reference_is_served_for_the_ids_the_log_cites(client: TestClient) -> None:
    for game in ("cafe", "souvlaki"):
        served = client.get(f"/api/rules/{game}").json()
        book = rulebook_of(get_game(game))
        assert [rule["id"] for rule in served] == book.ids()
        first = served[0]
        assert first["text"] == book.rule(first["id"]).text and first["section"]
    missing = client.get("/api/rules/chess")
    assert missing.status_code == 404 and "cafe, souvlaki" in missing.json()["message"]


def test_board_and_pages_and_schema(client: TestClient) -> None:
    board = client.get("/api/cafe/board").json()
    assert len(board["tables"]) == 24 and len(board["chairs"]) == 68
    for path in ("/", "/game/x", "/replay/x", "/static/game.js", "/static/style.css"):
        assert client.get(path).status_code == 200, path
    # an uptime monitor asks with HEAD, and read its 405 as the server down
    assert client.head("/").status_code == 200 and client.head("/").content == b""
    schema = client.get("/openapi.json").json()
    assert "/api/games/{game_id}/actions" in schema["paths"]
    assert "GameView" in schema["components"]["schemas"]


def test_the_rules_page_is_served_for_each_game_and_refused_for_another(
    client: TestClient,
) -> None:
    for game in GAMES:
        page = client.get(f"/rules/{game}")
        assert page.status_code == 200 and "/static/rules.js" in page.text
    missing = client.get("/rules/<b>chess")
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert 'There is no game "&lt;b&gt;chess" here' in missing.text  # named, and not as markup
    for game in GAMES:  # it leads to the rules there are
        assert f'<a href="/rules/{game}">{title_of(game)}</a>' in missing.text


DEEP = b'{"game": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"  # 40 KB: read, not parsed
"""A body nested too deep for the JSON parser to read."""
JSON = {"Content-Type": "application/json"}


def test_an_address_nothing_answers_is_said_in_the_api_s_words(client: TestClient) -> None:
    errors = [
        (client.get("/api/nothing"), 404, "not-found", "nothing answers at /api/nothing"),
        (
            client.delete("/api/games/x"),
            405,
            "method-not-allowed",
            "/api/games/x does not take DELETE",
        ),
        (client.post("/api/games", content=DEEP, headers=JSON), 400, "bad-request", "body"),
    ]
    for response, status, code, words in errors:
        assert response.status_code == status, response.text
        assert response.json()["error"] == code and words in response.json()["message"]
    page = client.get("/<i>nothing")  # a person's mistyped address: a page, leading to the lobby
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert 'no page "/&lt;i&gt;nothing"' in page.text and '<a href="/">the lobby</a>' in page.text


def test_the_how_to_play_of_each_game_cites_only_its_own_rules(client: TestClient) -> None:
    for game in GAMES:
        howto = client.get(f"/static/howto/{game}.json").json()
        ids = set(rulebook_of(get_game(game)).ids())
        assert howto["overview"] and howto["browser"]
        for text in howto["overview"]:  # each claim says the rules it stands on
            assert RULE_ID.search(text), text
        for text in howto["overview"] + howto["browser"]:
            assert set(RULE_ID.findall(text)) <= ids, text


def test_cafes_how_to_play_names_both_guests_who_may_sit_alone(client: TestClient) -> None:
    """It said only the start player's first move may seat a guest alone: a guest on a shared
    chair in a group at the other table may too (CI-T.4), and the opening's may stay so."""
    overview = " ".join(client.get("/static/howto/cafe.json").json()["overview"])
    assert "on a chair shared by two tables, where it belongs to a group at the other" in overview
    assert "which may stay alone afterwards (CI-T.8)" in overview
    assert "only the start player's very first move may seat one guest alone" not in overview


def test_create_gives_private_links_and_a_spectator_link(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human", "random"])
    assert [link["seat"] for link in created["links"]] == [0, 1]
    tokens = [token_of(created, 0), token_of(created, 1)]
    assert tokens[0] != tokens[1] and len(tokens[0]) >= 32
    assert created["spectator"] == f"/game/{created['id']}"
    assert "token" not in created["spectator"]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "chess", "seats": [{"kind": "human"}] * 2}, "unknown game"),
        ({"game": "cafe", "seats": [{"kind": "human"}]}, "2 to 4 players"),
        ({"game": "cafe", "seats": [{"kind": "human"}] * 5}, "2 to 4 players"),
        (
            {"game": "cafe", "seats": [{"kind": "human"}] * 2, "options": {"hand_size": 99}},
            "hand_size",
        ),
        ({"game": "cafe", "seats": [{"kind": "human"}] * 2, "options": {"nope": 1}}, "nope"),
        (  # said once, by the API, which names the seat
            {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}]},
            f"seat 2: unknown bot 'oracle'; bots: {', '.join(sorted(BOTS))}",
        ),
        (
            {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot"}]},
            "seat 2 is a bot: say which",
        ),
        (  # a bot that does not search would ignore it, and the page would show it all the same
            {
                "game": "cafe",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random", "budget": 5}],
            },
            "seat 2's budget: the random bot takes none (those that do: mcts)",
        ),
        ({"game": "cafe", "seats": [{"kind": "alien"}] * 2}, "seat 1's kind: input should be"),
        (  # a field named as the lobby counts seats, from 1
            {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "budget": 10**9}]},
            "seat 2's budget: input should be less than or equal to 2000",
        ),
        (  # a decision of more would hold the bots of every other game waiting for minutes
            {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "budget": 2001}]},
            "seat 2's budget: input should be less than or equal to 2000",
        ),
        ({"game": "cafe", "seats": [{"kind": "human"}] * 2, "extra": 1}, "extra"),
        (  # text is not a number, as for `ply`: it was read as 100
            {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "budget": "100"}]},
            "seat 2's budget: input should be a valid integer",
        ),
        (  # a person's seat with a bot's fields: dropped without a word before
            {"game": "cafe", "seats": [{"kind": "human", "budget": 50}, {"kind": "human"}]},
            "seat 1 is a person: a budget is for a bot's seat",
        ),
        (
            {
                "game": "souvlaki",
                "seats": [{"kind": "human"}] * 2,
                "options": {"cards_dir": "/etc"},
            },
            "card_set",
        ),
        ({"game": "souvlaki", "seats": [{"kind": "human"}] * 2, "card_set": "x"}, "card set"),
    ],
)
def test_create_refuses_bad_requests(client: TestClient, body: Any, words: str) -> None:
    response = client.post("/api/games", json=body)
    assert response.status_code == 422
    assert response.json()["error"] == "bad-request"
    assert words in response.json()["message"]
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Bo\u202eeno ot P", "holds U+202E RIGHT-TO-LEFT OVERRIDE: a format character"),
        ("Bo\nBo", "holds U+000A: a control character"),  # a control character has no name
        ("Bo\tBo", "holds U+0009: a control character"),
        ("A\u200bda", "holds U+200B ZERO WIDTH SPACE: a format character"),  # "Ada" to the eye
        ("Bo\u2066x", "holds U+2066 LEFT-TO-RIGHT ISOLATE: a format character"),
        ("Bo\u2028Bo", "holds U+2028 LINE SEPARATOR: a line separator"),
        ("Bo\u2029Bo", "holds U+2029 PARAGRAPH SEPARATOR: a paragraph separator"),
        ("Bo\x7f", "holds U+007F: a control character"),
        ("\u3164", "holds U+3164 HANGUL FILLER: a Hangul filler, shown as nothing"),
        ("Bo\u115f", "holds U+115F HANGUL CHOSEONG FILLER: a Hangul filler"),
        ("Bo\uffa0", "holds U+FFA0 HALFWIDTH HANGUL FILLER: a Hangul filler"),
        ("Bo\ue000", "holds U+E000: a private-use character"),
        ("Bo\u0378", "holds U+0378: a code point Unicode has not assigned"),
        ("\u200d", "has no visible character"),
        ("\u0301\u0301 \u200c", "has no visible character"),
        ("Bo\u200d", "holds U+200D ZERO WIDTH JOINER where it joins nothing"),
        ("\u200cBo", "holds U+200C ZERO WIDTH NON-JOINER where it joins nothing"),
        ("Bo\u200d\u200dAl", "holds U+200D ZERO WIDTH JOINER where it joins nothing"),
        ("Bo\u200d Al", "holds U+200D ZERO WIDTH JOINER where it joins nothing"),
        ("Bo \u200dAl", "holds U+200D ZERO WIDTH JOINER where it joins nothing"),
        ("Bo" + "\u0300" * 5, "holds 5 combining marks in a row, more than one character"),
    ],
)
def test_a_name_that_would_change_how_the_others_see_it_is_refused(
    client: TestClient, name: str, said: str
) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": name}]
    response = client.post("/api/games", json={"game": "cafe", "seats": seats})
    assert response.status_code == 422 and response.json()["error"] == "bad-request"
    assert response.json()["message"].startswith(f"seat 2's name {said}")
    assert client.get("/api/games").json() == []


def test_names_in_any_script_are_taken_as_written(client: TestClient) -> None:
    persian = "\u0645\u062d\u0645\u062f\u200c\u0639\u0644\u06cc"  # with its non-joiner
    family = "Bo \U0001f468\u200d\U0001f469\u200d\U0001f467"  # an emoji of joined emoji
    fire = "\u2764\ufe0f\u200d\U0001f525"  # a joiner after an emoji's variation selector
    ksha = "\u0915\u094d\u200d\u0937"  # Devanagari: a joiner after a virama
    marked = "Nguye\u0302\u0303n", "A" + "\u0300" * 4  # two marks on a letter; the most, 4
    for names in (
        ["\u0639\u0644\u064a", "\u05d3\u05e0\u05d4", "Zoë 2", "\u674e\u96f7"],
        [persian, family, fire, ksha],  # zero-width joiners reorder nothing: taken
        list(marked),
    ):
        seats = [{"kind": "human", "name": name} for name in names]
        created = client.post("/api/games", json={"game": "cafe", "seats": seats})
        assert created.status_code == 201
        assert [seat["name"] for seat in view(client, created.json()["id"])["seats"]] == names


def test_a_blank_name_is_the_seat_s_own(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "  "}, {"kind": "bot", "bot": "random", "name": " Rob "}]
    created = client.post("/api/games", json={"game": "cafe", "seats": seats}).json()
    names = [seat["name"] for seat in view(client, created["id"])["seats"]]
    assert names == ["Player 1", "Rob"]


def test_lists_by_status_and_joining(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "greedy"])
    game_id = created["id"]
    listed = lambda status: [g["id"] for g in client.get(f"/api/games?status={status}").json()]  # noqa: E731
    assert listed("open") == [game_id] and listed("running") == []
    spectator = view(client, game_id)
    assert spectator["viewer"] is None and spectator["legal"] == []
    assert listed("open") == [game_id]  # watching is not joining
    seat = view(client, game_id, token_of(created, 0))
    assert seat["viewer"] == 0 and seat["your_turn"] and seat["legal"]
    assert listed("open") == [game_id]  # nor is reading the seat's view (a script, a preview)
    with client.websocket_connect(f"/ws/games/{game_id}") as page:  # the seat's page opens it
        page.send_json({"type": "hello", "token": token_of(created, 0)})
        assert page.receive_json()["seats"][0]["joined"]
    assert listed("running") == [game_id] and listed("open") == []


def test_a_seat_played_through_the_api_alone_is_opened(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    game_id, first = created["id"], token_of(created, 0)
    legal = view(client, game_id, first)["legal"][0]["notation"]
    assert act(client, game_id, first, 5, legal).json()["error"] == "stale"
    assert not view(client, game_id)["seats"][0]["joined"]  # refused: nothing changes
    assert act(client, game_id, first, 0, legal).is_success
    assert [seat["joined"] for seat in view(client, game_id)["seats"]] == [True, False]


def test_games_listed_by_id_say_who_is_to_move(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:  # bots wait: turns stay
        mine = create(client, "cafe", ["human", "greedy"])
        theirs = create(client, "souvlaki", ["greedy", "human"])
        left = create(client, "cafe", ["human", "greedy"])
        abandon(client, left["id"], token_of(left, 0))
        other = create(client, "cafe", ["human", "human"])  # not asked for
        asked = [mine["id"], theirs["id"], left["id"], "forgotten"]
        response = client.get("/api/games", params={"ids": asked})
        assert response.status_code == 200, response.text
        listed = {game["id"]: game for game in response.json()}
        assert set(listed) == {mine["id"], theirs["id"], left["id"]}  # no "forgotten", no other
        for game in (mine, theirs):
            to_move = view(client, game["id"])["to_move"]
            assert to_move is not None and listed[game["id"]]["to_move"] == to_move
        assert listed[left["id"]]["to_move"] is None  # abandoned: nobody is to move
        by_status = client.get("/api/games?status=open").json()
        assert {game["id"] for game in by_status} == {mine["id"], theirs["id"], other["id"]}
        too_many = client.get("/api/games", params={"ids": [f"g{i}" for i in range(101)]})
        assert too_many.status_code == 422 and "at most 100" in too_many.json()["message"]


def test_unknown_game_and_bad_token(client: TestClient) -> None:
    assert client.get("/api/games/nothing").status_code == 404
    assert client.get("/api/games/nothing").json()["error"] == "no-game"
    created = create(client, "cafe", ["human", "greedy"])
    response = client.get(f"/api/games/{created['id']}", headers={"X-Seat-Token": "guess"})
    assert response.status_code == 403 and response.json()["error"] == "bad-token"


def test_refused_actions_change_nothing(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    game_id, first, second = created["id"], token_of(created, 0), token_of(created, 1)
    before = view(client, game_id, first)
    legal = before["legal"][0]["notation"]
    cases = [
        (second, 0, legal, 403, "not-your-turn"),
        (None, 0, legal, 403, "spectator"),
        (first, 5, legal, 409, "stale"),
        (first, 0, "USm@99", 422, "illegal"),
        (first, 0, "swap USf@1", 422, "illegal"),
        (first, 0, "   ", 422, "illegal"),
        ("forged", 0, legal, 403, "bad-token"),
    ]
    for token, ply, action, status, code in cases:
        response = act(client, game_id, token, ply, action)
        assert response.status_code == status, (action, response.text)
        assert response.json()["error"] == code
        assert response.json()["message"]
        assert view(client, game_id, first) == before
    stale = act(client, game_id, first, 5, legal).json()
    assert stale["view"]["ply"] == 0 and stale["view"]["viewer"] == 0  # a full resync
    for ply in (-1, False, "0", 0.0):  # a move number is a whole number: false is not move 0
        response = client.post(
            f"/api/games/{game_id}/actions",
            json={"ply": ply, "action": legal},
            headers={"X-Seat-Token": first},
        )
        assert response.status_code == 422 and response.json()["message"].startswith("ply: ")
        assert view(client, game_id, first) == before
    done = act(client, game_id, first, 0, legal)
    assert done.status_code == 200 and done.json()["ply"] == 1
    assert act(client, game_id, first, 0, legal).json()["error"] == "stale"


def test_a_stale_move_is_told_in_the_logs_numbering(client: TestClient) -> None:
    """The log numbers moves from 1 (its first entry is move 1): a refusal says the position
    the client saw and the current one as the log's entries lead to them, not in plies."""
    created = create(client, "cafe", ["human", "human"])
    game_id, first = created["id"], token_of(created, 0)
    legal = view(client, game_id, first)["legal"][0]["notation"]
    assert act(client, game_id, first, 0, legal).status_code == 200
    refused = act(client, game_id, first, 0, legal).json()
    assert refused["message"] == (
        "the game has moved on (you saw it at the start, before move 1; it is now after move 1)"
    )
    assert len(refused["view"]["log"]) == 1  # the log's move 1: the position "after move 1"


@pytest.mark.parametrize(
    ("body", "kind", "words"),
    [
        ("{bad", "application/json", "the request's body is not JSON: expecting property name"),
        ('{"ply": 0', "application/json", "is not JSON: expecting ',' delimiter at character 9"),
        ("", "application/json", "the request's body must be a JSON object"),
        ("null", "application/json", "the request's body must be a JSON object"),
        ("[1]", "application/json", "the request's body must be a JSON object"),
        ('{"ply": 0, "action": "end"}', "text/plain", "sent as application/json"),
    ],
)
def test_a_body_that_is_no_json_object_is_refused_saying_so(
    client: TestClient, body: str, kind: str, words: str
) -> None:
    created = create(client, "cafe", ["human", "human"])
    headers = {"X-Seat-Token": token_of(created, 0), "Content-Type": kind}
    url = f"/api/games/{created['id']}/actions"
    response = client.post(url, content=body.encode(), headers=headers)
    assert response.status_code == 422 and response.json()["error"] == "bad-request"
    assert words in response.json()["message"], response.json()["message"]
    assert view(client, created["id"])["ply"] == 0


def test_illegal_action_names_the_rule(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    game_id, first = created["id"], token_of(created, 0)
    hand = view(client, game_id, first)["observation"]["hands"][0]
    legal = {m["notation"] for m in view(client, game_id, first)["legal"]}
    chairs = [f"{hand[0]}@{chair}" for chair in range(1, 69)]
    illegal = next(text for text in chairs if text not in legal)
    response = act(client, game_id, first, 0, illegal)
    assert response.status_code == 422
    assert "CI-" in response.json()["message"] or "not" in response.json()["message"]


def test_cafe_legal_moves_carry_their_points(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    moves = view(client, created["id"], token_of(created, 0))["legal"]
    assert all(isinstance(move["gain"], int) for move in moves)
    assert not any(move["out"] for move in moves)
    # and whether a move puts the mover out (CI-M.3): the HTTP view dropped it, the socket's not
    red = create(client, "cafe", ["human", "human"], bar_values=[-3] * 6)
    moves = view(client, red["id"], token_of(red, 0))["legal"]
    assert {move["notation"].endswith("@bar") for move in moves if move["out"]} == {True}
    assert all(move["out"] for move in moves if move["notation"].endswith("@bar"))
    souvlaki = create(client, "souvlaki", ["human", "human"])
    moves = view(client, souvlaki["id"], token_of(souvlaki, 0))
    assert all(move["gain"] is None for move in moves["legal"])


def test_legal_moves_come_in_words_to_the_mover_only(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    said: list[str] = []
    for game in ("souvlaki", "cafe"):
        created = create(client, game, ["human", "human"])
        game_id, tokens = created["id"], [token_of(created, 0), token_of(created, 1)]
        for _ in range(6):  # a few decisions, each by whoever is to move
            views = [view(client, game_id, token) for token in tokens]
            state = hub.get(game_id).state
            mover = state.current_player()
            words = {a.notation: state.action_words(a) for a in state.legal_actions()}
            mine = views[mover]["legal"]
            assert {move["notation"]: move["words"] for move in mine} == words
            said += words.values()
            assert views[1 - mover]["legal"] == [] and view(client, game_id)["legal"] == []
            stale = act(client, game_id, tokens[1 - mover], 99, mine[0]["notation"]).json()
            assert stale["error"] == "stale" and stale["view"]["legal"] == []  # its own view
            assert act(client, game_id, tokens[mover], state.ply, mine[-1]["notation"]).is_success
    assert any(" to chair " in text for text in said)  # Café: "France lady to chair 24 …"


def test_a_replay_is_worked_out_off_the_servers_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A position of a replay is replayed from the game's start: half a second for a game of
    12,000 moves, during which the loop answered no other game or socket."""
    created = create(client, "cafe", ["random", "random"], **SHORT_CAFE)
    wait_for(lambda: view(client, created["id"])["over"])
    threads: list[str] = []
    worked_out = app_module._replay_step

    def noted(*args: Any) -> Any:
        threads.append(threading.current_thread().name)
        return worked_out(*args)

    monkeypatch.setattr(app_module, "_replay_step", noted)
    assert client.get(f"/api/games/{created['id']}/replay?ply=3").json()["ply"] == 3
    assert len(threads) == 1 and threads[0].startswith("replay"), threads


def test_whole_game_record_replay_and_rematch(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "greedy"], **SHORT_CAFE)
    game_id, token = created["id"], token_of(created, 0)
    assert client.get(f"/api/games/{game_id}/replay").status_code == 409
    early = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
    assert early.status_code == 409 and early.json()["error"] == "not-over"
    assert view(client, game_id)["rematch"] is None
    own = client.get(f"/api/games/{game_id}/record", headers={"X-Seat-Token": token}).json()
    assert own["format"] == "kafeneio-view" and "seed" not in own and "actions" not in own
    final = play_out(client, game_id, token)
    assert final["result"]["winners"] and final["status"] == "finished"
    # what each hand cost at the end, as the log tells it (CI-E.2), for the result box
    told = [0, 0]
    for event in final["log"][-1]["events"]:
        if " loses " in event:
            told[int(event[1]) - 1] += int(event.split(" loses ")[1].split(" ")[0])
    assert final["result"]["losses"] == told and any(told)
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["format"] == "kafeneio-record" and record["seats"] == ["human", "greedy"]
    assert load_record(record).scores() == final["result"]["scores"]
    start = client.get(f"/api/games/{game_id}/replay?ply=0").json()
    assert start["ply"] == 0 and start["total"] == final["ply"] and start["log"] == []
    assert start["status"] == "finished" and start["result"] == final["result"]
    end = client.get(f"/api/games/{game_id}/replay?ply=100000&viewer=1").json()
    assert end["ply"] == final["ply"] and len(end["log"]) == final["ply"]
    assert client.get(f"/api/games/{game_id}/replay?viewer=3").status_code == 422
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 403
    rematch = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
    assert rematch.status_code == 200
    new = rematch.json()
    assert new["id"] != game_id
    # everyone moves one seat on: the bot starts the rematch, the person is P2
    assert [(link["seat"], link["previous_seat"]) for link in new["links"]] == [(1, 0)]
    assert [seat["kind"] for seat in view(client, new["id"])["seats"]] == ["bot", "human"]
    assert view(client, new["id"])["options"] == final["options"]
    assert view(client, game_id)["rematch"] == new["id"]
    again = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
    assert again.status_code == 409


def test_a_game_nobody_moves_in_for_long_is_listed_as_idle(client: TestClient, db_url: str) -> None:
    created = create(client, "cafe", ["human", "greedy"])
    game_id, token = created["id"], token_of(created, 0)
    move = view(client, game_id, token)["legal"][0]["notation"]
    assert act(client, game_id, token, 0, move).is_success
    mine = wait_for(lambda: (v := view(client, game_id, token))["your_turn"] and v)
    listed = lambda: next(g for g in client.get("/api/games").json() if g["id"] == game_id)  # noqa: E731
    fresh = listed()
    assert fresh["status"] == "running" and not fresh["idle"] and fresh["ply"] == mine["ply"]
    moved = datetime.fromisoformat(fresh["last_move"])
    assert timedelta(0) <= datetime.now(UTC).replace(tzinfo=None) - moved < timedelta(minutes=5)
    age(db_url, game_id, days=3)  # nobody came back for three days
    old = listed()
    assert old["idle"] and old["status"] == "running"
    assert datetime.fromisoformat(old["last_move"]) == moved - timedelta(days=3)
    with client.websocket_connect(f"/ws/games/{game_id}") as seat:  # the person is back
        seat.send_json({"type": "hello", "token": token})
        seat.receive_json()
        assert not listed()["idle"]
    assert listed()["idle"]
    assert act(client, game_id, token, mine["ply"], mine["legal"][0]["notation"]).is_success
    assert not listed()["idle"]  # moved in just now


def abandon(client: TestClient, game_id: str, token: str | None) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/games/{game_id}/abandon", headers=headers)


def test_a_game_of_bots_alone_may_be_stopped_by_whoever_watches_it(db_url: str) -> None:
    """Nobody could stop one: four searching bots with a round limit of 1,000 played on for
    hours, and started again with the server. A person's seat in a game against bots is still
    the seat's own to leave."""
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        bots = create(client, "souvlaki", ["heuristic", "random"], round_limit=1000)
        watched = view(client, bots["id"])
        assert watched["abandon"] and watched["status"] == "running"
        stopped = abandon(client, bots["id"], None)
        assert stopped.status_code == 200, stopped.text
        assert stopped.json()["status"] == "abandoned" and not stopped.json()["abandon"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.get(bots["id"]).bot_to_move() is None
        against = create(client, "cafe", ["human", "random"])
        assert not view(client, against["id"])["abandon"]  # a player's game: not a watcher's
        refused = abandon(client, against["id"], None)
        assert refused.status_code == 403 and refused.json()["error"] == "spectator"
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:  # it stays stopped
        assert view(client, bots["id"])["status"] == "abandoned"


def test_a_player_may_abandon_a_game_against_bots_only(client: TestClient) -> None:
    people = create(client, "cafe", ["human", "human"])
    first = token_of(people, 0)
    before = view(client, people["id"], first)
    assert not before["abandon"]  # not offered: a person plays the other seat
    for token, status, code in [
        (first, 403, "with-people"),
        (None, 403, "spectator"),
        ("forged", 403, "bad-token"),
    ]:
        response = abandon(client, people["id"], token)
        assert response.status_code == status and response.json()["error"] == code
        assert response.json()["message"]
        assert view(client, people["id"], first) == before  # nothing changed
    created = create(client, "souvlaki", ["human", "heuristic"], round_limit=2)
    game_id, token = created["id"], token_of(created, 0)
    mine = view(client, game_id, token)
    assert mine["abandon"] and not view(client, game_id)["abandon"]  # a seat's, not a spectator's
    left = abandon(client, game_id, token)
    assert left.status_code == 200, left.text
    after = left.json()
    assert after["status"] == "abandoned" and not after["over"] and after["ply"] >= mine["ply"]
    assert not after["your_turn"] and after["legal"] == [] and not after["hints"]
    assert not after["abandon"] and after["result"] is None
    assert after["to_move"] is None  # nobody's turn any more, as the lobby's summary says
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert hub.get(game_id).bot_to_move() is None  # its bot plays no more
    for refused in (
        act(client, game_id, token, after["ply"], "keep"),
        client.post(
            f"/api/games/{game_id}/hint",
            json={"ply": after["ply"]},
            headers={"X-Seat-Token": token},
        ),
        abandon(client, game_id, token),
    ):
        assert refused.status_code == 409 and refused.json()["error"] == "abandoned"
    assert view(client, game_id, token) == after
    listed = {g["id"]: g for g in client.get("/api/games?status=abandoned").json()}
    assert listed[game_id]["ply"] == after["ply"] and not listed[game_id]["idle"]
    assert listed[game_id]["to_move"] is None
    assert game_id not in {g["id"] for g in client.get("/api/games?status=running").json()}
    # played no more: its full record and its replay, as far as it went, as at the end
    record = client.get(f"/api/games/{game_id}/record").json()
    assert record["format"] == "kafeneio-record" and len(record["actions"]) == after["ply"]
    final = load_record(record)
    assert not final.is_terminal() and final.ply == after["ply"]
    end = client.get(f"/api/games/{game_id}/replay?ply=100000&viewer=1").json()
    assert end["status"] == "abandoned" and end["result"] is None
    assert end["ply"] == end["total"] == after["ply"]
    assert end["observation"] == final.observation(1)  # the bot's hand: nobody plays on
    start = client.get(f"/api/games/{game_id}/replay?ply=0").json()
    assert start["ply"] == 0 and start["log"] == [] and start["status"] == "abandoned"
    rematch = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
    assert rematch.status_code == 200  # a new game, the same seats: "play again"


def test_a_rematch_is_shown_at_once_to_every_page_of_the_old_game(client: TestClient) -> None:
    """Each page of the old game is sent the rematch: a seat its own new link, a spectator
    none; then the old game's view with the rematch in it, so that no page still offers to ask
    for one (asking again would be refused, and its refusal would hide the link just sent)."""
    created = create(client, "cafe", ["human", "greedy"])
    game_id, token = created["id"], token_of(created, 0)
    assert client.post(f"/api/games/{game_id}/abandon", headers={"X-Seat-Token": token}).is_success
    with (
        client.websocket_connect(f"/ws/games/{game_id}") as seat,
        client.websocket_connect(f"/ws/games/{game_id}") as spectator,
    ):
        seat.send_json({"type": "hello", "token": token})
        spectator.send_json({"type": "hello"})
        assert spectator.receive_json()["seats"][0]["connected"]  # both are in
        made = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
        new = made.json()
        for socket, viewer, theirs in ((seat, 0, 1), (spectator, None, None)):
            while (told := socket.receive_json())["type"] == "state":
                assert told["rematch"] is None  # the views of before the rematch
            own = token_of(new, theirs) if theirs is not None else None
            assert told == {"type": "rematch", "game": new["id"], "seat": theirs, "token": own}
            shown = socket.receive_json()
            assert shown["type"] == "state" and shown["viewer"] == viewer
            assert shown["rematch"] == new["id"] and shown["rematch_seat"] == theirs
            assert token_of(new, 1) not in json.dumps(shown)


def played_by_people(client: TestClient, names: list[str]) -> tuple[str, list[str]]:
    """A short Café game between people named `names`, played to its end: its id and tokens."""
    seats = [{"kind": "human", "name": name} for name in names]
    body = {"game": "cafe", "seats": seats, "options": SHORT_CAFE}
    created = client.post("/api/games", json=body).json()
    tokens = [token_of(created, seat) for seat in range(len(names))]
    while not (table := view(client, created["id"]))["over"]:
        token = tokens[table["to_move"]]
        move = view(client, created["id"], token)["legal"][0]["notation"]
        assert act(client, created["id"], token, table["ply"], move).is_success
    return created["id"], tokens


def test_a_rematch_moves_everyone_one_seat_on_and_old_links_open_their_own_seat(
    db_url: str,
) -> None:
    """Ada started the game (P1); in the rematch Bo is P1 and starts, Ada the last. Each old
    link opens its person's seat of the rematch, and no other: a player away when it was made
    finds their seat from the link they have, though the server keeps no token to give again.
    Cy asks for it and gets his own new link alone: with Ada's, he could play her seat."""
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:
        game_id, old = played_by_people(client, ["Ada", "Bo", "Cy"])
        made = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": old[2]})
        new = made.json()
        links = [(link["seat"], link["name"], link["previous_seat"]) for link in new["links"]]
        assert links == [(1, "Cy", 2)]
        table = view(client, new["id"])
        assert [seat["name"] for seat in table["seats"]] == ["Bo", "Cy", "Ada"]
        assert table["to_move"] == 0  # Bo starts
        assert [view(client, game_id, token)["rematch_seat"] for token in old] == [2, 0, 1]
        assert view(client, game_id)["rematch_seat"] is None  # a spectator has no seat there
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:  # after a restart too
        assert [view(client, new["id"], token)["viewer"] for token in old] == [2, 0, 1]
        move = view(client, new["id"], old[1])["legal"][0]["notation"]
        assert act(client, new["id"], old[1], 0, move).is_success  # Bo plays from his old link
        _, others = played_by_people(client, ["Dee", "Eve"])
        for token in others:  # a link of another game opens no seat of this one
            refused = client.get(f"/api/games/{new['id']}", headers={"X-Seat-Token": token})
            assert refused.status_code == 403 and refused.json()["error"] == "bad-token"


def test_one_link_opens_a_person_s_seat_through_a_chain_of_rematches(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ada keeps playing from her first link: each rematch's seat takes the links of her seats
    in the games before, up to `OLD_LINKS_KEPT` of them (2 here), and each old game's view
    offers her the rematch's seat only while her link opens it, read from the store without
    replaying the rematch (after a restart the games played no more are not in memory)."""
    monkeypatch.setattr(store, "OLD_LINKS_KEPT", 2)
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        created = create(client, "cafe", ["human", "greedy"])
        games, first = [created["id"]], token_of(created, 0)
        for _ in range(3):
            assert abandon(client, games[-1], first).is_success  # her first link's seat
            headers = {"X-Seat-Token": first}
            made = client.post(f"/api/games/{games[-1]}/rematch", headers=headers)
            games.append(made.json()["id"])
        seats = [view(client, game_id, first)["rematch_seat"] for game_id in games[:-1]]
    assert seats == [1, 0, None]  # she moves one seat on; the fourth game is 3 rematches on
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert view(client, games[0], first)["rematch_seat"] == seats[0]
        assert games[1] not in hub.sessions  # its seats read, its game not replayed
        assert [view(client, game_id, first)["rematch_seat"] for game_id in games[:-1]] == seats
        for game_id, seat in zip(games[1:3], seats[:2], strict=True):
            assert view(client, game_id, first)["viewer"] == seat
        refused = client.get(f"/api/games/{games[3]}", headers={"X-Seat-Token": first})
        assert refused.status_code == 403 and refused.json()["error"] == "bad-token"
        assert view(client, games[2])["rematch_seat"] is None  # a spectator has no seat there


def test_a_shop_chosen_follows_its_player_into_the_rematch(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "greedy", "name": "Rob"}]
    options = {"shops": ["pita", "express"], "round_limit": 2}
    body = {"game": "souvlaki", "seats": seats, "options": options}
    created = client.post("/api/games", json=body).json()
    token = token_of(created, 0)
    assert abandon(client, created["id"], token).is_success
    made = client.post(f"/api/games/{created['id']}/rematch", headers={"X-Seat-Token": token})
    table = view(client, made.json()["id"])
    names = [seat["name"] for seat in table["seats"]]
    assert names == ["Rob", "Ada"]  # everyone one seat on...
    assert table["options"]["shops"] == ["express", "pita"]  # ...with the shop they chose


def test_a_rematch_of_a_bot_the_server_no_longer_has_is_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game stored before an upgrade that dropped its bot: its rematch would be a game whose
    bot never moves. It is refused, naming the seat, as a new game's request is."""
    created = create(client, "cafe", ["human", "greedy"])
    game_id, token = created["id"], token_of(created, 0)
    assert client.post(f"/api/games/{game_id}/abandon", headers={"X-Seat-Token": token}).is_success
    monkeypatch.delitem(BOTS, "greedy")
    refused = client.post(f"/api/games/{game_id}/rematch", headers={"X-Seat-Token": token})
    assert refused.status_code == 422, refused.text
    assert refused.json()["message"].startswith("seat 2: unknown bot 'greedy'; bots: ")
    assert view(client, game_id, token)["rematch"] is None


def test_an_abandoned_game_stays_abandoned_after_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        created = create(client, "cafe", ["human", "greedy"])
        game_id, token = created["id"], token_of(created, 0)
        while (mine := view(client, game_id, token))["your_turn"]:  # to the bot's turn
            assert act(
                client, game_id, token, mine["ply"], mine["legal"][-1]["notation"]
            ).is_success
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert hub.get(game_id).bot_task is not None  # the bot waits its pause out
        assert abandon(client, game_id, token).status_code == 200
        wait_for(lambda: hub.get(game_id).bot_task is None)  # and is stopped
        ply = view(client, game_id)["ply"]
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        assert game_id not in hub.sessions  # not brought back to be played
        again = view(client, game_id, token)
        assert again["status"] == "abandoned" and again["ply"] == ply
        assert hub.get(game_id).bot_task is None
        assert act(client, game_id, token, ply, "end").json()["error"] == "abandoned"


def test_an_all_bot_game_plays_itself(client: TestClient) -> None:
    created = create(client, "souvlaki", ["random", "heuristic"], round_limit=2)
    final = wait_for(lambda: (v := view(client, created["id"]))["over"] and v)
    assert final["status"] == "finished" and final["result"]["winners"]
    assert created["links"] == []


def test_websocket_views_actions_and_resync(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    game_id, first = created["id"], token_of(created, 0)
    with client.websocket_connect(f"/ws/games/{game_id}") as spectator:
        spectator.send_json({"type": "hello"})
        seen = spectator.receive_json()
        assert seen["type"] == "state" and seen["viewer"] is None and seen["legal"] == []
        with client.websocket_connect(f"/ws/games/{game_id}") as seat:
            seat.send_json({"type": "hello", "token": first})
            mine = seat.receive_json()
            assert mine["viewer"] == 0 and mine["your_turn"]
            move = mine["legal"][0]["notation"]
            seat.send_json({"type": "action", "ply": 3, "action": move})
            error = seat.receive_json()
            assert error == {"type": "error", "error": "stale", "message": error["message"]}
            assert seat.receive_json()["ply"] == 0  # the resync
            seat.send_json({"type": "action", "ply": 0, "action": move})
            after = seat.receive_json()
            assert after["ply"] == 1 and len(after["log"]) == 1
            again = after["legal"][0]["notation"]  # the first player's second placement
            seat.send_json({"type": "action", "ply": 1, "action": again})
            newer = seat.receive_json()
            assert newer["ply"] == 2 and newer["log_from"] == 1  # only the new entry comes
            assert [entry["ply"] for entry in newer["log"]] == [1]
            seat.send_json({"type": "nonsense"})
            assert seat.receive_json()["error"] == "bad-request"
        while seen["ply"] < 2:  # views may be skipped, never reordered
            seen = spectator.receive_json()
        assert seen["viewer"] is None and seen["legal"] == []


def test_websocket_refuses_a_move_number_that_is_not_a_whole_number(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    token = token_of(created, 0)
    with client.websocket_connect(f"/ws/games/{created['id']}") as seat:
        seat.send_json({"type": "hello", "token": token})
        legal = seat.receive_json()["legal"][0]["notation"]
        for ply in (False, "0", 0.0, -1):  # each would be taken for move 0 (-1: stale)
            seat.send_json({"type": "action", "ply": ply, "action": legal})
            assert seat.receive_json()["error"] == "bad-request"
        seat.send_text(NESTED)
        assert seat.receive_json()["error"] == "bad-request"
        seat.send_json({"type": "action", "ply": 5, "action": legal})  # a ply not reached
        refused = seat.receive_json()
        assert refused["error"] == "stale", refused
        assert refused["message"].startswith("the game has not reached that position (you sent")
    assert view(client, created["id"])["ply"] == 0


def test_websocket_refuses_a_bad_token(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        socket.send_json({"type": "hello", "token": "guessed"})
        assert socket.receive_json()["error"] == "bad-token"
    with client.websocket_connect("/ws/games/none") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["error"] == "no-game"


def searching_bot(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Register a bot "searching" that takes a budget; the budgets it is made with."""
    made: list[int | None] = []

    class Searching(RandomBot):
        def __init__(self, seed: int, iterations: int | None = None) -> None:
            made.append(iterations)
            super().__init__(seed)

    monkeypatch.setitem(BOTS, "searching", Searching)
    return made


def test_a_budget_reaches_the_bots_that_search(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = searching_bot(monkeypatch)
    budgeted = client.get("/api/catalog").json()["budget_bots"]
    assert "searching" in budgeted and "random" not in budgeted
    body = {
        "game": "cafe",
        "seats": [
            {"kind": "bot", "bot": "searching", "budget": 30},
            {"kind": "bot", "bot": "random"},  # a budget for it is refused (above)
        ],
        "options": SHORT_CAFE,
    }
    created = client.post("/api/games", json=body).json()
    wait_for(lambda: view(client, created["id"])["over"])
    assert made and set(made) == {30}
    assert view(client, created["id"])["seats"][0]["budget"] == 30


def test_a_refusal_of_another_status_keeps_its_braces(db_url: str) -> None:
    """Starlette's refusals of a status the API has no wording for are passed on as they are:
    a brace in one made the error handler fail (its text was formatted as a template)."""
    app = create_app(db_url, bot_pause=0.0)

    @app.get("/api/teapot")
    async def teapot() -> None:
        raise StarletteHTTPException(status_code=418, detail="short and {stout}")

    with TestClient(app) as client:
        answer = client.get("/api/teapot")
    assert answer.status_code == 418
    assert answer.json() == {"error": "http-error", "message": "short and {stout}"}


def test_a_budget_stored_before_the_cap_is_capped_when_its_bot_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A game stored with a larger budget (before the cap), restored or played again, still
    gets a bot of at most MAX_BUDGET iterations a decision."""
    made = searching_bot(monkeypatch)
    build_bot("searching", 1, 100_000)
    build_bot("searching", 1, 30)
    assert made == [MAX_BUDGET, 30]
    stored = SeatSpec(kind="bot", name="P1", bot="searching", budget=100_000)
    shown = seat_infos([stored], lambda seat: False)[0]
    assert shown["budget"] == played_budget(stored.budget) == MAX_BUDGET  # shown as played


def test_websocket_answers_a_message_that_is_not_json(client: TestClient) -> None:
    created = create(client, "cafe", ["human", "human"])
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        socket.send_json({"type": "hello"})
        assert socket.receive_json()["type"] == "state"
        socket.send_text("{not json")
        assert socket.receive_json()["error"] == "bad-request"
        socket.send_bytes(b"\x00{")  # no message of ours is binary: answered, not a crash
        assert socket.receive_json()["error"] == "bad-request"
        socket.send_json({"type": "action", "ply": 0, "action": "end"})
        assert socket.receive_json()["error"] == "spectator"


def test_websocket_closes_on_a_client_that_does_not_read_its_answers(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client that sends and does not read: every send to it waits (here, long enough for the
    test), and its answers wait in the server; past `MAX_UNSENT` of them it is let go."""
    send_json = WebSocket.send_json

    async def unread(socket: WebSocket, data: Any, mode: str = "text") -> None:
        await asyncio.sleep(5)
        await send_json(socket, data, mode)

    created = create(client, "cafe", ["human", "human"])
    monkeypatch.setattr(WebSocket, "send_json", unread)
    with client.websocket_connect(f"/ws/games/{created['id']}") as socket:
        socket.send_json({"type": "hello"})
        for _ in range(MAX_UNSENT + 1):  # each answered by an error, none read
            socket.send_text("nonsense")
        with pytest.raises(WebSocketDisconnect) as closed:  # before any answer is sent
            socket.receive_json()
    assert closed.value.code == 1008
    assert closed.value.reason.startswith(f"more than {MAX_UNSENT} messages unread: read")


NESTED = "[" * 30_000 + "]" * 30_000
"""JSON nested far deeper than Python's parser recurses (it raised RecursionError), in less
than the 64 KB a websocket message may hold."""

NO_HELLOS: list[str | bytes] = [
    NESTED,
    "hello",
    b"\x00",
    "[1, 2]",
    '{"token": "abc"}',
    '{"type": "hello", "token": 5}',
    '{"type": "hello", "token": ["abc"]}',
    '{"type": "hello", "token": {"seat": 0}}',
]
"""First messages of a websocket that are no hello (a hello's token is text, or none)."""


async def first_answers(server: LiveServer, game_id: str) -> list[Any]:
    """The server's answer to each of `NO_HELLOS` sent as a websocket's first message (a real
    server: one that answered nothing would leave an in-process client waiting for ever)."""
    answers = []
    for hello in NO_HELLOS:
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}") as ws:
            await ws.send(hello)
            answers.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
    return answers


def test_websocket_refuses_a_first_message_that_is_no_hello(live_server: LiveServer) -> None:
    server = live_server.start()
    created = server.post("/api/games", {"game": "cafe", "seats": [{"kind": "human"}] * 2})
    answers = asyncio.run(first_answers(server, created["id"]))
    for hello, answer in zip(NO_HELLOS, answers, strict=True):
        assert answer["error"] == "bad-request" and "hello" in answer["message"], hello
    assert not server.get(f"/api/games/{created['id']}")["seats"][0]["joined"]


def test_finished_games_are_read_back_when_asked_for(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_pause=0.0)) as first:
        created = create(first, "cafe", ["random", "greedy"], **SHORT_CAFE)
        final = wait_for(lambda: (v := view(first, created["id"]))["over"] and v)
    with TestClient(create_app(db_url, bot_pause=0.0)) as second:
        listed = second.get("/api/games?status=finished").json()
        assert [(g["id"], g["ply"], g["title"]) for g in listed] == [
            (created["id"], final["ply"], "Café International")
        ]
        assert second.get("/api/games?status=running").json() == []
        assert view(second, created["id"]) == final
        assert second.get("/api/games?status=nonsense").status_code == 422


def test_only_the_last_finished_games_read_stay_in_memory(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every finished game anyone looked at stayed in memory as long as the server ran. Those
    a page watches stay; of the others, the last `MAX_ENDED_KEPT` read; one dropped is read
    back from the store, the same."""
    monkeypatch.setattr(sessions_module, "MAX_ENDED_KEPT", 2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    games = [create(client, "cafe", ["random", "greedy"], **SHORT_CAFE)["id"] for _ in range(4)]
    finals = {
        game_id: wait_for(lambda g=game_id: (v := view(client, g))["over"] and v)
        for game_id in games
    }
    with client.websocket_connect(f"/ws/games/{games[0]}") as watching:
        watching.send_json({"type": "hello"})
        assert watching.receive_json()["over"]
        create(client, "cafe", ["human", "random"])  # a game made: the oldest unwatched go
        ended = {g for g, session in hub.sessions.items() if session.ended}
        assert ended == {games[0], *games[2:]}, ended  # games[1] dropped; [0] is watched
        assert view(client, games[2]) == finals[games[2]]  # read again: the last to go now
        assert view(client, games[1]) == finals[games[1]]  # read back as it was
        create(client, "cafe", ["human", "random"])
        ended = {g for g, session in hub.sessions.items() if session.ended}
        assert ended == {games[0], games[2], games[1]}, ended  # games[3], read least lately


def test_bot_thinking_does_not_hold_up_the_server(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot that thinks until the test lets it: if it thought on the event loop, the server
    could not answer the request that lets it go on."""
    thinking, go_on = threading.Event(), threading.Event()

    class Pondering(RandomBot):
        def choose(self, state: Any) -> Any:
            thinking.set()
            assert go_on.wait(30)
            return super().choose(state)

    monkeypatch.setitem(BOTS, "pondering", Pondering)
    created = create(client, "cafe", ["pondering", "random"], **SHORT_CAFE)
    assert thinking.wait(10)
    answered = view(client, created["id"])  # served while the bot is still thinking
    assert answered["ply"] == 0 and answered["to_move"] == 0
    go_on.set()
    assert wait_for(lambda: view(client, created["id"])["over"])


def test_cafe_points_shown_for_a_move_do_not_tell_the_bag() -> None:
    """A move's points were found by playing it on the true state: one that ends the game
    (here the first turn does) scored the hand left after the draw, a joker dearer than a
    guest (CI-E.2), so the points told which card the bag would give. Two games alike but for
    the bag's hidden order show the same points."""
    from types import SimpleNamespace

    from kafeneio.games import get_game
    from kafeneio.server.sessions import Hub

    def shown(state: Any) -> list[int]:
        session = SimpleNamespace(state=state, stored=SimpleNamespace(game="cafe", seed=1))
        return [move["gain"] for move in Hub.legal(None, session)]  # type: ignore[arg-type]

    def scored(state: Any, action: Any) -> int:
        copy = state.clone()
        copy.apply(action)
        return int(copy.scores()[0])

    game = get_game("cafe", {"hand_size": 2, "end_bag": 100})
    told_apart = 0
    for seed in range(60):
        state = game.new_state(2, seed=seed)
        bar = next(a for a in state.legal_actions() if a.notation.endswith("@bar"))
        for other in range(6):
            twin = state.determinize(0, random.Random(other))  # the same to P1 but the bag
            assert shown(state) == shown(twin)
            told_apart += scored(state, bar) != scored(twin, bar)
    assert told_apart  # the bag did change what the move really scores: the check can fail


def test_a_body_too_large_is_refused_before_it_is_read(client: TestClient) -> None:
    """A 20 MB request was read and parsed whole: anyone on the network could make the server
    hold what they sent. Refused by its length, and without one as it comes in."""
    headers = {"Content-Type": "application/json"}
    big = b"{" + b" " * 200_000 + b"}"
    response = client.post("/api/games", content=big, headers=headers)
    assert response.status_code == 413 and response.json()["error"] == "too-large"

    def chunks() -> Iterator[bytes]:  # sent without a length
        for _ in range(100):
            yield b" " * 4096

    response = client.post("/api/games", content=chunks(), headers=headers)
    assert response.status_code == 413 and "64 KB" in response.json()["message"]
    assert client.get("/api/games").json() == []
    assert create(client, "cafe", ["human", "human"])["id"]  # and a request of its size is read


async def websocket_answer(server: LiveServer, path: str, **headers: str) -> Any:
    """What a websocket opened with `headers` is answered: its first view, or how it closed."""
    url = f"ws://127.0.0.1:{server.port}{path}"
    try:
        async with websockets.connect(url, additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            return json.loads(await asyncio.wait_for(ws.recv(), 10))
    except websockets.exceptions.InvalidStatus as refused:
        return refused.response.status_code
    except websockets.exceptions.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def test_a_server_on_this_machine_answers_only_to_its_own_names_and_pages(
    live_server: LiveServer,
) -> None:
    """A page of another site may not use the server: not by a name of its own pointed at
    127.0.0.1 (DNS rebinding), not by a websocket from its page, not by framing the lobby."""
    server = live_server.start()
    created = server.post("/api/games", {"game": "cafe", "seats": [{"kind": "human"}] * 2})
    path = f"/ws/games/{created['id']}"
    for host in ("127.0.0.1", "localhost", "LOCALHOST"):
        request = urllib.request.Request(
            f"{server.base}/api/catalog", headers={"Host": f"{host}:{server.port}"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200
            assert answer.headers["X-Frame-Options"] == "DENY"
            assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
            # scripts of this server alone (the seat links in a browser's storage), no type
            # guessed, no address sent on
            assert "script-src 'self'" in answer.headers["Content-Security-Policy"]
            assert answer.headers["X-Content-Type-Options"] == "nosniff"
            assert answer.headers["Referrer-Policy"] == "same-origin"
    request = urllib.request.Request(
        f"{server.base}/api/catalog", headers={"Host": f"rebound.example:{server.port}"}
    )
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 400 and json.load(refused.value)["error"] == "bad-host"
    own = f"http://127.0.0.1:{server.port}"
    assert asyncio.run(websocket_answer(server, path, Origin=own))["type"] == "state"
    assert asyncio.run(websocket_answer(server, path, Origin="http://elsewhere.example")) == 403
    big = json.dumps({"type": "hello", "token": "x" * 70_000})  # over the 64 KB a message holds
    url = f"ws://127.0.0.1:{server.port}{path}"

    async def too_big() -> int | None:
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(big)
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
            return closed.value.rcvd.code if closed.value.rcvd is not None else None

    assert asyncio.run(too_big()) == 1009  # "message too big"


def test_a_proxy_s_name_may_be_allowed(live_server: LiveServer) -> None:
    """Behind a proxy with TLS (as docs/web.md advises), the server is asked for the proxy's
    name, and its pages open websockets from the proxy's origin, while the proxy may pass on
    127.0.0.1 as the Host: `--allow-host` names it."""
    server = live_server.start(0.0, "--allow-host", "games.example.com")
    created = server.post("/api/games", {"game": "cafe", "seats": [{"kind": "human"}] * 2})
    path = f"/ws/games/{created['id']}"
    request = urllib.request.Request(
        f"{server.base}/api/catalog", headers={"Host": "games.example.com"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200
    proxied = asyncio.run(websocket_answer(server, path, Origin="https://games.example.com"))
    assert proxied["type"] == "state"
    for elsewhere in (
        "https://other.example",
        "http://games.example.com:9999",  # another port of that host: another site
        "ftp://games.example.com",
        "http://[::1",  # no address at all
    ):
        assert asyncio.run(websocket_answer(server, path, Origin=elsewhere)) == 403, elsewhere
    for wrong in ("https://games.example.com", "games.example.com:https"):
        refused = CliRunner().invoke(cli_app, ["serve", "--allow-host", wrong])
        assert refused.exit_code == 2 and "takes a host name" in refused.output


def test_games_of_bots_alone_are_capped_and_play_on_a_thread_of_their_own(db_url: str) -> None:
    """Anyone who reaches the server may start games of bots alone: forty of them, searching,
    kept a person's opponent 30 to 70 seconds from its reply, all bots sharing two threads."""
    with TestClient(create_app(db_url, bot_pause=600.0, max_bot_games=2)) as client:
        for _ in range(2):
            create(client, "cafe", ["greedy", "random"])
        body = {"game": "cafe", "seats": [{"kind": "bot", "bot": "random"}] * 2, "options": {}}
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 503 and refused.json()["error"] == "bots-busy"
        assert "playing 2 games of bots alone" in refused.json()["message"]
        assert len(client.get("/api/games").json()) == 2  # nothing made
        create(client, "cafe", ["human", "greedy"])  # a person's game is never refused so


def test_the_bots_of_games_with_a_person_do_not_wait_behind_those_of_bots_alone(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: dict[str, set[str]] = {"alone": set(), "person": set()}

    class Spy(Bot):
        """The first legal move, noting the thread that chose it under its game's kind."""

        def __init__(self, seed: int, kind: str) -> None:
            self.seed, self.kind = seed, kind

        def decide(self, state: State) -> Action:
            threads[self.kind].add(threading.current_thread().name)
            return state.legal_actions()[0]

    monkeypatch.setitem(BOTS, "alone", lambda seed: Spy(seed, "alone"))
    monkeypatch.setitem(BOTS, "person", lambda seed: Spy(seed, "person"))
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:
        create(client, "cafe", ["alone", "alone"])
        mine = create(client, "cafe", ["person", "human"])
        wait_for(lambda: view(client, mine["id"], token_of(mine, 1))["your_turn"])
        wait_for(lambda: len(threads["alone"]) > 0)
    assert {name.split("_")[0] for name in threads["alone"]} == {"bots-alone"}
    assert {name.split("_")[0] for name in threads["person"]} == {"bot"}


def test_a_database_that_refuses_is_told_in_the_api_s_shape_of_errors(
    db_url: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A full disk made every request a plain-text 500 and a page of traceback in the log."""
    with TestClient(create_app(db_url, bot_pause=600.0), raise_server_exceptions=False) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]

        def full(*args: Any) -> None:
            raise OperationalError(
                "INSERT ...", {}, sqlite3.OperationalError("database or disk is full")
            )

        monkeypatch.setattr(hub.store, "create", full)
        body = {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}
        with caplog.at_level("ERROR", logger="kafeneio.server"):
            refused = client.post("/api/games", json=body)
        assert refused.status_code == 503, refused.text
        assert refused.json()["error"] == "storage" and "disk" in refused.json()["message"]
        assert client.get("/api/games").json() == []  # nothing made
        said = [r for r in caplog.records if r.name == "kafeneio.server"]
        assert len(said) == 1 and "database or disk is full" in said[0].getMessage()
        assert said[0].exc_info is None  # one line, no traceback


def test_a_stored_game_that_no_longer_replays_is_the_server_s_fault_not_the_request_s(
    db_url: str,
) -> None:
    """It was left out at the start, said once in the log; asked for, it answered
    `422 bad-request`, as if the request were wrong."""
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        made = create(client, "cafe", ["human", "greedy"])
        legal = view(client, made["id"], token_of(made, 0))["legal"][0]["notation"]
        body = {"ply": 0, "action": legal}
        moved = client.post(
            f"/api/games/{made['id']}/actions",
            json=body,
            headers={"X-Seat-Token": token_of(made, 0)},
        )
        assert moved.is_success, moved.text
    with sqlite3.connect(db_url.removeprefix("sqlite:///")) as db:  # another engine's record
        db.execute("UPDATE actions SET notation = 'ZZm@99' WHERE game_id = ?", (made["id"],))
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        answer = client.get(f"/api/games/{made['id']}")
        assert answer.status_code == 500 and answer.json()["error"] == "unreadable", answer.text
        assert "no longer replays" in answer.json()["message"]
        assert client.get("/api/games/nothing").status_code == 404  # unlike a game not there


def _refused_once(real: Any) -> Any:
    """`real` (the store's `add_actions`), but refusing its first call as a full disk does."""
    calls = []

    def flaky(writes: Any) -> Any:
        calls.append(writes)
        if len(calls) == 1:
            full_disk = sqlite3.OperationalError("database or disk is full")
            raise OperationalError("INSERT ...", {}, full_disk)
        return real(writes)

    return flaky


def test_a_move_the_database_refuses_over_the_websocket_is_said_and_may_be_sent_again(
    db_url: str,
) -> None:
    """The storage handler read a websocket's `method`, which it has not: the socket died
    with two tracebacks and the page was told nothing."""
    with TestClient(create_app(db_url, bot_pause=600.0)) as client:
        made = create(client, "cafe", ["human", "greedy"])
        token = token_of(made, 0)
        move = view(client, made["id"], token)["legal"][0]["notation"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.store.add_actions = _refused_once(hub.store.add_actions)
        with client.websocket_connect(f"/ws/games/{made['id']}") as socket:
            socket.send_json({"type": "hello", "token": token})
            assert socket.receive_json()["type"] == "state"
            socket.send_json({"type": "action", "ply": 0, "action": move})
            refused = socket.receive_json()
            assert refused["type"] == "error" and refused["error"] == "storage", refused
            again = socket.receive_json()
            assert again["type"] == "state" and again["ply"] == 0  # not taken: as it was
            socket.send_json({"type": "action", "ply": 0, "action": move})  # now it writes
            assert wait_for(lambda: view(client, made["id"])["ply"] >= 1)


def test_a_game_of_bots_goes_on_once_the_database_takes_writes_again(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's move the database refused stopped its game for good, and the stopped game
    of bots alone still counted against --max-bot-games."""
    monkeypatch.setattr(sessions_module, "STORAGE_RETRY", 0.05)
    with TestClient(create_app(db_url, bot_pause=0.0)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.store.add_actions = _refused_once(hub.store.add_actions)
        made = create(client, "cafe", ["random", "random"])
        assert wait_for(lambda: view(client, made["id"])["ply"] >= 3)


def test_a_rematch_of_bots_alone_is_refused_at_the_cap_as_a_new_game_is(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_pause=600.0, max_bot_games=1)) as client:
        first = create(client, "cafe", ["random", "random"])
        abandoned = client.post(f"/api/games/{first['id']}/abandon")
        assert abandoned.is_success, abandoned.text  # played no more: it counts no longer
        create(client, "cafe", ["greedy", "random"])
        again = client.post(f"/api/games/{first['id']}/rematch")
        assert again.status_code == 503 and again.json()["error"] == "bots-busy", again.text


def test_a_page_of_another_site_may_not_act_here(client: TestClient) -> None:
    """A cross-site POST with no body (an analysis of hours, the abandon of a game of bots)
    went through: only a JSON body was refused such a page."""
    made = create(client, "cafe", ["random", "random"])
    path = f"/api/games/{made['id']}/abandon"
    refused = client.post(path, headers={"Origin": "http://evil.example"})
    assert refused.status_code == 403 and refused.json()["error"] == "bad-origin"
    assert view(client, made["id"])["status"] != "abandoned"  # nothing changed
    assert client.post(path, headers={"Origin": "null"}).status_code == 403
    assert client.get(
        f"/api/games/{made['id']}", headers={"Origin": "http://evil.example"}
    ).is_success
    # a browser may say "null" of a page of this server, and then says so in a header no page
    # can set
    own = {"Origin": "null", "Sec-Fetch-Site": "same-origin"}
    assert client.post(f"/api/games/{made['id']}/analysis", headers=own).status_code != 403
    assert client.post(path, headers={"Origin": "http://testserver"}).is_success  # its own page

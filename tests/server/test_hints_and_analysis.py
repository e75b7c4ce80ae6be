"""Hints and analyses in the web app: the search bot's suggestion for the seat to move, from that
seat's own information, in games against bots only (every refusal changes nothing); and the
analysis of a finished game, made once in the background by the call `kafeneio analyse` makes."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kafeneio.server import sessions
from kafeneio.server.app import create_app
from kafeneio.server.store import Store
from kafeneio.sim import analysis
from kafeneio.sim.analysis import Budget, analyse_game, count_decisions, with_budget
from server.conftest import create, token_of, wait_for
from server.test_api import SHORT_CAFE, act, play_out, view

HINT_BUDGET = Budget(None, 40)
"""A budget in iterations: the same hint on every machine, and quick."""


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose bots wait a minute before moving, so a bot's turn can be looked at."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with TestClient(create_app(url, bot_pause=60.0, hint_budget=HINT_BUDGET)) as test_client:
        yield test_client


def ask(client: TestClient, game_id: str, token: str | None, ply: int) -> Any:
    headers = {"X-Seat-Token": token} if token else {}
    return client.post(f"/api/games/{game_id}/hint", json={"ply": ply}, headers=headers)


def kept(client: TestClient, game_id: str, token: str | None, ply: int) -> Any:
    """The hint given before at `ply`, as a reloaded page asks for it (never a search)."""
    headers = {"X-Seat-Token": token} if token else {}
    return client.get(f"/api/games/{game_id}/hint", params={"ply": ply}, headers=headers)


class Searches:
    """Stands in for the server's `hint` call: counts the searches, and fails the first
    `failing` of them."""

    def __init__(self, failing: int = 0) -> None:
        self.calls = 0
        self.failing = failing

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        if self.calls <= self.failing:
            raise RuntimeError("the search broke")
        return analysis.hint(*args)


@pytest.mark.parametrize(("game", "seat"), [("cafe", 0), ("souvlaki", 1)])  # who moves first
def test_a_hint_is_a_legal_move_with_the_movers_chances_and_the_same_when_asked_again(
    slow_bots: TestClient, game: str, seat: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches = Searches()
    monkeypatch.setattr(sessions, "hint", searches)
    created = create(slow_bots, game, ["human", "mcts"] if seat == 0 else ["mcts", "human"])
    token = token_of(created, seat)
    current = wait_for(lambda: (v := view(slow_bots, created["id"], token))["your_turn"] and v)
    assert current["hints"] is True
    before = kept(slow_bots, created["id"], token, current["ply"])
    assert before.status_code == 200 and before.json() is None and searches.calls == 0
    response = ask(slow_bots, created["id"], token, current["ply"])
    assert response.status_code == 200, response.text
    hint = response.json()
    legal = {move["notation"] for move in current["legal"]}
    assert hint["ply"] == current["ply"] and hint["player"] == seat
    assert hint["best"] in legal and 0 <= hint["win_chance"] <= 1
    # each move also in words, which say more than its notation ("pick 2": which customer)
    assert all(move["words"] for move in hint["moves"])
    assert any(move["words"] != move["notation"] for move in hint["moves"])
    best = next(move for move in hint["moves"] if move["notation"] == hint["best"])
    assert hint["best_words"] == best["words"]
    listed = [move["notation"] for move in hint["moves"]]
    assert listed[0] == hint["best"] and set(listed) <= legal
    assert len(listed) == min(5, len(legal))
    assert hint["iterations"] == HINT_BUDGET.iterations or len(legal) == 1
    again = ask(slow_bots, created["id"], token, current["ply"]).json()
    assert again == hint and searches.calls == 1  # given again, not searched again
    reloaded = kept(slow_bots, created["id"], token, current["ply"])
    assert reloaded.json() == hint and searches.calls == 1  # shown again after a reload
    assert view(slow_bots, created["id"])["hints"] is False  # a spectator's view
    assert view(slow_bots, created["id"], token)["ply"] == current["ply"]  # nothing played


def test_hints_are_refused_to_spectators_stale_clients_and_out_of_turn(
    slow_bots: TestClient,
) -> None:
    created = create(slow_bots, "cafe", ["human", "random"])
    game_id, token = created["id"], token_of(created, 0)
    current = view(slow_bots, game_id, token)
    ply = current["ply"]
    assert ask(slow_bots, game_id, None, ply).json()["error"] == "spectator"
    assert ask(slow_bots, game_id, "not-a-token", ply).status_code == 403
    stale = ask(slow_bots, game_id, token, ply + 3)
    assert stale.status_code == 409 and stale.json()["error"] == "stale"
    assert kept(slow_bots, game_id, None, ply).json()["error"] == "spectator"
    assert kept(slow_bots, game_id, "not-a-token", ply).status_code == 403
    assert kept(slow_bots, game_id, token, ply + 3).json()["error"] == "stale"
    bad = slow_bots.post(f"/api/games/{game_id}/hint", json={"ply": -1}, headers={})
    assert bad.status_code == 422
    # a Café turn is one or two guests, then the bot's turn (it waits a minute here)
    while view(slow_bots, game_id, token)["your_turn"]:
        now = view(slow_bots, game_id, token)
        assert act(slow_bots, game_id, token, now["ply"], now["legal"][0]["notation"]).is_success
    theirs = view(slow_bots, game_id, token)
    assert theirs["hints"] is False
    refused = ask(slow_bots, game_id, token, theirs["ply"])
    assert refused.status_code == 403 and refused.json()["error"] == "not-your-turn"
    assert kept(slow_bots, game_id, token, theirs["ply"]).json()["error"] == "not-your-turn"
    assert view(slow_bots, game_id, token)["ply"] == theirs["ply"]


def test_a_seat_is_never_given_the_hint_kept_for_another(
    slow_bots: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Today only one seat of a game can have hints (the others are bots), so no other seat's
    hint is kept in a real game; this guards the keying by seat should hints ever be offered
    in games between people."""
    searches = Searches()
    monkeypatch.setattr(sessions, "hint", searches)
    created = create(slow_bots, "souvlaki", ["mcts", "human"])
    game_id, token = created["id"], token_of(created, 1)
    ply = wait_for(lambda: (v := view(slow_bots, game_id, token))["your_turn"] and v)["ply"]
    given = ask(slow_bots, game_id, token, ply).json()
    # the same hint, kept as the other seat's at this very ply (as if that seat had asked):
    # a Souvlaki hint is worked out from its seat's hidden hand, so it is that seat's only
    session = slow_bots.app.state.hub.get(game_id)  # type: ignore[attr-defined]
    session.kept_hints[0] = session.kept_hints.pop(1)
    assert kept(slow_bots, game_id, token, ply).json() is None
    again = ask(slow_bots, game_id, token, ply)
    assert again.status_code == 200 and searches.calls == 2  # searched for this seat
    assert again.json()["player"] == given["player"] == 1
    assert kept(slow_bots, game_id, token, ply).json() == again.json()


def test_a_hint_that_failed_is_searched_again_when_asked_again(
    slow_bots: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    searches = Searches(failing=1)
    monkeypatch.setattr(sessions, "hint", searches)
    created = create(slow_bots, "cafe", ["human", "random"])
    game_id, token = created["id"], token_of(created, 0)
    ply = view(slow_bots, game_id, token)["ply"]
    failed = ask(slow_bots, game_id, token, ply)
    assert failed.status_code == 503 and failed.json()["error"] == "hint-failed"
    assert ask(slow_bots, game_id, token, ply).status_code == 200 and searches.calls == 2
    assert view(slow_bots, game_id, token)["ply"] == ply


def test_no_hints_in_a_game_between_people(slow_bots: TestClient) -> None:
    created = create(slow_bots, "cafe", ["human", "human"])
    game_id, token = created["id"], token_of(created, 0)
    current = view(slow_bots, game_id, token)
    assert current["your_turn"] and current["hints"] is False
    refused = ask(slow_bots, game_id, token, current["ply"])
    assert refused.status_code == 403 and refused.json()["error"] == "no-hints"
    assert "against bots" in refused.json()["message"]


ANALYSIS = Budget(None, 20)


def analysing_server(url: str, budget: Budget = ANALYSIS) -> TestClient:
    """A server on the database at `url` whose bots move at once and whose analyses search
    `budget` a decision (20 iterations); started and stopped by `with`."""
    return TestClient(create_app(url, bot_pause=0.0, analysis_budget=budget))


def analysis_in(client: TestClient, game_id: str, status: str = "done") -> Any:
    """The analysis view of a game once it has `status`."""
    url = f"/api/games/{game_id}/analysis"
    return wait_for(lambda: (shown := client.get(url).json())["status"] == status and shown)


@pytest.fixture
def quick_analysis(tmp_path: Path) -> Iterator[TestClient]:
    """A server whose bots move at once and whose analyses search 20 iterations a decision."""
    with analysing_server(f"sqlite:///{tmp_path / 'games.sqlite3'}") as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("game", "options"), [("cafe", SHORT_CAFE), ("souvlaki", {"round_limit": 1})]
)
def test_a_finished_game_is_analysed_once_in_the_background_as_analyse_would(
    quick_analysis: TestClient, game: str, options: dict[str, Any]
) -> None:
    client = quick_analysis
    created = create(client, game, ["random", "greedy"], **options)
    game_id = created["id"]
    wait_for(lambda: view(client, game_id)["over"])
    assert client.get(f"/api/games/{game_id}/analysis").json()["status"] == "none"
    started = client.post(f"/api/games/{game_id}/analysis").json()
    assert started["status"] in ("running", "done")  # the decisions are counted as it starts
    done = analysis_in(client, game_id)
    record = client.get(f"/api/games/{game_id}/record").json()
    assert done["done"] == done["total"] == count_decisions(record)
    played = [d["played"] for d in done["analysis"]["decisions"]]
    assert played == [record["actions"][d["ply"]] for d in done["analysis"]["decisions"]]
    # the same call as `kafeneio analyse --bot mcts --iterations 20`
    assert done["analysis"] == analyse_game(record, "mcts", ANALYSIS).to_dict() | {
        "seconds": done["analysis"]["seconds"]
    }
    again = client.post(f"/api/games/{game_id}/analysis").json()
    assert again == done  # asked again: where it stands, not made again


def test_an_unfinished_game_is_not_analysed(quick_analysis: TestClient) -> None:
    created = create(quick_analysis, "cafe", ["human", "random"])
    for method in ("get", "post"):
        refused = getattr(quick_analysis, method)(f"/api/games/{created['id']}/analysis")
        assert refused.status_code == 409 and refused.json()["error"] == "not-over"
    assert quick_analysis.get("/api/games/nope/analysis").status_code == 404


def test_an_abandoned_game_is_analysed_as_far_as_it_went(quick_analysis: TestClient) -> None:
    client = quick_analysis
    created = create(client, "souvlaki", ["human", "greedy"], round_limit=2)
    game_id, token = created["id"], token_of(created, 0)
    for _ in range(3):  # a few decisions of the person, the bot's between them
        mine = wait_for(lambda: (v := view(client, game_id, token))["your_turn"] and v)
        assert act(client, game_id, token, mine["ply"], mine["legal"][0]["notation"]).is_success
    wait_for(lambda: view(client, game_id, token)["your_turn"])
    assert client.post(f"/api/games/{game_id}/abandon", headers={"X-Seat-Token": token}).is_success
    client.post(f"/api/games/{game_id}/analysis")
    done = analysis_in(client, game_id)
    record = client.get(f"/api/games/{game_id}/record").json()
    assert done["total"] == count_decisions(record) >= 4
    assert done["analysis"]["finished"] is False and done["analysis"]["winners"] == []
    assert done["analysis"] == analyse_game(record, "mcts", ANALYSIS).to_dict() | {
        "seconds": done["analysis"]["seconds"]
    }


def test_no_hint_once_the_game_is_over(quick_analysis: TestClient) -> None:
    created = create(quick_analysis, "cafe", ["human", "random"], **SHORT_CAFE)
    game_id, token = created["id"], token_of(created, 0)
    final = play_out(quick_analysis, game_id, token)
    assert final["hints"] is False
    refused = ask(quick_analysis, game_id, token, final["ply"])
    assert refused.status_code == 409 and refused.json()["error"] == "game-over"


def test_an_analysis_that_failed_is_made_again_when_asked_again(
    quick_analysis: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []

    def breaks_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the search broke")
        return analyse_game(*args, **kwargs)

    monkeypatch.setattr(sessions, "analyse_game", breaks_once)
    created = create(quick_analysis, "cafe", ["random", "greedy"], **SHORT_CAFE)
    game_id = created["id"]
    wait_for(lambda: view(quick_analysis, game_id)["over"])
    url = f"/api/games/{game_id}/analysis"
    quick_analysis.post(url)
    failed = analysis_in(quick_analysis, game_id, "failed")
    assert "broke" in failed["message"]
    assert quick_analysis.post(url).json()["status"] in ("running", "done")
    analysis_in(quick_analysis, game_id)
    assert len(calls) == 2


def test_analyses_wait_in_a_short_queue(
    quick_analysis: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def held(*args: Any, **kwargs: Any) -> Any:
        release.wait(30)
        return analyse_game(*args, **kwargs)

    monkeypatch.setattr(sessions, "analyse_game", held)
    monkeypatch.setattr(sessions, "ANALYSIS_QUEUE", 2)
    games = [
        create(quick_analysis, "cafe", ["random", "random"], **SHORT_CAFE)["id"] for _ in "abc"
    ]
    for game_id in games:
        wait_for(lambda game_id=game_id: view(quick_analysis, game_id)["over"])
    try:
        for game_id in games[:2]:
            assert quick_analysis.post(f"/api/games/{game_id}/analysis").status_code == 200
        busy = quick_analysis.post(f"/api/games/{games[2]}/analysis")
        assert busy.status_code == 503 and busy.json()["error"] == "busy"
        assert quick_analysis.get(f"/api/games/{games[2]}/analysis").json()["status"] == "none"
    finally:
        release.set()
    for game_id in games[:2]:
        analysis_in(quick_analysis, game_id)
    assert quick_analysis.post(f"/api/games/{games[2]}/analysis").status_code == 200


def test_an_analysis_is_kept_for_a_restarted_server_by_the_same_analyser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with analysing_server(url) as client:
        game_id = create(client, "cafe", ["random", "greedy"], **SHORT_CAFE)["id"]
        wait_for(lambda: view(client, game_id)["over"])
        analysis_url = f"/api/games/{game_id}/analysis"
        client.post(analysis_url)
        done = analysis_in(client, game_id)

    def must_not_run(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a kept analysis was made again")

    monkeypatch.setattr(sessions, "analyse_game", must_not_run)
    with analysing_server(url) as client:
        assert client.get(analysis_url).json() == done  # read from the store
        assert client.post(analysis_url).json() == done  # not made again
        record = client.get(f"/api/games/{game_id}/record").json()
        assert done["total"] == count_decisions(record)
    monkeypatch.undo()
    longer = Budget(None, ANALYSIS.iterations * 2)  # another analyser: its own analysis
    with analysing_server(url, longer) as client:
        assert client.get(analysis_url).json()["status"] == "none"
        client.post(analysis_url)
        redone = analysis_in(client, game_id)
        assert redone["analysis"] == analyse_game(record, "mcts", longer).to_dict() | {
            "seconds": redone["analysis"]["seconds"]
        }


def test_a_kept_analysis_that_does_not_read_is_made_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with analysing_server(url) as client:
        game_id = create(client, "cafe", ["random", "greedy"], **SHORT_CAFE)["id"]
        wait_for(lambda: view(client, game_id)["over"])
    store = Store(url)
    store.save_analysis(game_id, with_budget("mcts", ANALYSIS), {"not": "an analysis"})
    store.close()
    with analysing_server(url) as client:
        analysis_url = f"/api/games/{game_id}/analysis"
        assert client.get(analysis_url).json()["status"] == "none"
        client.post(analysis_url)
        analysis_in(client, game_id)


def hold_hints(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Hints whose searches go on only once the test sets the event returned (a long search)."""
    go_on = threading.Event()

    def held(*args: Any) -> Any:
        assert go_on.wait(60)
        return analysis.hint(args[0], args[1], HINT_BUDGET)

    monkeypatch.setattr(sessions, "hint", held)
    return go_on


def test_hints_searching_keep_no_game_s_bots_waiting(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two hints of two games, searching until the test lets them go on (a long search): a
    game of bots meanwhile plays on to its end."""
    go_on = hold_hints(monkeypatch)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    answers: list[int] = []
    asking = []
    for _ in range(2):  # Café: the person (seat 1) moves first
        created = create(client, "cafe", ["human", "random"], **SHORT_CAFE)
        game_id, token = created["id"], token_of(created, 0)

        def asks(game_id: str = game_id, token: str = token) -> None:
            answers.append(ask(client, game_id, token, 0).status_code)

        asking.append((game_id, threading.Thread(target=asks)))
        asking[-1][1].start()
    wait_for(lambda: all(hub.get(game_id).kept_hints for game_id, _ in asking))
    bots = create(client, "cafe", ["random", "random"], **SHORT_CAFE)
    try:
        assert wait_for(lambda: view(client, bots["id"])["over"], seconds=20)
    finally:
        go_on.set()
        for _, thread in asking:
            thread.join(60)
    assert answers == [200, 200]


def test_hints_beyond_those_the_server_works_out_at_once_are_refused_as_busy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hints are searched one after another, a second each: eight games' hints were answered
    after 1, 2, ... 8 seconds. Beyond `MAX_HINTS_WAITING` one is refused (503, ask again),
    and asked again once the others are done, it is searched."""
    go_on = hold_hints(monkeypatch)
    monkeypatch.setattr(sessions, "MAX_HINTS_WAITING", 2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    games = [create(client, "cafe", ["human", "random"]) for _ in range(3)]
    answers: list[int] = []
    asking = [
        threading.Thread(
            target=lambda g=g: answers.append(ask(client, g["id"], token_of(g, 0), 0).status_code)
        )
        for g in games[:2]
    ]
    for thread in asking:
        thread.start()
    wait_for(lambda: hub.hints_waiting == 2)
    busy = ask(client, games[2]["id"], token_of(games[2], 0), 0)
    assert busy.status_code == 503 and busy.json()["error"] == "hints-busy", busy.text
    assert "working out 2 hints" in busy.json()["message"]
    go_on.set()
    for thread in asking:
        thread.join(60)
    assert answers == [200, 200] and hub.hints_waiting == 0
    assert ask(client, games[2]["id"], token_of(games[2], 0), 0).status_code == 200


def test_a_hint_waiting_for_a_position_the_game_left_is_dropped(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hint asked for, then a move made before its search began: it kept its place among
    the hints the server works out, and one player of several games could fill them all."""
    go_on = hold_hints(monkeypatch)
    monkeypatch.setattr(sessions, "MAX_HINTS_WAITING", 2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    games = [create(client, "cafe", ["human", "random"]) for _ in range(3)]
    answers: dict[int, Any] = {}

    def asks(index: int) -> None:
        game = games[index]
        answers[index] = ask(client, game["id"], token_of(game, 0), 0)

    asking = [threading.Thread(target=asks, args=(index,)) for index in range(3)]
    for waiting, thread in enumerate(asking[:2], start=1):  # one searches (held), one waits
        thread.start()
        wait_for(lambda waiting=waiting: hub.hints_waiting == waiting)
    second, token = games[1]["id"], token_of(games[1], 0)
    move = view(client, second, token)["legal"][0]["notation"]
    assert act(client, second, token, 0, move).is_success  # its hint's position is left
    wait_for(lambda: hub.hints_waiting == 1)
    asking[2].start()  # taken, not refused as busy: the dropped hint's place is free
    wait_for(lambda: hub.hints_waiting == 2)
    go_on.set()
    for thread in asking:
        thread.join(60)
    assert answers[0].status_code == 200 and answers[2].status_code == 200
    assert answers[1].status_code == 409 and answers[1].json()["error"] == "stale"


def test_a_hint_names_the_second_guest_the_search_planned(
    slow_bots: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For a two-guest turn it named the first guest alone: which partner had the bot in
    mind? The search's plan for the next decision comes with it, in words."""
    planned: list[Any] = []

    def planning(state: Any, *args: Any) -> Any:
        real = analysis.hint(state, *args)
        first = real.best  # a guest, where the search seats one: a decision follows
        following = state.clone()
        following.apply(first)
        second = following.legal_actions()[-1]  # any of them: the plan is the stand-in's
        planned.append((first.notation, second.notation, following.action_words(second)))
        return dataclasses.replace(real, best=first, then=second)

    monkeypatch.setattr(sessions, "hint", planning)
    created = create(slow_bots, "cafe", ["human", "mcts"])
    token = token_of(created, 0)
    current = wait_for(lambda: (v := view(slow_bots, created["id"], token))["your_turn"] and v)
    hint = ask(slow_bots, created["id"], token, current["ply"]).json()
    ((first, second, words),) = planned
    assert (hint["best"], hint["then"], hint["then_words"]) == (first, second, words)
    assert view(slow_bots, created["id"], token)["ply"] == current["ply"]  # nothing played


def test_a_search_that_raises_stop_iteration_fails_the_hint_not_the_request(
    slow_bots: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A StopIteration cannot be set on an asyncio future: the request waited for ever."""

    def stopping(*args: Any) -> Any:
        raise StopIteration

    monkeypatch.setattr(sessions, "hint", stopping)
    created = create(slow_bots, "cafe", ["human", "mcts"])
    token = token_of(created, 0)
    current = wait_for(lambda: (v := view(slow_bots, created["id"], token))["your_turn"] and v)
    response = ask(slow_bots, created["id"], token, current["ply"])
    assert response.status_code == 503 and response.json()["error"] == "hint-failed"


def test_a_game_too_long_to_analyse_and_replays_past_the_queue_are_refused(
    quick_analysis: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One anonymous request started hours of analysis of a 41,000-move game that nobody could
    stop; twenty replay requests of it kept another player's replay waiting 33 s."""
    from kafeneio.server import app as app_module

    created = create(quick_analysis, "cafe", ["human", "random"], **SHORT_CAFE)
    game_id, token = created["id"], token_of(created, 0)
    final = play_out(quick_analysis, game_id, token)
    monkeypatch.setattr(sessions, "MAX_ANALYSED_MOVES", final["ply"] - 1)
    refused = quick_analysis.post(f"/api/games/{game_id}/analysis")
    assert refused.status_code == 409 and refused.json()["error"] == "too-long", refused.text
    assert f"a game of {final['ply']} moves" in refused.json()["message"]
    monkeypatch.setattr(app_module, "MAX_REPLAYS_WAITING", 0)  # the queue full
    busy = quick_analysis.get(f"/api/games/{game_id}/replay", params={"ply": 1})
    assert busy.status_code == 503 and busy.json()["error"] == "replays-busy", busy.text
    monkeypatch.setattr(app_module, "MAX_REPLAYS_WAITING", 32)
    assert quick_analysis.get(f"/api/games/{game_id}/replay", params={"ply": 1}).is_success

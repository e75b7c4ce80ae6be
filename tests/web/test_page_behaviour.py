"""How the game pages behave between a click and the server's answer, and what they show of a
turn: one move at a time, notices that go away, the other players' moves marked, keyboard use."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from server.conftest import LiveServer, wait_for
from web.test_browser import (
    READY,
    cafe_turn,
    click_and_wait,
    new_page,
    open_seat,
    souvlaki_turn,
    wait_turn_or_end,
)

MOVES = "#board [data-action]"


class HeldSocket:
    """The game page's websocket through Playwright, which counts the moves the page sends and
    can hold the server's messages back (a slow server) until `release`."""

    def __init__(self, page: Any) -> None:
        self.sent: list[str] = []
        self.holding = False
        self.held: list[Any] = []
        self.route: Any = None
        self.stale = False  # the next move is sent as if seen a move earlier (another tab's)
        # (or, at the game's start, a move later)
        self.edit: Callable[[dict[str, Any]], None] | None = None  # changes the views sent
        self.last: dict[str, Any] | None = None  # the last view the server sent
        page.route_web_socket("**/ws/games/**", self.connect)

    def connect(self, route: Any) -> None:
        server = route.connect_to_server()
        self.route = route

        def from_page(message: Any) -> None:
            sent = json.loads(message)
            if sent.get("type") == "action":
                self.sent.append(sent["action"])
                if self.stale:  # at the start, a move "seen" one move on: stale too
                    self.stale = False
                    ply = sent["ply"]
                    message = json.dumps({**sent, "ply": ply - 1 if ply else 1})
            server.send(message)

        def from_server(message: Any) -> None:
            sent = json.loads(message)
            if self.edit is not None and sent.get("type") == "state":
                self.edit(sent)
                message = json.dumps(sent)
            if sent.get("type") == "state":
                self.last = sent
            if self.holding:
                self.held.append(message)
            else:
                route.send(message)

        route.on_message(from_page)
        server.on_message(from_server)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.route.send(message)
        self.held.clear()


def routed(page: Any, held: list[Any], seconds: float = 20.0) -> None:
    """Wait until a route of `page` has held a request in `held`. Playwright hands a request to
    its route's handler only while a call of its own runs: polled with the test's own sleep
    (`wait_for`), a request that came after the last call was never handed over."""
    for _ in range(int(seconds / 0.02)):
        if held:
            return
        page.wait_for_timeout(20)
    raise AssertionError("the page sent no request to hold")


def open_game(browser: Any, server: LiveServer, game: str, width: int = 1280) -> Any:
    """This person (seat 1) against a bot, the page's socket held in hand and its clock paused:
    the page, its context, console and socket."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": game, "seats": seats})
    context, page, console = new_page(browser, width, 844)
    socket = HeldSocket(page)
    start = datetime.now(UTC)
    page.clock.install(time=start)
    page.clock.pause_at(start + timedelta(seconds=1))
    page.goto(server.base + created["links"][0]["path"])
    page.wait_for_selector("body[data-your-turn=true]")
    return context, page, console, socket


def centre(page: Any, selector: str) -> tuple[float, float]:
    found = page.locator(selector).first
    found.wait_for(state="visible")  # (on a loaded machine it was not laid out yet: no box)
    box = found.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_one_move_at_a_time_and_no_move_from_a_click_as_the_board_changes(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "souvlaki")
    page.clock.run_for(1000)  # the first view is a while ago
    keep, redraw = centre(page, "[data-action=keep]"), centre(page, "[data-action=redraw]")
    socket.holding = True  # the server's answer is slow
    page.mouse.click(*keep)
    assert socket.sent == ["keep"]
    # until it answers, the page sends nothing else: its move buttons wait
    page.wait_for_selector("#board[aria-busy=true]")
    assert page.locator(f"{MOVES}:not(:disabled)").count() == 0
    page.mouse.click(*redraw)
    page.mouse.click(*keep)
    assert socket.sent == ["keep"]
    socket.release()
    page.wait_for_selector("body[data-your-turn=true]:not([data-ply='0']) #board[aria-busy=false]")
    assert page.locator(f"{MOVES}:not(:disabled)").count() >= 1
    # a click as the new position is drawn (the second of two quick clicks) is not a move on it
    button = f"{MOVES}:not(:disabled)"
    page.mouse.click(*centre(page, button))
    assert socket.sent == ["keep"]
    # nor is the second click of a double click, however long the answer took
    page.clock.run_for(1000)
    page.mouse.move(*centre(page, button))
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    assert socket.sent == ["keep"]
    # a click a moment later is a move again
    action = page.get_attribute(button, "data-action")
    page.mouse.click(*centre(page, button))
    assert socket.sent == ["keep", action]
    assert console.errors == []
    context.close()


def test_a_key_pressed_as_a_new_position_is_drawn_is_a_move(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "souvlaki")
    page.clock.run_for(1000)
    page.click("[data-action=keep]")
    assert socket.sent == ["keep"]
    # the new position drawn, its clock stopped within the moment a click is not a move: the
    # keyboard, not concerned by a board that changed under the pointer, makes one
    page.wait_for_selector("body[data-your-turn=true]:not([data-ply='0']) #board[aria-busy=false]")
    assert page.get_attribute("body", "data-busy") == "true"
    button = f"{MOVES}:not(:disabled)"
    page.mouse.click(*centre(page, button))
    assert socket.sent == ["keep"]
    action = page.get_attribute(button, "data-action")
    ply = page.get_attribute("body", "data-ply")
    page.focus(button)
    page.keyboard.press("Enter")
    # sent: the buttons wait for the answer, or it came already (a quick server)
    page.wait_for_function(
        "([ply]) => document.querySelector('#board').getAttribute('aria-busy') === 'true'"
        " || document.body.dataset.ply !== ply",
        arg=[ply],
    )
    assert socket.sent == ["keep", action]
    assert console.errors == []
    context.close()


def test_the_question_abandon_this_game_survives_the_game_going_on(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "souvlaki")
    page.clock.run_for(1000)
    socket.holding = True
    page.click("[data-action=keep]")  # a move: the bot's and the next views come meanwhile
    page.click("#abandon")
    page.eval_on_selector("#abandon-cancel", "b => { b.dataset.kept = 'yes'; }")
    assert page.evaluate("document.activeElement.id") == "abandon-cancel"
    ply = page.get_attribute("body", "data-ply")
    socket.release()
    page.wait_for_function("([p]) => document.body.dataset.ply !== p", arg=[ply])
    # the same question, the focus still on its safe answer
    assert page.get_attribute("#abandon-cancel", "data-kept") == "yes"
    assert page.evaluate("document.activeElement.id") == "abandon-cancel"
    page.click("#abandon-cancel")
    page.wait_for_selector("#abandon")
    assert console.errors == []
    context.close()


OWN_VIEW = (
    'const view = await (await fetch(location.pathname.replace("/game/", "/api/games/"), '
    '{ headers: { "X-Seat-Token": new URLSearchParams(location.hash.slice(1)).get("token") } })'
    ").json();"
)
"""JavaScript: `view`, the game page's own view of its game, read with its seat's token."""

DRAWN = (
    """async ([legal, phase, waiting]) => {  // the page's own view, these moves legal
    const souvlaki = await import("/static/souvlaki.js");
    """
    + OWN_VIEW
    + """
    view.legal = legal.map((notation) => ({ notation, words: notation, gain: null }));
    if (phase) view.observation.phase = phase;
    const customer = { order: "GS", money: 2, influence: 1, phone: false, big: false,
        annoyed: false, tip: 0, cards: ["GS"], attached: [], waiting: false, leaves_for: 2 };
    view.observation.queues[view.viewer] = Array.from({ length: waiting }, () => customer);
    const root = document.createElement("div");
    document.body.append(root);
    souvlaki.render(root, view, { send: () => {}, interactive: true });
    const shown = [...root.querySelector(".actions").querySelectorAll("button[data-action]")]
        .map((b) => {
            const look = getComputedStyle(b);
            const filled = look.backgroundColor !== "rgb(255, 255, 255)";
            const apart = look.marginLeft === "auto" || parseFloat(look.marginLeft) > 20;
            return `${b.dataset.action}${b.classList.contains("quiet") ? " (quiet)" : ""}`
                + `${filled ? "" : " (white)"}${apart ? " (apart)" : ""}`;
        });
    root.remove();
    return shown;
}"""
)


def drawn(page: Any, legal: list[str], phase: str | None = None, waiting: int = 1) -> list[str]:
    """The word moves' buttons of the Souvlaki page with `legal` moves and `waiting` customers
    in the player's queue: how each looks."""
    shown: list[str] = page.evaluate(DRAWN, [legal, phase, waiting])
    return [s.replace(" (quiet) (white)", " (quiet)") for s in shown]


PLACES = (
    """async ([legal, phase]) => {  // where the word moves' buttons are, drawn so
    const souvlaki = await import("/static/souvlaki.js");
    """
    + OWN_VIEW
    + """
    const words = (notation) => `${notation} in the game's words, which may be many of them`;
    view.legal = legal.map((notation) => ({ notation, words: words(notation), gain: null }));
    if (phase) view.observation.phase = phase;
    const root = document.createElement("div");
    document.querySelector("#board").after(root);  // as wide as the board
    souvlaki.render(root, view, { send: () => {}, interactive: true });
    const places = {};
    for (const b of root.querySelector(".actions").querySelectorAll("button[data-action]")) {
        const box = b.getBoundingClientRect();
        places[b.dataset.action] = [box.x, box.y, box.width, box.height].map(Math.round);
    }
    root.remove();
    return places;
}"""
)


def places(page: Any, legal: list[str], phase: str | None = None) -> dict[str, list[int]]:
    """Where each word move's button of the Souvlaki page is with `legal` moves."""
    shown: dict[str, list[int]] = page.evaluate(PLACES, [legal, phase])
    return shown


def test_souvlaki_buttons_keep_their_places(browser: Any, server: LiveServer) -> None:
    context, page, console, _ = open_game(browser, server, "souvlaki")
    assert drawn(page, ["done", "buy", "advertise"]) == ["buy", "advertise", "done"]
    # a purchase made: Buy stays (pressed, the server says why), and no button moves or changes
    # its size, as a purchase, then another, becomes impossible
    assert drawn(page, ["done", "advertise"]) == ["buy (quiet)", "advertise", "done"]
    before = places(page, ["done", "buy", "advertise"])
    assert list(before) == ["buy", "advertise", "done"]
    assert places(page, ["done", "advertise"]) == before
    assert places(page, ["done"]) == before
    # supplies bought over the hand limit (SW-1.4): the row stays while cards are discarded,
    # where it went (the page jumped), and the cards to discard are said
    discard = ["discard G", "discard SF"]
    assert drawn(page, discard, "maintenance") == [
        "buy (quiet)",
        "advertise (quiet)",
        "done (quiet)",
    ]
    assert places(page, discard, "maintenance") == before
    assert console.errors == []
    context.close()
    # on a phone, a customer served: "End the service" (no way back) stays where it was, and
    # nothing comes under the finger that pressed Serve
    context, page, console, _ = open_game(browser, server, "souvlaki", 390)
    before = places(page, ["serve", "finish"], "service")
    assert list(before) == ["serve", "finish"]
    assert places(page, ["finish"], "service") == before
    assert places(page, ["done", "buy", "advertise"]) == places(page, ["done"])
    assert console.errors == []
    context.close()


def choose_a_guest(page: Any) -> str:
    """Choose a guest of the hand that a chair or the bar takes: where it may go."""
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()
        for where in (".chair.legal >> nth=0", "#to-bar:not([disabled])"):
            if page.locator(where).count():
                return where
    raise AssertionError("no guest to seat")


def test_a_refusal_can_be_closed_and_goes_once_the_game_moves_on(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "cafe", 390)
    page.clock.resume()
    page.click("#board .hand button.card >> nth=0")
    page.click(".chair:not(.legal):not(.swap):not(.guest) >> nth=-1")  # an unlit chair: refused
    page.wait_for_selector("#message:not(.hidden)")
    page.click("#message button[aria-label='Close this message']")  # it covers the board
    assert page.locator("#message.hidden").count() == 1
    # a move sent from a position the game has left (another tab of the seat moved first):
    # the server says so, and once the game moves on the notice goes by itself
    socket.stale = True
    page.click(choose_a_guest(page))
    page.wait_for_selector("#message:not(.hidden)")
    told = page.inner_text("#message")  # at the start: sent as seen a move later
    assert "the game has not reached that position" in told, told
    page.wait_for_selector(f"{READY}[data-your-turn=true]")
    ply = page.get_attribute("body", "data-ply")
    click_and_wait(page, choose_a_guest(page))
    page.wait_for_function("([p]) => document.body.dataset.ply !== p", arg=[ply])
    assert page.locator("#message.hidden").count() == 1
    assert console.errors == []
    context.close()


def others_since_my_last_turn(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The log entries of the other players since this seat's last turn, at its turn."""
    log = view["log"]
    mine = [entry["ply"] for entry in log if entry["player"] == view["viewer"]]
    since = mine[-1] + 1 if mine else 0
    return [entry for entry in log[since:] if entry["player"] not in (None, view["viewer"])]


def test_cafe_marks_what_the_others_did_since_your_last_turn(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "cafe", 390)
    page.clock.resume()
    api = page.url.split("#")[0].replace("/game/", "/api/games/")
    token = page.url.split("token=")[1]
    for _ in range(12):  # turns, until the bot seated guests on chairs between two of mine
        assert wait_turn_or_end(page)
        view = server.get(api.replace(server.base, ""), token)
        news = others_since_my_last_turn(view)
        chairs = {int(m[1]) for e in news for m in re.finditer(r"@(\d+)", e["text"])}
        if chairs:
            break
        cafe_turn(page)
    else:
        raise AssertionError("the bot seated nobody")
    marked = ".chair.since"
    shown = page.locator(marked).evaluate_all("cs => cs.map(c => Number(c.dataset.chair))")
    assert set(shown) == chairs
    line = page.inner_text("#since-last")
    assert line.startswith("Since your last turn: P2 heuristic ")
    for chair in chairs:  # each chair seated, and the guest there in words, as the board names it
        label = page.get_attribute(f".chair[data-chair='{chair}']", "aria-label")
        guest = label.split(": ", 1)[1].rsplit(" (seated by ", 1)[0]  # "joker (lady)" whole
        assert f"{guest} at chair {chair}" in line
        assert label.endswith("(seated by P2 heuristic since your last turn)")
    # the dashed ring, apart from the solid one of this turn's guests and from the focus ring
    ring = page.eval_on_selector(marked, "c => getComputedStyle(c, '::after').borderTopStyle")
    assert ring == "dashed"
    # still said while this turn goes on: a first guest seated does not make it old news
    cafe_turn(page)
    if wait_turn_or_end(page):  # this turn's second decision, or (it ended) the next turn's
        now = server.get(api.replace(server.base, ""), token)
        drawn = int(page.get_attribute("body", "data-ply") or -1) == now["ply"]
        if drawn and now["log"][-1]["player"] == now["viewer"]:  # the same turn goes on
            assert page.inner_text("#since-last") == line
    assert console.errors == []
    context.close()


SINCE = (
    """async ([out]) => {  // the page's own view, after four turns of two others
    const cafe = await import("/static/cafe.js");
    """
    + OWN_VIEW
    + """
    const obs = view.observation;
    view.seats.push({ ...view.seats[1], seat: 2, name: "Cy" });
    const guests = obs.hands[view.viewer];
    const entry = (player, i) => ({ ply: i, player, text: `${guests[i % 2]}@${i + 1}`,
        events: [`P${player + 1} seats ${guests[i % 2]} on chair ${i + 1}: +${i} points`] });
    view.log = [1, 2, 1, 2].map(entry);
    view.your_turn = true;
    obs.out = [out, false, false];
    const root = document.createElement("div");
    document.body.append(root);
    await cafe.render(root, view, { send: () => {}, interactive: false, hinted: null });
    const marked = [...root.querySelectorAll(".chair.since")].map((c) => Number(c.dataset.chair));
    const line = root.querySelector("#since-last")?.textContent ?? null;
    root.remove();
    return [marked, line];
}"""
)


def test_cafe_news_covers_one_round_at_most_and_none_for_a_player_out(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "cafe")
    # P2, P3, P2, P3 moved (this seat had not yet): the last round of theirs, not more
    marked, line = page.evaluate(SINCE, [False])
    assert sorted(marked) == [3, 4]
    assert line.count("chair") == 2
    assert "at chair 3 (+2)" in line and "at chair 4 (+3)" in line  # what each scored
    # a player thrown out at the bar has no turn to come: no news that grows to the end
    assert page.evaluate(SINCE, [True]) == [[], None]
    # another thrown out since: the news says so, not "sent ... to the bar" alone
    thrown = page.evaluate(THROWN_OUT)
    assert thrown[0].endswith("to the bar, could not pay its -3 and is out of the game."), thrown
    assert thrown[0].startswith("Since the game began: P3 ")
    # and the one thrown out is told why nothing more comes their way (CI-M.3)
    assert (
        thrown[1]
        == "You are out of the game: you could not pay at the bar (CI-M.3). The others play on."
    )
    assert thrown[2] is None  # nor is anyone else
    # the result box says why a winner may stand below players out (they cannot win)
    assert thrown[3] == "P3 Cy was thrown out at the bar, and a player out cannot win (CI-M.3)."
    assert thrown[4].startswith("P1 ") and " and P3 Cy were thrown out at the bar" in thrown[4]
    assert thrown[5] is None
    assert console.errors == []
    context.close()


THROWN_OUT = (
    """async () => {  // the page's own view: P3 went to the bar and could not pay
    const cafe = await import("/static/cafe.js");
    """
    + OWN_VIEW
    + """
    const guest = view.observation.hands[view.viewer][0];
    view.seats.push({ ...view.seats[1], seat: 2, name: "Cy" });
    view.log = [{ ply: 0, player: 2, text: `${guest}@bar`,
        events: [`P3 sends ${guest} to bar seat 1, cannot pay its -3 and is out of the game`
            + " (CI-M.3)"] }];
    view.your_turn = true;
    view.observation.out = [false, false, true];
    const line = cafe.news(view);
    const outView = { ...view, viewer: 2, your_turn: false };
    const outs = (out) => cafe.resultNote({ ...view, observation: { ...view.observation, out } });
    return [line, cafe.viewerOut(outView), cafe.viewerOut(view), cafe.resultNote(view),
            outs([true, false, true]), outs([false, false, false])];
}"""
)


def test_souvlaki_serve_stands_out_and_ending_the_service_is_set_apart(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "souvlaki")
    # a serve the pool covers: the prominent button; ending the service (no way back): quiet,
    # at the row's other end
    assert drawn(page, ["serve", "finish"], "service") == ["serve", "finish (quiet) (apart)"]
    assert drawn(page, ["finish"], "service") == ["serve (quiet)", "finish (quiet) (apart)"]
    # nobody left to serve: ending the service is all there is to do, and stands out (both
    # stayed quiet, and no button said what to do)
    assert drawn(page, ["finish"], "service", waiting=0) == ["serve (quiet)", "finish (apart)"]
    assert console.errors == []
    context.close()


def test_souvlaki_hand_is_shown_at_full_strength_outside_the_service(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "souvlaki", 390)
    assert page.inner_text(".phase") == "Phase: Mulligan"  # the food waits for the service
    cards = page.locator("#my-hand button.foodcard:disabled")
    assert cards.count() >= 1
    looks = cards.evaluate_all("cs => cs.map(c => getComputedStyle(c).opacity)")
    assert set(looks) == {"1"}  # readable, for planning: merely not clickable
    assert console.errors == []
    context.close()


SOUVLAKI_NEWS = (
    """async ([viewer, yourTurn, ownAfter, passed = true, more = 0]) => {
    const souvlaki = await import("/static/souvlaki.js");  // the page's own view, given a log
    """
    + OWN_VIEW
    + """
    const entry = (ply, player, text, events) => ({ ply, player, text, events });
    view.log = [
        entry(0, 0, "keep", ["P1 keeps their food cards (SW-S.6)"]),
        ...Array.from({ length: more }, (_, i) => entry(0, 1, "pass", [`P2 line ${i + 1}`])),
        entry(1, 1, "use ninja-in-the-kitchen p1",
            ["P2 plays the unforeseen Ninja in the Kitchen on P1 (SW-E.11)"]),
        entry(2, null, "a random food card", ["P2 steals GF from your hand (SW-E.11)"]),
        ...(passed ? [entry(3, 1, "pass", [])] : []),  // else the steal ends the others' turn
        ...(ownAfter ? [entry(4, 0, "play SF", ["P1 plays SF (SW-4.2)"]),
            entry(5, null, "a random food card", ["Rats take SF from your hand (SW-E.15)"])] : []),
    ];
    view.viewer = viewer;
    view.your_turn = yourTurn;
    const root = document.createElement("div");
    document.body.append(root);
    souvlaki.render(root, view, { send: () => {}, interactive: false });
    const box = root.querySelector("#since-last");
    const lines = box ? [...box.querySelectorAll("li")].map((li) => li.textContent) : null;
    root.remove();
    return [lines, souvlaki.news(view)];
}"""
)


def test_souvlaki_says_what_the_others_did_since_your_last_turn(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "souvlaki", 390)
    # on a phone the log is far below: a card played on you, a food card taken from your hand,
    # said above the board on your turn, in the game's words for you (the log cites the rules)
    said = [
        "P2 plays the unforeseen Ninja in the Kitchen on P1",
        "P2 steals GF from your hand",
    ]
    lines, banner = page.evaluate(SOUVLAKI_NEWS, [0, True, False])
    assert lines == said
    assert banner == f"Since your last turn: {'; '.join(said)}."
    # still said while this turn's decisions follow one another (no button slides up)
    assert page.evaluate(SOUVLAKI_NEWS, [0, True, True]) == [said, banner]
    # the steal told on the chance entry that ends the others' turn, right before this one
    # (it was taken for part of the viewer's own turn, and left out)
    assert page.evaluate(SOUVLAKI_NEWS, [0, True, False, False]) == [said, banner]
    assert page.evaluate(SOUVLAKI_NEWS, [0, True, True, False]) == [said, banner]
    # the box and the banner say the last six lines and leave the earlier ones to the log
    lines, banner = page.evaluate(SOUVLAKI_NEWS, [0, True, False, True, 6])
    assert lines == ["P2 line 3", "P2 line 4", "P2 line 5", "P2 line 6", *said]
    assert banner == (
        "Since your last turn: 2 earlier lines under Moves; P2 line 3; P2 line 4; P2 line 5; "
        f"P2 line 6; {'; '.join(said)}."
    )
    # nothing for a spectator, nor off one's turn
    assert page.evaluate(SOUVLAKI_NEWS, [None, False, False]) == [None, None]
    assert page.evaluate(SOUVLAKI_NEWS, [0, False, False]) == [None, None]
    assert console.errors == []
    context.close()


BIG_ORDERS = """async () => {
    const souvlaki = await import("/static/souvlaki.js");
    const view = await (await fetch(location.pathname.replace("/game/", "/api/games/"))).json();
    const drafted = { order: "", money: 0, influence: 0, phone: false, big: true, annoyed: false,
        tip: 0, cards: [], attached: [], waiting: false };  // its 2 cards not drawn yet
    view.observation.row = ["BIG", "SD 2/1"];
    view.observation.queues[0] = [drafted];
    const root = document.createElement("div");
    souvlaki.render(root, view, { send: () => {}, interactive: false });
    const [row, queue] = root.querySelectorAll(".customers");
    const shown = (card) => [card.innerText, card.querySelectorAll(".food").length];
    return [row.children[0], queue.children[0]].map(shown);
}"""


def test_souvlaki_a_big_phone_order_reads_as_one_and_not_as_foods(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _ = open_game(browser, server, "souvlaki", 390)
    in_the_row, in_a_queue = page.evaluate(BIG_ORDERS)
    for text, foods in (in_the_row, in_a_queue):
        assert text.startswith("1.") and "Big Phone Order" in text, text
        assert foods == 0 and "money" not in text, text  # not "B", "I" and a pita gyros
    assert console.errors == []
    context.close()


FOCUSED = "document.activeElement"


def test_cafe_by_keyboard_focus_stays_escape_puts_back_and_rings_differ(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "cafe")
    page.clock.resume()

    def no_place_for_the_first_card(view: dict[str, Any]) -> None:  # a guest nobody takes
        first = view["observation"]["hands"][view["viewer"]][0]
        view["legal"] = [m for m in view["legal"] if first not in m["notation"]]

    socket.edit = no_place_for_the_first_card
    page.reload()
    page.wait_for_selector(f"{READY}[data-your-turn=true]")
    cards = "#board .hand button.card"
    instruction = "#cafe-instruction"
    assert page.get_attribute(instruction, "aria-live") == "polite"
    page.eval_on_selector(instruction, "p => { p.dataset.kept = 'yes'; }")
    page.focus(f"{cards} >> nth=0")
    page.keyboard.press("Enter")  # chosen, but no chair nor the bar takes it: the focus stays
    page.wait_for_selector(f"{cards}[aria-pressed=true]")
    assert page.evaluate(f"{FOCUSED}.matches('.hand button.card[aria-pressed=true]')")
    assert page.inner_text(instruction).startswith("No chair takes your ")
    assert page.get_attribute(instruction, "data-kept") == "yes"  # the same live region, heard
    page.keyboard.press("Escape")  # the guest goes back to the hand, the focus on its card
    page.wait_for_selector(f"{cards}[aria-pressed=true]", state="detached")
    assert page.evaluate(f"{FOCUSED} === document.querySelectorAll('{cards}')[0]")
    # another guest: the focus goes to a lit chair, with a ring of its own (the first card of
    # the hand unlike the first: two alike are dealt at times, and neither then has a place)
    other = page.locator(cards).evaluate_all(
        "cs => cs.findIndex((c) => c.dataset.card !== cs[0].dataset.card)"
    )
    assert other > 0
    page.focus(f"{cards} >> nth={other}")
    page.keyboard.press("Enter")
    page.wait_for_function(f"{FOCUSED}.matches('.chair.legal, .chair.swap, #to-bar')")
    if page.evaluate(f"{FOCUSED}.matches('.chair')"):
        focus = page.evaluate(f"getComputedStyle({FOCUSED}).outlineColor")
        just = page.evaluate("""() => {  // the ring of a chair seated this turn
            const chair = document.createElement("div");
            chair.className = "chair just";
            document.querySelector(".cafe-board").append(chair);
            const ring = getComputedStyle(chair).boxShadow;
            chair.remove();
            return ring;
        }""")
        assert focus not in just and page.evaluate(f"getComputedStyle({FOCUSED}).outlineStyle")
    page.keyboard.press("Escape")
    page.wait_for_selector(f"{cards}[aria-pressed=true]", state="detached")
    assert page.evaluate(f"{FOCUSED} === document.querySelectorAll('{cards}')[{other}]")
    # Escape in the question "Abandon this game?": its safe answer
    page.click("#abandon")
    page.wait_for_selector("#abandon-cancel")
    page.keyboard.press("Escape")
    page.wait_for_selector("#abandon-confirm", state="detached")
    assert page.evaluate(f"{FOCUSED}.id") == "abandon"
    assert page.get_attribute("body", "data-your-turn") == "true"
    assert console.errors == []
    context.close()


def test_cafe_buttons_and_hint_wait_while_a_move_awaits_its_answer(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, socket = open_game(browser, server, "cafe")
    page.clock.resume()

    def an_end_button(view: dict[str, Any]) -> None:  # a word move beside a chosen guest
        if view["your_turn"]:
            view["legal"].append({"notation": "end", "words": "end the turn", "gain": None})

    socket.edit = an_end_button
    page.reload()
    page.wait_for_selector(f"{READY}[data-your-turn=true]")
    assert page.locator("#hint-button:not(.hidden):not(:disabled)").count() == 1
    page.click("#board .hand button.card >> nth=0")  # a guest chosen, then another move sent
    socket.holding = True  # the server's answer is slow
    page.click("[data-action=end]")
    page.wait_for_selector("#board[aria-busy=true]")
    waiting = "#board button:not(.rule-ref):not(:disabled), #hint-button:not(:disabled)"
    assert page.locator(waiting).count() == 0
    # Escape puts the guest back, the board drawn again: its buttons still wait, the hint too
    page.keyboard.press("Escape")
    page.wait_for_selector("#board .hand button.card[aria-pressed=true]", state="detached")
    assert page.get_attribute("#board", "aria-busy") == "true"
    assert page.locator(waiting).count() == 0
    socket.release()  # refused (no such move): the page may send another
    page.wait_for_selector("#message:not(.hidden)")
    page.wait_for_selector("#board[aria-busy=false] .hand button.card:not(:disabled)")
    assert page.locator("#hint-button:not(:disabled)").count() == 1
    assert console.errors == []
    context.close()


def test_cafe_phase_labels_read_as_sentences(browser: Any, server: LiveServer) -> None:
    context, page, console, _ = open_game(browser, server, "cafe")
    shown = (
        """async ([phase]) => {  // the page's own view, drawn at this phase
        const cafe = await import("/static/cafe.js");
        """
        + OWN_VIEW
        + """
        view.observation.phase = phase;
        const root = document.createElement("div");
        document.body.append(root);
        await cafe.render(root, view, { send: () => {}, interactive: false });
        const label = root.querySelector(".phase").innerText;  // as it reads, with the CSS
        root.remove();
        return label;
    }"""
    )
    assert page.evaluate(shown, ["draw"]) == "Choose how many cards to draw"
    assert page.evaluate(shown, ["birthday"]) == "Choose the birthday table"
    assert console.errors == []
    context.close()


def finished_game(server: LiveServer) -> str:
    """A short game of two bots, played to its end: its id."""
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"hand_size": 2, "end_bag": 90}
    created = server.post("/api/games", {"game": "cafe", "seats": bots, "options": options})
    game_id: str = created["id"]
    wait_for(lambda: server.get(f"/api/games/{game_id}")["over"])
    return game_id


def route_analysis(
    page: Any,
    game_id: str,
    decisions: list[Any],
    mistakes: list[Any],
    total_lost: list[float],
    **more: Any,
) -> None:
    """The page's analysis of `game_id`, answered as done with `decisions` (one each a player:
    a mean loss a move is its total)."""
    analysis = {"decisions": decisions, "mistakes": mistakes, "winners": [0],
                "total_lost": total_lost, "mean_lost": total_lost, **more}  # fmt: skip
    done = {"status": "done", "done": len(decisions), "total": len(decisions),
            "analysis": analysis, "message": None}  # fmt: skip
    page.route(f"**/api/games/{game_id}/analysis", lambda route: route.fulfill(json=done))


def decision(ply: int, player: int, lost: float, margin: float) -> dict[str, Any]:
    return {
        "ply": ply, "player": player, "played": f"p{ply}", "best": f"b{ply}",
        "played_words": f"played {ply}", "best_words": f"best {ply}", "before": 0.5,
        "after": 0.5 - lost, "lost": lost, "margin": margin, "legal": 5, "iterations": 200,
    }  # fmt: skip


def test_replay_counts_as_the_analysis_and_names_a_costly_move_within_the_margin(
    browser: Any, server: LiveServer
) -> None:
    game_id = finished_game(server)
    total = server.get(f"/api/games/{game_id}")["ply"]
    # P1 lost most on move 2, but within the margin; P2 made a clear mistake on move 4
    decisions = [decision(0, 0, 0.02, 0.1), decision(1, 0, 0.124, 0.13), decision(3, 1, 0.3, 0.1)]
    analysis = {
        "decisions": decisions, "mistakes": [[], [decisions[2]]], "winners": [0],
        "total_lost": [0.144, 0.3], "mean_lost": [0.072, 0.3],
    }  # fmt: skip
    context, page, console = new_page(browser, 390, 844)
    done = {"status": "done", "done": 3, "total": 3, "analysis": analysis, "message": None}
    page.route(f"**/api/games/{game_id}/analysis", lambda route: route.fulfill(json=done))
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".mistakes")
    first, second = page.locator(".mistakes > div").all_inner_texts()
    assert "no clear mistake" in first and "within the analysis's margin" in first
    # the costliest first, each with its margin
    assert "margin: move 2: played 1 (−12% ± 13%)move 1: played 0 (−2% ± 10%)" in first
    assert "biggest clear mistakes: move 4: played 3 (−30%)" in second
    assert "within" not in second
    page.click(".mistakes button.within")  # to that position, counted as the analysis counts
    page.wait_for_function(
        "document.querySelector('#position').textContent.startsWith('Before move 2 ')"
    )
    assert page.inner_text("#position") == f"Before move 2 of {total}"
    assert page.inner_text("#analysis-now").startswith("Move 2, P1 heuristic to move")
    assert "not clearly worse: within the search's margin" in page.inner_text("#analysis-now")
    assert console.errors == []
    context.close()


def test_replay_leaves_forced_moves_out_of_the_mean_loss(browser: Any, server: LiveServer) -> None:
    """A forced move (one legal move) loses nothing: counted, it diluted the mean a move."""
    game_id = finished_game(server)
    forced = {**decision(1, 0, 0.0, 0.0), "legal": 1, "best": "p1", "best_words": "played 1"}
    decisions = [decision(0, 0, 0.1, 0.2), forced, decision(2, 1, 0.0, 0.0)]
    analysis = {
        "decisions": decisions, "mistakes": [[], []], "winners": [0],
        "total_lost": [0.1, 0.0], "mean_lost": [0.05, 0.0],  # as stored before: every move
    }  # fmt: skip
    context, page, console = new_page(browser)
    done = {"status": "done", "done": 3, "total": 3, "analysis": analysis, "message": None}
    page.route(f"**/api/games/{game_id}/analysis", lambda route: route.fulfill(json=done))
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".mistakes")
    first = page.locator(".mistakes > div").all_inner_texts()[0]
    assert "lost 10.0% of win chance a move on average, over 1 move with a choice" in first
    assert console.errors == []
    context.close()


def test_the_chart_of_an_abandoned_game_stops_where_its_play_stopped(
    browser: Any, server: LiveServer
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    game_id, token = created["id"], created["links"][0]["path"].split("token=", 1)[1]
    mine = server.get(f"/api/games/{game_id}", token)
    server.post(
        f"/api/games/{game_id}/actions", {"ply": 0, "action": mine["legal"][0]["notation"]}, token
    )
    server.post(f"/api/games/{game_id}/abandon", {}, token)
    context, page, console = new_page(browser)
    decisions = [decision(0, 0, 0.0, 0.0)]
    route_analysis(page, game_id, decisions, [[], []], [0.0, 0.0], winners=[], finished=False)
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".chance-chart polyline[data-player='0']", state="attached")
    points = page.get_attribute(".chance-chart polyline[data-player='0']", "points").split()
    heights = {point.split(",")[1] for point in points}
    assert len(points) == 2 and len(heights) == 1  # at 50% to the end: no result to drop to
    assert console.errors == []
    context.close()


def test_a_budget_is_asked_only_of_a_search_bot(browser: Any, server: LiveServer) -> None:
    """A seat's iterations field shows for a search bot only: on a phone it took a line of its
    own, greyed, under every person and every bot."""
    for width in (1280, 390):
        context, page, console = new_page(browser, width, 844)
        page.goto(server.base + "/")
        page.wait_for_selector("select[name=kind1] option", state="attached")
        budget = "input[name=budget1]"
        assert not page.is_visible("input[name=budget0]")  # a person
        assert not page.is_visible(budget)  # the heuristic bot: no search
        row = page.locator(".seat-row").nth(1).bounding_box()
        page.select_option("select[name=kind1]", "bot:mcts")
        assert page.is_visible(budget) and page.is_enabled(budget)
        grown = page.locator(".seat-row").nth(1).bounding_box()
        assert (grown["height"] > row["height"]) == (width < 560)  # its own line on a phone
        assert console.errors == []
        context.close()


def lobby_counting_games_made(browser: Any, server: LiveServer) -> tuple[Any, Any, Any, list[str]]:
    """The lobby in a page of its own, and the list of the games it asks to make, as it asks."""
    context, page, console = new_page(browser)
    made: list[str] = []
    page.on(
        "request",
        lambda r: r.method == "POST" and r.url.endswith("/api/games") and made.append(r.url),
    )
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    return context, page, console, made


def test_a_double_click_on_create_game_makes_one_game(browser: Any, server: LiveServer) -> None:
    context, page, console, made = lobby_counting_games_made(browser, server)
    page.dblclick("#create-button")
    page.wait_for_selector("#created a.join-link")
    page.wait_for_selector("#create-button:not([disabled])")  # ready for another game
    assert len(made) == 1
    assert console.errors == []
    context.close()


def test_a_double_clicks_second_click_after_the_answer_makes_no_game(
    browser: Any, server: LiveServer
) -> None:
    # the race a fast server wins: the first game is made before the second click comes
    context, page, console, made = lobby_counting_games_made(browser, server)
    page.locator("#create-button").hover()
    page.mouse.down()
    page.mouse.up()
    page.wait_for_selector("#created a.join-link")
    page.wait_for_selector("#create-button:not([disabled])")
    page.locator("#create-button").hover()  # where it is now the links are shown
    page.mouse.down(click_count=2)  # the second click of the same double click
    page.mouse.up(click_count=2)
    page.locator("#create-button").hover()
    with page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith("/api/games")
    ):
        page.mouse.down()  # a click of its own, later: this one makes a game
        page.mouse.up()
    assert len(made) == 2
    assert console.errors == []
    context.close()


def finished_between_people(server: LiveServer, names: tuple[str, str] = ("Ada", "Bo")) -> Any:
    """A short Café game between two people, played to its end through the API."""
    seats = [{"kind": "human", "name": name} for name in names]
    options = {"hand_size": 2, "end_bag": 90}
    created = server.post("/api/games", {"game": "cafe", "seats": seats, "options": options})
    tokens = [link["path"].split("token=", 1)[1] for link in created["links"]]
    while not (table := server.get(f"/api/games/{created['id']}"))["over"]:
        token = tokens[table["to_move"]]
        mine = server.get(f"/api/games/{created['id']}", token)
        move = {"ply": mine["ply"], "action": mine["legal"][0]["notation"]}
        server.post(f"/api/games/{created['id']}/actions", move, token)
    return created


def test_a_double_click_on_rematch_makes_one_and_says_where_the_others_find_it(
    browser: Any, server: LiveServer
) -> None:
    created = finished_between_people(server)
    context, page, console = new_page(browser)
    asked: list[str] = []
    page.on("request", lambda r: r.url.endswith("/rematch") and asked.append(r.url))
    page.goto(server.base + created["links"][0]["path"])
    page.dblclick("#rematch")
    page.wait_for_selector("#play-rematch")  # the result offers the rematch made
    message = page.inner_text("#message")
    assert "P2 Bo: the link to this game opens the seat of the rematch." in message, message
    assert "token=" not in message  # only this player's own new link is given
    assert len(asked) == 1 and page.locator("#rematch").count() == 0
    assert console.errors == []
    context.close()


def test_a_rematch_asked_by_one_player_is_offered_at_once_on_the_others_page(
    browser: Any, server: LiveServer
) -> None:
    """Bo's page, open when Ada asks for the rematch, offers him his seat in it at once: no
    Rematch button is left, whose press would only be refused and hide the link just sent."""
    created = finished_between_people(server)
    pages = []
    for link in created["links"]:
        context, page, console = new_page(browser)
        page.goto(server.base + link["path"])
        page.wait_for_selector("#rematch")
        pages.append((context, page, console))
    ada, bo = pages[0][1], pages[1][1]
    ada.click("#rematch")
    bo.wait_for_selector("#play-rematch")
    assert bo.locator("#rematch").count() == 0
    assert "#seat=" in bo.get_attribute("#play-rematch", "href")
    assert bo.locator("#rematch-link").count() == 1  # the news said once, in the message
    for context, _, console in pages:
        assert console.errors == []
        context.close()


RIGHT_OF_NAME = """([name, after]) => {
    const spans = [...document.querySelectorAll(".scoreline span")];
    const text = spans.find((span) => span.textContent.includes(name)).firstChild;
    const rect = (word) => {
        const range = document.createRange();
        // the figure after the name (a score of -2 is not the 2 of "P2" before it)
        const named = text.data.indexOf(name);
        const at = word === name ? named : text.data.indexOf(word, named + name.length);
        range.setStart(text, at);
        range.setEnd(text, at + word.length);
        return range.getBoundingClientRect();
    };
    return rect(after).left >= rect(name).right;
}"""


def test_a_right_to_left_name_does_not_reorder_the_text_around_it(
    browser: Any, server: LiveServer
) -> None:
    """An Arabic name, then its score: "P2 علي: 12 points" is shown in that order, the score
    right of the name; not isolated, the score's digits would join the name's right-to-left run
    and be shown before it."""
    name = "\u0639\u0644\u064a"
    created = finished_between_people(server, ("Ada", name))
    context, page, console = new_page(browser)
    page.goto(server.base + created["links"][0]["path"])
    page.wait_for_selector("#result:not(.hidden)")
    score = re.search(r": -?(\d+) point", page.inner_text(f".scoreline span:has-text('{name}')"))
    assert score is not None and page.evaluate(RIGHT_OF_NAME, [name, score.group(1)])
    assert f"P2 \u2068{name}\u2069" in page.inner_text("#seats")
    assert "P1 Ada" in page.inner_text("#seats")  # a name in Latin letters is left as typed
    assert console.errors == []
    context.close()


def test_a_player_away_when_the_rematch_was_made_still_finds_their_seat(
    browser: Any, server: LiveServer
) -> None:
    """Bo has closed his page; Ada asks for the rematch and goes to her seat. She is told that
    Bo's link opens his seat (she is not given his new link: she could play it), her lobby
    keeps her own, and Bo's old link offers him his own seat of the rematch (P1 there:
    everyone moves one seat on), not a spectator's view."""
    created = finished_between_people(server)
    context, ada, console = new_page(browser)
    ada.goto(server.base + created["links"][0]["path"])
    assert "P2 Bo becomes P1" in ada.inner_text("#rematch-seats")
    ada.click("#rematch")
    ada.wait_for_selector("#rematch-link")
    assert "P2 Bo: the link to this game opens" in ada.inner_text("#message")
    ada.click("#rematch-link")
    ada.wait_for_selector("body[data-ply]")
    assert ada.inner_text("#game-title").endswith("you are P2 Ada")
    rematch_id = ada.url.split("/game/")[1].split("#")[0]
    ada.goto(server.base + "/")
    row = ada.locator(f"#list-open li:has(a[href^='/game/{rematch_id}'])")
    row.locator("details.made-links summary").click()
    made = row.locator("details.made-links").inner_text()
    assert "Bo" not in made and "P2 Ada (opened)" in made
    bo_context, bo, bo_console = new_page(browser)
    old_token = created["links"][1]["path"].split("token=", 1)[1]
    bo.goto(server.base + created["links"][1]["path"])
    bo.wait_for_selector("#play-rematch")
    link = bo.get_attribute("#play-rematch", "href")
    assert link == f"/game/{rematch_id}#seat=0&token={old_token}"
    bo.click("#play-rematch")
    bo.wait_for_selector("body[data-your-turn=true]")  # Bo starts the rematch
    assert bo.inner_text("#game-title").endswith("you are P1 Bo")
    assert console.errors == [] and bo_console.errors == []
    context.close()
    bo_context.close()


def test_opening_another_seat_s_link_keeps_this_browser_s_own_seat(
    browser: Any, server: LiveServer
) -> None:
    """Ada plays P1; in the same browser she opens Bo's link (to check it before sending it).
    Her lobby still lists the game as hers, P1 Ada, and its "your seat" is still her seat."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    context, page, console = new_page(browser)
    for link in created["links"]:  # hers, then Bo's (each page loaded anew: not a fragment's)
        page.goto(server.base + "/")
        page.goto(server.base + link["path"])
        page.wait_for_selector("body[data-ply]")
    page.goto(server.base + "/")
    row = page.locator(f"#list-yours li[data-game='{created['id']}']")
    row.wait_for()
    assert "you are P1 Ada" in row.inner_text() and "your turn" in row.inner_text()
    assert row.locator("a.resume").get_attribute("href") == created["links"][0]["path"]
    assert console.errors == []
    context.close()


def kept_seat_link(page: Any, game_id: str) -> str | None:
    kept: str | None = page.evaluate(f"localStorage.getItem('kafeneio.seat.{game_id}')")
    return kept


def test_a_link_the_server_refuses_is_never_kept(browser: Any, server: LiveServer) -> None:
    """A link cut short opens no seat and is not kept: the right one, opened next, is."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    own = created["links"][0]["path"]
    context, page, _ = new_page(browser)
    page.goto(server.base + own[:-3] + "xyz")
    page.wait_for_function("document.getElementById('banner').textContent.includes('link')")
    assert page.inner_text("#banner") == "This link does not open a seat of this game."
    assert kept_seat_link(page, created["id"]) is None
    page.goto(server.base + "/")
    page.goto(server.base + own)
    page.wait_for_selector("body[data-ply]")
    assert kept_seat_link(page, created["id"]) == own
    context.close()


def test_the_seat_this_browser_moves_from_is_its_own(browser: Any, server: LiveServer) -> None:
    """Ada checks Bo's link before her own is ever opened: Bo's is kept, until she makes a move
    from her own seat. Then her lobby lists the game as hers, P1 Ada, with her seat's link."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    hers, bos = (link["path"] for link in created["links"])
    context, page, console = new_page(browser)
    page.goto(server.base + bos)
    page.wait_for_selector("body[data-ply]")
    assert kept_seat_link(page, created["id"]) == bos
    page.goto(server.base + "/")
    page.goto(server.base + hers)
    assert wait_turn_or_end(page)
    cafe_turn(page)
    assert kept_seat_link(page, created["id"]) == hers
    page.goto(server.base + "/")
    row = page.locator(f"#list-yours li[data-game='{created['id']}']")
    row.wait_for()
    assert "you are P1 Ada" in row.inner_text()
    assert row.locator("a.resume").get_attribute("href") == hers
    assert console.errors == []
    context.close()


def test_a_game_over_is_seen_from_the_seat_this_browser_opened(
    browser: Any, server: LiveServer
) -> None:
    created = finished_between_people(server)
    seat = created["links"][1]["path"]
    context, page, console = new_page(browser)
    page.goto(server.base + seat)  # Bo's seat, opened here
    page.wait_for_selector("#result:not(.hidden)")
    page.goto(server.base + "/")  # back later: the game is among those ended
    result = page.locator(f"#list-ended li:has(a[href='/replay/{created['id']}']) a >> nth=0")
    result.wait_for()
    assert result.inner_text() == "result" and result.get_attribute("href") == seat
    result.click()  # Bo's view of the result, which offers the rematch (not a spectator's)
    page.wait_for_selector("#rematch")
    assert console.errors == []
    context.close()


def test_the_lobby_offers_again_the_links_this_browser_created(
    browser: Any, server: LiveServer
) -> None:
    context, page, console = new_page(browser, 390, 844)
    page.goto(server.base + "/")
    page.select_option("select[name=kind1]", "human")  # two people: two links to hand out
    page.fill("input[name=name1]", "Bo")
    page.click("#create-button")
    page.wait_for_selector("#created a.join-link")
    links = page.locator("#created a.join-link").evaluate_all("as => as.map(a => a.href)")
    assert len(links) == 2
    game_id = links[0].split("/game/")[1].split("#")[0]
    page.reload()  # the page that showed them is gone: the lobby offers them again
    row = page.locator(f"#list-open li:has(a[href='/game/{game_id}'])")
    row.wait_for()
    row.locator("summary").click()
    assert "Links you created" in row.inner_text()
    kept = row.locator("a.made-link").evaluate_all("as => as.map(a => a.href)")
    assert kept == links
    assert "P2 Bo (not opened yet)" in row.inner_text()
    # the lists are drawn again every few seconds: what is unfolded stays so
    page.evaluate("document.querySelector('#list-open').replaceChildren()")
    page.wait_for_selector(f"#list-open li:has(a[href='/game/{game_id}']) details[open]")
    assert console.errors == []
    context.close()


def test_your_games_lists_the_seats_this_browser_holds_until_they_end(
    browser: Any, server: LiveServer
) -> None:
    against_bot = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    alone = server.post("/api/games", {"game": "souvlaki", "seats": against_bot})
    friends = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    shared = server.post("/api/games", {"game": "cafe", "seats": friends})
    context, page, console = new_page(browser, 390, 844)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    for path in (alone["links"][0]["path"], shared["links"][1]["path"]):  # Ada's, then Bo's
        page.goto(server.base + path)
        page.wait_for_selector("body[data-ply]")
    page.goto(server.base + "/")
    page.evaluate("localStorage.setItem('kafeneio.seat.gone', '/game/gone#seat=0&token=x')")
    page.reload()  # a link kept of a game this server does not know: not listed, but kept
    rows = {
        game["id"]: page.locator(f"#list-yours li[data-game='{game['id']}']")
        for game in (alone, shared)
    }
    for row in rows.values():
        row.wait_for()
    assert page.locator("#list-yours li").count() == 2
    mover = server.get(f"/api/games/{alone['id']}")["to_move"]
    expected = "your turn" if mover == 0 else f"P{mover + 1} heuristic's turn"
    assert expected in rows[alone["id"]].inner_text()
    assert "you are P1 Ada" in rows[alone["id"]].inner_text()
    assert "P1 Ada's turn (not opened yet)" in rows[shared["id"]].inner_text()
    assert "you are P2 Bo" in rows[shared["id"]].inner_text()
    resume = rows[shared["id"]].locator("a.resume").get_attribute("href")
    assert resume == shared["links"][1]["path"]  # Bo's seat, which this browser opened last
    # the server at this address may be another (another --db): the link stays for the first
    assert page.evaluate("localStorage.getItem('kafeneio.seat.gone')") is not None
    # and this page asks about it once, not again at each refresh of the lists (every 5 s)
    asked_gone = [url for url in asked if "ids=gone" in url]
    listings = (
        "performance.getEntriesByType('resource')"
        ".filter(e => e.name.includes('/api/games?') && e.name.includes('ids=')).length"
    )
    so_far = page.evaluate(listings)
    page.wait_for_function(f"n => {listings} > n", arg=so_far, timeout=15_000)
    assert [url for url in asked if "ids=gone" in url] == asked_gone
    token = alone["links"][0]["path"].split("token=", 1)[1]
    server.post(f"/api/games/{alone['id']}/abandon", {}, token)  # ended: out of Your games
    page.reload()
    page.locator(f"#list-ended li:has(a[href*='/game/{alone['id']}'])").wait_for()
    page.wait_for_selector(f"#list-yours li[data-game='{shared['id']}']")
    assert page.locator(f"#list-yours li[data-game='{alone['id']}']").count() == 0
    # the seat links stay in this browser: no request holds a token
    tokens = [link["path"].split("token=", 1)[1] for link in alone["links"] + shared["links"]]
    assert asked and not [url for url in asked if any(t in url for t in tokens)]
    assert console.errors == []
    context.close()


def test_your_games_asks_the_server_in_lists_as_long_as_it_takes(
    browser: Any, server: LiveServer
) -> None:
    against_bot = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    made = [server.post("/api/games", {"game": "cafe", "seats": against_bot}) for _ in range(3)]
    context, page, console = new_page(browser, 390, 844)

    def two_at_once(route: Any) -> None:  # a server that takes two ids a listing
        route.fulfill(json={**route.fetch().json(), "max_ids": 2})

    page.route("**/api/catalog", two_at_once)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    # the held links in place before the lobby's first script runs: set on an open lobby, a
    # poll of that page could ask before its reload, and the first two listings were not one
    # round's (a flaky [2, 2, 1])
    held = {f"kafeneio.seat.{game['id']}": game["links"][0]["path"] for game in made}
    store = "localStorage.setItem(key, link)"
    page.add_init_script(f"for (const [key, link] of Object.entries({json.dumps(held)})) {store};")
    page.goto(server.base + "/")
    for game in made:
        page.wait_for_selector(f"#list-yours li[data-game='{game['id']}']")
    listings = [url.count("ids=") for url in asked if "ids=" in url]  # every 5 s: again
    assert sorted(listings[:2]) == [1, 2] and max(listings) == 2, listings
    assert console.errors == []
    context.close()


def test_a_taken_draft_slot_keeps_its_number(browser: Any, server: LiveServer) -> None:
    context, page, console, _, _ = open_seat(browser, server, "souvlaki", 390)
    taken = "#board .customer.taken"
    for _ in range(12):  # the mulligan and the maintenance, then the draft's picks
        assert wait_turn_or_end(page)
        if page.locator(taken).count():
            break
        souvlaki_turn(page)
    slots = page.locator("#board .customers .customer[data-slot]")
    assert page.locator(taken).count()
    numbers, picked = [], []
    for index in range(slots.count()):
        slot = slots.nth(index)
        numbers.append(slot.locator(".number").inner_text())
        pick = slot.locator("[data-action^='pick ']")  # only for a pick the server offers
        if pick.count():
            picked.append(numbers[-1])
            assert pick.get_attribute("data-action") == f"pick {numbers[-1].rstrip('.')}"
    assert numbers == [f"{n}." for n in range(1, slots.count() + 1)]  # the taken ones too
    assert 0 < len(picked) < len(numbers)
    assert page.locator(taken).first.inner_text().replace("\n", " ").endswith(". taken")
    assert console.errors == []
    context.close()


def eight_lines_of_news(view: dict[str, Any]) -> None:
    """A view whose log is eight lines of P2's, all since the viewer's last turn."""
    if view["your_turn"] and view["log_from"] == 0:
        view["log"] = [
            {"ply": ply, "player": 1, "text": "pass", "events": [f"P2 line {ply + 1}"]}
            for ply in range(8)
        ]


def test_souvlaki_news_folds_to_its_last_lines_on_a_phone(browser: Any, server: LiveServer) -> None:
    seen = {}
    for width in (390, 1280):
        context, page, console, socket = open_game(browser, server, "souvlaki", width)
        socket.edit = eight_lines_of_news
        page.reload()
        page.wait_for_selector(f"{READY}[data-your-turn=true] #since-last")
        lines = "#since-last li"
        shown = page.locator(lines).evaluate_all("ls => ls.filter((l) => l.offsetParent).length")
        more = page.locator("#since-last button.news-more")
        seen[width] = (shown, more.is_visible())
        if width == 390:  # the move buttons on the first screen, under the last 3 lines
            last = page.locator(MOVES).last.bounding_box()
            assert last["y"] + last["height"] <= 844
            assert more.text_content() == "3 more of the news since your last turn"  # "3 more"
            assert more.get_attribute("aria-expanded") == "false"  # shown; of what, said
            more.click()
            assert page.locator(f"{lines}:visible").count() == 6
            assert page.is_visible("#since-last >> text=2 earlier lines under Moves")
            assert more.get_attribute("aria-expanded") == "true"
            page.eval_on_selector("#since-last", "box => { box.dataset.drawn = 'before'; }")
            page.click("#hint-button")  # the board drawn again, with the hint: still open
            page.wait_for_selector("#since-last:not([data-drawn])")
            assert page.locator(f"{lines}:visible").count() == 6
        assert console.errors == []
        context.close()
    assert seen == {390: (3, True), 1280: (6, False)}


def test_a_cafe_board_that_fails_to_load_is_said_and_the_turn_still_announced(
    browser: Any, server: LiveServer
) -> None:
    created = server.post(
        "/api/games",
        {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]},
    )
    context, page, console = new_page(browser, 390, 844)
    refused = {"error": "internal", "message": "the server broke"}
    page.route("**/api/cafe/board", lambda route: route.fulfill(status=500, json=refused))
    page.goto(server.base + created["links"][0]["path"])
    page.wait_for_selector("#board-failure")
    page.wait_for_function("document.getElementById('banner').textContent.startsWith('Your turn.')")
    failure = page.inner_text("#board-failure")
    assert "The board could not be drawn" in failure and "the server broke" in failure
    assert failure.endswith(
        "asks for it again whenever it draws the game anew (after each move)"
        ", and at once if you reload it."
    )  # as the hint's drawing below does
    assert failure in page.text_content("#banner")  # heard by a screen reader too
    page.unroute("**/api/cafe/board")  # the server answers again: the next drawing has it
    page.click("#hint-button")
    page.wait_for_selector("#board .cafe-board")
    assert page.locator("#board-failure").count() == 0
    # the browser's own report of the answer refused above is the only error
    assert [e for e in console.errors if not e.startswith("Failed to load resource")] == []
    context.close()


def test_a_long_name_does_not_widen_a_phone_page(browser: Any, server: LiveServer) -> None:
    # a name is one word of up to 40 letters: on a phone it breaks rather than making the
    # lobby (which lists every game) and the game page scroll sideways for every player
    name = "W" * 40
    paths = ["/"]
    for game in ("cafe", "souvlaki"):
        seats = [{"kind": "human", "name": name}, {"kind": "bot", "bot": "heuristic"}]
        created = server.post("/api/games", {"game": game, "seats": seats})
        paths.append(created["links"][0]["path"])
    context, page, console = new_page(browser, 390, 844, touch=True)
    for path in paths:
        page.goto(server.base + path)
        page.wait_for_selector("ul.games li" if path == "/" else "body[data-ply]")
        assert name in page.inner_text("body").replace("\n", "")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
    assert console.errors == []
    context.close()


def test_a_cafe_board_whose_data_answers_late_is_drawn_at_the_latest_position(
    browser: Any, server: LiveServer
) -> None:
    """Each drawing asked for the board data on its own: the first request, answering after a
    move's, drew the opening position over the new one, and its player, to move, had no guest
    to choose until a reload."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    ada_context, ada, _ = new_page(browser)
    ada.goto(server.base + created["links"][0]["path"])
    assert wait_turn_or_end(ada)
    bo_context, bo, console = new_page(browser, 390, 844)
    held: list[Any] = []
    bo.route(
        "**/api/cafe/board", lambda route: held.append(route) if not held else route.continue_()
    )
    bo.goto(server.base + created["links"][1]["path"])
    bo.wait_for_selector("body[data-ply='0']")
    routed(bo, held)
    ada.locator("#board .hand button.card").first.click()
    click_and_wait(ada, "#to-bar")
    bo.wait_for_selector("body[data-ply='1']")
    bo.wait_for_timeout(300)  # the move's drawing asked for the data too
    held[0].continue_()  # the opening's request answers last
    assert wait_turn_or_end(bo)
    bo.wait_for_selector("#board .scoreline")
    bo.wait_for_timeout(300)
    assert "move 2" in bo.inner_text("#board .scoreline")
    assert bo.locator("#board .hand button.card").count() == 5
    assert console.errors == []
    ada_context.close()
    bo_context.close()


def test_the_keyboard_focus_stays_on_the_board_as_moves_are_made(
    browser: Any, server: LiveServer
) -> None:
    """Each move draws the board anew: the focused button went with it, and the focus fell back
    to the page's start, so a keyboard or screen-reader player lost their place at every move."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": "souvlaki", "seats": seats})
    context, page, console = new_page(browser)
    page.goto(server.base + created["links"][0]["path"])
    in_board = "document.getElementById('board').contains(document.activeElement)"
    said = ""
    for _ in range(3):  # keep, then two picks of the draft
        page.wait_for_selector("body[data-your-turn=true] #board[aria-busy=false]")
        ply = page.get_attribute("body", "data-ply")
        page.focus(f"{MOVES}:not(:disabled) >> nth=0")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "([ply]) => document.body.dataset.ply !== ply", arg=[ply]
        )  # the move made, the board drawn anew
        assert page.evaluate(in_board), page.evaluate("document.activeElement.outerHTML")
        # and what the move did is said to a screen reader (a live region): the board changes
        # silently, and the banner says "Your turn." still
        page.wait_for_function(
            "([before]) => { const said = document.querySelector('#said').textContent;"
            " return said !== before && said.startsWith('P1 '); }",
            arg=[said],
        )
        said = page.text_content("#said")
        assert page.get_attribute("#said", "aria-live") == "polite"
        assert "(SW-" not in said, said  # no rule id read out ("keeps their food cards")
    page.wait_for_selector("body[data-your-turn=true] #board[aria-busy=false]")
    assert page.evaluate(in_board)  # kept through the others' moves too
    assert console.errors == []
    context.close()


def test_the_players_panel_counts_money_net_of_loans_and_the_news_shows_no_null(
    browser: Any, server: LiveServer
) -> None:
    """A loan's player read "money 4" in the panel, "-7" on the meter and in the result; and the
    news box showed a stray "null" line whenever no earlier news was folded away."""
    context, page, console, socket = open_game(browser, server, "souvlaki")
    standing = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            const obs = { players: [{ money: 4, net_money: -7, loans: 1, reputation: 0 }] };
            return souvlaki.standing(obs, 0);
        }"""
    )
    assert standing == "money -7 (net of 1 loan) · reputation 0"
    # before the viewer's first move the news is of the game so far, not of "your last turn"
    heads = page.evaluate(
        """async () => {
            const common = await import("/static/common.js");
            return [common.sinceHead([{ player: 1 }], 0),
                    common.sinceHead([{ player: 0 }, { player: 1 }], 0),
                    common.sinceHead([{ player: 1 }, { player: 0 }], 0),
                    common.sinceHead([{ player: 1 }, { player: 0 }], 0, 1)];
        }"""
    )
    # the viewer's first decisions of their first turn are not a last turn
    assert heads == [
        "Since the game began",
        "Since your last turn",
        "Since the game began",
        "Since the game began",
    ]
    # the hand's unforeseen cards named as the log names them ("Dirty Shop", not "dirty shop")
    names = page.locator("#my-unforeseen .unforeseen strong").all_inner_texts()
    assert names and all(name[0].isupper() and "-" not in name for name in names), names
    socket.holding = False
    page.click("[data-action=keep]")  # the bot's next move is news
    page.wait_for_selector("#since-last")
    assert "null" not in page.inner_text("#since-last")
    assert console.errors == []
    context.close()


def test_a_seat_link_is_copied_with_a_button(browser: Any, server: LiveServer) -> None:
    """A link selected by a long press on a phone is easily cut short: each has a Copy."""
    context, page, console, _ = lobby_counting_games_made(browser, server)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.click("#create-button")
    page.wait_for_selector("#created a.join-link")
    link = page.get_attribute("#created a.join-link", "href")
    assert page.get_attribute("#created button.copy", "aria-label") == "Copy P1's link"
    page.click("#created button.copy")
    page.wait_for_selector("#created button.copy:has-text('Copied')")
    assert page.evaluate("navigator.clipboard.readText()") == server.base + link
    assert console.errors == []
    context.close()


def test_the_cafe_board_stays_in_place_through_a_turn(browser: Any, server: LiveServer) -> None:
    """On a phone the board moved down 45 px as a guest was chosen (the instruction grew) and
    30 px more as "End the turn" came: more than a chair, under a finger about to tap."""
    context, page, console, _ = open_game(browser, server, "cafe", 390)
    page.clock.run_for(1000)
    # the board is drawn once its data has come, which on a loaded machine is after the turn
    page.wait_for_selector("#board .cafe-board .chair")
    top = "document.querySelector('#board .cafe-board').getBoundingClientRect().top + scrollY"
    before = page.evaluate(top)
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()  # the instruction says what to do with it
        assert page.evaluate(top) == before
        if page.locator(".chair.legal").count():
            break
    assert page.locator("#board .actions.reserved").count() == 1  # room for "End the turn"
    assert page.locator("#board .actions.reserved button").evaluate("b => b.tabIndex") == -1
    assert console.errors == []
    context.close()


def test_on_a_laptop_the_hand_and_the_whole_cafe_board_are_in_sight_together(
    browser: Any, server: LiveServer
) -> None:
    """On a 1366 x 768 laptop the board began 400 px down, under the hand, and its lower half
    was under the fold: a guest chosen, its chair was a scroll away. Beside the hand, the board
    fits the window; on a phone the hand stays above the board."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    box = """(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    }"""
    for width, height in ((1366, 768), (1280, 720), (390, 844)):
        context, page, console = new_page(browser, width, height)
        page.goto(server.base + created["links"][0]["path"])
        page.wait_for_selector(f"{READY}[data-your-turn=true]")
        page.wait_for_selector("#board .cafe-board .chair")  # drawn once its data has come
        cards = page.locator("#board .hand button.card")
        for index in range(cards.count()):  # a guest a chair takes: the chairs lit
            cards.nth(index).click()
            if page.locator(".chair.legal").count():
                break
        board = page.evaluate(box, "#board .cafe-board")
        hand = page.evaluate(box, "#board .hand")
        if width > 1000:
            assert board[1] >= 0 and board[3] <= height, (width, board)
            assert hand[1] >= 0 and hand[3] <= height and hand[2] <= board[0], (width, hand)
            assert page.evaluate("scrollY") == 0
            assert page.locator("#to-bar-also").is_visible()  # the bar is a scroll away
        else:
            assert hand[3] <= board[1]
            assert not page.locator("#to-bar-also").is_visible()  # the bar's button only beside
        if width == 1280:  # a hint shown above the board: the board shrinks to stay in sight
            page.click("#hint-button")
            page.wait_for_selector("#hint:not(.hidden) #hint-play")
            board = page.evaluate(box, "#board .cafe-board")
            assert board[3] <= height and page.evaluate("scrollY") == 0, board
            before = board[3] - board[1]
            page.click("#hint details.also summary")  # it grows, with no view drawn anew
            page.wait_for_function(
                "([h]) => document.querySelector('#board .cafe-board')"
                ".getBoundingClientRect().bottom <= h",
                arg=[height],
            )
            board = page.evaluate(box, "#board .cafe-board")
            assert board[3] - board[1] < before  # fitted again to the room left
        assert console.errors == []
        context.close()


SOUVLAKI_SERVICE = (
    """async ([reputation, pool, served]) => {  // the page's view, in its service
    const souvlaki = await import("/static/souvlaki.js");
    """
    + OWN_VIEW
    + """
    const obs = view.observation;
    obs.phase = "service";
    obs.players[view.viewer].reputation = reputation;
    Object.assign(obs, { pool: pool ?? "", served_this_service: served ?? 0 });
    const customer = (annoyed, influence) => ({ order: "GS", money: 2, influence, phone: false,
        big: false, annoyed, tip: 0, cards: ["GS"], attached: [], waiting: false,
        leaves_for: Math.max(2, 2 * influence) });
    obs.queues[view.viewer] = [customer(true, 2), customer(true, 0), customer(false, 1)];
    Object.assign(obs.queues[view.viewer][2],
        { attached: ["same-again"], attached_names: ["Same Again"] });
    view.legal = [{ notation: "send 1", words: "send away customer 1", gain: null, out: false }];
    const root = document.createElement("div");
    document.body.append(root);
    souvlaki.render(root, view, { send: () => {}, interactive: true });
    const said = [root.querySelector("[data-action='send 1']").textContent,
        root.querySelector("#service-ending").textContent,
        root.querySelector(`[data-customer="p${view.viewer + 1}.3"] .tags`).textContent];
    root.remove();
    return said;
}"""
)


def test_souvlaki_says_what_sending_away_and_leaving_cost(browser: Any, server: LiveServer) -> None:
    """ "Send away (−5)" with 3 reputation left took 3 (SW-4.9), and "2 leave" said nothing of
    what leaving costs (SW-4.8), the choice sending away is weighed against."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    send, ending, tags = page.evaluate(SOUVLAKI_SERVICE, [10])
    assert tags == "Same Again"  # its name, not its id "same-again"
    assert send == "Send away (−5)"
    assert ending == " · if you end the service now: 1 gets annoyed, 2 leave: −6 reputation"
    send, ending, _ = page.evaluate(SOUVLAKI_SERVICE, [3])
    # the rule's cost, and what the shop has: "−3" alone read as the rule misprinted
    assert send == "Send away (−5, you have 3)" and ending.endswith("2 leave: −3 reputation")
    # a customer served and food left in the pool: the treat comes first (SW-4.4), and its
    # reputation is there for the leaving to take
    _, ending, _ = page.evaluate(SOUVLAKI_SERVICE, [3, "D", 1])
    assert ending == (
        " · if you end the service now: +1 reputation for the food left in the pool,"
        " 1 gets annoyed, 2 leave: −4 reputation"
    )
    _, ending, _ = page.evaluate(SOUVLAKI_SERVICE, [3, "D", 0])  # nobody served: no treat
    assert "pool" not in ending
    assert console.errors == []
    context.close()


SOUVLAKI_ROUND_NEWS = """async ([log]) => {  // the news of a log, on the viewer's turn
    const souvlaki = await import("/static/souvlaki.js");
    return souvlaki.news({ viewer: 0, your_turn: true, over: false, replay: false, log });
}"""

SERVED = {"player": 0, "text": "serve", "events": ["P1 serves GF 2/2: +2 money (SW-4.3)"]}
ENDED = {
    "player": 0,
    "text": "finish",
    "events": [
        "P1 treats the queue with the food left over: +1 reputation (SW-4.4)",
        "GG 3/2 in P1's queue was not served and is annoyed (SW-4.7)",
        "Round 2 is over (SW-5.1)",
    ],
}


def test_souvlaki_news_tells_what_the_viewer_s_last_move_set_off(
    browser: Any, server: LiveServer
) -> None:
    """The news began after the viewer's own last move, so the end of a round that move set
    off (the treat, customers annoyed or leaving, the round over, the others' costs and draws)
    was never told. Now it is, all but the line of the move itself, which the viewer made."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    bought = {"player": 1, "text": "buy", "events": ["P2 buys supplies for 2 (SW-1.3)"]}
    drafted = ["P1 drafts GF 2/2 from slot 4", "P2 receives a phone order G 2/1"]
    picked = {"player": 0, "text": "pick 4", "events": drafted}
    news = page.evaluate(SOUVLAKI_ROUND_NEWS, [[SERVED, ENDED, bought]])
    assert news == (
        "Since your last turn: P1 treats the queue with the food left over: +1 reputation; "
        "GG 3/2 in P1's queue was not served and is annoyed; Round 2 is over; "
        "P2 buys supplies for 2."
    )
    news = page.evaluate(SOUVLAKI_ROUND_NEWS, [[picked, bought]])  # its own line left out
    assert news == "Since your last turn: P2 receives a phone order G 2/1; P2 buys supplies for 2."
    # their service ended the round and they are first in the maintenance: one run of their
    # decisions, the round's end its news, kept as they go on
    advertised = {"player": 0, "text": "advertise", "events": ["P1 advertises for 3"]}
    for log in ([bought, SERVED, ENDED], [bought, SERVED, ENDED, advertised]):
        news = page.evaluate(SOUVLAKI_ROUND_NEWS, [log])
        assert news is not None and news.startswith("Since your last turn: P1 treats the queue")
        assert "P2 buys" not in news and news.endswith("Round 2 is over.")
    # an unforeseen card passed with nothing set off, then their service: the others' cards
    # played before are still the news
    passed = {"player": 0, "text": "pass", "events": []}
    news = page.evaluate(SOUVLAKI_ROUND_NEWS, [[picked, bought, passed, SERVED]])
    assert news == "Since your last turn: P2 receives a phone order G 2/1; P2 buys supplies for 2."
    assert console.errors == []
    context.close()


SOUVLAKI_TABLE = (
    """async ([firstGame, heldFood, discards]) => {  // the page's own view, edited
    const souvlaki = await import("/static/souvlaki.js");
    """
    + OWN_VIEW
    + """
    const obs = view.observation;
    obs.first_game = firstGame;
    if (heldFood) obs.hand.food = heldFood;
    view.legal = discards.map((card) => (
        { notation: `discard ${card}`, words: `discard ${card}`, gain: null }));
    const root = document.createElement("div");
    document.body.append(root);
    souvlaki.render(root, view, { send: () => {}, interactive: true });
    const text = (selector) => [...root.querySelectorAll(selector)].map((e) => e.textContent);
    const said = {
        queues: [...root.querySelectorAll("[data-queue]")].map((q) => Number(q.dataset.queue)),
        identity: text(".shop .identity"), shops: text(".shop"), unforeseen: text("#my-unforeseen"),
        discard: text("#discard-how"), viewer: view.viewer,
        sections: [...root.children].map(
            (c) => c.id || c.querySelector("h3")?.textContent || c.className),
        card: getComputedStyle(root.querySelector(".foodcard")).color,
    };
    root.remove();
    return said;
}"""
)


def test_souvlaki_shows_each_shop_s_identity_and_the_player_s_own_things_first(
    browser: Any, server: LiveServer
) -> None:
    """Each shop's identity card was shown only as its running cost; the player's own queue
    sat under every shop's standing, a laptop window below; a first game spoke of "0
    unforeseen cards"; and a discard down to the hand limit was said nowhere, its cards'
    "discard" white on cream."""
    context, page, console, _ = open_game(browser, server, "souvlaki", 1280)
    said = page.evaluate(SOUVLAKI_TABLE, [False, None, []])
    assert said["queues"][0] == said["viewer"] and sorted(said["queues"]) == [0, 1]
    for identity in said["identity"]:  # SW-0.4, SW-1.3: what it pays and may buy
        assert re.fullmatch(
            r"costs \d+/round · supplies \d+ money for \d+ food cards?( \(twice a round\))?"
            r" · advertising \d+ money for \+\d+ reputation",
            identity,
        ), identity
    sections = said["sections"]
    assert sections.index("my-hand") < sections.index("Queues") < sections.index("Shops")
    assert all("unforeseen" in shop for shop in said["shops"]) and said["unforeseen"]
    said = page.evaluate(
        SOUVLAKI_TABLE, [True, ["G", "S", "F", "D", "GS", "GF", "SD", "FD"], ["G"]]
    )
    assert all("unforeseen" not in shop for shop in said["shops"]) and said["unforeseen"] == []
    assert said["discard"] == [
        "You hold 8 food cards, more than the hand limit of 7: discard 1"
        " (press a card in your hand to discard it)."
    ]
    assert said["card"] == "rgb(43, 38, 34)"  # the ink, not white on the cream of a playable card
    assert console.errors == []
    context.close()


def test_souvlaki_result_says_who_fell_short_of_the_goal(browser: Any, server: LiveServer) -> None:
    """The result listed a shop with the highest sum first though it never reached 25 and 25,
    and only those who did may win (SW-5.2, SW-5.3): it says so now."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    texts = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            const rules = { win_money: 25, win_reputation: 25 };
            const obs = { rules, players: [{ net_money: 40, reputation: 19 },
                                           { net_money: 30, reputation: 27 }] };
            const none = { rules, players: [{ net_money: 20, reputation: 19 },
                                            { net_money: 10, reputation: 7 }] };
            return [souvlaki.scoreText(obs, 0, 59), souvlaki.scoreText(obs, 1, 57),
                    souvlaki.scoreText(none, 0, 39)];
        }"""
    )
    assert texts == [
        "59 (money 40, reputation 19, short of 25/25)",
        "57 (money 30, reputation 27)",
        "39 (money 20, reputation 19)",  # nobody reached it: the highest sum wins
    ]
    assert console.errors == []
    context.close()


def test_souvlaki_service_by_keyboard_the_next_card_is_a_tab_away(
    browser: Any, server: LiveServer
) -> None:
    """In the service, after a card played or a customer served by keyboard, the focus went to
    the whole board: the next card was Serve and End the service away. Now to the food cards
    themselves (not to a card: a key held would play a second one)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": "souvlaki", "seats": seats})
    context, page, console = new_page(browser, 1280, 800)
    page.goto(server.base + created["links"][0]["path"])
    playable = "#my-hand button.foodcard.playable"
    for _ in range(60):  # to a service of this player's with a card to play
        assert wait_turn_or_end(page)
        page.wait_for_selector("#board[aria-busy=false]")
        service = "Phase: Service" in page.inner_text("#board .scoreline")
        if service and page.locator(playable).count():
            break
        souvlaki_turn(page)
    else:
        raise AssertionError("no service with a card to play")
    ply = page.get_attribute("body", "data-ply")
    page.focus(f"{playable} >> nth=0")
    page.keyboard.press("Enter")
    page.wait_for_function("([ply]) => document.body.dataset.ply !== ply", arg=[ply])
    page.wait_for_function("document.activeElement.id === 'my-hand'")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.matches('#my-hand button.foodcard')")
    assert console.errors == []
    context.close()


def test_the_replay_s_players_panel_has_each_seat_s_standing(
    browser: Any, server: LiveServer
) -> None:
    """The replay's players panel named the seats only: a Souvlaki replay showed nowhere
    what each shop had at the position, beside the board's shops far below."""
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"round_limit": 2}
    created = server.post("/api/games", {"game": "souvlaki", "seats": bots, "options": options})
    wait_for(lambda: server.get(f"/api/games/{created['id']}")["over"])
    context, page, console = new_page(browser)
    page.goto(server.base + f"/replay/{created['id']}")
    page.wait_for_selector("#seats .seat .standing")
    standings = page.locator("#seats .standing").all_inner_texts()
    assert len(standings) == 2
    assert all(re.fullmatch(r"money -?\d+.* · reputation \d+", s) for s in standings), standings
    assert page.inner_text("#position").startswith("Before move 1 of ")
    assert console.errors == []
    context.close()


def test_souvlaki_marks_whose_pick_it_is_in_the_picking_order(
    browser: Any, server: LiveServer
) -> None:
    """ "Picking order: P2, P1, P1, P2" did not say whose pick it was (SW-2.2)."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    said = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            """
        + OWN_VIEW
        + """
            Object.assign(view.observation, { phase: "customers", picking_order: [1, 0, 0, 1],
                row: ["G 1/0", null, "GS 3/1", "BIG", "SD 2/1"] });  // one pick made
            const root = document.createElement("div");
            document.body.append(root);
            souvlaki.render(root, view, { send: () => {}, interactive: false });
            const order = root.querySelector("#picking-order");
            const said = [order.textContent, order.querySelector("strong").textContent];
            root.remove();
            return said;
        }"""
    )
    assert said == [
        "Picking order: P2 heuristic, P1 Ada (now), P1 Ada, P2 heuristic",
        "P1 Ada (now)",
    ]
    assert console.errors == []
    context.close()


def test_an_abandon_refused_because_the_game_just_ended_hands_the_focus_to_the_result(
    browser: Any, server: LiveServer
) -> None:
    """A bot's last move ended the game while its player confirmed leaving it: the question's
    buttons went, the abandon was refused ("over"), and the focus was left at the page's start
    (the code looked for the Abandon button, gone with the game). Now: to the result."""
    context, page, console, socket = open_game(browser, server, "souvlaki")
    page.click("#abandon")
    page.focus("#abandon-confirm")
    held: list[Any] = []
    page.route("**/abandon", lambda route: held.append(route))  # answered after the end
    page.keyboard.press("Enter")
    routed(page, held)
    socket.holding = True  # nothing of the server's after the game's end (a seat's presence)
    ended = dict(socket.last, log=[], log_from=len(socket.last["log"]) + socket.last["log_from"])
    players = len(ended["seats"])
    result = {"scores": [10] * players, "winners": [0], "losses": [0] * players}
    ended.update(status="finished", over=True, abandon=False, your_turn=False, legal=[])
    ended["result"] = result
    socket.route.send(json.dumps(ended))  # the bot's last move, as the server would send it
    page.wait_for_selector("#result:not(.hidden)")
    held[0].fulfill(
        status=409,
        content_type="application/json",
        body=json.dumps({"error": "over", "message": "this game is over"}),
    )
    page.wait_for_function("document.activeElement.matches('#result h2')")
    assert [e for e in console.errors if "409 (Conflict)" not in e] == []  # (the refusal's)
    context.close()


def test_souvlaki_outlines_what_an_unforeseen_card_would_be_played_on(
    browser: Any, server: LiveServer
) -> None:
    """ "on P1 Ada's customer 4" was read far from that customer, and pointing at the button
    or focusing it showed nothing: the customer, or the queue, is outlined now."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    outlined = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            """
        + OWN_VIEW
        + """
            const obs = view.observation;
            obs.phase = "unforeseen";
            obs.first_game = false;
            const customer = { order: "GS", money: 2, influence: 1, phone: false, big: false,
                annoyed: false, tip: 0, cards: ["GS"], attached: [], waiting: false };
            obs.queues = obs.queues.map(() => [customer, customer]);
            obs.hand.unforeseen = ["impatient-customer", "health-inspection"];
            view.legal = ["use impatient-customer p2.2", "use health-inspection p2"].map(
                (notation) => ({ notation, words: notation, gain: null }));
            const root = document.createElement("div");
            document.body.append(root);
            souvlaki.render(root, view, { send: () => {}, interactive: true });
            const marked = () => [...root.querySelectorAll(".targeted")].map(
                (e) => e.dataset.customer ?? `queue ${e.dataset.queue}`);
            const seen = [];
            for (const notation of ["use impatient-customer p2.2", "use health-inspection p2"]) {
                const button = root.querySelector(`[data-action="${notation}"]`);
                button.focus();
                seen.push(marked());
                button.blur();
                seen.push(marked());
                button.dispatchEvent(new MouseEvent("mouseenter"));
                seen.push(marked());
                button.dispatchEvent(new MouseEvent("mouseleave"));
            }
            const names = [...root.querySelectorAll("#my-unforeseen button[data-action^=use]")]
                .map((button) => [button.textContent, button.getAttribute("aria-label")]);
            root.remove();
            return [seen, names];
        }"""
    )
    seen, names = outlined
    assert seen == [["p2.2"], [], ["p2.2"], ["queue 1"], [], ["queue 1"]]
    # a target button's name begins with what it shows: it showed "on P2 heuristic" and was
    # named "play dirty shop on p2", which speech input could not press by its words (2.5.3)
    assert len(names) == 2
    for (text, name), notation in zip(
        names, ["use impatient-customer p2.2", "use health-inspection p2"], strict=True
    ):
        assert text.startswith("on P") and name == f"{text}: U{notation[1:]}", names
    assert console.errors == []
    context.close()


def test_souvlaki_shows_what_the_cards_in_play_change_this_round(
    browser: Any, server: LiveServer
) -> None:
    """The page read none of `in_play`, `cancels_pending` nor a shop's `served_reputation`:
    under a Dirty Shop its customers still showed the reputation they no longer gave."""
    context, page, console, _ = open_game(browser, server, "souvlaki")
    said = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            return [
                souvlaki.servedText({ served_reputation: -1, served_money: 0 }),
                souvlaki.servedText({ served_reputation: 1, served_money: 2 }),
                souvlaki.servedText({ served_reputation: 0, served_money: 0 }),
                souvlaki.effectsText({ in_play: { "dirty-shop": 1, "generous-tip": 2 },
                                       cancels_pending: 1 }),
                souvlaki.effectsText({ in_play: {}, cancels_pending: 0 }),
            ];
        }"""
    )
    assert said[0] == "This round each customer served gives 1 less reputation"
    assert (
        said[1] == "This round each customer served gives 1 more reputation and pays 2 more money"
    )
    assert said[2] is None and said[4] is None
    assert said[3] == (
        "Played this round, discarded at its end: dirty shop, generous tip ×2; "
        "the next unforeseen card played has no effect (SW-E.1)"
    )
    shown = page.evaluate(
        """async () => {
            const souvlaki = await import("/static/souvlaki.js");
            """
        + OWN_VIEW
        + """
            view.observation.in_play = { "dirty-shop": 1 };
            view.observation.players[0].served_reputation = -1;
            const root = document.createElement("div");
            document.body.append(root);
            souvlaki.render(root, view, { send: () => {}, interactive: false, hinted: null });
            const found = [root.querySelector("#effects")?.textContent ?? null,
                           root.querySelector(".shop .served-change")?.textContent ?? null];
            root.remove();
            return found;
        }"""
    )
    assert shown[0] == "Played this round, discarded at its end: dirty shop"
    assert shown[1] == "This round each customer served gives 1 less reputation"
    assert console.errors == []
    context.close()


@pytest.mark.parametrize(
    ("game", "example"), [("cafe", "USm is a USA man"), ("souvlaki", "GG 3/2")]
)
def test_the_moves_list_says_how_it_writes_guests_and_customers(
    browser: Any, server: LiveServer, game: str, example: str
) -> None:
    """The log wrote "P1 seats AFf on chair 54" and "phone order GG 3/2" where the board and
    the buttons say them in words: a newcomer had to guess the codes."""
    context, page, console, _ = open_game(browser, server, game)
    legend = page.locator("#log-legend")
    assert legend.count() == 1 and example in legend.inner_text()
    assert page.evaluate("document.getElementById('log-legend').nextElementSibling.id") == "log"
    if game == "souvlaki":  # and the mulligan, which the Keep and Redraw buttons did not explain
        assert "you may redraw once" in page.inner_text("#mulligan-how")
    assert console.errors == []
    context.close()


def test_cafe_says_a_move_s_guests_in_words_to_a_screen_reader(
    browser: Any, server: LiveServer
) -> None:
    """One's own move was said as the log writes it, "P1 seats AFf on chair 54", read out "A F
    f"; the bots' moves were said in words."""
    context, page, console, _ = open_game(browser, server, "cafe")
    said = page.evaluate(
        """async () => {
            const cafe = await import("/static/cafe.js");
            return [cafe.spokenLine("P1 seats AFf on chair 54: +0 points"),
                    cafe.spokenLine("P1 draws CUm, Jf and takes the joker Jm into their hand"),
                    cafe.spokenLine("P1 fills table US1 for a dance (CI-V.2)")];
        }"""
    )
    assert said[0] == "P1 seats Africa lady on chair 54: +0 points"
    assert said[1] == "P1 draws Cuba man, joker (lady) and takes the joker (man) into their hand"
    assert said[2] == "P1 fills table US1 for a dance (CI-V.2)"  # no guest in it: as it was
    assert console.errors == []
    context.close()

"""Both games played to the end in headless Chromium by clicking, as a person would."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from server.conftest import LiveServer, age, mentions, wait_for
from web.conftest import Console

TURN_LIMIT = 400


def new_page(
    browser: Any, width: int = 1280, height: int = 900, touch: bool = False
) -> tuple[Any, Any, Console]:
    """A page of its own context; `touch`: a phone's touch screen (a coarse pointer)."""
    # the server's Content-Security-Policy forbids eval, which Playwright's string functions
    # use: lifted for the tests' own scripts (test_security_headers loads the pages under it)
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=touch,
        is_mobile=touch,
        bypass_csp=True,
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    return context, page, Console(page)


def create_in_lobby(page: Any, server: LiveServer, game: str, options: dict[str, Any]) -> str:
    """Fill in the lobby's form: this person in seat 1, a bot in seat 2, some options."""
    page.goto(server.base + "/")
    page.select_option("#game", game)
    page.select_option("select[name=kind1]", "bot:heuristic")
    page.fill("input[name=name0]", "Ada")
    page.click("#options-box summary")
    for name, value in options.items():
        if isinstance(value, bool):
            page.set_checked(f"#opt-{name}", value)
        else:
            page.fill(f"#opt-{name}", str(value))
    page.click("#create-button")
    page.wait_for_selector("#created a.join-link")
    link: str = page.get_attribute("#created a.join-link", "href")
    page.click("#created a.join-link")
    page.wait_for_selector("body[data-ply]")
    return link


READY = "body[data-busy=false]"
"""A page whose next click on a move is taken as one: no move of its own awaits the server's
answer, and the position was not drawn a moment ago (a click then is not a move on it)."""


def wait_turn_or_end(page: Any) -> bool:
    """True when it is this page's turn (and a click makes a move), False when the game is over."""
    page.wait_for_selector(f"{READY}[data-your-turn=true], body[data-over=true]")
    return page.get_attribute("body", "data-over") != "true"


def click_and_wait(page: Any, selector: str) -> None:
    page.wait_for_selector(READY)
    ply = page.get_attribute("body", "data-ply")
    page.click(selector)
    moved = "([ply]) => document.body.dataset.ply !== ply"
    refused = "document.querySelector('#message:not(.hidden)')"
    page.wait_for_function(f"{moved} || {refused}", arg=[ply])


def cafe_turn(page: Any) -> None:
    if page.locator("[data-action=end]").count():
        click_and_wait(page, "[data-action=end]")
        return
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()
        if page.locator(".chair.legal").count():
            click_and_wait(page, ".chair.legal >> nth=0")
            return
        if page.locator("#to-bar:not([disabled])").count():
            click_and_wait(page, "#to-bar")
            return
    click_and_wait(page, "[data-action] >> nth=0")  # pass, or a variant's choice


def souvlaki_turn(page: Any) -> None:
    order = [
        "button[data-action=serve]:not(.quiet)",
        "#my-hand button.foodcard.playable",
        "button[data-action=finish]",
        "button[data-action=keep]",
        "button[data-action=done]",
        "button[data-action=pass]",
        "button[data-action^=pick]",
        "button[data-action]:not(.quiet):not(:disabled)",
    ]
    for selector in order:
        if page.locator(selector).count():
            click_and_wait(page, f"{selector} >> nth=0")
            return
    raise AssertionError("no move to click on the Souvlaki page")


def sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


def named_in_words(page: Any, server: LiveServer, link: str) -> dict[str, str]:
    """Every button of a legal move on the page, at this page's turn, is named in the game's
    words for that move (its aria-label, or its text when it has none; a label that differs
    from them says the button's own words first, "Pick: ..."): checked, and returned by
    notation."""
    game_id, token = link.split("/game/", 1)[1].split("#", 1)[0], link.split("token=", 1)[1]
    mine = server.get(f"/api/games/{game_id}", token)
    assert mine["your_turn"] and str(mine["ply"]) == page.get_attribute("body", "data-ply")
    words = {move["notation"]: sentence(move["words"]) for move in mine["legal"]}
    named = page.locator("#board [data-action]").evaluate_all(
        "bs => bs.map(b => [b.dataset.action, b.getAttribute('aria-label') || b.innerText])"
    )
    shown = {action: label for action, label in named if action in words}
    for action, label in shown.items():
        said = label.startswith(words[action]) or label.endswith(f": {words[action]}")
        assert said, (action, label, words[action])
    return shown


def play_to_the_end(page: Any, turn: Any) -> None:
    for _ in range(TURN_LIMIT):
        if not wait_turn_or_end(page):
            return
        turn(page)
    raise AssertionError("the game did not end")


def test_cafe_against_a_bot_to_the_end(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser)
    link = create_in_lobby(page, server, "cafe", {"hand_size": 2, "end_bag": 90})
    assert "Café International" in page.title()
    page.wait_for_selector(".cafe-board .table-tile")
    assert page.locator(".cafe-board .table-tile").count() == 24
    # every seat's score in the players panel, not only under its hand further down
    assert page.locator("#seats .seat .standing").all_inner_texts() == ["0 points", "0 points"]
    assert page.locator(".cafe-board .chair").count() == 68
    assert "Africa" in page.inner_text(".cafe-board")  # the nation's name, not only its colour
    wait_turn_or_end(page)
    assert page.title().startswith("▶ Your turn")
    page.click("#hint-button")  # against a bot, the seat to move may ask the search bot
    page.wait_for_selector("#hint-move")
    suggested = page.inner_text("#hint-move")
    assert "chance to win at about" in page.inner_text("#hint")
    words = page.inner_text("#hint-words")  # the move in words: "France lady to chair 25 …"
    assert " to chair " in words or " to the bar, seat " in words or words.startswith("end ")
    if "@" in suggested:  # a placement: its guest in the hand and its chair (or the bar) lit
        page.wait_for_selector("#board .hand .card.hinted")
        assert page.locator(".chair.hinted, .bar-seat.hinted").count() == 1
        # in the hint's own colour, whatever else marks that place (the bar's next seat)
        colour = "e => getComputedStyle(e).outlineColor"
        hinted = page.eval_on_selector(".chair.hinted, .bar-seat.hinted", colour)
        assert hinted == "rgb(46, 125, 50)"
    ply = int(page.get_attribute("body", "data-ply"))
    # the move's number as the log will give it, beside the turn's
    assert f" · move {ply + 1}" in page.inner_text("#board .scoreline")
    click_and_wait(page, "#hint-play")
    # the move of that ply (the bot may have moved since): the log numbers moves from 1
    assert page.inner_text(f"#log li[value='{ply + 1}'] code.notation") == suggested
    named: dict[str, str] = {}

    def turn(page: Any) -> None:  # the moves off the board in the game's words, then a move
        named.update(named_in_words(page, server, link))
        cafe_turn(page)

    play_to_the_end(page, turn)
    if "end" in named:  # a turn with a second guest to seat (the game's deal decides)
        assert named["end"] == "End the turn without a second guest"
    # a rule id the log cites opens that rule's text under its line, and closes again
    cited = page.locator("#log button.rule-ref").last
    rule = cited.inner_text()
    assert cited.get_attribute("aria-label") == f"rule {rule}"  # said as a rule, not a code
    cited.click()
    shown = page.inner_text(f"#log .rule-text[data-rule='{rule}']")
    assert shown.startswith(f"{rule} · ") and len(shown) > len(rule) + 20
    page.locator(f"#log button.rule-ref[data-rule='{rule}'][aria-expanded='true']").last.click()
    assert page.locator("#log .rule-text").count() == 0
    result = page.inner_text("#result")
    assert "The game ends" in result and "points" in result
    # each hand's penalty, told in the log, in the result box too: the score before it, and why
    losses = re.findall(r"(P\d) loses (\d+) (for [^()]+ left in hand)", page.inner_text("#log"))
    assert losses  # 2-card hands: the game ends with cards held
    lines = page.locator("#result .scoreline span").all_inner_texts()
    for seat, loss, why in losses:
        line = next(line for line in lines if line.startswith(seat))
        final = int(line.split(": ", 1)[1].split(" ")[0])
        assert line.endswith(f" points ({final + int(loss)}, less {loss} {why})"), line
    assert not page.title().startswith("▶")
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(download.value.path().read_text())
    assert record["format"] == "kafeneio-record" and record["actions"]
    page.click("#result a[href^='/replay/']")
    page.wait_for_selector("#position")
    position = "document.querySelector('#position').textContent"
    page.wait_for_function(f"{position}.startsWith('Before move 1 of ')")
    assert page.locator("#first:disabled, #back:disabled").count() == 2  # nothing before move 1
    page.click("#forward")
    page.wait_for_function(f"{position}.startsWith('Before move 2 of ')")
    assert page.inner_text("#position") == f"Before move 2 of {len(record['actions'])}"
    assert page.locator("#log li").count() == 1
    page.click("#last")
    page.wait_for_function(f"{position}.startsWith('All ')")
    shown = page.inner_text("#position")  # and who won, which the replay said nowhere else
    assert re.fullmatch(
        rf"All {len(record['actions'])} moves played · P\d .+ (wins|share the win)", shown
    )
    assert page.title().startswith("Replay · Café International")
    assert page.locator("#log li").count() == len(record["actions"])
    page.click("#analyse")  # the search bot goes through every decision, in the background
    page.wait_for_selector(".chance-chart polyline[data-player='1']", timeout=120_000)
    assert page.locator(".chance-chart polyline").count() == 2
    summary = page.inner_text("#analysis")
    assert "of win chance a move on average" in summary and "[object" not in summary
    scale = """() => {  // chart units per CSS pixel: 1, so its labels keep their size on a phone
        const chart = document.querySelector('.chance-chart');
        return chart.viewBox.baseVal.width / chart.getBoundingClientRect().width;
    }"""
    assert abs(page.evaluate(scale) - 1) < 0.02
    page.set_viewport_size({"width": 390, "height": 800})  # redrawn to the phone's width
    page.wait_for_function(f"Math.abs(({scale})() - 1) < 0.02")
    page.set_viewport_size({"width": 1280, "height": 900})
    nested = """async () => {
        const { el } = await import("/static/common.js");
        return el("p", {}, ["a", [el("b", {}, "c"), ["d"]]]).innerHTML;
    }"""
    assert page.evaluate(nested) == "a<b>c</b>d"  # lists of children within lists, as words
    page.click("#first")
    now = "document.querySelector('#analysis-now').textContent"
    page.wait_for_function(f"{now}.startsWith('Move 1, ')")
    assert page.inner_text("#position").startswith("Before move 1 of ")  # one count, the analysis's
    for step in range(2, 5):  # and so on, move by move, where a player decides
        page.click("#forward")
        page.wait_for_function(f"{position}.startsWith('Before move {step} of ')")
        said = page.inner_text("#analysis-now")  # drawn with the position, at once
        assert said.startswith(f"Move {step}, ") or not said.startswith("Move ")
    page.click("#first")
    page.wait_for_function(f"{position}.startsWith('Before move 1 of ')")
    assert "Round 1 · move 1" in page.inner_text("#board .scoreline")  # the step's, not the end's
    # a round is a turn of each player (the game's `turn` counts every player's), until a
    # player is out (CI-M.3): then the game's turns
    when = """async ([turn, out]) => (await import("/static/cafe.js")).whenText({ turn, out })"""
    assert page.evaluate(when, [2, [False, False]]) == "Round 2"
    assert page.evaluate(when, [5, [False, False, False]]) == "Round 2"
    assert page.evaluate(when, [16, [False, True]]) == "Turn 17 of the game"
    # once the game is over its count has moved past the last turn: the round it ended in, not
    # one never played ("Round 5" after a 4-player game's 16 turns)
    ended = """async ([turn, out, phase]) => (await import("/static/cafe.js")).whenText(
        { turn, out, phase })"""
    assert page.evaluate(ended, [16, [False] * 4, "over"]) == "Round 4"
    assert page.evaluate(ended, [3, [True, False, True], "over"]) == "Turn 3 of the game"
    # an abandoned game's last position in its replay: its count stands where it was left
    assert page.evaluate(ended, [2, [False, False], "second"]) == "Round 2"
    # after a first guest, what to do as the legal moves allow: it said "seat a second guest,
    # or end" where the rules left only one of them
    second = """async (legal) => {
        const { el } = await import("/static/common.js");
        const cafe = await import("/static/cafe.js");
        const said = cafe.secondInstruction(legal.map((notation) => ({ notation })));
        return el("p", {}, said).textContent;
    }"""
    assert page.evaluate(second, ["end"]) == "No second guest can be seated now: end the turn."
    assert page.evaluate(second, ["USm@16"]).startswith("Choose a second guest: ending now")
    assert "or end the turn" in page.evaluate(second, ["USm@16", "end"])
    assert "chance to win" in page.inner_text("#analysis-now")
    # the move as typed, then in words: "Played FRf@25 (France lady to chair 25 at FR2): 52%"
    assert page.inner_text("#analysis-now code.notation") == record["actions"][0]
    words = page.inner_text("#analysis-now").split(f"{record['actions'][0]} (", 1)[1]
    guest = r"([A-Z][A-Za-z]+ (lady|man)|joker \((lady|man)\))"
    assert re.match(guest + r" to (chair \d+ |the bar, seat 1: \+1 point)", words)
    page.select_option("#viewer", "0")  # seen by a seat: named, not "you" (anyone may watch)
    page.wait_for_function("document.querySelector('#board').textContent.includes(\"Ada's hand\")")
    assert "(you)" not in page.inner_text("#board") and "Your hand" not in page.inner_text("#board")
    page.goto(server.base + link)  # back to the game: a rematch takes this seat to a new game
    page.click("#rematch")
    page.wait_for_url(lambda url: "/game/" in url and link.split("#")[0] not in url)
    page.wait_for_selector("body[data-ply]")
    assert page.get_attribute("body", "data-over") == "false"
    assert console.errors == []
    context.close()


def test_a_hint_reads_well_with_one_move_or_several(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser, 390, 844)
    create_in_lobby(page, server, "cafe", {})
    assert wait_turn_or_end(page)
    ply = int(page.get_attribute("body", "data-ply"))
    answers = [
        [("end", 0.31, 40)],  # a forced move: nothing else considered
        [("a", 0.5, 90), ("b", 0.2, 50), ("c", 0.4, 30), ("d", 0.3, 20), ("e", 0.6, 5)],
    ]

    def answer(route: Any) -> None:  # the server's answer, as it gives it (most visited first)
        if route.request.method != "POST":  # the hint kept from before the page was opened
            route.continue_()
            return
        moves = answers.pop(0)
        route.fulfill(json={
            "ply": ply, "player": 0, "best": moves[0][0], "best_words": f"move {moves[0][0]}",
            "win_chance": moves[0][1], "iterations": 200, "seconds": 1.0,
            "moves": [
                {"notation": n, "words": f"move {n}", "win_chance": w, "visits": v}
                for n, w, v in moves
            ],
        })  # fmt: skip

    page.route("**/api/games/*/hint", answer)
    page.click("#hint-button")
    page.wait_for_selector("#hint-move")
    assert page.inner_text("#hint").startswith("The bot suggests: move end (end)")
    assert "null" not in page.inner_text("#hint") and "Also" not in page.inner_text("#hint")
    page.click("#hint-button")  # asked again: the second answer
    page.wait_for_function("document.querySelector('#hint').textContent.includes('Also')")
    # the three looked at most after the choice, the likeliest to win first, each with its
    # share of the 200 iterations: move e, rated 60% on 5 looks, is not among them
    assert "move c" not in page.inner_text("#hint")  # folded: on a phone they filled the screen
    page.click("#hint .also summary")
    assert (
        "move c (40%, 15% of the search); "
        "move d (30%, 10% of the search); move b (20%, 25% of the search)"
    ) in page.inner_text("#hint")
    assert console.errors == []
    context.close()


def test_a_hint_names_the_planned_second_guest(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser, 390, 844)
    create_in_lobby(page, server, "cafe", {})
    assert wait_turn_or_end(page)
    ply = int(page.get_attribute("body", "data-ply"))
    page.route("**/api/games/*/hint", lambda route: route.fulfill(json={
        "ply": ply, "player": 0, "best": "a", "best_words": "move a", "then": "b",
        "then_words": "move b", "win_chance": 0.5, "iterations": 10, "seconds": 0.1,
        "moves": [{"notation": "a", "words": "move a", "win_chance": 0.5, "visits": 10}],
    }) if route.request.method == "POST" else route.continue_())  # fmt: skip
    page.click("#hint-button")
    page.wait_for_selector("#hint-then")
    assert page.inner_text("#hint").startswith(
        "The bot suggests: move a (a), then move b (b), and puts your chance to win at about 50%"
    )
    assert console.errors == []
    context.close()


TWIN_GUESTS = """
        const cafe = await import("/static/cafe.js");
        const hand = view.observation.hands[view.viewer];
        hand.splice(0, 2, hand[0], hand[0]);  // two guests alike: the view's first, twice
        const root = document.createElement("div");
        document.body.append(root);"""
"""The start of a page script: Café's board drawn apart from the page's, from `view` with
its first two cards made alike (a deal cannot be asked for them)."""


def wait_for_focus_after_a_first_guest(page: Any, view: dict[str, Any]) -> None:
    """Where the focus goes once a first guest is seated by keyboard: back to the hand, or,
    when no second guest fits (the deal decides), to the one move left, ending the turn."""
    legal = view["legal"]
    if len(legal) == 1:
        only = legal[0]["notation"]
        page.wait_for_function(f"document.activeElement.dataset.action === '{only}'")
    else:
        page.wait_for_function("document.activeElement.matches('.hand button.card')")


def test_a_refused_chair_leaves_nothing_chosen_and_the_reason_in_sight(
    browser: Any, server: LiveServer
) -> None:
    context, page, console = new_page(browser, 390, 844)
    link = create_in_lobby(page, server, "cafe", {})
    assert wait_turn_or_end(page)
    page.click("#board .hand button.card >> nth=0")
    unlit = page.locator(".chair:not(.legal):not(.swap):not(.guest)").last  # low on the board
    unlit.scroll_into_view_if_needed()
    unlit.click()
    page.wait_for_selector("#message:not(.hidden)")
    # the server's reason, in sight though the page is scrolled down to the board's last row
    box = page.locator("#message").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    assert page.locator("#message button.rule-ref").count() >= 1  # it cites its rule
    # and nothing is left chosen: no chair lit, no bar button for a guest no longer chosen
    assert page.locator(".card.selected, .chair.legal, #to-bar").count() == 0
    # by keyboard: a guest chosen with Enter takes the focus to a place it may go, and a
    # move made there brings it back to the hand; unlit chairs are out of the Tab order
    ply = page.get_attribute("body", "data-ply")
    page.focus("#board .hand button.card >> nth=0")
    page.keyboard.press("Enter")
    lit = ".chair.legal, .chair.swap, #to-bar-here, #to-bar"
    assert page.evaluate(f"document.activeElement.matches('{lit}')")
    assert page.locator(".chair:not(.legal):not(.swap)[tabindex='-1']").count() > 20
    page.keyboard.press("Enter")
    page.wait_for_function("([p]) => document.body.dataset.ply !== p", arg=[ply])
    token = link.split("token=")[1]
    game_id = link.split("/game/")[1].split("#")[0]
    if page.get_attribute("body", "data-your-turn") == "true":  # a second guest to seat
        wait_for_focus_after_a_first_guest(page, server.get(f"/api/games/{game_id}", token))
    # two guests alike are two cards: choosing one does not choose the other
    mine = server.get(f"/api/games/{game_id}", token=token)
    twins = (
        """async ([view]) => {"""
        + TWIN_GUESTS
        + """
        const ctx = { send: () => {}, interactive: true, hinted: null };
        await cafe.render(root, view, ctx);
        root.querySelectorAll(".hand button.card")[1].click();
        await new Promise((done) => setTimeout(done, 50));
        const chosen = [...root.querySelectorAll(".hand button.card")]
            .map((c) => c.classList.contains("selected"));
        // a guest no chair takes: the instruction says so, with the bar's button at hand
        view.legal = [{ notation: `${hand[0]}@bar`, words: "to the bar", gain: 1 }];
        await cafe.render(root, view, ctx);
        root.querySelectorAll(".hand button.card")[0].click();
        await new Promise((done) => setTimeout(done, 50));
        const told = root.querySelector("#cafe-instruction").textContent;
        root.remove();
        return [chosen, told];
    }"""
    )
    chosen, told = page.evaluate(twins, [mine])
    assert chosen[:2] == [False, True]
    assert told.startswith("No chair takes your ") and "Send it to the bar (+1) or choose" in told
    # the lobby gives this browser its seat back, not only a spectator's view
    page.goto(server.base + "/")
    page.wait_for_selector("#list-running a.your-seat")
    assert page.get_attribute("#list-running a.your-seat", "href") == link
    assert console.errors == []
    context.close()


def open_seat(
    browser: Any, server: LiveServer, game: str, width: int = 1280, touch: bool = False
) -> Any:
    """A new game of this person (seat 1) against a bot, opened at its join link (`touch`: on
    a touch screen): the page, its context and console, and the person's own view from the
    API."""
    created = server.post(
        "/api/games",
        {
            "game": game,
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}],
        },
    )
    path = created["links"][0]["path"]
    context, page, console = new_page(browser, width, 844, touch)
    page.goto(server.base + path)
    page.wait_for_selector("body[data-ply]")
    return context, page, console, created["id"], path.split("token=", 1)[1]


def test_a_hint_outlines_one_of_two_guests_alike(browser: Any, server: LiveServer) -> None:
    context, page, console, game_id, token = open_seat(browser, server, "cafe", 390)
    assert wait_turn_or_end(page)
    mine = server.get(f"/api/games/{game_id}", token=token)
    twins = (
        """async ([view]) => {"""
        + TWIN_GUESTS
        + """
        const ctx = { send: () => {}, interactive: true, hinted: `${hand[0]}@bar` };
        await cafe.render(root, view, ctx);
        const outlined = () => [...root.querySelectorAll(".hand button.card")]
            .map((c) => c.classList.contains("hinted"));
        const first = outlined();
        root.querySelectorAll(".hand button.card")[1].click();  // the second one chosen
        await new Promise((done) => setTimeout(done, 50));
        const chosen = outlined();
        root.remove();
        return [first, chosen];
    }"""
    )
    first, chosen = page.evaluate(twins, [mine])
    assert first[:2] == [True, False] and sum(first) == 1  # two alike: one card outlined
    assert chosen[:2] == [False, True] and sum(chosen) == 1  # the one chosen, if it is one
    assert console.errors == []
    context.close()


def test_a_hint_is_shown_again_after_a_reload_without_searching_again(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, game_id, token = open_seat(browser, server, "souvlaki", 390)
    assert wait_turn_or_end(page)
    asked: list[str] = []  # each hint request: its method
    page.on("request", lambda r: "/hint" in r.url and asked.append(r.method))
    page.click("#hint-button")
    page.wait_for_selector("#hint-move")
    given = page.inner_text("#hint")
    assert asked == ["POST"]
    page.reload()  # the page forgets; the server kept the hint of this seat and position
    page.wait_for_selector("#hint-move")
    assert page.inner_text("#hint") == given
    assert asked == ["POST", "GET"]  # shown again, not asked for again: not searched again
    ply = page.get_attribute("body", "data-ply")
    assert server.get(f"/api/games/{game_id}", token=token)["ply"] == int(ply)  # nothing played
    assert console.errors == []
    context.close()


ARROWS = {"ArrowRight": (1, 0), "ArrowLeft": (-1, 0), "ArrowUp": (0, 1), "ArrowDown": (0, -1)}
"""Each arrow key's way on the Café board (x to the right, y upwards)."""


def test_the_arrow_keys_go_from_lit_chair_to_lit_chair(browser: Any, server: LiveServer) -> None:
    context, page, console, game_id, token = open_seat(browser, server, "cafe")
    assert wait_turn_or_end(page)
    places = {
        chair["id"]: (chair["x"], chair["y"]) for chair in server.get("/api/cafe/board")["chairs"]
    }
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):  # a guest with a few chairs to go to
        cards.nth(index).click()
        if page.locator(".chair.legal").count() >= 2:
            break
    lit = ".chair.legal, .chair.swap"
    chairs = [int(n) for n in page.locator(lit).evaluate_all("cs => cs.map(c => c.dataset.chair)")]
    assert len(chairs) >= 2
    # each lit chair is named by its move in the game's words, which say the points it scores
    card = page.get_attribute("#board .hand .card.selected", "data-card")
    mine = server.get(f"/api/games/{game_id}", token)
    words = {move["notation"]: sentence(move["words"]) for move in mine["legal"]}
    for chair in chairs:
        said = words.get(f"{card}@{chair}") or words[f"swap {card}@{chair}"]
        label = page.get_attribute(f".chair[data-chair='{chair}']", "aria-label")
        assert label == said and re.search(r": ([+-]?\d+ points?|no points)", said), said
        assert page.get_attribute(f".chair[data-chair='{chair}']", "title") == label
    if f"{card}@bar" in words:  # "Send to the bar (+1)", and in full in its aria-label
        label = page.get_attribute("#to-bar", "aria-label")  # its own words first (2.5.3)
        assert label == f"{page.inner_text('#to-bar')}: {words[f'{card}@bar']}", label
    # the lit chairs are one stop of the Tab order; the unlit ones are out of it
    assert page.locator(f":is({lit})[tabindex='0']").count() == 1
    assert page.locator(".chair:not(.legal):not(.swap)[tabindex='0']").count() == 0
    page.focus(f":is({lit})[tabindex='0']")
    focused = "() => Number(document.activeElement.dataset.chair)"
    moved = 0
    for key in ["ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown", "ArrowRight", "ArrowDown"]:
        dx, dy = ARROWS[key]
        start = page.evaluate(focused)
        x, y = places[start]
        that_way = {c for c in chairs if (places[c][0] - x) * dx + (places[c][1] - y) * dy > 0}
        page.keyboard.press(key)
        now = page.evaluate(focused)
        if that_way:  # to a lit chair that way, which is now the group's stop of the Tab order
            assert now in that_way, (key, start, now)
            assert page.get_attribute(f".chair[data-chair='{now}']", "tabindex") == "0"
            assert page.locator(f":is({lit})[tabindex='0']").count() == 1
            moved += 1
        else:  # none that way: the focus stays
            assert now == start, (key, start, now)
    assert moved >= 1
    page.keyboard.press("Home")
    assert page.evaluate(focused) == chairs[0]
    page.keyboard.press("End")
    last = page.evaluate(focused)
    assert last == chairs[-1]
    page.keyboard.press("Tab")  # out of the chairs at once, and back to the one left
    assert not page.evaluate("document.activeElement.matches('.chair')")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == last
    ply = int(page.get_attribute("body", "data-ply"))
    page.keyboard.press("Enter")  # seats the guest there, and the focus goes back to the hand
    page.wait_for_selector(f"#log li[value='{ply + 1}']")
    assert page.inner_text(f"#log li[value='{ply + 1}'] code.notation").endswith(f"@{last}")
    if page.get_attribute("body", "data-your-turn") == "true":
        wait_for_focus_after_a_first_guest(page, server.get(f"/api/games/{game_id}", token))
    assert console.errors == []
    context.close()


def test_the_lobby_lists_a_game_nobody_moved_in_for_days_as_idle(
    browser: Any, server: LiveServer
) -> None:
    created = server.post(
        "/api/games",
        {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]},
    )
    game_id, token = created["id"], created["links"][0]["path"].split("token=", 1)[1]
    mine = server.get(f"/api/games/{game_id}", token)  # the move below opens the seat
    server.post(
        f"/api/games/{game_id}/actions", {"ply": 0, "action": mine["legal"][0]["notation"]}, token
    )
    wait_for(lambda: server.get(f"/api/games/{game_id}", token)["your_turn"])  # no bot to move
    age(server.db_url, game_id, days=3)  # and then left for three days
    context, page, console = new_page(browser, 390, 844)
    page.goto(server.base + "/")
    row = page.locator(f"#list-idle li:has(a[href='/game/{game_id}'])")
    row.wait_for()
    assert "last move 3 days ago" in row.inner_text()
    assert page.locator(f"#list-running a[href='/game/{game_id}']").count() == 0
    # as the list says: a player with their seat open takes it out, only while they stay
    note = page.inner_text("#list-idle >> xpath=preceding-sibling::p")
    assert "no player has their seat open now" in note and "until they leave" in note
    seat = context.new_page()  # (this browser then links the row to the seat)
    seat.goto(server.base + created["links"][0]["path"])
    seat.wait_for_selector("body[data-ply]")
    page.locator(f"#list-running a[href*='/game/{game_id}']").wait_for()
    seat.close()
    page.locator(f"#list-idle a[href*='/game/{game_id}']").wait_for()
    assert console.errors == []
    context.close()


def test_an_open_game_nobody_joined_for_days_is_idle_too(browser: Any, server: LiveServer) -> None:
    created = server.post(
        "/api/games", {"game": "cafe", "seats": [{"kind": "human"}, {"kind": "human"}]}
    )  # two seats, neither opened: open, and left so for three days
    age(server.db_url, created["id"], days=3)
    # the games over and those abandoned are listed together, as ended
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"hand_size": 2, "end_bag": 90}
    over = server.post("/api/games", {"game": "cafe", "seats": bots, "options": options})["id"]
    wait_for(lambda: server.get(f"/api/games/{over}")["over"])
    left = server.post("/api/games", {"game": "cafe", "seats": [{"kind": "human"}, bots[0]]})
    token = left["links"][0]["path"].split("token=")[1]
    server.post(f"/api/games/{left['id']}/abandon", {}, token)
    context, page, console = new_page(browser, 390, 844)
    page.goto(server.base + "/")
    page.locator(f"#list-idle li:has(a[href='/game/{created['id']}'])").wait_for()
    assert page.locator(f"#list-open a[href='/game/{created['id']}']").count() == 0
    finished = page.locator(f"#list-ended li:has(a[href='/replay/{over}'])")
    assert "result" in finished.inner_text()
    abandoned = page.locator(f"#list-ended li:has(a[href='/game/{left['id']}'])")
    assert "abandoned" in abandoned.inner_text()
    assert console.errors == []
    context.close()


def test_a_player_abandons_a_game_against_a_bot(browser: Any, server: LiveServer) -> None:
    context, page, console, game_id, _ = open_seat(browser, server, "souvlaki", 390)
    assert wait_turn_or_end(page)
    page.click("#abandon")  # asked once more, the safe choice at hand
    assert page.evaluate("document.activeElement.id") == "abandon-cancel"
    page.click("#abandon-cancel")
    assert page.get_attribute("body", "data-your-turn") == "true"  # nothing happened
    asked: list[str] = []
    page.on("request", lambda request: request.url.endswith("/abandon") and asked.append("it"))
    page.click("#abandon")
    page.dblclick("#abandon-confirm")  # asked once: no second request, refused as if it failed
    page.wait_for_selector("#result:not(.hidden)")
    assert asked == ["it"] and page.locator("#message.hidden").count() == 1
    assert page.inner_text("#result h2") == "Game abandoned"
    assert "no result" in page.inner_text("#result")
    assert page.get_attribute("#result a.button", "href") == f"/replay/{game_id}"
    assert page.inner_text("#banner").startswith("This game was abandoned")
    assert page.get_attribute("body", "data-your-turn") == "false"
    assert page.locator("#board [data-action]:not(:disabled)").count() == 0  # nothing to play
    assert page.locator("#abandon, #hint-button:not(.hidden)").count() == 0
    ply = int(page.get_attribute("body", "data-ply"))
    with page.expect_download() as download:  # played no more: the full record
        page.click("#download")
    assert download.value.suggested_filename == f"{game_id}.record.json"
    record = json.loads(download.value.path().read_text())
    assert record["format"] == "kafeneio-record" and len(record["actions"]) == ply
    page.goto(server.base + "/")  # among the games that will not be played any more
    row = page.locator(f"#list-ended li:has(a[href*='/game/{game_id}'])")
    row.wait_for()
    assert "abandoned" in row.inner_text()
    assert page.locator(f"#list-running a[href*='/game/{game_id}']").count() == 0
    row.locator(f"a[href='/replay/{game_id}']").click()  # replayed as far as it went
    page.wait_for_selector("#position:not(:empty)")
    assert page.inner_text("#position") == f"Before move 1 of {ply}"
    page.click("#last")
    page.wait_for_function("document.querySelector('#position').textContent.startsWith('Ab')")
    assert page.inner_text("#position") == f"Abandoned after move {ply}, no result"
    assert f"abandoned after move {ply}, no result" in page.inner_text("#game-title")
    page.select_option("#viewer", "1")  # as a finished game's: any seat's view, over for good
    page.wait_for_selector("#my-hand")  # the table has no hand to show
    assert page.inner_text("#my-hand").startswith("P2 heuristic's food cards")
    assert page.locator("#analyse:not(.hidden)").count() == 1
    assert console.errors == []
    context.close()


def test_a_watcher_stops_a_game_of_bots(browser: Any, server: LiveServer) -> None:
    """A game of bots alone (here a slow search) played on with nobody able to stop it."""
    seats = [{"kind": "bot", "bot": "mcts", "budget": 2000}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    context, page, console = new_page(browser)
    page.goto(server.base + created["spectator"])
    assert page.inner_text("#abandon") == "Stop this game…"
    page.click("#abandon")
    assert "Stop this game of bots?" in page.inner_text("#leave")
    assert page.evaluate("document.activeElement.textContent") == "Let them play"
    page.click("#abandon-confirm")
    page.wait_for_selector("#result:not(.hidden)")
    assert page.inner_text("#result h2") == "Game abandoned"
    assert server.get(f"/api/games/{created['id']}")["status"] == "abandoned"
    assert console.errors == []
    context.close()


def test_an_abandoned_cafe_game_shows_no_next_move(browser: Any, server: LiveServer) -> None:
    """Its board read "Round 1 · move 2" once abandoned, as if a move were still to come."""
    context, page, console, game_id, _ = open_seat(browser, server, "cafe", 1280)
    assert wait_turn_or_end(page)
    cafe_turn(page)  # a move or more to replay
    assert wait_turn_or_end(page)
    ply = int(page.get_attribute("body", "data-ply"))
    when = "#board .scoreline span >> nth=0"
    assert page.inner_text(when).endswith(f" · move {ply + 1}")  # the move to come
    page.click("#abandon")
    page.click("#abandon-confirm")
    page.wait_for_selector("#result:not(.hidden)")
    assert "move" not in page.inner_text(when)
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector("#position:not(:empty)")
    assert page.inner_text(when).endswith(" · move 1")  # the replay's first position
    page.click("#last")
    page.wait_for_function("document.querySelector('#position').textContent.startsWith('Ab')")
    assert "move" not in page.inner_text(when)
    assert console.errors == []
    context.close()


def test_the_plain_address_of_a_game_held_here_leads_to_its_seat(
    browser: Any, server: LiveServer
) -> None:
    """Opened without its seat link (from the history, a "watch" link) it watched, "Waiting
    for P1 Ada", while the lobby said "your turn"."""
    context, page, console, game_id, _ = open_seat(browser, server, "cafe", 390)
    assert wait_turn_or_end(page)  # the seat's link is kept by this browser
    page.goto(f"{server.base}/game/{game_id}")
    page.wait_for_selector("#own-seat-link")
    assert "watching" in page.inner_text("#game-title")
    assert "holds P1 Ada's seat" in page.inner_text("#message")
    page.click("#own-seat-link")  # the same page, another part after '#': opened again
    page.wait_for_function("document.querySelector('#game-title').textContent.includes('you are')")
    assert wait_turn_or_end(page)
    assert page.locator("#own-seat-link").count() == 0
    assert console.errors == []
    context.close()


def test_a_friend_who_left_is_said_to_be_away(browser: Any, server: LiveServer) -> None:
    """Only a grey dot said so, and its word "away" was a tooltip, which a phone cannot show:
    the banner read "Waiting for P2 Bo." while nobody could move."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    bo_context, bo, _ = new_page(browser, 390, 844)
    bo.goto(server.base + created["links"][1]["path"])
    bo.wait_for_selector("body[data-ply]")
    bo_context.close()  # Bo joined, then left
    context, page, console = new_page(browser, 390, 844)
    page.goto(server.base + created["links"][0]["path"])
    assert wait_turn_or_end(page)
    for _ in range(3):  # a guest, then maybe a second or the end
        if page.get_attribute("body", "data-your-turn") == "true":
            cafe_turn(page)
    page.wait_for_function("document.querySelector('#banner').textContent.includes('away')")
    assert page.inner_text("#banner").startswith("Waiting for P2 Bo, who is away")
    assert "person · away" in page.inner_text("#seats")
    assert console.errors == []
    context.close()


def test_the_birthday_table_is_chosen_in_words(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser)
    page.goto(server.base + "/")
    # the options are drawn once the catalog has come (a CI run read them before, empty)
    page.wait_for_selector("#game option", state="attached")
    page.click("#options-box summary")  # each option says what it does
    assert "CI-V.1: the birthday-table variant." in page.inner_text("#options")
    create_in_lobby(page, server, "cafe", {"birthday": True, "birthday_threshold": 1})
    assert wait_turn_or_end(page)
    page.click("#board .hand button.card >> nth=0")
    click_and_wait(page, "#to-bar")  # bar seat 1: +1 point, the birthday score here (CI-V.1)
    page.wait_for_selector("[data-action='birthday none']")
    assert "birthday score" in page.inner_text("#cafe-instruction")
    assert page.inner_text("[data-action='birthday none']") == "No birthday table"
    # its nation beside the code; in full, with what it holds, for a reader
    assert page.inner_text("[data-action='birthday US1']") == "US1 USA"
    label = page.get_attribute("[data-action='birthday US1']", "aria-label")
    assert re.fullmatch(r"Table US1 \(USA, (empty|.* and .*)\) as the birthday table", label)
    click_and_wait(page, "[data-action='birthday US1']")
    assert console.errors == []
    context.close()


@pytest.mark.rule("CI-M.3")
def test_a_bar_seat_the_player_cannot_pay_says_so_and_is_asked_about(
    browser: Any, server: LiveServer
) -> None:
    """The bar button read "Send to the bar (+0)" for a red seat the player cannot pay, which
    puts them out of the game at once; it says so now, and the move is confirmed first."""
    context, page, console = new_page(browser)
    create_in_lobby(page, server, "cafe", {"bar_values": "-3,-3,-3,-3,-3,-3"})
    assert wait_turn_or_end(page)
    page.click("#board .hand button.card:not(.joker) >> nth=0")
    assert page.inner_text("#to-bar") == "Send to the bar (you cannot pay it: out of the game)"
    assert "out of the game (CI-M.3)" in page.get_attribute("#to-bar", "aria-label")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    ply = page.get_attribute("body", "data-ply")
    page.click("#to-bar")
    assert asked and "You would play no more and could not win" in asked[0]
    assert page.get_attribute("body", "data-ply") == ply  # declined: nothing sent
    page.once("dialog", lambda dialog: dialog.accept())
    click_and_wait(page, "#to-bar")  # the guest is still chosen
    page.wait_for_function("document.body.innerText.includes('is out of the game')")
    assert console.errors == []
    context.close()


@pytest.mark.rule("CI-M.3")
def test_a_hinted_move_that_puts_the_player_out_is_asked_about(
    browser: Any, server: LiveServer
) -> None:
    """The hint's "Play it" sent such a move at once, where the board's own button asks."""
    context, page, console = new_page(browser)
    create_in_lobby(page, server, "cafe", {"bar_values": "-3,-3,-3,-3,-3,-3"})
    assert wait_turn_or_end(page)
    card = page.get_attribute("#board .hand button.card:not(.joker) >> nth=0", "data-card")
    best = f"{card}@bar"  # the hint as the server would give it, were the search to choose it
    ply = page.get_attribute("body", "data-ply")
    page.route("**/api/games/*/hint", lambda route: route.fulfill(json={
        "ply": int(ply), "player": 0, "best": best, "best_words": f"{card} to the bar",
        "win_chance": 0.01, "iterations": 1, "seconds": 0.1,
        "moves": [{"notation": best, "words": "", "win_chance": 0.01, "visits": 1}],
    }) if route.request.method == "POST" else route.continue_())  # fmt: skip
    page.click("#hint-button")
    page.wait_for_selector("#hint-play")
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.click("#hint-play")
    assert asked and "You would play no more and could not win. Play it" in asked[0]
    assert "to the bar, seat 1: cannot pay its -3: out of the game" in asked[0]  # its words
    assert page.get_attribute("body", "data-ply") == ply  # declined: nothing sent
    page.once("dialog", lambda dialog: dialog.accept())
    click_and_wait(page, "#hint-play")
    page.wait_for_function("document.body.innerText.includes('is out of the game')")
    assert console.errors == []
    context.close()


def test_a_replay_before_the_end_and_a_wrong_link_say_so(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser)
    link = create_in_lobby(page, server, "cafe", {})
    game_id = link.split("/game/", 1)[1].split("#", 1)[0]
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector("#message:not(.hidden)")
    assert "not over yet" in page.inner_text("#message")
    assert page.get_attribute("#watch-link", "href") == f"/game/{game_id}"  # a link, not text
    assert page.locator("#analyse.hidden").count() == 1  # nothing to analyse yet
    assert page.locator("#forward:disabled, #last:disabled, #slider:disabled").count() == 3
    assert page.locator("#analysis-panel.hidden, #viewer:disabled").count() == 2  # no dead parts
    assert console.errors == []
    page.goto(f"{server.base}/game/{game_id}#seat=0&token=wrong")  # a link that opens nothing
    page.wait_for_function("!document.querySelector('#banner').textContent.includes('Connecting')")
    assert "does not open a seat" in page.inner_text("#banner")
    page.goto(f"{server.base}/game/nosuchgame")  # no game at all: said once, in the banner
    page.wait_for_function("!document.querySelector('#banner').textContent.includes('Connecting')")
    assert page.inner_text("#banner").startswith("There is no game at this link")
    assert page.locator("#message.hidden").count() == 1
    page.goto(f"{server.base}/game/%E0")  # an address no id decodes from: said all the same
    page.wait_for_function("!document.querySelector('#banner').textContent.includes('Connecting')")
    assert page.inner_text("#banner").startswith("There is no game at this link")
    page.goto(f"{server.base}/replay/nosuchgame")  # said, and no controls that do nothing
    page.wait_for_selector("#message:not(.hidden)")
    assert page.inner_text("#message").startswith("There is no game at this link")
    assert page.locator("#replay-bar.hidden, #analysis-panel.hidden").count() == 2
    assert not [error for error in console.errors if "404" not in error]  # said, not thrown
    context.close()


def test_souvlaki_against_a_bot_to_the_end(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser)
    link = create_in_lobby(page, server, "souvlaki", {"round_limit": 2})  # maintenance in round 2
    game_id, token = link.split("/game/", 1)[1].split("#", 1)[0], link.split("token=", 1)[1]
    page.wait_for_selector(".shops .shop")
    assert page.locator(".shops .shop").count() == 2
    # each seat's standing in the players panel, as its shop shows it
    standings = page.locator("#seats .seat .standing").all_inner_texts()
    mine = server.get(f"/api/games/{game_id}", token)["observation"]["players"]
    assert standings == [f"money {p['money']} · reputation {p['reputation']}" for p in mine]
    seen: dict[str, str] = {}
    named: dict[str, str] = {}
    texts: dict[str, set[str]] = {}  # each button's words, legal or not

    def turn(page: Any) -> None:  # what the page says as it goes, then a move
        shown = named_in_words(page, server, link)
        for action, label in shown.items():
            named[action.split(" ")[0]] = label
        # a food card playable now (the deal may offer none at any service): its button is
        # there, named in words as a play into the pool
        mine = server.get(f"/api/games/{game_id}", token)
        for play in (m["notation"] for m in mine["legal"] if m["notation"].startswith("play ")):
            # its letters first, as the card shows them (speech input), then in words
            card = play.split(" ", 1)[1]
            said = shown.get(play, "")
            assert re.fullmatch(rf"{card}: Play .+ into the pool", said), (play, shown)
        for action in ("buy", "advertise", "finish"):
            button = f"button[data-action={action}]"
            if page.locator(button).count():
                texts.setdefault(action, set()).add(page.inner_text(button))
                label = page.get_attribute(button, "aria-label")
                if "not possible" not in label:  # legal: said in full, with its costs
                    seen[action] = label
        if page.locator("#maintenance-costs").count():
            seen["costs"] = page.inner_text("#maintenance-costs")
        if page.locator("#service-how").count():
            seen["service"] = page.inner_text("#service-how")
        if page.locator(".queue-row .customer .number").count():  # queues may all be empty
            seen["numbers"] = page.inner_text(".queue-row .customer .number >> nth=0")
        if page.inner_text(".phase") == "Phase: Mulligan":  # food waits for the service
            seen["mulligan food"] = str(page.locator("#my-hand button.foodcard:disabled").count())
        if "hint" not in seen and page.locator("button[data-action^=pick]").count():
            page.click("#hint-button")  # the draft: the hinted customer's button is outlined
            page.wait_for_selector("#hint-move")
            seen["hint"] = page.inner_text("#hint-move")
            page.wait_for_selector(f"button[data-action='{seen['hint']}'].hinted")
            assert page.locator("button.hinted").count() == 1
            assert "from slot" in page.inner_text("#hint-words")
        souvlaki_turn(page)

    play_to_the_end(page, turn)
    # a purchase says what it costs and gives, from the shop's identity card (SW-1.3)
    assert re.fullmatch(r"Buy supplies \(\d+ money: \d+ food cards\)", seen["buy"])
    assert re.fullmatch(r"Advertise \(\d+ money: \+\d+ reputation\)", seen["advertise"])
    assert re.fullmatch(r"Supplies cost \d+ money for \d+ food cards; advert.*", seen["costs"])
    assert seen["service"].startswith("Play food cards from your hand into the pool; serve")
    assert re.fullmatch(r"End the service( \(of those waiting, .*\))?", seen["finish"])
    # on the buttons themselves, short words that do not change as moves are made
    assert texts == {
        "buy": {"Buy supplies"}, "advertise": {"Advertise"}, "finish": {"End the service"}
    }  # fmt: skip
    # every kind of move is named in the game's words: a button's text or, where a short word
    # reads better on it, its aria-label (and title)
    assert named["keep"] == "Keep the starting food cards"
    assert re.fullmatch(r"Pick: Draft .* from slot \d", named["pick"])
    assert {"keep", "pick", "done", "finish"} <= set(named)  # and "play" where one was legal
    assert seen["numbers"] == "1."  # customers are numbered as moves count them
    assert int(seen["mulligan food"]) >= 1
    assert "The game ends" in page.inner_text("#result")
    assert console.errors == []
    # leaving and coming back through the join link shows the game at once
    link = page.url
    page.goto(server.base + "/")
    page.goto(link)
    page.wait_for_selector("#result:not(.hidden)")
    context.close()


def hand_of(server: LiveServer, game_id: str, token: str) -> tuple[list[str], set[str]]:
    """A seat's food cards, and its unforeseen cards that nobody sees on the table."""
    mine = server.get(f"/api/games/{game_id}", token)["observation"]
    public = json.dumps(server.get(f"/api/games/{game_id}")["observation"])
    kinds = {kind for kind in mine["hand"]["unforeseen"] if kind not in public}
    return mine["hand"]["food"], kinds


def test_two_people_play_souvlaki_and_never_see_each_others_hands(
    browser: Any, server: LiveServer
) -> None:
    created = server.post(
        "/api/games",
        {
            "game": "souvlaki",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
            "options": {"round_limit": 1},
        },
    )
    tokens = [re.sub(".*token=", "", link["path"]) for link in created["links"]]
    pages = []
    for link in created["links"]:
        context, page, console = new_page(browser, 420, 900)  # phone width
        page.goto(server.base + link["path"])
        page.wait_for_selector("body[data-ply]")
        pages.append((context, page, console))
    for _ in range(TURN_LIMIT):
        ply = str(server.get(f"/api/games/{created['id']}")["ply"])
        for seat, (_, page, _) in enumerate(pages):
            page.wait_for_function("([ply]) => document.body.dataset.ply === ply", arg=[ply])
            food, kinds = hand_of(server, created["id"], tokens[seat])
            secret = hand_of(server, created["id"], tokens[1 - seat])[1] - kinds
            text = page.content()
            assert not any(mentions(text, kind) for kind in secret), (seat, secret)
            shown = page.locator("#my-hand button.foodcard").evaluate_all(
                "nodes => nodes.map(n => n.dataset.card)"
            )
            assert shown == food  # the page shows this seat's own hand, and only that
            assert tokens[1 - seat] not in text
        over = [page.get_attribute("body", "data-over") == "true" for _, page, _ in pages]
        if all(over):
            break
        for _, page, _ in pages:
            if page.get_attribute("body", "data-your-turn") == "true":
                souvlaki_turn(page)
                break
        else:
            pages[0][1].wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    for _, page, _ in pages:
        assert "The game ends" in page.inner_text("#result")
    # a rematch: the other player, connected, is sent their link and is told so; back on the
    # old game later, each finds their own seat of the rematch, not only a spectator's link
    first, second = pages[0][1], pages[1][1]
    first.click("#rematch")
    first.wait_for_selector("#rematch-link")
    assert "P2 Bo was sent their new link." in first.inner_text("#message")
    assert "not connected" not in first.inner_text("#message")
    second.wait_for_selector("#rematch-link")
    for seat, page in enumerate((first, second)):  # each moves one seat on: P1 is now P2
        page.reload()
        page.wait_for_selector("#play-rematch")
        assert f"#seat={1 - seat}&token=" in page.get_attribute("#play-rematch", "href")
    # one browser keeps each seat's own link: seat 2's old page in seat 1's browser offers the
    # rematch's seat its own old link opens, not the one kept for seat 1
    other = pages[0][0].new_page()
    other.goto(server.base + created["links"][1]["path"])
    other.wait_for_selector("#play-rematch")
    assert other.get_attribute("#play-rematch", "href").endswith(f"#seat=0&token={tokens[1]}")
    other.close()
    # the lobby tells games apart by how far they went and when they began
    first.goto(server.base + "/")
    first.wait_for_function("document.querySelector('#list-ended').textContent.includes(' · ')")
    assert re.search(r"\d+ moves · (just now|\d+ min ago)", first.inner_text("#list-ended"))
    for context, _, console in pages:
        assert console.errors == []
        context.close()

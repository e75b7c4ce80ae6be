"""What a keyboard-only player and a screen-reader user get: a focus ring to be seen, live
regions that speak once, names for what the board shows, text that reads against its colour."""

from __future__ import annotations

import itertools
from typing import Any

from server.conftest import LiveServer, wait_for
from web.test_browser import cafe_turn, new_page, open_seat, souvlaki_turn, wait_turn_or_end
from web.test_page_behaviour import HeldSocket, decision, finished_game, route_analysis

# The WCAG contrast ratio of two computed colours ("rgb(r, g, b)"), in the page itself
CONTRAST = """([a, b]) => {
  const lum = (text) => {
    const [r, g, b] = text.match(/[\\d.]+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}"""


def contrast(page: Any, first: str, second: str) -> float:
    ratio: float = page.evaluate(CONTRAST, [first, second])
    return ratio


def test_the_focus_ring_shows_on_the_dark_header(browser: Any, server: LiveServer) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    header = page.evaluate("getComputedStyle(document.querySelector('header.top')).backgroundColor")
    for link in ["header.top a[href='/']", "#rules-link"]:
        page.wait_for_selector(link)
        page.focus("body")
        page.evaluate("document.activeElement.blur()")
        while not page.evaluate(f"document.activeElement.matches({link!r})"):
            page.keyboard.press("Tab")  # by keyboard: :focus-visible
        ring = page.eval_on_selector(link, "a => getComputedStyle(a).outlineColor")
        assert page.eval_on_selector(link, "a => getComputedStyle(a).outlineStyle") == "solid"
        assert contrast(page, ring, header) >= 3, (link, ring, header)  # WCAG 1.4.11
    assert console.errors == []
    context.close()


# Each live region's words as they change (one entry a change its observer is told of)
RECORD_LIVE = """
window.liveSaid = {};
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((changes) => {
    const regions = changes.map((c) => c.target.closest?.("[aria-live]")).filter(Boolean);
    for (const region of new Set(regions)) {
      (window.liveSaid[region.id] ??= []).push(region.textContent);
    }
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
});
"""


def test_a_live_region_says_the_same_words_once(browser: Any, server: LiveServer) -> None:
    context, page, console = new_page(browser)
    page.add_init_script(RECORD_LIVE)
    created = server.post(
        "/api/games",
        {
            "game": "cafe",
            "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}],
        },
    )
    page.goto(server.base + created["links"][0]["path"])
    for _ in range(3):  # the bot's turns: a view at each of its moves, the banner the same
        assert wait_turn_or_end(page)
        page.click("#hint-button")
        page.wait_for_selector("#hint:not(.hidden)")
        # someone else opens the game: a view that changes nothing here
        watching = new_page(browser)[0]
        watching.pages[0].goto(server.base + created["spectator"])
        watching.pages[0].wait_for_selector("body[data-ply]")
        watching.close()
        cafe_turn(page)
    said = page.evaluate("window.liveSaid")
    for region, texts in said.items():
        repeated = [a for a, b in itertools.pairwise(texts) if a == b]
        assert not repeated, (region, repeated, texts)
    assert {"banner", "hint", "cafe-instruction"} <= set(said)
    assert console.errors == []
    context.close()


def test_what_the_board_shows_is_named_for_a_screen_reader(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    assert wait_turn_or_end(page)
    cafe_turn(page)  # a guest seated (or sent to the bar): something on the board to name
    assert wait_turn_or_end(page)
    board = page.locator("#board").aria_snapshot()
    # each chair, table and bar seat by its name, not its number or "IT♀" alone
    assert 'img "chair 1' in board
    assert 'img "table AF1: Africa"' in board
    assert 'img "bar seat 1 (+1)' in board
    seated = page.locator(".chair.guest, .bar-seat.guest").first
    assert seated.get_attribute("role") == "img"
    assert "lady" in seated.get_attribute("aria-label") or "man" in seated.get_attribute(
        "aria-label"
    )
    # the other player's open hand: each card by its nation and gender
    assert page.locator(".hand span.card[role=img][aria-label]").count() >= 1
    context.close()
    context, page, console, _, _ = open_seat(browser, server, "souvlaki")
    assert wait_turn_or_end(page)
    hand = page.locator("#my-hand").aria_snapshot()
    assert 'button "' in hand
    # a food card's letters are read by their names
    food = page.locator("#my-hand button.foodcard [role=img]").first.get_attribute("aria-label")
    names = "pita gyros, souvlaki, fries, soft drink"
    assert food and all(name in names for name in food.split(", "))
    # and a button's name begins with what it shows, for speech input ("click GD"; WCAG 2.5.3)
    for button in page.locator("#my-hand button.foodcard").all():
        card = button.get_attribute("data-card")
        assert (button.get_attribute("aria-label") or "").startswith(f"{card}: "), card
    assert console.errors == []
    context.close()


# The contrast of an element's text against the background it is drawn on (its own, or the
# nearest ancestor's that has one)
TEXT_CONTRAST = """(nodes) => nodes.map((node) => {
  let back = node;
  const colour = (n) => getComputedStyle(n).backgroundColor;
  while (back && colour(back) === "rgba(0, 0, 0, 0)") back = back.parentElement;
  return [node.textContent.trim(), getComputedStyle(node).color, colour(back)];
})"""


def low_contrast(page: Any, selector: str) -> list[tuple[str, str, str, float]]:
    found = page.locator(selector).evaluate_all(TEXT_CONTRAST)
    rated = [(text, ink, back, contrast(page, ink, back)) for text, ink, back in found]
    assert rated, selector
    return [row for row in rated if row[3] < 4.5]


def test_small_text_on_colours_reads_at_4_5_to_1(browser: Any, server: LiveServer) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    assert wait_turn_or_end(page)
    assert low_contrast(page, ".table-tile") == []  # every nation's colour, white on it
    assert low_contrast(page, ".hand .card:not(.joker)") == []
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()
        if page.locator(".chair.legal").count():
            break
    assert low_contrast(page, ".chair.legal .gain") == []  # a lit chair's points
    context.close()
    context, page, console, _, _ = open_seat(browser, server, "souvlaki")
    assert wait_turn_or_end(page)
    assert low_contrast(page, "#my-hand .food") == []
    assert console.errors == []
    context.close()


def test_the_replay_by_keyboard_keeps_the_focus_and_says_the_move(
    browser: Any, server: LiveServer
) -> None:
    game_id = finished_game(server)
    context, page, console = new_page(browser)
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector("#position:has-text('Before move 1 of')")
    assert page.get_attribute("#position", "aria-live") == "polite"  # each step said
    page.focus("#forward")
    for step in (2, 3):
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#position:has-text('Before move {step} of')")
    page.focus("#back")
    for step in (2, 1):  # to the first move: Back is disabled, the focus not lost to the page
        page.keyboard.press("Enter")
        page.wait_for_selector(f"#position:has-text('Before move {step} of')")
    page.wait_for_selector("#back:disabled")
    assert page.evaluate("document.activeElement.id") == "slider"
    page.focus("#last")
    page.keyboard.press("Enter")
    page.wait_for_selector("#last:disabled")
    assert page.evaluate("document.activeElement.id") == "slider"
    assert console.errors == []
    context.close()


def test_the_replays_quick_presses_all_count_and_its_keys_do_not_scroll_the_page(
    browser: Any, server: LiveServer
) -> None:
    """Presses made while a position loaded each stepped from the one drawn (5 quick presses
    went 1 step); End scrolled the page 1,000 px down; the slider read "2" at move 3; Alt+Left
    (the browser's Back) stepped too."""
    game_id = finished_game(server)
    context, page, console = new_page(browser)
    page.route("**/replay?*", lambda route: (page.wait_for_timeout(150), route.continue_()))
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector("#position:has-text('Before move 1 of')")
    total = int(page.get_attribute("#slider", "max"))
    assert total >= 6
    page.focus("#forward")
    for _ in range(5):
        page.keyboard.press("ArrowRight")  # each before the last has come back
    page.wait_for_selector("#position:has-text('Before move 6 of')")
    assert page.get_attribute("#slider", "aria-valuetext") == page.inner_text("#position")
    page.keyboard.press("End")
    page.wait_for_selector("#position:has-text('All ')")
    assert page.evaluate("window.scrollY") == 0
    before = page.inner_text("#position")
    page.focus("#first")  # (on the slider, the arrows are the slider's own)
    page.keyboard.press("Alt+ArrowLeft")  # the browser's own: not a step
    page.wait_for_timeout(300)
    assert page.inner_text("#position") == before
    assert console.errors == []
    context.close()


def two_decisions() -> dict[str, Any]:
    """An analysis of two decisions, one a player, each a costly mistake."""
    decisions = [decision(0, 0, 0.3, 0.1), decision(1, 1, 0.3, 0.1)]
    return {
        "decisions": decisions, "mistakes": [[decisions[0]], [decisions[1]]], "winners": [0],
        "total_lost": [0.3, 0.3], "mean_lost": [0.3, 0.3],
    }  # fmt: skip


def route_two_decisions(page: Any, game_id: str, **first: Any) -> None:
    """The page's analysis of `game_id` answered as `two_decisions`, its first decision's
    fields changed by `first`."""
    analysis = two_decisions()
    analysis["decisions"][0] |= first  # (the same decision among the mistakes)
    route_analysis(page, game_id, analysis["decisions"], analysis["mistakes"], [0.3, 0.3])


def test_the_replay_scrolls_without_motion_when_asked_to(browser: Any, server: LiveServer) -> None:
    game_id = finished_game(server)
    analysis = two_decisions()
    done = {"status": "done", "done": 2, "total": 2, "analysis": analysis, "message": None}
    for motion, smooth in (("reduce", False), ("no-preference", True)):
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, reduced_motion=motion, bypass_csp=True
        )
        page = context.new_page()
        page.add_init_script(
            "window.scrolled = []; const go = Element.prototype.scrollIntoView;"
            "Element.prototype.scrollIntoView = function (o) {"
            " window.scrolled.push(o); return go.call(this, o); };"
        )
        page.route(f"**/api/games/{game_id}/analysis", lambda route: route.fulfill(json=done))
        page.goto(f"{server.base}/replay/{game_id}")
        page.click("button.mistake >> nth=0")  # the board far below on a phone: scrolled to
        page.wait_for_function("window.scrolled.length > 0")
        behaviours = page.evaluate("window.scrolled.map((o) => o && o.behavior)")
        assert ("smooth" in behaviours) == smooth, (motion, behaviours)
        context.close()


def test_the_game_and_replay_pages_have_one_h1_naming_the_game(
    browser: Any, server: LiveServer
) -> None:
    """And no level skipped below it: the board's h3s ("Your hand", "Bar") came before any
    h2, under a visually hidden "The board" now."""
    context, page, console, _, _ = open_seat(browser, server, "souvlaki")
    page.wait_for_selector("h1:has-text('Souvlaki Wars · you are P1 Ada')")
    assert page.locator("h1").count() == 1
    page.wait_for_selector("#my-hand h3")
    outlines = [page.evaluate(HEADINGS)]
    page.goto(f"{server.base}/replay/{finished_game(server)}")
    page.wait_for_selector("h1:has-text('Replay · Café International')")
    assert page.locator("h1").count() == 1
    page.wait_for_selector("#board h3")
    outlines.append(page.evaluate(HEADINGS))
    for headings in outlines:
        assert headings[0][0] == 1 and [2, "The board"] in headings, headings
        for (before, _), (after, words) in itertools.pairwise(headings):
            assert after <= before + 1, (words, headings)
    assert console.errors == []
    context.close()


# Each heading shown, in document order, as [level, words]
HEADINGS = """() => [...document.querySelectorAll("h1, h2, h3, h4")]
  .filter((h) => h.offsetParent !== null).map((h) => [Number(h.tagName[1]), h.textContent])"""


def test_the_lobby_outline_starts_at_its_h1_and_skips_no_level(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, game_id, _ = open_seat(browser, server, "cafe")
    page.goto(server.base + "/")  # a seat this browser opened: "Your games" shown, at the top
    page.wait_for_selector(f"#list-yours li[data-game='{game_id}']")
    page.click("#create-button")  # "Game created" too
    page.wait_for_selector("#created a.join-link")
    headings = page.evaluate(HEADINGS)
    assert headings[0] == [1, "Café International · Souvlaki Wars"]
    assert [level for level, _ in headings].count(1) == 1
    for (before, _), (after, words) in itertools.pairwise(headings):
        assert after <= before + 1, (words, headings)
    assert [2, "Your games"] in headings and [3, "Game created"] in headings
    assert console.errors == []
    context.close()


def test_on_your_turn_the_banner_says_what_the_bot_did(browser: Any, server: LiveServer) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    for _ in range(6):  # a turn of ours (a guest or two, its end), then the bot's
        assert wait_turn_or_end(page)
        if page.locator("#since-last").count():
            break
        cafe_turn(page)
    news = page.inner_text("#since-last")
    assert news.startswith("Since your last turn: P2 ")
    # said in the live banner, for a screen reader, and not shown twice
    assert page.text_content("#banner") == f"Your turn. {news}"
    assert page.inner_text("#banner .visually-hidden") in ("", f" {news}", news)
    width = "e => e.getBoundingClientRect().width"
    assert page.eval_on_selector("#banner .visually-hidden", width) <= 1
    assert console.errors == []
    context.close()


def test_the_banner_says_the_news_once_when_the_page_opens_at_your_turn(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    for _ in range(6):  # a turn of ours, then the bot's: news at our next turn
        assert wait_turn_or_end(page)
        if page.locator("#since-last").count():
            break
        cafe_turn(page)
    news = page.inner_text("#since-last")
    page.add_init_script(RECORD_LIVE)
    page.reload()  # no server message after the first: the board's data comes after it
    page.wait_for_selector("#since-last")
    page.wait_for_function("document.querySelector('#banner').textContent.includes('Since')")
    assert page.text_content("#banner") == f"Your turn. {news}"
    # said once, with the news: not "Your turn." first and then again with it
    assert page.evaluate("window.liveSaid.banner") == [f"Your turn. {news}"]
    assert console.errors == []
    context.close()


def test_the_players_panel_says_who_is_connected_and_to_move(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _, _ = open_seat(browser, server, "souvlaki")
    assert wait_turn_or_end(page)
    seats = page.locator("#seats").aria_snapshot()
    assert 'img "connected"' in seats  # the green dot, said
    assert "P1 Ada (you) (to move)" in page.text_content("#seats .seat.to-move")
    assert page.locator("#seats .visually-hidden").count() == 1
    assert console.errors == []
    context.close()


def test_a_bot_is_marked_as_a_bot_not_as_a_person_here_or_away(
    browser: Any, server: LiveServer
) -> None:
    seats = [
        {"kind": "human", "name": "Ada"},
        {"kind": "human", "name": "Bo"},  # not opened: away
        {"kind": "bot", "bot": "heuristic"},
    ]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    context, page, console = new_page(browser)
    page.goto(server.base + created["links"][0]["path"])
    page.wait_for_selector("body[data-ply]")
    marks = page.locator("#seats .dot").evaluate_all(
        "ds => ds.map(d => [d.className, d.getAttribute('aria-label')])"
    )
    assert marks == [
        ["dot on", "connected"],
        ["dot", "away"],
        ["dot bot", "a bot, always here"],
    ]
    assert console.errors == []
    context.close()


def analysed_replay(browser: Any, server: LiveServer, game_id: str) -> tuple[Any, Any, Any]:
    """The replay of `game_id` with an analysis of two decisions, one a player, its chart
    drawn: the page's context, the page and its console."""
    context, page, console = new_page(browser)
    route_two_decisions(page, game_id)
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".chance-chart polyline")
    return context, page, console


def test_the_chance_chart_tells_the_players_apart_without_colour(
    browser: Any, server: LiveServer
) -> None:
    game_id = finished_game(server)
    context, page, console = analysed_replay(browser, server, game_id)
    dash = "ls => ls.map(l => l.getAttribute('stroke-dasharray'))"
    lines = page.locator(".chance-chart polyline").evaluate_all(dash)
    assert len(set(lines)) == len(lines) == 2, lines  # one pattern a player
    assert page.locator(".legend line").evaluate_all(dash) == lines  # the legend's the same
    assert console.errors == []
    context.close()


def test_the_chance_chart_steps_by_keyboard_as_a_slider(browser: Any, server: LiveServer) -> None:
    game_id = finished_game(server)
    total = server.get(f"/api/games/{game_id}")["ply"]
    context, page, console = analysed_replay(browser, server, game_id)
    page.focus("#viewer")
    page.keyboard.press("Tab")  # the chart is the next stop of the Tab order
    assert page.evaluate("document.activeElement.id") == "chance-chart"
    chart = page.locator("#chance-chart")
    assert chart.get_attribute("role") == "slider"
    assert chart.get_attribute("aria-label")
    assert chart.get_attribute("aria-valuemax") == str(total)
    hidden = "ls => ls.every(l => l.getAttribute('aria-hidden') === 'true')"
    assert page.locator("#chance-chart text.axis").evaluate_all(hidden)  # its value says it
    for key, shown in (("ArrowRight", 2), ("ArrowUp", 3), ("ArrowDown", 2), ("ArrowLeft", 1)):
        page.keyboard.press(key)
        page.wait_for_selector(f"#position:has-text('Before move {shown} of')")
        assert chart.get_attribute("aria-valuenow") == str(shown - 1)
        assert chart.get_attribute("aria-valuetext") == page.inner_text("#position")
    assert page.evaluate("document.activeElement.id") == "chance-chart"  # kept as it steps
    assert console.errors == []
    context.close()


FINGER = 44
"""The least width and height of a control to be pressed with a finger (WCAG 2.5.5)."""

# Every control shown (a button, a select, a link drawn as a button) with its size; a chair of
# Café's board and a rule id in the words of the log (a link in a line of text) are not such
SIZES = """() => [...document.querySelectorAll("button, .button, select")]
  .filter((e) => e.offsetParent && !e.matches(".chair, .rule-ref"))
  .map((e) => {
    const r = e.getBoundingClientRect();
    return [e.outerHTML.slice(0, 80), r.width, r.height];
  })"""

# Whether a touch this far from a lit chair's centre (left, right, up, down) lands on it; the
# chair brought to the window's middle first (a chair on the window's edge had a point beyond
# it, where no element is: a deal's lit chairs on the last row failed it)
REACH = """(reach) => [...document.querySelectorAll(".chair.legal, .chair.swap")].map((chair) => {
  chair.scrollIntoView({ block: "center", inline: "center" });
  const r = chair.getBoundingClientRect();
  const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
  return [[reach, 0], [-reach, 0], [0, reach], [0, -reach]].every(([dx, dy]) =>
    document.elementFromPoint(x + dx, y + dy)?.closest(".chair") === chair);
})"""


def test_every_control_is_big_enough_for_a_finger_on_a_touch_screen(
    browser: Any, server: LiveServer
) -> None:
    sizes = {}
    for touch in (True, False):
        context, page, console, _, _ = open_seat(browser, server, "souvlaki", 390, touch)
        page.wait_for_selector("#my-hand button.foodcard")
        sizes[touch] = page.evaluate(SIZES)
        assert console.errors == []
        context.close()
    small = [(html, w, h) for html, w, h in sizes[True] if w < FINGER - 0.5 or h < FINGER - 0.5]
    assert not small
    assert any("foodcard" in html for html, _, _ in sizes[True])
    # a mouse keeps the smaller controls of the layout as it was (a food card 36 px high)
    assert any(h < FINGER - 0.5 for html, _, h in sizes[False] if "foodcard" in html)


def test_a_lit_chair_answers_a_finger_within_22_px_of_its_centre(
    browser: Any, server: LiveServer
) -> None:
    context, page, console, _, _ = open_seat(browser, server, "cafe", 390, touch=True)
    assert wait_turn_or_end(page)
    cards = page.locator("#board .hand button.card")
    for index in range(cards.count()):
        cards.nth(index).click()
        if page.locator(".chair.legal").count():
            break
    chair = page.locator(".chair.legal").first.bounding_box()
    assert chair["width"] < FINGER and chair["height"] < FINGER  # drawn small: 13 to a row
    reach = FINGER / 2 - 1
    assert all(page.evaluate(REACH, reach))
    assert console.errors == []
    context.close()


def test_the_live_banner_says_who_won_when_the_game_ends(browser: Any, server: LiveServer) -> None:
    """It said only "The game is over.": who won was in the result box, neither live nor
    focused, so a screen reader heard nothing of it."""
    seats = [{"kind": "bot", "bot": "random", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    context, page, console = new_page(browser)
    page.goto(server.base + created["spectator"])
    page.wait_for_selector("body[data-over=true]")
    said = page.wait_for_function(
        "document.querySelector('#banner').textContent.startsWith('The game is over:')"
    )
    assert said
    banner = page.text_content("#banner")
    heading = page.inner_text("#result h2")  # "P1 Ann wins", "... share the win"
    assert banner == f"The game is over: {heading}.", (banner, heading)
    assert page.get_attribute("#banner", "aria-live") or page.get_attribute("#banner", "role")
    assert console.errors == []
    context.close()


def test_analysing_by_keyboard_keeps_the_focus_and_says_when_it_is_done(
    browser: Any, server: LiveServer
) -> None:
    """Enter on "Analyse the game" dropped the focus to the page's start (the button waits,
    then goes), and nothing said that the analysis began or ended."""
    game_id = finished_game(server)
    analysis = two_decisions()
    states = [
        {"status": "none", "done": 0, "total": 2, "analysis": None, "message": None},  # opened
        {"status": "running", "done": 0, "total": 2, "analysis": None, "message": None},  # asked
        {"status": "done", "done": 2, "total": 2, "analysis": analysis, "message": None},
    ]
    context, page, console = new_page(browser)
    page.route(
        f"**/api/games/{game_id}/analysis",
        lambda route: route.fulfill(json=states.pop(0) if len(states) > 1 else states[0]),
    )
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector("#position:has-text('Before move 1 of')")
    page.focus("#analyse")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.id === 'chance-chart'")
    said = page.inner_text("#analysis-said")
    assert said.startswith("The analysis is done")
    assert page.get_attribute("#analysis-said", "aria-live") == "polite"
    assert console.errors == []
    context.close()


def test_a_game_abandoned_before_any_move_says_so_and_offers_no_analysis(
    browser: Any, server: LiveServer
) -> None:
    """It read "Abandoned after move 0", and its analysis "lost 0.0% ... over 0 moves"."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    created = server.post("/api/games", {"game": "cafe", "seats": seats})
    token = created["links"][0]["path"].split("token=")[1]
    server.post(f"/api/games/{created['id']}/abandon", {}, token)
    context, page, console = new_page(browser)
    page.goto(f"{server.base}/replay/{created['id']}")
    page.wait_for_selector("#position:has-text('Abandoned')")
    assert page.inner_text("#position") == "Abandoned before any move, no result"
    assert page.locator("#analyse:not(.hidden)").count() == 0
    assert page.inner_text("#analysis-status").startswith("Nobody moved")
    assert console.errors == []
    context.close()


def test_the_replay_outlines_the_move_the_analysis_prefers(
    browser: Any, server: LiveServer
) -> None:
    """ "The bot prefers USm@23" could not be found on the board (a phone's chairs carry no
    numbers): the chair is outlined, as a hint's is on the game page."""
    game_id = finished_game(server)
    context, page, console = new_page(browser)
    route_two_decisions(page, game_id, best="USm@16", best_words="USA man to chair 16")
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".chance-chart polyline")
    page.wait_for_selector(".chair[data-chair='16'].hinted")  # move 1: where the bot would go
    assert "(outlined on the board, dotted)" in page.inner_text("#analysis-now")
    assert page.locator(".hinted").count() == 1
    page.click("#forward")
    page.wait_for_selector("#position:has-text('Before move 2 of')")
    assert page.locator(".hinted").count() == 0  # its preferred move is no place on the board
    assert console.errors == []
    context.close()


def test_a_souvlaki_replay_outlines_the_customer_the_analysis_prefers(
    browser: Any, server: LiveServer
) -> None:
    """Only Café's replay outlined the preferred move: "pick 3" is the draft row's slot 3."""
    bots = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
    options = {"round_limit": 1}
    created = server.post("/api/games", {"game": "souvlaki", "seats": bots, "options": options})
    game_id = created["id"]
    wait_for(lambda: server.get(f"/api/games/{game_id}")["over"])
    actions = server.get(f"/api/games/{game_id}/record")["actions"]
    ply = next(i for i, action in enumerate(actions) if action.startswith("pick "))
    slot = "3" if actions[ply] != "pick 3" else "2"  # a slot other than the one picked
    preferred = decision(ply, 0, 0.3, 0.1) | {"played": actions[ply], "best": f"pick {slot}"}
    context, page, console = new_page(browser)
    route_analysis(page, game_id, [preferred], [[preferred], []], [0.3, 0.0])
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".chance-chart polyline")
    page.click("button.mistake >> nth=0")
    page.wait_for_selector(f"#position:has-text('Before move {ply + 1} of')")
    page.wait_for_selector(f".customer[data-slot='{slot}'].hinted")
    assert page.locator(".hinted").count() == 1
    assert "(outlined on the board, dotted)" in page.inner_text("#analysis-now")
    page.click("#forward")
    page.wait_for_selector(f"#position:has-text('Before move {ply + 2} of')")
    assert page.locator(".hinted").count() == 0
    assert "outlined" not in page.inner_text("#analysis-now")
    assert console.errors == []
    context.close()


def test_the_replays_steps_stay_at_hand_above_a_mistake_gone_to(
    browser: Any, server: LiveServer
) -> None:
    """On a phone a mistake's position was 900 px below the step controls: they stay at the
    top now, and what is scrolled to is put below them, not under them."""
    game_id = finished_game(server)
    context, page, console = new_page(browser, 390, 844)
    route_two_decisions(page, game_id)
    page.goto(f"{server.base}/replay/{game_id}")
    page.wait_for_selector(".chance-chart polyline")
    page.locator("#analysis button").filter(has_text="move 2").first.click()
    page.wait_for_selector("#position:has-text('Before move 2 of')")
    page.wait_for_timeout(800)  # a smooth scroll
    bar = page.locator("#replay-bar").bounding_box()
    line = page.locator("#analysis-now").bounding_box()
    assert bar["y"] == 0 and line["y"] >= bar["height"], (bar, line)
    # on a short screen (a laptop's at 400% zoom) held at the top it covered nearly all of it
    page.set_viewport_size({"width": 320, "height": 200})
    assert page.evaluate("getComputedStyle(document.getElementById('replay-bar')).position") == (
        "static"
    )
    # and nothing is kept clear of it: 191 px of 200 left what was focused 9 px to be seen
    page.wait_for_function("document.documentElement.style.scrollPaddingTop === '0px'")
    assert console.errors == []
    context.close()


FOCUSED = (
    "document.activeElement === document.body ? 'BODY'"
    " : document.activeElement.id || document.activeElement.textContent"
)
"""What has the focus: its id, else its text; BODY when it fell back to the page's start."""


def test_a_button_that_waits_disabled_hands_the_focus_on_not_to_the_page_s_start(
    browser: Any, server: LiveServer
) -> None:
    """Create game, Hint and Abandon the game each wait disabled (or go) while the server
    answers, and a disabled button loses the focus: it fell back to the page's start, so a
    keyboard or screen-reader player lost their place. Now: to what was made, to the hint's
    Play it, to the result."""
    context, page, console = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("select[name=kind1]", "bot:heuristic")
    page.focus("#create-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#created a.join-link")
    page.wait_for_function(f"({FOCUSED}) === 'Game created'")
    link = page.get_attribute("#created a.join-link", "href")
    socket = HeldSocket(page)
    page.goto(server.base + link)
    assert wait_turn_or_end(page)
    page.focus("#hint-button")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hint-play")
    page.wait_for_function(f"({FOCUSED}) === 'hint-play'")
    page.click("#abandon")
    page.focus("#abandon-confirm")
    # the abandoned game's view comes by the socket after the answer to the abandon (it came
    # before it in most runs, after it in about one in fifty: then the focus was lost)
    socket.holding = True
    with page.expect_response(lambda response: response.url.endswith("/abandon")):
        page.keyboard.press("Enter")
    page.wait_for_function(f"({FOCUSED}) === 'BODY' || ({FOCUSED}) === 'abandon'")
    socket.release()
    page.wait_for_selector("#result:not(.hidden)")
    page.wait_for_function(f"({FOCUSED}) === 'Game abandoned'")
    assert console.errors == []
    context.close()


def test_the_lobby_s_lists_keep_the_focus_as_they_refresh(browser: Any, server: LiveServer) -> None:
    """Every 5 s the lists were built anew, the focus thrown to the page's start: a screen
    reader lost its place (WCAG 2.4.3)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "heuristic"}]
    first = server.post("/api/games", {"game": "cafe", "seats": seats})
    context, page, console = new_page(browser, 1280, 844)
    page.clock.install()
    page.goto(server.base + "/")
    watch = f"#list-open li[data-game='{first['id']}'] a"
    page.wait_for_selector(watch)
    page.focus(watch)
    second = server.post("/api/games", {"game": "souvlaki", "seats": seats})  # the list changes
    page.clock.run_for(6000)  # the next refresh
    page.wait_for_selector(f"#list-open li[data-game='{second['id']}']")
    focused = page.evaluate(
        "[document.activeElement.tagName,"
        " document.activeElement.closest('[data-game]')?.dataset.game]"
    )
    assert focused == ["A", first["id"]]
    assert console.errors == []
    context.close()


FOCUSED_RULE = "document.activeElement.dataset.key + '|' + document.activeElement.dataset.rule"


def test_a_rule_button_of_the_log_keeps_the_focus_as_a_new_view_comes(
    browser: Any, server: LiveServer
) -> None:
    """The log was built anew with each view (a bot's move, a page opened): the focus on one
    of its rule buttons went to the page's start."""
    context, page, console, game_id, _ = open_seat(browser, server, "souvlaki")
    rule = "#log button.rule-ref"
    page.wait_for_selector(rule)
    page.focus(rule)
    key = page.evaluate(
        "document.activeElement.dataset.key + '|' + document.activeElement.dataset.rule"
    )
    other, watcher, _ = new_page(browser, 1280, 844)  # a spectator opens it: a new view
    watcher.goto(f"{server.base}/game/{game_id}")
    watcher.wait_for_selector("body[data-ply]")
    page.wait_for_timeout(500)
    assert page.evaluate(FOCUSED_RULE) == key
    assert console.errors == []
    other.close()
    context.close()


def test_a_move_refused_by_keyboard_puts_the_focus_back_on_its_button(
    browser: Any, server: LiveServer
) -> None:
    """ "Serve: not possible now (press to be told why)", pressed, put the focus on the hand
    while it waited for the answer, and it stayed there: 33 Tabs from the button (2.4.3)."""
    context, page, console, _, _ = open_seat(browser, server, "souvlaki")
    page.wait_for_selector("body[data-your-turn=true] [data-action=keep]")
    page.focus("[data-action=redraw]")
    page.keyboard.press("Enter")  # a mulligan's redraw: taken, the game goes on
    for _ in range(40):  # on to this player's service, where serve is offered even when refused
        assert wait_turn_or_end(page)
        if page.locator("[data-action=serve].quiet").count():
            break
        souvlaki_turn(page)
    else:
        raise AssertionError("no service with a serve refused")
    page.focus("[data-action=serve]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#message:not(.hidden)")
    page.wait_for_function("document.activeElement.dataset.action === 'serve'")
    assert console.errors == []
    context.close()


def test_the_focus_on_one_seat_s_link_stays_on_that_seat_s_as_the_lobby_refreshes(
    browser: Any, server: LiveServer
) -> None:
    """Each seat's "open this seat" link reads the same: after a refresh the focus went to the
    first seat's, and Enter would have opened another player's seat."""
    context, page, console = new_page(browser, 1280, 900)
    page.clock.install()
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("select[name=kind1]", "human")
    page.click("#create-button")  # two people: a link for each, kept by this browser
    page.wait_for_selector("#created a.join-link")
    made = "#list-open details.made-links"
    page.clock.run_for(6000)
    page.wait_for_selector(made, state="attached")
    page.click(f"{made} summary")
    links = page.locator(f"{made} a.made-link")
    assert links.count() == 2
    second = links.nth(1).get_attribute("href")
    links.nth(1).focus()
    server.post("/api/games", {"game": "souvlaki", "seats": [{"kind": "human"}] * 2})
    page.clock.run_for(6000)  # the open games' list drawn anew, with the new game first
    page.wait_for_function("document.querySelectorAll('#list-open > ul > li').length >= 2")
    assert page.evaluate("document.activeElement.getAttribute('href')") == second
    assert console.errors == []
    context.close()

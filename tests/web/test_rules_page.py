"""The rules page of each game (/rules/GAME) and the links to it from the lobby, the game page,
an opened rule's text and the replay."""

from __future__ import annotations

from typing import Any

from server.conftest import LiveServer
from web.test_browser import new_page, open_seat
from web.test_page_behaviour import finished_game

TARGET = "document.querySelector(':target')?.id"


def test_the_rules_page_lists_every_rule_and_marks_a_linked_one(
    browser: Any, server: LiveServer
) -> None:
    context, page, console = new_page(browser, 390, 844)
    titles = {game["name"]: game["title"] for game in server.get("/api/catalog")["games"]}
    for game, title in titles.items():
        page.goto(f"{server.base}/rules/{game}")
        page.wait_for_selector("#reference:not(.hidden)")
        assert page.inner_text("h1") == title
        shown = page.locator("li.rule").evaluate_all("rules => rules.map(r => r.id)")
        assert shown == [rule["id"] for rule in server.get(f"/api/rules/{game}")]
        assert page.locator("#overview p").count() >= 5 and page.locator("#browser-help li").count()
    # a link to a rule far down the page: scrolled to, in sight, and marked apart from the others
    page.goto(f"{server.base}/rules/cafe#CI-E.2")
    page.wait_for_function(f"{TARGET} === 'CI-E.2'")
    box = page.locator("li.rule:target").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= 844
    background = "e => getComputedStyle(e).backgroundColor"
    marked = page.eval_on_selector("li.rule:target", background)
    assert marked != page.eval_on_selector("li.rule:not(:target)", background)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # no side scroll
    page.click("#overview a.rule-link[href='#CI-T.2']")  # a rule the overview cites
    page.wait_for_function(f"{TARGET} === 'CI-T.2'")
    page.goto(f"{server.base}/rules/souvlaki#sw-4.2")  # an id typed in small letters
    page.wait_for_function(f"{TARGET} === 'SW-4.2'")
    no_rule = "CI-T." + "99"  # built, so that the rule-coverage check does not take it as cited
    page.goto(f"{server.base}/rules/cafe#{no_rule}")
    page.wait_for_selector("#rules-message:not(.hidden)")
    assert f"There is no rule {no_rule} in the rules of Café International" in page.inner_text(
        "#rules-message"
    )
    assert console.errors == []
    answer = page.goto(f"{server.base}/rules/chess")
    assert answer is not None and answer.status == 404
    assert 'There is no game "chess" here' in page.inner_text("main")
    page.click("main a[href='/rules/souvlaki']")  # to the rules there are
    page.wait_for_selector("#reference:not(.hidden)")
    context.close()


def test_the_lobby_the_game_and_the_replay_link_to_the_rules(
    browser: Any, server: LiveServer
) -> None:
    context, page, console = new_page(browser)
    page.goto(server.base + "/")
    page.wait_for_selector("#how-to-play[href]")
    page.select_option("#game", "souvlaki")
    # a screen reader is told it opens a new tab, as the title tells the pointer
    assert page.text_content("#how-to-play") == "How to play Souvlaki Wars (opens in a new tab)"
    with context.expect_page() as opened:  # a new tab: the form stays as it was filled in
        page.click("#how-to-play")
    rules = opened.value
    rules.wait_for_selector("#reference:not(.hidden)")
    assert rules.url == f"{server.base}/rules/souvlaki"
    assert rules.inner_text("h1") == "Souvlaki Wars"
    rules.close()
    context.close()
    # a game page: the header's link, and an opened rule's link to it among all the rules
    context, page, console, _, _ = open_seat(browser, server, "cafe")
    page.wait_for_selector("#rules-link:not(.hidden)")
    assert page.get_attribute("#rules-link", "href") == "/rules/cafe"
    assert page.get_attribute("#rules-link", "target") == "_blank"
    page.wait_for_selector("body[data-your-turn=true]")
    page.click("#board .hand button.card >> nth=0")
    page.locator(".chair:not(.legal):not(.swap):not(.guest)").last.click()  # refused
    cited = page.locator("#message button.rule-ref").first
    rule = cited.get_attribute("data-rule")
    cited.click()
    all_rules = page.locator(f"#message .rule-text[data-rule='{rule}'] a.all-rules")
    assert all_rules.get_attribute("href") == f"/rules/cafe#{rule}"
    assert all_rules.get_attribute("target") == "_blank"
    with context.expect_page() as opened:
        all_rules.click()
    rules = opened.value
    rules.wait_for_function(f"{TARGET} === '{rule}'")
    assert console.errors == []
    context.close()
    context, page, console = new_page(browser)
    page.goto(f"{server.base}/replay/{finished_game(server)}")
    page.wait_for_selector("#rules-link:not(.hidden)")
    assert page.get_attribute("#rules-link", "href") == "/rules/cafe"
    assert console.errors == []
    context.close()

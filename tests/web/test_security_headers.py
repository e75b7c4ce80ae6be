"""The pages under the server's Content-Security-Policy: scripts, data and sockets of this
server alone (the seat links kept in a browser's storage are read by no other's script). The
other browser tests lift it for their own scripts (Playwright evaluates strings)."""

from __future__ import annotations

from typing import Any

from server.conftest import LiveServer


def test_every_page_works_under_the_content_security_policy(
    browser: Any, server: LiveServer
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.base + "/")
    page.wait_for_selector("#game option", state="attached")
    for game in ("cafe", "souvlaki"):
        seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
        created = server.post("/api/games", {"game": game, "seats": seats})
        page.goto(server.base + created["links"][0]["path"])
        page.wait_for_selector("body[data-ply]")
        page.wait_for_selector("#board button", state="attached")  # drawn by the scripts
        page.goto(f"{server.base}/rules/{game}")
        page.wait_for_selector("#overview p")
    bots = [{"kind": "bot", "bot": "random"}] * 2
    ended = server.post("/api/games", {"game": "cafe", "seats": bots, "options": {"end_bag": 90}})
    page.goto(f"{server.base}/game/{ended['id']}")
    page.wait_for_selector("#result:not(.hidden)")  # the socket's views came
    page.goto(f"{server.base}/replay/{ended['id']}")
    page.wait_for_selector("#position:has-text('Before move')")
    assert errors == []
    context.close()

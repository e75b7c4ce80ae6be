"""What a keyboard-only player and a screen-reader user get: a focus ring to be seen, live
regions that speak once, names for what the board shows, text that reads against its colour."""

from __future__ import annotations

from typing import Any

from server.conftest import LiveServer
from web.test_browser import new_page, open_seat, wait_turn_or_end

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

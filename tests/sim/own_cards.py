"""A card set of one's own that plays unlike the built-in one, to tell which set a run played."""

from __future__ import annotations

from pathlib import Path

from kafeneio.games.souvlaki.cards import export_builtin

RICH_SHOP = "mine"
"""The built-in Le Souvlache renamed, starting at 24 money and 22 reputation (10 and 6 built
in): a step from the winning 25 and 25, it wins nearly every game it plays."""


def rich_shop_cards(directory: Path) -> Path:
    """`directory` holding the built-in card files with Le Souvlache made `RICH_SHOP`."""
    export_builtin(directory)
    shops = directory / "shops.toml"
    text = shops.read_text(encoding="utf-8")
    for old, new in (
        ('id = "souvlache"', f'id = "{RICH_SHOP}"'),
        ("start_money = 10\nstart_reputation = 6", "start_money = 24\nstart_reputation = 22"),
    ):
        assert text.count(old) == 1, old  # the shipped file changed: change this helper too
        text = text.replace(old, new)
    shops.write_text(text, encoding="utf-8")
    return directory

"""The hand-written setup example of each game's doc page sets up the position it describes,
and random play from it keeps the contract (the conformance harness at every state)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from kafeneio.core.conformance import check_random_play
from kafeneio.games import get_game

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = [
    ("cafe", "cafe-international.md", {"birthday": True}),
    ("souvlaki", "souvlaki-wars.md", {}),
]


def example(page: str) -> dict[str, Any]:
    text = (DOCS / page).read_text(encoding="utf-8")
    section = text[text.index("## Setting up a position") :]
    section = section[: section.index("\n## ", 4)]
    blocks = re.findall(r"```json\n(.*?)```", section, re.S)
    assert len(blocks) == 1, f"{page}: one JSON example in the setup section"
    setup = json.loads(blocks[0])
    assert isinstance(setup, dict)
    return setup


@pytest.mark.parametrize(("name", "page", "options"), PAGES, ids=[p[0] for p in PAGES])
def test_the_doc_pages_setup_example_sets_up_its_position(
    name: str, page: str, options: dict[str, Any]
) -> None:
    setup = example(page)
    players = len(setup["hands"] if name == "cafe" else setup["food_hands"])
    state = get_game(name, options).new_state(players, setup=setup)
    obs = state.observation(0)
    if name == "cafe":
        assert obs["phase"] == "birthday" and obs["out"] == [False, False, True]
        assert sorted(obs["hands"][0]) == ["USf", "USm"] and len(obs["hands"][1]) == 5
    else:
        assert (obs["round"], obs["phase"]) == (3, "service")
        assert obs["in_play"] == {"good-review": 1}
        assert sorted(obs["hand"]["food"]) == ["GF", "SF"]
        assert obs["players"][1]["food_cards"] == 4
    assert check_random_play(state, random.Random(0), max_actions=15) >= 2

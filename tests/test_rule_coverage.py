"""Every rule of the spec is cited by a test (the shared rule-coverage tool, strict)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kafeneio.games import GAMES, get_game

TESTS = Path(__file__).resolve().parent


@pytest.mark.parametrize("game", sorted(get_game(name).info.rule_prefix for name in GAMES))
def test_every_rule_is_cited_by_a_test(shared: Path, game: str) -> None:
    tool = shared / "tools" / "rule_coverage.py"
    result = subprocess.run(
        [sys.executable, str(tool), "--tests", str(TESTS), "--game", game, "--strict"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr

"""The examples run: the masked random agent, and a short run of the training script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=300, check=True
    )
    return done.stdout


@pytest.mark.parametrize("game_name", ["cafe", "souvlaki"])
def test_the_masked_random_agent_plays_both_interfaces(game_name: str) -> None:
    out = run(str(EXAMPLES / "random_agent.py"), game_name, "--players", "3", "--seed", "2")
    assert "played to the end" in out
    assert "Gymnasium: seat 0 made" in out


def test_the_training_script_trains_and_evaluates() -> None:
    out = run(
        str(EXAMPLES / "train_masked_policy.py"), "cafe", "--minutes", "0.05", "--eval-games", "4"
    )
    assert "random against random" in out
    assert "trained on" in out
    assert "trained policy (greedy) against random" in out

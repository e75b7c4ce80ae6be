"""Two humans at one keyboard (issue 9, item 1): a screen shown to one never holds the other's
hand, and the keyboard is handed over through a cleared screen."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kafeneio import cli
from kafeneio.cli import app
from kafeneio.core import State

HANDOVER = "Pass the keyboard to P"


def hand_line(state: State, player: int) -> str:
    food = state.observation(player)["hand"]["food"]
    return "Your food cards: " + (" ".join(food) or "none")


class Keyboard:
    """Types for both humans and cuts what the console printed into screens: a screen is what
    was printed since the last handover, and belongs to the human who then took the keyboard."""

    def __init__(self, screen: io.StringIO) -> None:
        self.printed = screen
        self.read_to = 0
        self.owner: int | None = None
        self.text = ""
        self.screens: list[tuple[int | None, str]] = []
        self.state: State | None = None
        self.prompts = 0
        self.leaks: list[str] = []

    def new_text(self) -> str:
        text = self.printed.getvalue()[self.read_to :]
        self.read_to += len(text)
        return text

    def ask(self, prompt: str) -> str:
        self.text += self.new_text()
        assert self.state is not None
        if prompt.startswith(HANDOVER):
            self.screens.append((self.owner, self.text))
            self.owner, self.text = int(prompt[len(HANDOVER)]) - 1, ""
            return ""
        player = int(prompt[1]) - 1
        assert player == self.owner, f"P{player + 1} typing at P{self.owner}'s screen"
        other = 1 - player
        mine, theirs = hand_line(self.state, player), hand_line(self.state, other)
        lines = {line.strip() for line in self.text.splitlines()}
        if theirs != mine and theirs in lines:  # a whole line: "G" is also the start of "G S"
            self.leaks.append(f"P{player + 1}'s screen shows P{other + 1}'s hand: {theirs}")
        self.prompts += 1
        legal = self.state.legal_actions()
        return "moves" if self.prompts % 50 == 1 else legal[self.prompts % len(legal)].notation


@pytest.mark.parametrize("seed", [3, 8])
def test_two_humans_at_one_keyboard_never_see_each_others_hand(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    screen = io.StringIO()
    keyboard = Keyboard(screen)
    real_loop = cli._play_loop

    def spy_loop(*args: Any) -> None:
        keyboard.state = args[1]
        real_loop(*args)

    monkeypatch.setattr(cli, "console", Console(file=screen, width=120, highlight=False))
    monkeypatch.setattr(cli, "ask", keyboard.ask)
    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", str(seed)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert keyboard.state is not None and keyboard.state.is_terminal()
    after_last_move = keyboard.new_text()  # the end, shown to both: no hand
    assert "Final scores" in after_last_move and "Your food cards" not in after_last_move
    assert keyboard.leaks == []
    assert keyboard.prompts > 100
    owners = [owner for owner, _ in keyboard.screens]
    assert {0, 1} <= set(owners) and len(owners) > 20  # many handovers, both ways
    for owner, text in keyboard.screens[1:]:  # the first is the banner, before any handover
        assert owner is not None and "Your food cards" in text


def test_one_human_is_never_asked_to_hand_over(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def typist(prompt: str) -> str:
        asked.append(prompt)
        return "quit"

    monkeypatch.setattr(cli, "ask", typist)
    result = CliRunner().invoke(app, ["play", "souvlaki", "--seats", "human,random"])
    assert result.exit_code == 0 and asked == ["P1> "]

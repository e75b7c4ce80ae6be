"""Two humans at one keyboard (issue 9, item 1): a screen shown to one never holds the other's
hand; a human reads what their own move did before they hide their screen, and the keyboard is
handed over through a cleared screen."""

from __future__ import annotations

import io
import json
import math
import random
import types
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from kafeneio import cli
from kafeneio.cli import FINAL_KINDS, app
from kafeneio.core import Event, State
from kafeneio.core.events import texts_told
from kafeneio.core.play import Step
from kafeneio.games import get_game

HIDE = "Press Enter to hide your hand"
HANDOVER = "Pass the keyboard to P"
GAME_ENDS = "The game ends: "
CLEAR = "\x1b[2J"
"""How a terminal's screen is cleared (``Console.clear``)."""


@pytest.fixture(autouse=True)
def runs_told_when_they_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot's run of decisions told when it ends however long it takes: what is printed does
    not hang on the machine's speed (`cli.RUN_TOLD_AFTER`)."""
    monkeypatch.setattr(cli, "RUN_TOLD_AFTER", math.inf)


def hand_line(state: State, player: int) -> str:
    food = state.observation(player)["hand"]["food"]
    return "Your food cards: " + (" ".join(food) or "none")


class Keyboard:
    """Types for both humans and cuts what the console printed into screens. A human's screen is
    what was printed from the handover that gave them the keyboard to the prompt at which they
    hide it; from there to the next handover the screen is blank, and belongs to nobody."""

    def __init__(self, screen: io.StringIO) -> None:
        self.printed = screen
        self.read_to = 0
        self.owner: int | None = None
        self.text = ""
        self.screens: list[tuple[int | None, str]] = []
        self.state: State | None = None
        self.prompts = 0
        self.typed_at = 0
        """The ply of the owner's last decision: what followed it must be on their screen."""
        self.results_read = 0
        self.leaks: list[str] = []
        self.told: list[list[Event]] = []
        """The events of each decision, or run of one player's decisions, told on screen."""
        self.told_at = 0
        """How many were told when the owner last typed a move."""

    def new_text(self) -> str:
        text = self.printed.getvalue()[self.read_to :]
        self.read_to += len(text)
        return text

    def ask(self, prompt: str) -> str:
        self.text += self.new_text()
        assert self.state is not None
        if self.owner is not None:
            self.check_no_leak(self.owner)
        if prompt.startswith(HIDE):
            assert self.owner is not None, "a blank screen asked to be hidden"
            self.check_result_shown(self.owner)
            self.screens.append((self.owner, self.text))
            self.owner, self.text = None, ""
            return ""
        if prompt.startswith(HANDOVER):
            assert self.owner is None, f"P{self.owner}'s screen handed over before it was hidden"
            # what a cleared screen shows to whoever comes next: nobody's hand
            assert "Your food cards" not in self.text and "unforeseen cards" not in self.text
            self.screens.append((None, self.text))
            self.owner, self.text = int(prompt[len(HANDOVER)]) - 1, ""
            return ""
        if prompt.endswith(cli.ALL_THE_SAME):  # a move whose numbers moved: meant
            return "y"
        player = int(prompt[1]) - 1
        assert player == self.owner, f"P{player + 1} typing at P{self.owner}'s screen"
        self.prompts += 1
        self.typed_at = self.state.ply
        self.told_at = len(self.told)
        return self.answer()

    def answer(self) -> str:
        """What the human at the keyboard types: a legal move, or now and then `moves`."""
        assert self.state is not None
        legal = self.state.legal_actions()
        return "moves" if self.prompts % 50 == 1 else legal[self.prompts % len(legal)].notation

    def check_no_leak(self, player: int) -> None:
        assert self.state is not None
        other = 1 - player
        mine, theirs = hand_line(self.state, player), hand_line(self.state, other)
        # the food cards begin a line, the unforeseen cards after them where the line holds both
        lines = {line.split(" | ")[0].strip() for line in self.text.splitlines()}
        if theirs != mine and theirs in lines:  # a whole line: "G" is also the start of "G S"
            self.leaks.append(f"P{player + 1}'s screen shows P{other + 1}'s hand: {theirs}")

    def check_result_shown(self, player: int) -> None:
        """Everything `player` may read of their last decision and of what followed it is on
        the screen they are about to hide (but the game's end, why, its penalties and who won:
        the final scores, which every player sees, say them, `FINAL_KINDS`)."""
        assert self.state is not None
        since = [e for e in self.state.history_for(player) if e.ply >= self.typed_at]
        assert since and since[0].player == player
        known = [words for entry in since for words in entry.events]
        told = [
            [e for e in events if e.kind not in FINAL_KINDS and e.text_for(player) is not None]
            for events in self.told[self.told_at :]
        ]
        final = {
            e.text_for(player)
            for events in self.told[self.told_at :]
            for e in events
            if e.kind in FINAL_KINDS
        }
        # every event they may know was told (runs of events alike in one text: `texts_told`)
        shown = [w for w in known if not w.startswith(GAME_ENDS) and w not in final]
        assert sum(map(len, told)) == len(shown)
        screen = " ".join(self.text.split())  # lines longer than 80 columns broken at spaces
        for events in told:
            for text in texts_told(events, player):
                assert " ".join(text.split()) in screen, f"P{player + 1} hid it unread: {text}"
                self.results_read += 1


def play_at(keyboard: Keyboard, args: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    """Run ``kafeneio`` with `args`, its screen written where `keyboard` reads it and its
    prompts answered by `keyboard`, which is shown the game's state as play begins."""
    real_loop = cli._play_loop
    real_words = cli._step_words

    def spy_loop(*args: Any) -> None:
        keyboard.state = args[1]
        real_loop(*args)

    def spy_words(head: str, step: Step, folded: tuple[str, str] | None = None) -> cli.Words:
        keyboard.told.append(list(step.events))
        return real_words(head, step, folded)

    console = Console(file=keyboard.printed, width=120, highlight=False, soft_wrap=True)
    monkeypatch.setattr(cli, "console", console)
    monkeypatch.setattr(cli, "ask", keyboard.ask)
    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    monkeypatch.setattr(cli, "_step_words", spy_words)
    return CliRunner().invoke(app, args)


@pytest.mark.parametrize("seed", [3, 8])
def test_two_humans_at_one_keyboard_never_see_each_others_hand(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    keyboard = Keyboard(io.StringIO())
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", str(seed)]
    result = play_at(keyboard, args, monkeypatch)
    assert result.exit_code == 0, result.output
    assert keyboard.state is not None and keyboard.state.is_terminal()
    assert keyboard.owner is None  # the last mover hid their screen before the final scores
    after_last_move = keyboard.new_text()  # the end, shown to both: no hand
    assert "Final scores" in after_last_move and "Your food cards" not in after_last_move
    assert after_last_move.count(GAME_ENDS) == 1
    assert keyboard.leaks == []
    assert keyboard.prompts > 100
    owners = [owner for owner, _ in keyboard.screens if owner is not None]
    assert {0, 1} <= set(owners) and len(owners) > 20  # many handovers, both ways
    for owner, text in keyboard.screens:
        assert owner is None or "Your food cards" in text  # a human's screen: their own hand
    assert keyboard.results_read > len(owners)  # the screens hidden showed what moves did


def test_one_human_is_never_asked_to_hand_over(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def typist(prompt: str) -> str:
        asked.append(prompt)
        raise EOFError  # input ends at once: the game stops

    monkeypatch.setattr(cli, "ask", typist)
    result = CliRunner().invoke(app, ["play", "souvlaki", "--seats", "human,random"])
    assert result.exit_code == 0 and asked == ["P1> "]


def test_a_human_reads_their_move_before_hiding_and_closed_input_stops_there() -> None:
    # Seed 3: P2 starts and keeps their food cards; then input ends at the hide prompt.
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]
    result = CliRunner().invoke(app, args, input="\nkeep\n")
    assert result.exit_code == 0, result.output
    after = result.output.split("P2> ")[-1]
    assert after.index("keeps their food cards") < after.index(HIDE) < after.index("Stopped.")
    assert HANDOVER + "1" not in after


def test_the_games_first_screen_stays_for_everyone_to_read_until_the_first_handover(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """It shows no hand, only the seats and the prompt's commands: it was cleared before anyone
    could read it."""
    screen = io.StringIO()
    on_screen: list[str] = []

    def typist(prompt: str) -> str:
        on_screen.append(screen.getvalue().split(CLEAR)[-1])  # since the screen was last cleared
        if len(on_screen) == 2:
            raise EOFError  # input ends at P2's first prompt: the game stops
        return ""

    terminal = Console(file=screen, force_terminal=True, width=80, highlight=False)
    monkeypatch.setattr(cli, "console", terminal)
    monkeypatch.setattr(cli, "ask", typist)
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    handover, first_turn = on_screen
    assert "P1 human, P2 human" in handover and "At the prompt: a move" in handover
    assert "Your food cards" in first_turn and "At the prompt" not in first_turn  # cleared


def test_humans_at_one_keyboard_take_turns_without_hiding_where_hands_are_public(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Café's hands are public (CI-S.1; its `GameInfo.perfect_information`): no screen is hidden
    or handed over between its humans."""
    states: list[State] = []
    asked: list[str] = []
    real_loop = cli._play_loop

    def spy_loop(*args: Any) -> None:
        states.append(args[1])
        real_loop(*args)

    def typist(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) > 30:
            raise EOFError  # input ends: the game stops
        return states[0].legal_actions()[0].notation

    monkeypatch.setattr(cli, "ask", typist)
    monkeypatch.setattr(cli, "_play_loop", spy_loop)
    args = ["play", "cafe", "--seats", "human,human", "--seed", "3"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert states[0].game.info.perfect_information
    assert set(asked) == {"P1> ", "P2> "}  # only moves asked: no hiding, no handover
    assert "P2, since your last turn" not in result.output


def a_ninjas_loot() -> tuple[dict[str, Any], int, int, str]:
    """A record of a two-player game played at random up to where a Ninja's victim, who knows
    which food card went into the thief's hand, is to move: (record, victim, thief, card)."""
    game = get_game("souvlaki")
    for seed in range(50):
        state = game.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            victim = state.current_player()
            if victim >= 0 and (known := state.observation(victim)["hand"]["known_in_other_hands"]):
                return state.to_record(), victim, known[0]["player"], known[0]["food"]
    raise AssertionError("no Ninja's victim was to move in 50 random games")


class Reader(Keyboard):
    """Looks up `cards` at the first prompt of each screen, then plays; input ends at the third
    human's screen."""

    def __init__(self, screen: io.StringIO) -> None:
        super().__init__(screen)
        self.looked_up: set[int] = set()
        """The screens (their index in `screens`) where `cards` was typed."""

    def answer(self) -> str:
        screen = len(self.screens)
        if len([owner for owner, _ in self.screens if owner is not None]) == 2:
            raise EOFError
        if screen not in self.looked_up:
            self.looked_up.add(screen)
            return "cards"
        return super().answer()


@pytest.mark.rule("SW-E.11")
def test_only_the_ninjas_victim_is_shown_the_card_it_knows_in_the_thiefs_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record, victim, thief, card = a_ninjas_loot()
    path = tmp_path / "ninja.json"
    path.write_text(json.dumps(record))
    reader = Reader(io.StringIO())
    args = ["play", "souvlaki", "--from", str(path), "--seats", "human,human"]
    result = play_at(reader, args, monkeypatch)
    assert result.exit_code == 0, result.output
    assert reader.state is not None
    shop = reader.state.observation(thief)["players"][thief]["shop_name"]
    shown = [(owner, text) for owner, text in reader.screens if owner is not None]
    assert [owner for owner, _ in shown] == [victim, thief]
    victims, thiefs = shown[0][1], shown[1][1]
    assert f"(you know {card})" in victims  # on the board, beside the thief's hand size
    assert f"P{thief + 1} {shop} holds {card}" in victims  # looked up with `cards`
    assert "Food cards you know" in victims and "you know" not in thiefs.lower()
    assert reader.leaks == []


def test_a_move_typed_at_the_handover_prompt_is_said_not_played() -> None:
    """The handover prompt took any text as Enter: a move typed there was lost without a word."""
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]  # P2 starts
    result = CliRunner().invoke(app, args, input="keep\n")
    assert result.exit_code == 0, result.output
    after = result.output.split(HANDOVER + "2")[-1]
    said = "Not played: 'keep' (that prompt only hands the keyboard over)."
    assert said in after and after.index(said) < after.index("P2> ")


def test_the_first_recap_says_since_the_game_began() -> None:
    """A human's recap before their first move said "since your last turn"."""
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]  # P2 starts
    result = CliRunner().invoke(app, args, input="\nkeep\n\n\n")
    assert result.exit_code == 0, result.output
    assert "P1, since the game began:\n  P2 (human): keep — P2 keeps their" in result.output
    assert "since your last turn" not in result.output


def test_the_lines_one_human_typed_are_not_the_next_one_s_history(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The screen was cleared at a handover and readline's history was not: the next human's
    Up arrow brought back a refused `play SS`, naming a card of the other's hand."""
    cleared: list[bool] = []
    typed_lines = types.SimpleNamespace(clear_history=lambda: cleared.append(True))
    monkeypatch.setattr(cli, "typed_lines", typed_lines)
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]  # P2 starts
    result = CliRunner().invoke(app, args, input="keep\n\n\n")  # keep, hide, hand over
    assert result.exit_code == 0, result.output
    assert cleared  # at the handover
    cleared.clear()  # and a human alone keeps the lines they typed
    alone = CliRunner().invoke(app, ["play", "souvlaki", "--seats", "human,random"], input="keep\n")
    assert alone.exit_code == 0, alone.output
    assert not cleared


def test_a_move_typed_at_the_hide_prompt_is_said_to_its_typist_and_the_prompt_asked_again() -> None:
    """It was dropped without a word; said after the screen was cleared, the next player would
    read it (a move names a card of the hand)."""
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]  # P2 starts
    result = CliRunner().invoke(app, args, input="\nkeep\nplay GS\n\n")
    assert result.exit_code == 0, result.output
    after = result.output.split("P2> ")[-1]
    said = "Not played: 'play GS' (your turn is over: that prompt only hides your hand)."
    assert said in after
    assert after.index(said) < after.rindex(HIDE) < after.index(HANDOVER + "1")


def test_the_hide_prompt_takes_quit_and_asks_for_enter_a_few_times_only() -> None:
    """`quit` there was "not played" and the prompt again; endless lines (`yes | kafeneio
    play ...`) kept it asking for ever."""
    args = ["play", "souvlaki", "--seats", "human,human", "--seed", "3"]  # P2 starts
    quit_there = CliRunner().invoke(app, args, input="\nkeep\nquit\n")
    assert quit_there.exit_code == 0 and "Stopped." in quit_there.output.split("P2> ")[-1]
    endless = CliRunner().invoke(app, args, input="\nkeep\n" + "y\n" * 50)
    assert endless.exit_code == 0, endless.output
    after = endless.output.split("P2> ")[-1]
    assert after.count("Not played: 'y' (your turn is over") == cli.HIDE_ASKED
    assert HANDOVER + "1" in after  # hidden all the same, and handed over

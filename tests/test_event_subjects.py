"""Who an event is about (`SUBJECTS`, read from its facts) is the player its text begins with:
the terminal groups a run of events by player with it, never by reading the text."""

from __future__ import annotations

import random

import pytest

from kafeneio.bots import make_bot
from kafeneio.core import SPECTATOR
from kafeneio.core.events import RUNS, SUBJECTS, Event, said_together, seat, subject_of
from kafeneio.core.play import Step, play
from kafeneio.games import get_game


def _events(game: str, players: int, seed: int) -> list[Event]:
    steps: list[Step] = []
    state = get_game(game).new_state(players, seed=seed)
    bots = [make_bot("heuristic", seed + p) for p in range(players)]
    play(state, bots, random.Random(seed), on_step=steps.append)
    return [event for step in steps for event in step.events]


@pytest.mark.parametrize("game", ["cafe", "souvlaki"])
def test_an_events_subject_is_the_seat_its_text_begins_with(game: str) -> None:
    events = [e for e in _events(game, 3, 5) if e.words in SUBJECTS]
    assert len({e.words for e in events}) >= 4  # several wordings met, each many times
    for event in events:
        player = subject_of(event)
        assert player is not None
        assert (event.text_for(SPECTATOR) or "").startswith(f"{seat(player)} "), event.kind
    # every wording `said_together` groups by player has its subject
    assert all(words in SUBJECTS for words, run in RUNS.items() if run is said_together)

"""The action value shared by all games."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """One decision: its integer code in the game's fixed action space and its text notation.

    The code alone identifies the action within a game, so equality and hashing use it.
    Games subclass this to carry the decoded fields (card, chair, ...).
    """

    code: int
    notation: str

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.code == self.code

    def __hash__(self) -> int:
        return self.code

    def __str__(self) -> str:
        return self.notation

"""Errors raised through the game contract. Each names what was wrong, so a user can fix it."""


class KafeneioError(Exception):
    """Base of every error this package raises on purpose."""


class IllegalActionError(KafeneioError):
    """An action that the rules forbid in this state. The state is left unchanged.

    `rule` is the id of the broken rule (e.g. ``CI-T.3``) when one applies.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class ViewerError(KafeneioError):
    """A viewer that is neither a player of the game nor `SPECTATOR`."""


class NotationError(KafeneioError):
    """A text that is not the notation of any action of the game."""


class OptionsError(KafeneioError):
    """A rules option that does not exist or has a value it cannot take."""


class RecordError(KafeneioError):
    """A malformed game record, or one whose actions do not replay.

    `index` is the position (0-based) of the offending action, when the problem is an action;
    `rule` the id of the rule that refused it, when one did.
    """

    def __init__(self, message: str, index: int | None = None, rule: str | None = None) -> None:
        self.index = index
        self.rule = rule
        super().__init__(f"action {index}: {message}" if index is not None else message)


def shown(value: object, limit: int = 60) -> str:
    """`value` as an error message quotes it: its repr, cut to `limit` characters.

    Bad input can be huge or deep (a number of 5,000 digits or a list nested 100,000 deep,
    whose repr Python refuses to make; a megabyte of text): a message names it, briefly."""
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        text = f"<{type(value).__name__} too large to show>"
    return text if len(text) <= limit else text[: limit - 1] + "…"

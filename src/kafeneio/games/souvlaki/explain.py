"""A move in words, and why an action is illegal (the rule it breaks), in words a player
understands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kafeneio.core.actions import Action
from kafeneio.core.errors import IllegalActionError
from kafeneio.core.events import seat
from kafeneio.core.game import CHANCE
from kafeneio.games.souvlaki.actions import (
    ADVERTISE,
    BUY,
    DISCARD,
    DONE,
    FINISH,
    KEEP,
    MAX_QUEUE,
    PASS,
    PICK,
    PLAY,
    RANDOM,
    REDRAW,
    SEND,
    SERVE,
    USE,
    SouvlakiAction,
)
from kafeneio.games.souvlaki.cards import foods_of_code, foods_text
from kafeneio.games.souvlaki.effects import customer_misfit
from kafeneio.games.souvlaki.events import (
    customer_text,
    customer_words,
    foods_words,
    order_words,
    targets_words,
)
from kafeneio.games.souvlaki.legality import pick_refusal, send_refusal, serve_refusal

if TYPE_CHECKING:
    from kafeneio.games.souvlaki.state import SouvlakiState

PHASE_HINTS = {
    "mulligan": ("keep or redraw your starting food cards", "SW-S.6"),
    "maintenance": ("shop maintenance: buy, advertise or done", "SW-1.3"),
    "customers": ("the draft: pick a customer from the row", "SW-2.2"),
    "unforeseen": ("the unforeseen phase: use a card or pass", "SW-3.1"),
    "service": ("customer service: play, serve, send or finish", "SW-4.1"),
}


PLAIN_WORDS = {
    KEEP: "keep the starting food cards",
    REDRAW: "redraw the starting food cards",
    BUY: "buy supplies",
    ADVERTISE: "advertise",
    DONE: "end the shop maintenance",
    PASS: "play no unforeseen card",
    FINISH: "end the service",
    RANDOM: "chance",
}


def action_words(state: SouvlakiState, action: SouvlakiAction) -> str:
    """A legal move in words: the foods it names and the customers it reaches, all public but
    the mover's own cards, which only the mover is told of."""
    kind = action.kind
    if kind in (DISCARD, PLAY):
        foods = foods_words(foods_of_code(action.food))
        return f"discard {foods}" if kind == DISCARD else f"play {foods} into the pool"
    player = state.current_player()
    if kind == PICK:
        card = state.cards.customers[state.row()[action.slot]]
        drafted = order_words(card.order, card.money, card.influence, card.big)
        return f"draft {drafted} from slot {action.slot + 1}"  # two alike: which one
    if kind == SERVE:
        return f"serve {customer_words(state.queue(player)[0])}"
    if kind == SEND:
        customer = state.queue(player)[action.slot]
        return f"send away customer {action.slot + 1}, {customer_words(customer)}"
    if kind == USE:
        return _use_words(state, action)
    return PLAIN_WORDS[kind]


def queue_numbers_words(state: SouvlakiState, action: Action) -> str | None:
    """The customers a move's queue positions name (``send 2``, ``use queue-jump p2.3``), as
    events name them: ``customer 2, phone order GSD 4/2``, ``P2's customer 3, GF 2/2``; None
    for a move that names no position, or one past a queue's end. A queue's numbers change
    when a customer leaves it (`State.numbered_words`)."""
    if not isinstance(action, SouvlakiAction):
        return None
    if action.kind == SEND:
        reached = [(state.current_player(), action.slot)]
    elif action.kind == USE and len(action.targets) >= 2:  # a player, (p,), has no number
        reached = list(zip(action.targets[::2], action.targets[1::2], strict=True))
    else:
        return None
    named = []
    for owner, position in reached:
        queue = state.queue(owner)
        if not 0 <= position < len(queue):
            return None
        whose = "" if action.kind == SEND else f"{seat(owner)}'s "
        customer = customer_text(state.cards, queue[position])
        named.append(f"{whose}customer {position + 1}, {customer}")
    return " and ".join(named)


def _use_words(state: SouvlakiState, action: SouvlakiAction) -> str:
    name = state.cards.unforeseen[action.card].name
    on = targets_words(action.targets, state.queue)
    return f"play {name} on {on}" if on else f"play {name}"


def why_illegal(state: SouvlakiState, action: Any) -> IllegalActionError:
    if not isinstance(action, SouvlakiAction):
        return IllegalActionError(f"{action!r} is not a Souvlaki Wars action")
    if state.is_terminal():
        return IllegalActionError(f"{action}: the game is over", "SW-5.2")
    player = state.current_player()
    if player == CHANCE or action.kind == RANDOM:
        return _chance(state, action, player)
    if state.food_count(player) > state.options.hand_limit:
        return _hand_limit(state, action, player)
    if action.kind == DISCARD:
        return IllegalActionError(
            f"{action}: cards are discarded only from a hand over the limit of "
            f"{state.options.hand_limit}",
            "SW-1.4",
        )
    phase = state.phase
    explain = {
        "mulligan": _mulligan,
        "maintenance": _maintenance,
        "customers": _draft,
        "unforeseen": _unforeseen,
        "service": _service,
    }[phase]
    return explain(state, action, player)


def _wrong_phase(state: SouvlakiState, action: SouvlakiAction) -> IllegalActionError:
    if action.kind == USE:
        if state.options.first_game:
            return IllegalActionError(
                f"{action}: first-game mode plays no unforeseen cards", "SW-S.5"
            )
        return IllegalActionError(
            f"{action}: unforeseen cards are played in phase 3, Unforeseen Factors", "SW-3.1"
        )
    hint, rule = PHASE_HINTS[state.phase]
    return IllegalActionError(f"{action}: it is {hint}", rule)


def _chance(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    rule = "SW-1.4"
    card = state.pending_unforeseen
    if card >= 0:
        rule = state.cards.unforeseen[card].rule or "SW-3.1"
    if player != CHANCE:
        return IllegalActionError(
            f"{action}: only chance picks a random food card, and none is being picked", "SW-E.11"
        )
    if action.kind != RANDOM:
        return IllegalActionError(f"{action}: a random food card is being picked first", rule)
    victim = state.chance_victim
    return IllegalActionError(
        f"{action}: {seat(victim)} holds no {foods_text(foods_of_code(action.food))} card",
        rule,
    )


def _hand_limit(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    limit = state.options.hand_limit
    if action.kind != DISCARD:
        return IllegalActionError(
            f"{action}: {seat(player)} holds {state.food_count(player)} food cards and must "
            f"first discard down to {limit}",
            "SW-1.4",
        )
    return IllegalActionError(
        f"{action}: {seat(player)} holds no {foods_text(foods_of_code(action.food))} card",
        "SW-1.4",
    )


def _mulligan(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    return _wrong_phase(state, action)  # keep and redraw are always legal here


def _maintenance(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    if action.kind in (BUY, ADVERTISE):
        refusal = state.purchase_refusal(player, action.kind)
        if refusal is not None:
            rule, reason = refusal
            return IllegalActionError(f"{action}: {reason}", rule)
    return _wrong_phase(state, action)


def _draft(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    if action.kind == PICK:
        return pick_error(action.slot + 1, state.row()) or _wrong_phase(state, action)
    if action.kind in (PASS, DONE, FINISH):
        return IllegalActionError(f"{action}: picking a customer is mandatory", "SW-2.3")
    return _wrong_phase(state, action)


def _unforeseen(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    if action.kind != USE:
        return _wrong_phase(state, action)
    kind = state.cards.unforeseen[action.card]
    if not state.unforeseen_count(player, action.card):
        return IllegalActionError(f"{action}: {kind.name} is not in your hand", "SW-3.1")
    target, targets = kind.target, action.targets
    rule = kind.rule or "SW-3.2"
    if target.chooses_player:
        if targets[0] >= state.num_players:
            return IllegalActionError(f"{action}: there is no {seat(targets[0])}", "SW-3.2")
        return IllegalActionError(f"{action}: {kind.name} targets an opponent, not you", "SW-3.2")
    for i in range(0, len(targets), 2):
        owner, position = targets[i], targets[i + 1]
        if owner >= state.num_players or position >= state.queue_length(owner):
            return IllegalActionError(
                f"{action}: there is no customer p{owner + 1}.{position + 1}", "SW-3.2"
            )
        customer = state.queue(owner)[position]
        misfit = customer_misfit(target, player, owner, position, customer)
        if misfit:
            return IllegalActionError(
                f"{action}: customer p{owner + 1}.{position + 1} {misfit}", rule
            )
    return IllegalActionError(f"{action}: the two customers must be in different queues", rule)


def pick_error(number: int, row: Sequence[int]) -> IllegalActionError | None:
    """Why ``pick number`` (as typed, from 1; any number) drafts nobody from `row`, the draft
    row's customers' kinds (`pick_refusal`); None when it drafts one."""
    refusal = pick_refusal(number - 1, row)
    if refusal is None:
        return None
    rule, reason = refusal
    return IllegalActionError(f"pick {number}: {reason}", rule)


def _service(state: SouvlakiState, action: SouvlakiAction, player: int) -> IllegalActionError:
    queue = state.queue(player)
    refusal = None
    if action.kind == PLAY:
        refusal = state.play_refusal(player, action.food)
    elif action.kind == SERVE:
        refusal = serve_refusal(queue, state.pool)
    elif action.kind == SEND:
        refusal = send_refusal(action.slot, len(queue), state.options.send_away, MAX_QUEUE)
    if refusal is None:
        return _wrong_phase(state, action)
    rule, reason = refusal
    return IllegalActionError(f"{action}: {reason}", rule)

"""The random-simulation harness: checks the game contract at every state of random games.

After OpenSpiel's random-simulation test and TAG's forward-model tester. Any game that
implements the contract can be run through `check_random_games`; a failure raises
`ConformanceError` naming the game, the seed, the state index and the broken property.

A game may offer hooks that let the harness check its hidden information more closely (each is
used when the state has it): `card_counts()` (the cards of each deck in the game, wherever they
are: a sample and a sample of a sample hold the same), `inconsistencies()` (why the state is an
impossible world: checked at every state and in every sample) and `knowledge(viewer)` (what the
viewer knows of other players' hidden pieces, as (owner, piece) pairs: in a sample for player
p, no other player knows of a third player's pieces anything that p does not know).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from kafeneio.core.actions import Action
from kafeneio.core.errors import IllegalActionError, KafeneioError, NotationError
from kafeneio.core.events import Event, seat
from kafeneio.core.game import CHANCE, SPECTATOR, TERMINAL, Game, State
from kafeneio.core.machine_checks import check_machine_observations
from kafeneio.core.play import Step, play, random_player
from kafeneio.core.record import replay

SAMPLES = 2
"""Samples checked for each player at every state (each with a sample of it for another)."""


class ConformanceError(AssertionError):
    """A property of the contract that a state broke."""


@runtime_checkable
class CountsCards(Protocol):
    def card_counts(self) -> Mapping[str, int]:
        """How many cards of each deck are in the game, wherever they are."""


@runtime_checkable
class ChecksItself(Protocol):
    def inconsistencies(self) -> list[str]:
        """Why the state is an impossible world; empty if it is a possible one."""


@runtime_checkable
class TellsKnowledge(Protocol):
    def knowledge(self, viewer: int) -> Sequence[tuple[int, Hashable]]:
        """What `viewer` knows of other players' hidden pieces: (owner, piece) pairs."""


def check_state(state: State, rng: random.Random, *, replay_record: bool = True) -> None:
    """Check every property of the contract at one state; raises `ConformanceError`."""
    game = state.game
    before = copy.deepcopy(state)  # independent of `clone`, which is under test too
    _check_declared(state, "the state")
    _check_possible(state, "the state")
    _expect(state.clone() == state, "a clone is equal to its original")
    player = state.current_player()
    actions = list(state.legal_actions())
    if state.is_terminal():
        _expect(player == TERMINAL, "a terminal state has no player to move")
        _expect(not actions, "a terminal state has no legal actions")
        _check_results(state)
        return
    _expect(
        0 <= player < state.num_players or player == CHANCE, f"bad current player index {player}"
    )
    _expect(bool(actions), "a live state has legal actions")
    if player == CHANCE:
        _check_chance(state, actions)
    codes = [a.code for a in actions]
    _expect(len(set(codes)) == len(codes), "legal actions are unique")
    for action in actions:
        _expect(0 <= action.code < game.info.num_distinct_actions, f"{action} code in range")
        _expect(game.parse_action(action.notation) == action, f"{action} notation parses back")
        _expect(game.decode_action(action.code) == action, f"{action} code decodes back")
        words = state.action_words(action)
        _expect(isinstance(words, str) and bool(words.strip()), f"{action} has words")
        child = state.clone()
        events = child.apply(action)
        if state != before:
            changed = ", ".join(sorted(_changed_fields(before, state)))
            raise ConformanceError(
                f"applying {action} to a clone leaves the original unchanged (changed: "
                f"{changed}; a field shared between clones, or set without being declared?)"
            )
        _check_events(events, state.num_players, action)
    mask = state.legal_action_mask()
    _expect(sum(mask) == len(actions), "the legal-action mask marks exactly the legal actions")
    _check_illegal_is_refused(state, set(codes), rng)
    _expect(state == before, "refusing an illegal action changes nothing")
    for viewer in range(state.num_players):
        _check_determinize(state, viewer, rng)
    # One sample for the spectator (a Souvlaki spectator's samples were impossible worlds once,
    # unseen here), from a generator of its own: the games played and checked stay the ones
    # the shared generator has always made.
    _check_determinize(state, SPECTATOR, random.Random(state.ply), samples=1)
    check_machine_observations(state, rng)
    if replay_record:
        _expect(replay(game, state.to_record()) == state, "the record replays to an equal state")


def check_random_games(
    game: Game,
    num_players: int,
    seeds: range,
    options: Mapping[str, Any] | None = None,
    *,
    max_actions: int = 10_000,
) -> int:
    """Play one random game per seed, checking every state. Returns the number of states."""
    checked = 0
    if options:
        game = game.with_options(options)
    for seed in seeds:
        state = game.new_state(num_players, seed=seed)
        try:
            checked += check_random_play(state, random.Random(seed), max_actions)
        except ConformanceError as err:
            raise ConformanceError(f"{game.info.name} seed {seed} {err}") from None
        if not state.is_terminal():
            raise ConformanceError(f"{game.info.name} seed {seed}: no end in {max_actions} actions")
    return checked


def check_random_play(state: State, rng: random.Random, max_actions: int = 10_000) -> int:
    """Play random actions from `state` (through the one play loop: chance outcomes with their
    probabilities), checking every state, up to the end or `max_actions`. Returns the number
    of states checked."""
    checked = 0

    longest = state.game.info.max_game_length

    def check(_: Step | None = None) -> None:
        nonlocal checked
        try:
            _expect(
                state.ply <= longest,
                f"the game is {state.ply} actions long, over its declared max_game_length "
                f"({longest})",
            )
            check_state(state, rng)
        except ConformanceError as err:
            raise ConformanceError(f"state {checked}: {err}") from None
        checked += 1

    check()
    seats = [random_player(rng)] * state.num_players
    play(state, seats, rng, on_step=check, max_steps=max_actions)
    return checked


def _check_illegal_is_refused(state: State, legal: set[int], rng: random.Random) -> None:
    size = state.game.info.num_distinct_actions
    for _ in range(3):
        code = rng.randrange(size)
        if code in legal:
            continue
        try:
            action = state.game.decode_action(code)
        except NotationError:
            continue
        try:
            state.apply(action)
        except IllegalActionError:
            continue
        raise ConformanceError(f"the illegal action {action} was accepted")


def _check_determinize(
    state: State, player: int, rng: random.Random, samples: int = SAMPLES
) -> None:
    """`samples` samples for `player` (a player or `SPECTATOR`), and in each a sample for a
    player drawn at random, are possible worlds that keep what their viewer sees."""
    seen = state.observation(player)
    for _ in range(samples):
        sample = state.determinize(player, rng)
        _check_declared(sample, f"a sample for {_viewer(player)}")
        _check_sample(state, sample, player, f"a sample for {_viewer(player)}")
        _expect(sample.current_player() == state.current_player(), "determinize keeps the turn")
        try:
            sample.to_record()
        except KafeneioError:
            pass
        else:
            raise ConformanceError(
                "a determinized sample has a record that would rebuild the truth"
            )
        _expect(sample.observation(player) == seen, f"determinize keeps {_viewer(player)}'s view")
        if player == state.current_player():
            _check_same_words(state, sample, f"a sample for {seat(player)}")
        # Search determinizes again inside a sample, for another player's turn.
        other = rng.randrange(state.num_players)
        nested = sample.determinize(other, rng)
        where = f"a sample for {seat(other)} of a sample for {_viewer(player)}"
        _check_sample(sample, nested, other, where)
        _expect(nested.observation(other) == sample.observation(other), f"{where} keeps the view")


def _viewer(viewer: int) -> str:
    """A viewer as messages name it: P1-P4, or the spectator."""
    return "the spectator" if viewer == SPECTATOR else seat(viewer)


def _check_same_words(truth: State, sample: State, where: str) -> None:
    """The mover's moves read the same in every world the mover thinks possible: their words
    tell nothing the mover does not know."""
    for action in truth.legal_actions():
        words = sample.action_words(action)
        _expect(words == truth.action_words(action), f"in {where}, {action} reads {words!r}")


def _check_sample(truth: State, sample: State, player: int, where: str) -> None:
    """`sample` is a possible world with as many cards as `truth`, and nobody in it knows of a
    third player's hidden pieces what `player` does not."""
    _check_possible(sample, where)
    if isinstance(truth, CountsCards) and isinstance(sample, CountsCards):
        counts, sampled = dict(truth.card_counts()), dict(sample.card_counts())
        _expect(counts == sampled, f"{where} holds {sampled} cards, not {counts}")
    if not (isinstance(truth, TellsKnowledge) and isinstance(sample, TellsKnowledge)):
        return
    known = Counter(truth.knowledge(player))
    for viewer in range(truth.num_players):
        if viewer != player:
            told = Counter(
                (owner, piece)
                for owner, piece in sample.knowledge(viewer)
                if owner not in (player, viewer)
            )
            beyond = sorted(told - known, key=repr)
            _expect(
                not beyond,
                f"in {where}, {seat(viewer)} knows {beyond[0] if beyond else ''} "
                f"which {_viewer(player)} does not",
            )


def _check_declared(state: State, where: str) -> None:
    """Clone and equality follow the declared fields: an attribute set without being declared
    would be shared between clones, or left out of equality."""
    undeclared = set(vars(state)) - type(state).declared
    _expect(
        not undeclared,
        f"{where} has attributes that are not declared fields: {', '.join(sorted(undeclared))} "
        "(declare each with its type on the class)",
    )


def _changed_fields(before: State, after: State) -> list[str]:
    return [
        name
        for name in sorted(set(vars(before)) | set(vars(after)))
        if getattr(before, name, None) != getattr(after, name, None)
    ]


def _check_chance(state: State, actions: Sequence[Action]) -> None:
    """A chance node's outcomes are its legal actions, each with a probability above 0, and
    their probabilities sum to 1."""
    outcomes = state.chance_outcomes()
    _expect(
        sorted(a.code for a, _ in outcomes) == sorted(a.code for a in actions),
        "a chance node's outcomes are its legal actions",
    )
    _expect(all(p > 0 for _, p in outcomes), "every chance outcome has a probability above 0")
    total = sum(p for _, p in outcomes)
    _expect(abs(total - 1.0) < 1e-9, f"chance probabilities sum to 1, not {total:g}")


def _check_events(events: Sequence[Event], players: int, action: Action) -> None:
    """Every event of `action` is told to every viewer in words, or not at all (None)."""
    for event in events:
        for viewer in [*range(players), SPECTATOR]:
            try:
                text = event.text_for(viewer)
            except Exception as err:  # a game's words function, under test
                raise ConformanceError(
                    f"the {event.kind!r} event of {action} cannot be told to "
                    f"{_viewer(viewer)}: {type(err).__name__}: {err}"
                ) from None
            _expect(
                text is None or isinstance(text, str),
                f"the {event.kind!r} event of {action} is told as {type(text).__name__}, "
                "not text or None",
            )


def _check_possible(state: State, where: str) -> None:
    if isinstance(state, ChecksItself):
        problems = state.inconsistencies()
        _expect(not problems, f"{where} is an impossible world: {'; '.join(problems)}")


def _check_results(state: State) -> None:
    n = state.num_players
    scores, winners, returns = state.scores(), state.winners(), state.returns()
    _expect(len(scores) == n and len(returns) == n, "one score and one return per player")
    _expect(bool(winners) and all(0 <= w < n for w in winners), "winners are players")
    _expect(len(set(winners)) == len(winners), "winners are unique")
    _expect(abs(sum(returns) - 1.0) < 1e-9, "returns sum to 1")


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise ConformanceError(what)

"""The one hook between generic bots and what a game's players know about playing it.

Each game with play knowledge has a module in this package (`cafe`, `souvlaki`) exposing a
`Knowledge`: an evaluation of a position for every player, a rule-of-thumb policy and a cheap
policy for search rollouts. Generic bots (greedy, heuristic, mcts) ask `knowledge_for(game)`
and never test a game's name themselves. A game without a module gets `ScoreKnowledge`: the
score lead as evaluation and one-step greedy play.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Protocol, cast

from kafeneio.core import CHANCE, Action, State, sample_chance

MODULES = {"cafe": "kafeneio.bots.cafe", "souvlaki": "kafeneio.bots.souvlaki"}
"""Game name -> the bot module holding that game's `KNOWLEDGE`."""


class Knowledge(Protocol):
    """What the bots know of one game. Every method reads only what `state`'s current player
    (or, for `evaluate`, anyone) may see: inside search `state` is a determinized sample."""

    search_defaults: Mapping[str, float]
    """The game's own defaults of MCTS parameters (`c`, `bias`, `guide`, and `depth`: rollout
    decisions before the evaluation cut-off; see bots/mcts.py)."""

    def evaluate(self, state: State) -> list[float]:
        """Each player's estimated win chance (in [0, 1], summing to 1) at `state`; the game's
        returns once it is over."""
        ...

    def settled(self, state: State) -> bool:
        """A position where `evaluate` can be trusted (no gains or losses half counted)."""
        ...

    def estimate(self, state: State) -> list[float]:
        """A cheaper `evaluate`, for ordering moves (search priors) and for greedy play."""
        ...

    def policy(self, state: State, rng: random.Random) -> Action:
        """The best rule-of-thumb action for the current player of `state` (not a chance node)."""
        ...

    def rollout(self, state: State, rng: random.Random) -> Action:
        """A cheap, reasonable action for the current player, for search rollouts."""
        ...


class RoutineKnowledge(Protocol):
    """An optional hook of a game's `Knowledge`: decisions that are not worth a search."""

    def routine(self, state: State, rng: random.Random) -> Action | None:
        """The action to play at once when the decision of `state` is routine (search would
        spend its budget there for little), else None (search it)."""
        ...


def routine_action(knowledge: Knowledge, state: State, rng: random.Random) -> Action | None:
    """The game's own action for a routine decision, or None: search it. A game whose knowledge
    has no `routine` hook (Café International) searches every decision."""
    hook = getattr(knowledge, "routine", None)
    if hook is None:
        return None
    return cast(RoutineKnowledge, knowledge).routine(state, rng)


class RootPriorKnowledge(Protocol):
    """An optional hook of a game's `Knowledge`: better priors for the search's root."""

    def root_priors(self, state: State, rng: random.Random) -> dict[int, float] | None:
        """The mover's prior (a win chance) of each legal action of `state` by action code,
        worked out with more care than the one-step `estimate` (the search's root is rated
        once a decision), or None: rate it one step ahead as every other node."""
        ...


def root_priors(knowledge: Knowledge, state: State, rng: random.Random) -> dict[int, float] | None:
    """The game's priors for a search root, or None (no hook, or not at this decision)."""
    hook = getattr(knowledge, "root_priors", None)
    if hook is None:
        return None
    return cast(RootPriorKnowledge, knowledge).root_priors(state, rng)


class RootCandidateKnowledge(Protocol):
    """An optional hook of a game's `Knowledge`: the actions its heuristic ranks best."""

    def root_candidates(self, state: State, rng: random.Random, count: int) -> list[int] | None:
        """The codes of the current player's actions that begin the heuristic's `count` best
        plans by its own judgement, best first, or None (no such ranking here)."""
        ...


def root_candidates(
    knowledge: Knowledge, state: State, rng: random.Random, count: int
) -> list[int] | None:
    """The game heuristic's best actions for a search root (`RootCandidateKnowledge`), or None
    (no hook)."""
    hook = getattr(knowledge, "root_candidates", None)
    if hook is None:
        return None
    return cast(RootCandidateKnowledge, knowledge).root_candidates(state, rng, count)


class NodePriorKnowledge(Protocol):
    """An optional hook of a game's `Knowledge`: cheap priors for the nodes inside a search."""

    def node_priors(self, state: State, rng: random.Random) -> Sequence[float] | None:
        """The mover's prior (a win chance) of each legal action of `state`, in the order of
        `legal_actions`, worked out without a copy of the state for each action (every new
        node of a search is rated once), or None: rate it one step ahead on copies."""
        ...


def node_priors(knowledge: Knowledge, state: State, rng: random.Random) -> Sequence[float] | None:
    """The game's cheap priors for a node inside the search tree, or None (no hook, or not
    at this decision)."""
    hook = getattr(knowledge, "node_priors", None)
    if hook is None:
        return None
    return cast(NodePriorKnowledge, knowledge).node_priors(state, rng)


def playout_bot(knowledge: Knowledge) -> str:
    """The bot that finishes sampled games in flat Monte-Carlo analysis: the game's optional
    `playout` attribute (the strongest bot that plays a whole game in a few milliseconds),
    else ``heuristic``."""
    return str(getattr(knowledge, "playout", "heuristic"))


def softmax(values: Sequence[float], temperature: float) -> list[float]:
    """Win chances from per-player strengths: higher is better, `temperature` is how many
    points of lead make a win e (2.7) times as likely."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def after(state: State, action: Action, rng: random.Random) -> State:
    """A copy of `state` with `action` applied and any chance that follows resolved."""
    child = state.clone()
    child.apply(action)
    while child.current_player() == CHANCE:
        child.apply(sample_chance(child, rng))
    return child


def best_by(actions: Sequence[Action], value: dict[Action, float], rng: random.Random) -> Action:
    """The action of highest value, ties broken at random."""
    top = max(value[a] for a in actions)
    return rng.choice([a for a in actions if value[a] == top])


class ScoreKnowledge:
    """For a game without a bot module: the score lead, and greedy play on it."""

    search_defaults: Mapping[str, float] = MappingProxyType({"depth": 20})

    def evaluate(self, state: State) -> list[float]:
        if state.is_terminal():
            return state.returns()
        return softmax([float(s) for s in state.scores()], 10.0)

    def estimate(self, state: State) -> list[float]:
        return self.evaluate(state)

    def settled(self, state: State) -> bool:
        return True

    def policy(self, state: State, rng: random.Random) -> Action:
        me = state.current_player()
        sample = state.determinize(me, rng)
        actions = sample.legal_actions()
        value = {a: self.evaluate(after(sample, a, rng))[me] for a in actions}
        return best_by(actions, value, rng)

    def rollout(self, state: State, rng: random.Random) -> Action:
        return rng.choice(state.legal_actions())


_LOADED: dict[str, Knowledge] = {}


def knowledge_for(state_or_name: State | str) -> Knowledge:
    """The play knowledge of a game (by state or name), loaded once."""
    name = state_or_name if isinstance(state_or_name, str) else state_or_name.game.info.name
    if name not in _LOADED:
        module = MODULES.get(name)
        found: Knowledge = importlib.import_module(module).KNOWLEDGE if module else ScoreKnowledge()
        _LOADED[name] = found
    return _LOADED[name]


class LuckTally(Protocol):
    """How lucky each player's draws have been so far in one sampled world of a search."""

    def before(self, state: State, mover: int) -> None:
        """Note `state` before `mover`'s decision is applied to it."""
        ...

    def after(self, state: State, mover: int, action: Action) -> None:
        """Count the draws of `action`, `mover`'s decision just applied to `state`."""
        ...

    def mark(self) -> object:
        """The tally as it stands, for `correction` to count only the draws after it."""
        ...

    def correction(self, player: int, since: object) -> float:
        """What the draws since `since` (a `mark`) added to `player`'s reward by luck alone: a
        sum whose expectation is 0 however the world was sampled and played."""
        ...


class LuckKnowledge(Protocol):
    """An optional hook of a game's `Knowledge`: a control variate for search rewards."""

    def luck(self, state: State, me: int) -> Callable[[], LuckTally] | None:
        """A maker of a fresh `LuckTally` for each world sampled in the search of `state` by
        `me`, or None (no luck measured here)."""
        ...


def luck_meter(knowledge: Knowledge, state: State, me: int) -> Callable[[], LuckTally] | None:
    """The game's luck tally maker for a search of `state` (`LuckKnowledge`), or None."""
    hook = getattr(knowledge, "luck", None)
    if hook is None:
        return None
    return cast(LuckKnowledge, knowledge).luck(state, me)

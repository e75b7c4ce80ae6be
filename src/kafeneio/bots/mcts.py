"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples a world with `determinize` from the searching player's information, so
the search never reads what that player cannot see. One tree is shared by all samples: a node is
a sequence of decisions from the root, its children are keyed by action code, and a child is
selected by UCB1 over the children legal in this sample, with its availability count in place of
the parent's visits. Every node stores the reward of the player who chose it (max^n for more than
two players). Chance nodes inside the tree are sampled with their real probabilities.

The game's bot module (`kafeneio.bots.knowledge`) guides the search three ways:
- progressive bias: a new node rates its actions once for the mover (at the root by the game's
  `root_priors` where it has them: Café International rates a turn's first decision by the
  best whole turn it begins, else one step ahead on copies; inside the tree by the game's cheap
  `node_priors` where it has them, else one step ahead), expands them best first, and adds
  ``bias * prior / (visits + 1)`` to their UCB score; with a `width` a node searches only
  that many of its actions, the best by prior (the guide's choice among them); with `widen`
  a node below the root adds its actions best first as its visits grow (progressive widening);
- rollouts: after the tree, `depth` decisions of the game's cheap rollout policy, and on to a
  position the game calls settled (Souvlaki Wars: the next draft, when the service's gains and
  losses are counted);
- cut-off: then the game's evaluation (win chances in [0, 1]) is the reward.

With `paired` worlds, the root's children are compared on common random numbers: the n-th
visit of each child plays in the search's n-th sampled world, with that world's rollout luck,
and each child is valued as the most visited child's mean plus its lead over that child in the
worlds both met.
The tree's shape below the root can be set too: `inner_c` explores there with its own
constant, `branch` stops the tree that many decisions deep (1: flat Monte Carlo over the root's
actions), and with `rivals` the other players decide inside the tree by the rollout policy, so
that the tree branches only at the searcher's own decisions.

A turn's second decision is searched from the subtree the first decision's search grew under
the action it chose (`KeptTree`), or with `follow` played by the game's heuristic without a
search. With `luck`, each reward is corrected by the luck of the draws in its sampled world
(the game's `luck` hook), a control variate whose expectation is 0: a node's mean stays what it
was and spreads less. Why this variant, and the measurements behind it, are in docs/bots.md.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kafeneio.bots.base import ActionEstimate, Analysis, Bot, seeded_rng
from kafeneio.bots.knowledge import (
    Knowledge,
    LuckTally,
    after,
    knowledge_for,
    luck_meter,
    node_priors,
    root_candidates,
    root_priors,
    routine_action,
)
from kafeneio.bots.spec import is_real, is_search_iterations, is_search_seconds, is_whole
from kafeneio.core import CHANCE, JSON, Action, KafeneioError, State, sample_chance

DEFAULT_SECONDS = 0.2
WALL_FACTOR = 5
"""A time budget counts the search thread's CPU time, so that a bot plays as well on a busy
machine as on an idle one (strength measured in parallel is the strength a player meets); the
wall clock still stops a search at this many times the budget."""
CLOCK_GAP = 0.001
"""A search reads its CPU clock at most once in this many seconds of the wall clock."""
SETTLING_FACTOR = 8
"""A rollout goes on past its depth to a settled position, but at most this many times as far."""


@dataclass
class Node:
    """A decision sequence from the root; `value` sums the rewards of `mover` (who chose it)."""

    mover: int
    visits: int = 0
    value: float = 0.0
    squares: float = 0.0
    """The sum of the rewards' squares: with `value`, their spread (an analysis's margins)."""
    availability: int = 1
    prior: float = 0.5
    children: dict[int, Node] = field(default_factory=dict)
    children_prior: dict[int, float] = field(default_factory=dict)
    """Action code -> the one-step evaluation for the mover (the progressive bias)."""
    rated: bool = False
    """The priors of this node's children have been worked out."""
    favoured: int = -1
    """At the root: the code of the heuristic's choice, whose prior is raised by `guide`."""
    root: bool = False
    """The search's root, whose priors the game may work out with more care (`root_priors`)."""
    focus: frozenset[int] = frozenset()
    """At the root, with a `focus`: the codes of the actions the game's heuristic ranks best
    (and its choice); the root searches only these (empty: no focus)."""
    within: frozenset[int] = frozenset()
    """With a `width`: the codes of the actions this node searches, the best by prior (empty:
    every legal action)."""
    by_world: list[float] | None = None
    """With `paired` worlds, at a child of a fresh root: the running sums of its rewards visit
    by visit (the n-th entry sums the first n, met in the search's first n worlds), so that
    another child can be compared with it on the worlds both met."""

    def mean(self) -> float:
        return self.value / self.visits if self.visits else self.prior


@dataclass(frozen=True)
class SearchSettings:
    """The search parameters of one decision: those given to the bot, else the game's."""

    c: float = 0.7
    inner_c: float = -1.0
    """The exploration constant below the root (negative: `c`)."""
    branch: int = 0
    """How many decisions deep the tree branches (0: no limit); below, the rollout decides."""
    rivals: float = 0.0
    """Whether the other players decide inside the tree by the game's rollout policy (1, no
    branching at their decisions) or by UCB on their own rewards (0, max^n)."""
    bias: float = 1.0
    depth: int = 8
    focus: int = 0
    """At the root: search only the first decisions of the game heuristic's `focus` best whole
    turns by its own judgement (and its choice); 0: every action."""
    width: int = 0
    """How many of a node's actions are searched, the best by prior (the guide's choice among
    them); 0: every legal action."""
    widen: float = 0.0
    """Progressive widening below the root: a node reached `n` times searches its
    ``1 + widen * sqrt(n)`` actions of best prior, adding the next only as its visits grow, so a
    decision's value is not the mean over every reply tried once; 0: every action at once."""
    guide: float = 0.0
    paired: float = 0.0
    """Whether the root's children are compared on paired worlds: the n-th visit of every
    child of the root plays in the search's n-th world (the same bag, the same rollout luck),
    and a child is valued by its lead over the most visited child in the worlds both met, so
    that the draw's luck, common to both, drops out: 1 yes, 0 no (a fresh world each
    iteration)."""
    reuse: float = 0.0
    """Whether a decision's search starts from the subtree the search before it grew under
    the action it chose, when the same player decides again with nothing drawn between
    (a Café turn's second decision): 1 yes, 0 no. Off unless the game's defaults turn it on
    where it was measured (a change of play is measured before it becomes a default)."""
    luck: float = 0.0
    """Whether each reward is corrected by the luck of the draws in its sampled world (the
    game's `luck` hook): 1 yes, 0 no."""
    follow: float = 0.0
    """Whether such a decision (the same player again, nothing drawn or revealed since their
    last one) is played by the game's heuristic (`Knowledge.policy`) without a search: 1 yes,
    0 no. It takes the place of `reuse` where both are on."""

    @classmethod
    def of(cls, knowledge: Knowledge, given: dict[str, float], players: int = 2) -> SearchSettings:
        """The parameters `given`, else the game's defaults for this many `players` (its
        optional `search_defaults_by_players`), else its `search_defaults`, else the class's."""
        by_players = getattr(knowledge, "search_defaults_by_players", {})
        found = {**knowledge.search_defaults, **by_players.get(players, {}), **given}
        depth = int(found.pop("depth", cls.depth))
        width = int(found.pop("width", cls.width))
        focus = int(found.pop("focus", cls.focus))
        branch = int(found.pop("branch", cls.branch))
        floats = {name: float(value) for name, value in found.items()}
        return cls(depth=depth, width=width, focus=focus, branch=branch, **floats)


class Budget:
    """A search's time budget in its thread's CPU time, with the wall clock stopping it at
    `WALL_FACTOR` times the budget.

    Reading a thread's CPU clock costs far more than reading the wall clock (about 18 µs after
    a stretch of work on this machine's kernel, against 0.1 µs), and a thread's CPU time never
    runs ahead of the wall clock; so the CPU clock is read only once the wall clock shows that
    the budget may be spent, and then again only after as much wall time as the CPU budget has
    left (at least `CLOCK_GAP`)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.start = time.perf_counter()
        self.cpu_start = time.thread_time()
        self.wall_limit = self.start + WALL_FACTOR * seconds
        self.next_reading = self.start + seconds

    def left(self) -> bool:
        """Whether the search is still within its budget."""
        now = time.perf_counter()
        if now < self.next_reading:
            return True
        if now >= self.wall_limit:
            return False
        spent = time.thread_time() - self.cpu_start
        self.next_reading = now + max(CLOCK_GAP, self.seconds - spent)
        return spent < self.seconds


@dataclass(frozen=True)
class Continuation:
    """The decision an action leads to when the same player decides again with nothing drawn
    or revealed between (a Café turn's second guest): that player, with exactly the
    observation they had in the searched state once the action was applied. Only the mover's
    observation is kept, never the state."""

    player: int
    expected: JSON

    @classmethod
    def after(cls, state: State, action: Action) -> Continuation | None:
        """The decision `action` leads to in `state`, if the same player takes it."""
        me = state.current_player()
        following = state.clone().quiet()
        following.apply(action)
        if following.current_player() != me:
            return None
        return cls(me, following.observation(me))

    def matches(self, state: State) -> bool:
        """Whether `state` is that decision."""
        player = self.player
        return state.current_player() == player and state.observation(player) == self.expected


@dataclass(frozen=True)
class KeptTree:
    """The subtree a search grew under the action it chose, kept for the mover's next decision.
    It is valid while that decision is the one the action led to, with nothing drawn or
    revealed between: the same player to move with exactly the observation they had in the
    searched state once the action was applied. Every sample the subtree saw is then still a
    possible world. Only the mover's observation is kept, never the state."""

    decision: Continuation
    node: Node

    @classmethod
    def after(cls, state: State, action: Action, root: Node, reuse: float) -> KeptTree | None:
        """The subtree under `action` of `root` (the search of `state`), if worth keeping."""
        node = root.children.get(action.code)
        if not reuse or node is None or not node.children:
            return None
        decision = Continuation.after(state, action)
        return None if decision is None else cls(decision, node)

    def root_for(self, state: State) -> Node | None:
        """The kept subtree as the root of the search of `state`, or None if `state` is not
        the decision it was kept for."""
        if not self.decision.matches(state):
            return None
        self.node.root = True
        return self.node


class MctsBot(Bot):
    """ISMCTS with a budget of `iterations`, or `seconds` a decision (default 0.2 s of the search
    thread's CPU time), whichever runs out first; `c` is the UCB exploration constant, `bias`
    the weight of the one-step prior, `depth` the rollout length before the evaluation cut-off
    (default: the game's), `width` how many of a node's actions are searched, the best by prior
    (default: the game's; 0: all), `widen` how fast a node below the root adds actions
    (0: all at once), `guide` what the game heuristic's own choice at the root adds to its
    prior, `paired` whether the root's children meet the same worlds in the same order,
    `reuse` (default: the game's) whether `choose` starts from the subtree kept from the
    mover's decision before (`KeptTree`), `inner_c` the exploration constant below the root
    (default: `c`), `branch` how many decisions deep the tree branches (0: no limit), `rivals`
    whether the other players decide inside the tree by the rollout policy, `follow` whether
    the game's heuristic plays a decision that continues the bot's last one (`Continuation`),
    `luck` whether rewards are corrected by the luck of the draws (the game's `luck` hook)."""

    name = "mcts"

    def __init__(
        self,
        seed: int,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float | None = None,
        bias: float | None = None,
        depth: int | None = None,
        width: int | None = None,
        focus: int | None = None,
        widen: float | None = None,
        guide: float | None = None,
        paired: bool | None = None,
        inner_c: float | None = None,
        reuse: bool | None = None,
        rivals: bool | None = None,
        branch: int | None = None,
        follow: bool | None = None,
        luck: bool | None = None,
    ) -> None:
        if iterations is not None and not is_search_iterations(iterations):
            raise KafeneioError(f"mcts: iterations must be a whole number >= 1, not {iterations!r}")
        if seconds is not None and not is_search_seconds(seconds):
            raise KafeneioError(f"mcts: seconds must be a finite number > 0, not {seconds!r}")
        if depth is not None and (not is_whole(depth) or depth < 0):
            raise KafeneioError(f"mcts: depth must be a whole number >= 0, not {depth!r}")
        for label, count in (("width", width), ("focus", focus), ("branch", branch)):
            if count is not None and (not is_whole(count) or count < 0):
                raise KafeneioError(f"mcts: {label} must be a whole number >= 0, not {count!r}")
        flags = (
            ("paired", paired),
            ("reuse", reuse),
            ("rivals", rivals),
            ("follow", follow),
            ("luck", luck),
        )
        for label, flag in flags:
            if flag is not None and not isinstance(flag, bool):
                raise KafeneioError(f"mcts: {label} must be true or false, not {flag!r}")
        numbers = (("c", c), ("inner_c", inner_c), ("bias", bias), ("widen", widen))
        for label, number in (*numbers, ("guide", guide)):
            if number is not None and (not is_real(number) or not 0 <= number < math.inf):
                raise KafeneioError(f"mcts: {label} must be a finite number >= 0, not {number!r}")
        self.rng = seeded_rng(seed)
        self.iterations = iterations
        self.seconds = seconds if seconds is not None or iterations is not None else DEFAULT_SECONDS
        self.timed = self.seconds is not None
        self.given = {
            name: value
            for name, value in (
                *(("c", c), ("inner_c", inner_c), ("bias", bias), ("depth", depth)),
                *(("width", width), ("focus", focus), ("branch", branch)),
                *(("widen", widen), ("guide", guide)),
                ("paired", None if paired is None else float(paired)),
                ("reuse", None if reuse is None else float(reuse)),
                ("rivals", None if rivals is None else float(rivals)),
                ("follow", None if follow is None else float(follow)),
                ("luck", None if luck is None else float(luck)),
            )
            if value is not None
        }
        """The search parameters given; the others are the game's (`Knowledge.search_defaults`)."""
        self.settings = SearchSettings()
        self.kept: KeptTree | None = None
        """The subtree kept for this bot's next decision (see `KeptTree`)."""
        self.follows: Continuation | None = None
        """With `follow`: the decision this bot's last one leads to, which the game's heuristic
        plays without a search."""
        self.last_root = Node(mover=0)
        """The root of the last search."""
        self.last_iterations = 0
        """Iterations run by the last search (0 when the move was forced)."""
        self.worlds: list[State] = []
        """With `paired` worlds: the worlds of the current search, in the order of their use."""
        self.new_tally: Callable[[], LuckTally] | None = None
        """With `luck`: the maker of each sampled world's luck tally in the current search."""
        self.world_seed = 0
        """The seed of the current search's worlds (the n-th world's: this plus n)."""
        self.rollout_seed = 0
        """The seed of the random numbers of the rollouts in the current search's worlds."""
        self.pairing = False
        """Whether the current search compares the root's children on paired worlds."""
        self.leader: Node | None = None
        """With `paired` worlds on a fresh root: its most visited child, which every other
        child is compared with on the worlds both met (see `_root_mean`)."""

    def decide(self, state: State) -> Action:
        kept, self.kept = self.kept, None
        follows, self.follows = self.follows, None
        self._set_settings(state)
        action = self._unsearched(state, follows)
        searched = action is None
        if action is None:
            reused = kept.root_for(state) if kept is not None else None
            action = self._search(state, reused).best
        else:
            self.last_iterations = 0
        # Both recognise the next decision alike (`Continuation`) and `follow` plays it
        # unsearched, so with `follow` a kept subtree would never be read: keep one or the other.
        if self.settings.follow:
            self.follows = Continuation.after(state, action)
        elif searched:
            self.kept = KeptTree.after(state, action, self.last_root, self.settings.reuse)
        return action

    def _unsearched(self, state: State, follows: Continuation | None) -> Action | None:
        """The action to play without a search, if any: the only legal one, the game's routine
        choice, or with `follow` the game heuristic's choice where this decision continues the
        bot's last one."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        knowledge = knowledge_for(state)
        routine = routine_action(knowledge, state, self.rng)
        if routine is not None:  # the game's knowledge says search would add little here
            return routine
        if follows is not None and follows.matches(state):
            return knowledge.policy(state, self.rng)
        return None

    def analyse(self, state: State) -> Analysis:
        """Search `state` within the budget; the mover's win chance, each legal action's and the
        action preferred (the most visited). A fresh search: it reads nothing of earlier ones."""
        self._set_settings(state)
        return self._search(state, None)

    def _set_settings(self, state: State) -> None:
        """The search parameters for `state`: those given, else the game's for its players."""
        self.settings = SearchSettings.of(knowledge_for(state), self.given, state.num_players)

    def _search(self, state: State, reused: Node | None) -> Analysis:
        """Search `state`, from `reused` (the subtree of this decision kept from the search of
        the decision before, see `KeptTree`) or from a new root."""
        me = state.current_player()
        if me < 0:
            raise KafeneioError("mcts analyses a player's decision, not a chance node or the end")
        budget = Budget(self.seconds if self.seconds is not None else math.inf)
        legal = state.legal_actions()
        root = reused if reused is not None else Node(mover=me, root=True)
        self.worlds = []
        self.leader = None
        # a kept subtree's children met other worlds, in no common order: compare only means
        self.pairing = bool(self.settings.paired) and reused is None
        if self.settings.paired:  # drawn only then, so that other searches play as before
            self.world_seed = self.rng.getrandbits(48) << 16
            # a stream of its own: on the world's seed, a rollout's ties would be broken by
            # the numbers that shuffled the bag, and follow the cards it will draw
            self.rollout_seed = self.rng.getrandbits(48) << 16
        self.last_root = root
        self.new_tally = luck_meter(knowledge_for(state), state, me) if self.settings.luck else None
        iterations = 0
        # `choose` plays a forced move unsearched; `analyse` searches it too, for its win chance
        if len(legal) > 1:
            if self.settings.guide > 0:
                root.favoured = knowledge_for(state).policy(state, self.rng).code
            if self.settings.focus:
                root.focus = self._focus(state, root)
            if reused is not None:
                self._rate_reused(state, root, legal, me)
        limit = self.iterations if self.iterations is not None else math.inf
        while iterations < limit and (iterations == 0 or budget.left()):
            self._iterate(state, root, me)
            iterations += 1
        self.last_iterations = iterations
        seconds = time.perf_counter() - budget.start
        return self._analysis(state, root, me, legal, iterations, seconds)

    # --- one iteration ----------------------------------------------------------------------
    def _iterate(self, state: State, root: Node, me: int) -> None:
        knowledge = knowledge_for(state)
        tally = self.new_tally() if self.new_tally is not None else None
        marks: list[object] = []
        if self.pairing:
            sample, node, expanded, rng = self._paired_root_step(state, root, me, tally, marks)
            path = [node]
        else:
            sample, node, expanded, rng = state.determinize(me, self.rng), root, False, self.rng
            path = []
        branch = self.settings.branch or math.inf
        while not expanded and not sample.is_terminal() and len(path) < branch:
            if sample.current_player() == CHANCE:
                _apply(sample, sample_chance(sample, rng), tally)
                continue
            routine = None if node is root else routine_action(knowledge, sample, rng)
            if routine is not None:  # no branching at a routine decision below the root
                _apply(sample, routine, tally)
                continue
            if self.settings.rivals and sample.current_player() != me:  # no rival's branch
                _apply(sample, knowledge.rollout(sample, rng), tally)
                continue
            child, action, expanded = self._select(sample, node)
            _apply_marked(sample, action, tally, marks)
            path.append(child)
            node = child
        reward = self._rollout(sample, knowledge, rng, tally)
        root.visits += 1
        for index, visited in enumerate(path):
            visited.visits += 1
            gained = reward[visited.mover]
            if tally is not None:  # only the luck of the draws after the node's own decision
                gained -= tally.correction(visited.mover, marks[index])
            visited.value += gained
            visited.squares += gained * gained
        if self.pairing:
            self._note_world(path[0])

    def _note_world(self, child: Node) -> None:
        """Keep the running sum by world of `child` (a child of a fresh root with `paired`
        worlds, just visited: every visit of it is counted here), and which child of the root
        is the most visited."""
        if child.by_world is None:  # its first visit
            child.by_world = [0.0]
        child.by_world.append(child.value)
        if self.leader is None or child.visits > self.leader.visits:
            self.leader = child

    def _paired_root_step(
        self,
        state: State,
        root: Node,
        me: int,
        tally: LuckTally | None,
        marks: list[object],
    ) -> tuple[State, Node, bool, random.Random]:
        """With `paired` worlds: the root's child to follow (chosen on the first world: the
        mover's legal actions are the same in every world), and the world of its next visit,
        the n-th visit of every child meeting the same n-th world, with the action applied
        (its draws counted in `tally`, marked before in `marks`); whether the child was just
        added, and the random numbers of that world's rollout."""
        child, action, expanded = self._select(self._world(state, me, 0), root)
        index = child.visits
        sample = self._world(state, me, index).clone()
        _apply_marked(sample, action, tally, marks)
        return sample, child, expanded, random.Random(self.rollout_seed + index)

    def _world(self, state: State, me: int, index: int) -> State:
        """The `index`-th world of this search (made once: read it, never change it)."""
        while len(self.worlds) <= index:
            seed = self.world_seed + len(self.worlds)
            self.worlds.append(state.determinize(me, random.Random(seed)))
        return self.worlds[index]

    def _rollout(
        self,
        sample: State,
        knowledge: Knowledge,
        rng: random.Random,
        tally: LuckTally | None = None,
    ) -> list[float]:
        """Play `depth` decisions of the rollout policy on `sample` and on to a settled
        position, with the random numbers `rng` (counting the draws' luck in `tally`), then
        evaluate it."""
        depth = self.settings.depth
        for step in range(depth * SETTLING_FACTOR):
            if sample.is_terminal() or (step >= depth and knowledge.settled(sample)):
                break
            if sample.current_player() == CHANCE:
                _apply(sample, sample_chance(sample, rng), tally)
            else:
                _apply(sample, knowledge.rollout(sample, rng), tally)
        return knowledge.evaluate(sample)

    def rollout_from(
        self, state: State, first: Action | None = None, tally: LuckTally | None = None
    ) -> list[float]:
        """One rollout and evaluation as the search runs it, from a sample of `state` for its
        current player (for `kafeneio bench`), after the decision `first` if given, counting
        the draws' luck in `tally` if given (for `scripts/fit_cafe_luck.py`)."""
        self._set_settings(state)
        sample = state.determinize(state.current_player(), self.rng)
        if first is not None:
            _apply(sample, first, tally)
        return self._rollout(sample, knowledge_for(state), self.rng, tally)

    def _select(self, sample: State, node: Node) -> tuple[Node, Action, bool]:
        """The child to follow in this sample, its action, and whether it was just added."""
        mover = sample.current_player()
        legal = sample.legal_actions()
        if not node.rated:
            self._rate(sample, node, legal, mover)
        if node.within:
            legal = [a for a in legal if a.code in node.within] or legal
        untried: list[Action] = []
        available: list[tuple[Node, Action]] = []
        for action in legal:
            child = node.children.get(action.code)
            if child is None:
                untried.append(action)
            else:
                child.availability += 1
                available.append((child, action))
        if untried and (not available or self._widens(node)):
            action = self._best_untried(untried, node)
            child = Node(mover=mover, prior=node.children_prior.get(action.code, 0.5))
            node.children[action.code] = child
            return child, action, True
        c = self.settings.c if node.root or self.settings.inner_c < 0 else self.settings.inner_c
        score = self._paired_ucb if node.root and self.leader is not None else self._ucb
        child, action = max(available, key=lambda pair: score(pair[0], c))
        return child, action, False

    def _widens(self, node: Node) -> bool:
        """Whether `node` may add a child now (`widen`: progressive widening below the root)."""
        widen = self.settings.widen
        if not widen or node.root:
            return True
        return len(node.children) < 1 + int(widen * math.sqrt(node.visits))

    def _ucb(self, child: Node, c: float) -> float:
        visits = child.visits
        settings = self.settings
        if not visits:
            return math.inf
        explore = c * math.sqrt(math.log(child.availability) / visits)
        return child.value / visits + explore + settings.bias * child.prior / (visits + 1)

    def _paired_ucb(self, child: Node, c: float) -> float:
        """`_ucb` with a root child's mean read as `_root_mean` (with `paired` worlds)."""
        visits = child.visits
        if not visits:
            return math.inf
        return self._ucb(child, c) - child.value / visits + self._root_mean(child)

    def _root_mean(self, child: Node) -> float:
        """With `paired` worlds: a root child's value as the most visited child's mean plus the
        child's lead over it in the worlds both met (its first `visits`). Each world's draws
        sway every child alike, so the lead is far less noisy than the two means apart. (The
        leader's own lead over itself is 0.)"""
        leader = self.leader
        assert leader is not None and leader.by_world is not None
        lead = (child.value - leader.by_world[child.visits]) / child.visits
        return leader.mean() + lead

    def _rate(self, sample: State, node: Node, legal: Sequence[Action], mover: int) -> None:
        """The one-step evaluation of each legal action for the mover (the progressive bias)."""
        node.rated = True
        if len(legal) == 1 or (self.settings.bias == 0 and node.favoured < 0):
            return
        knowledge = knowledge_for(sample)
        # The root is rated once a decision, with care; every new node inside the tree as
        # cheaply as the game can (its `node_priors`), else one step ahead on copies.
        if node.root:
            found = root_priors(knowledge, sample, self.rng)
        else:
            cheap = node_priors(knowledge, sample, self.rng)
            codes = (a.code for a in legal)
            found = None if cheap is None else dict(zip(codes, cheap, strict=True))
        node.children_prior = (
            found
            if found is not None
            else {a.code: knowledge.estimate(after(sample, a, self.rng))[mover] for a in legal}
        )
        if node.favoured in node.children_prior:
            node.children_prior[node.favoured] += self.settings.guide
        node.within = node.focus or self._within(node.children_prior)

    def _focus(self, state: State, root: Node) -> frozenset[int]:
        """The root's actions by the game heuristic's own ranking (`focus`), with its choice;
        empty (every action) where the game does not rank them."""
        codes = root_candidates(knowledge_for(state), state, self.rng, self.settings.focus)
        if not codes:
            return frozenset()
        return frozenset(codes) | ({root.favoured} if root.favoured >= 0 else frozenset())

    def _within(self, priors: dict[int, float]) -> frozenset[int]:
        """The codes of the `width` actions of best prior, or none (search every action)."""
        width = self.settings.width
        if not width or len(priors) <= width:
            return frozenset()
        return frozenset(heapq.nlargest(width, priors, key=priors.__getitem__))

    def _rate_reused(self, state: State, root: Node, legal: Sequence[Action], me: int) -> None:
        """Rate a kept subtree's top as a root (with the game's care and the guide) and give
        its children the new priors."""
        self._rate(state.determinize(me, self.rng), root, legal, me)
        for code, child in root.children.items():
            child.prior = root.children_prior.get(code, child.prior)

    def _best_untried(self, untried: list[Action], node: Node) -> Action:
        if not node.children_prior:
            return self.rng.choice(untried)
        priors = node.children_prior
        return max(untried, key=lambda a: (priors.get(a.code, 0.5), self.rng.random()))

    # --- the result -------------------------------------------------------------------------
    def _analysis(
        self,
        state: State,
        root: Node,
        me: int,
        legal: Sequence[Action],
        iterations: int,
        seconds: float,
    ) -> Analysis:
        knowledge = knowledge_for(state)
        estimates = []
        for action in legal:
            child = root.children.get(action.code)
            if child is not None and child.visits:
                # a mean corrected for luck may stray a little outside [0, 1]
                chance = min(1.0, max(0.0, child.mean()))
                spread = max(0.0, child.squares / child.visits - child.mean() ** 2)
                estimates.append(ActionEstimate(action, chance, child.visits, spread))
            else:  # never searched: the one-step evaluation on a sample stands in
                sample = state.determinize(me, self.rng)
                guess = knowledge.estimate(after(sample, action, self.rng))[me]
                estimates.append(ActionEstimate(action, guess, 0))
        estimates.sort(key=lambda e: (e.visits, e.win_chance), reverse=True)
        best = estimates[0]
        then = planned_after(state, root, best.action, me)
        return Analysis(
            me, best.win_chance, best.action, tuple(estimates), iterations, seconds, then
        )


def planned_after(state: State, root: Node, action: Action, me: int) -> Action | None:
    """The decision the search planned after `action` where `me` decides again at once (a Café
    turn's second guest): the most visited under it; None where another decides next or the
    search did not look there. Read from the tree, with no random number drawn: play is as
    before."""
    child = root.children.get(action.code)
    if child is None or not child.children:
        return None
    following = state.clone().quiet()
    following.apply(action)
    if following.current_player() != me:
        return None
    legal = {option.code: option for option in following.legal_actions()}
    looked = [(node.visits, code) for code, node in child.children.items() if code in legal]
    if not looked or max(looked)[0] == 0:
        return None
    return legal[max(looked)[1]]


def _apply(sample: State, action: Action, tally: LuckTally | None) -> None:
    """Apply `action` to `sample`, counting the luck of any draw in `tally`."""
    if tally is None:
        sample.apply(action)
        return
    mover = sample.current_player()
    if mover < 0:
        sample.apply(action)
        return
    tally.before(sample, mover)
    sample.apply(action)
    tally.after(sample, mover, action)


def _apply_marked(
    sample: State, action: Action, tally: LuckTally | None, marks: list[object]
) -> None:
    """Apply the decision of a node of the tree to `sample`, first marking `tally` in `marks`
    so that the node is corrected only by the luck of the draws from its decision on."""
    if tally is not None:
        marks.append(tally.mark())
    _apply(sample, action, tally)

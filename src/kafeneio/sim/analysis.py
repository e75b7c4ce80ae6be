"""Analysis of a position or of a whole game, from the mover's own information only.

`analyse_position(state)` answers for one decision: the mover's estimated chance to win, each
legal action's estimated chance and the action to prefer. By default it asks the search bot
(`ANALYSER`, ``mcts``: information-set search over samples determinized for the mover); any bot
offering ``analyse(state)`` will do, and so will `FlatMonteCarlo`: for each sample it
determinizes the position for the mover (so the true hidden state is never looked at, only
resampled from what the mover knows), plays one legal action and finishes the game with
rule-of-thumb bots in every seat, the rule-of-thumb bot first proposing candidate actions and
UCB1 sharing the samples among them. `analyse_game(record)` does this for every decision of a
record and tells each player's biggest mistakes. `hint(state)` is the one-position analysis the
terminal's ``hint`` command and the web app give a player.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from kafeneio.bots import BOTS, bot_parameters
from kafeneio.bots.base import ActionEstimate, Analysis, Bot
from kafeneio.bots.knowledge import knowledge_for, playout_bot
from kafeneio.bots.spec import (
    is_search_iterations,
    is_search_seconds,
    parse_seat,
    plain_number,
)
from kafeneio.core import CHANCE, Action, KafeneioError, State
from kafeneio.core.errors import shown
from kafeneio.core.events import plural
from kafeneio.core.game import JSON, check_seed
from kafeneio.core.play import play
from kafeneio.games import load_record
from kafeneio.sim.runner import Backend, make_seat_bot, run_items
from kafeneio.sim.stamp import stamp
from kafeneio.sim.stats import Z95

EXPLORATION = 0.4
"""UCB1's exploration constant for win chances in [0, 1]; below the textbook 1/√2, because the
estimate of the best action matters here more than finding it among near-equals."""


PROPOSALS = 6
"""Samples of the position on which the rollout bot proposes the first candidate actions."""
WIDEN = 4
"""Another action joins the sampled ones after 4, 16, 36, ... samples (4·k²)."""
SHRINK = 2.0
"""Virtual samples at the average of all samples that each action's estimate starts from."""
FORCED_SHARE = 0.25
"""The share of the budget that a decision with one legal action gets in a game's analysis."""
PRIOR_VISITS = 10
"""A search's own spread of rewards counts in a loss's margin as if it were drawn towards a win
or a loss's spread by this many visits: a few visits that happen to agree prove no certainty."""
ANALYSER = "mcts"
"""The analyser of hints, of the web app's analyses and of `kafeneio analyse` by default: the
strongest player of both games. On the same decisions of nine Café games its win chances
predict the winner as well at 0.2 s as flat Monte Carlo's at 1 s (Brier score 0.223 against
0.227; flat at 0.2 s: 0.243), and in Café the win chance it says each move lost is not
swamped by sampling noise as flat's is (docs/analysis.md)."""
HINT_SECONDS = 1.0
"""How long a hint thinks by default (the terminal's and the web app's)."""


DEFAULT_SECONDS = 1.0
"""A budget's seconds when neither seconds nor iterations are given."""


class Analyser(Protocol):
    """Anything that analyses a position: a search bot, or `FlatMonteCarlo`."""

    def analyse(self, state: State) -> Analysis: ...


@dataclass(frozen=True)
class Budget:
    """How long to think about one decision: seconds, samples, or whichever ends first given
    both. Neither given: `DEFAULT_SECONDS`. Iterations alone have no time limit, so the same
    seed gives the same result on any machine at any load."""

    seconds: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        seconds, iterations = self.seconds, self.iterations
        if seconds is not None and not is_search_seconds(seconds):
            raise KafeneioError(
                f"a budget's seconds are a positive, finite number, not {shown(seconds)}"
            )
        if iterations is not None and not is_search_iterations(iterations):
            raise KafeneioError(
                f"a budget's iterations are a whole number >= 1, not {shown(iterations)}"
            )
        # (frozen: set once, here) plain numbers, as a report's JSON writes them
        if seconds is not None:
            object.__setattr__(self, "seconds", plain_number(seconds))
        if iterations is not None:
            object.__setattr__(self, "iterations", plain_number(iterations))
        if seconds is None and iterations is None:
            object.__setattr__(self, "seconds", DEFAULT_SECONDS)

    def scaled(self, factor: float) -> Budget:
        """A share of this budget (at least one sample)."""
        return Budget(
            self.seconds * factor if self.seconds is not None else None,
            max(1, round(self.iterations * factor)) if self.iterations is not None else None,
        )

    def spent(self, iterations: int, started: float) -> bool:
        if self.iterations is not None and iterations >= self.iterations:
            return True
        return self.seconds is not None and time.perf_counter() - started >= self.seconds


class FlatMonteCarlo:
    """Determinize for the mover, play an action, finish the game with `rollout` bots (by
    default the game's `playout_bot`); candidates come from the `heuristic` (or `rollout`)."""

    name = "flat-mc"

    def __init__(
        self, seed: int = 0, budget: Budget | None = None, rollout: str | None = None
    ) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.rollout = rollout
        """The bot that finishes every sample; None: the game's own (`playout_bot`)."""
        if rollout is not None:
            make_seat_bot(rollout, 0)  # an unknown rollout bot is refused now, not mid-search

    def analyse(self, state: State, keep: Sequence[Action] = ()) -> Analysis:
        """`state`'s decision; the actions in `keep` get as many samples as the best one (the
        analysis of a game keeps the move that was played)."""
        mover = check_decision(state)
        actions = list(state.legal_actions())
        seeds = [self.rng.getrandbits(32) for _ in range(state.num_players)]
        rollout = self.rollout or playout_bot(knowledge_for(state))
        bots = [make_seat_bot(rollout, seed) for seed in seeds]
        started = time.perf_counter()
        kept = [index for index, action in enumerate(actions) if action in keep]
        proposer = make_seat_bot(self.rollout or "heuristic", seeds[mover])
        pool = self._candidates(state, mover, actions, proposer, kept)
        rest = [index for index in range(len(actions)) if index not in pool]
        self.rng.shuffle(rest)
        wins = [0.0] * len(actions)
        visits = [0] * len(actions)
        done = 0
        while done == 0 or not self.budget.spent(done, started):
            widened = len(actions) - len(rest) - len(pool)
            if rest and done >= WIDEN * (widened + 1) ** 2:
                pool.append(rest.pop())
            choice = self._select(wins, visits, done, pool, kept)
            sample = state.determinize(mover, self.rng)
            sample.apply(actions[choice])
            play(sample, bots, self.rng)
            wins[choice] += sample.returns()[mover]
            visits[choice] += 1
            done += 1
        return self._result(mover, actions, wins, visits, time.perf_counter() - started)

    def _candidates(
        self, state: State, mover: int, actions: list[Action], bot: Bot, kept: list[int]
    ) -> list[int]:
        """The actions to sample first: those kept, and what the rollout bot would play on a
        few samples of the position (so that samples go to plausible moves, not spread thinly
        over dozens); others join one by one as samples accumulate."""
        pool = list(kept)
        if len(actions) == 1:
            return [0]
        for _ in range(PROPOSALS):
            choice = bot.choose(state.determinize(mover, self.rng))
            index = actions.index(choice)
            if index not in pool:
                pool.append(index)
        return pool

    def _select(
        self, wins: list[float], visits: list[int], done: int, pool: list[int], kept: list[int]
    ) -> int:
        for index in pool:
            if visits[index] == 0:
                return index
        most = max(visits)
        for index in kept:  # as closely measured as the best: the loss is their difference
            if visits[index] < most:
                return index
        log_done = math.log(done)
        return max(
            pool,
            key=lambda i: wins[i] / visits[i] + EXPLORATION * math.sqrt(log_done / visits[i]),
        )

    def _result(
        self,
        mover: int,
        actions: list[Action],
        wins: list[float],
        visits: list[int],
        seconds: float,
    ) -> Analysis:
        average = sum(wins) / sum(visits)
        # each mean is drawn towards the average by a few virtual samples, so that the best of
        # many thinly sampled actions does not look like a sure win after one lucky rollout
        estimates = [
            ActionEstimate(action, (wins[i] + SHRINK * average) / (visits[i] + SHRINK), visits[i])
            for i, action in enumerate(actions)
        ]
        # best first: the most sampled (UCB1 samples the best most), then the higher estimate
        estimates.sort(key=lambda e: (-e.visits, -e.win_chance))
        best = estimates[0]
        return Analysis(
            player=mover,
            win_chance=best.win_chance,
            best=best.action,
            actions=tuple(estimates),
            iterations=sum(visits),
            seconds=round(seconds, 4),
        )


def check_decision(state: State) -> int:
    """The mover of `state`; `KafeneioError` if nobody decides there."""
    if state.is_terminal():
        raise KafeneioError("the game is over: there is no decision to analyse")
    mover = state.current_player()
    if mover == CHANCE:
        raise KafeneioError("chance decides here, not a player: there is nothing to analyse")
    return mover


def analyser_for(name: str, budget: Budget, seed: int = 0) -> Analyser:
    """`flat` (flat Monte Carlo, games finished by the game's playout bot), or a bot that
    offers ``analyse``, thinking for `budget` unless its spec gives a budget of its own
    (``mcts:iterations=300``)."""
    base, params = parse_seat(name)
    if base == "flat":
        if params:
            raise KafeneioError("flat takes no parameters: its budget is --budget or --iterations")
        return FlatMonteCarlo(seed, budget)
    if base not in BOTS:
        raise KafeneioError(f"unknown analyser {base!r}; analysers: flat, or a search bot (mcts)")
    bot: Bot = make_seat_bot(with_budget(name, budget), seed)
    if not callable(getattr(bot, "analyse", None)):
        raise KafeneioError(f"bot {base!r} cannot analyse a position; use flat or a search bot")
    analyse: Callable[[State], Analysis] = getattr(bot, "analyse")  # noqa: B009
    return _BotAnalyser(analyse)


def with_budget(spec: str, budget: Budget) -> str:
    """The seat spec `spec` with `budget` as its ``seconds`` and ``iterations``, where the bot
    takes them and the spec gives neither."""
    name, params = parse_seat(spec)
    if name not in BOTS or {"seconds", "iterations"} & set(params):
        return spec
    takes = bot_parameters(name)
    given = (("seconds", budget.seconds), ("iterations", budget.iterations))
    extra = "".join(f":{key}={value}" for key, value in given if value is not None and key in takes)
    return spec + extra


def hint(state: State, seed: int = 0, budget: Budget | None = None) -> Analysis:
    """What the search bot (`ANALYSER`) suggests to the player to move, from their own
    information only, thinking for `budget` (default `HINT_SECONDS`): the terminal's ``hint``
    command and the web app's hint both ask this."""
    thinker = analyser_for(ANALYSER, budget or Budget(HINT_SECONDS), seed)
    return analyse_position(state, thinker)


def position_after(state: State, analysis: Analysis) -> State:
    """A quiet copy of `state` after the move `analysis` prefers: where its planned next
    decision (`Analysis.then`) is a move, and is put in words."""
    following = state.clone().quiet()
    following.apply(analysis.best)
    return following


@dataclass(frozen=True)
class _BotAnalyser:
    call: Callable[[State], Analysis]

    def analyse(self, state: State) -> Analysis:
        return self.call(state)


def analyse_position(
    state: State,
    analyser: Analyser | str | None = None,
    budget: Budget | None = None,
    seed: int = 0,
) -> Analysis:
    """The analysis of `state`'s decision for its mover, by `analyser` (made, or named as
    `analyse_game` names them: ``flat``, ``mcts:iterations=300``), else by the search bot
    (`ANALYSER`), a named one within `budget` (default one second). An analyser made brings its
    own budget: one given beside it is refused, not dropped."""
    check_decision(state)
    if analyser is None or isinstance(analyser, str):
        return analyser_for(analyser or ANALYSER, budget or Budget(), check_seed(seed)).analyse(
            state
        )
    if budget is not None:
        raise KafeneioError("an analyser brings its own budget: give the budget to it instead")
    if not callable(getattr(analyser, "analyse", None)):
        raise KafeneioError(
            f"an analyser is a name (flat, mcts) or has an analyse method, not {shown(analyser)}"
        )
    return analyser.analyse(state)


# --- a whole game -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Decision:
    ply: int
    """The decision's index among the record's actions."""
    player: int
    played: str
    best: str
    """The analyser's preferred move (a search's most visited), or the move played where the
    analyser rates it at least as high."""
    played_words: str
    """The move played in words, as its mover read the position (`State.action_words`)."""
    best_words: str
    before: float
    """The mover's win chance before the move, as the analysis sees the position."""
    after: float
    """The mover's win chance after the move played."""
    lost: float
    """The best action's win chance less the played one's (0 when the best was played)."""
    margin: float
    """The 95% sampling margin of `lost`, at most 1 (the widest a difference of two chances
    can be wrong by; 1 also when an estimate rests on no sample): a loss within it may be
    noise."""
    legal: int
    iterations: int

    @property
    def clear_mistake(self) -> bool:
        return self.lost > self.margin

    @property
    def forced(self) -> bool:
        """No decision at all, so it counts in no player's mean loss (`is_forced`)."""
        return is_forced(self.legal)


def is_forced(legal: int) -> bool:
    """Whether a move among `legal` legal moves is forced: the only one, no choice at all."""
    return legal == 1


@dataclass
class GameAnalysis:
    game: str
    players: int
    seats: list[str] | None
    scores: list[int]
    winners: list[int]
    finished: bool
    analyser: str
    decisions: list[Decision]
    seconds: float = 0.0
    seed: int = 0
    """The seed each decision's analyser is seeded from (with the decision's place)."""
    budget: float | None = None
    """The seconds of thought a decision (a forced move a quarter), None where iterations
    alone bound it."""
    iterations: int | None = None
    """The search iterations (flat: samples) a decision, None where seconds alone bound it."""

    @property
    def budget_words(self) -> str:
        """The budget a decision and the seed, as the command's options would give them back:
        ``60 iterations a decision, seed 1``."""
        bounds = []
        if self.iterations is not None:
            bounds.append(plural(self.iterations, "iteration"))
        if self.budget is not None:
            bounds.append(f"{self.budget:g} s")
        return f"{' or '.join(bounds) or 'its own budget'} a decision, seed {self.seed}"

    @property
    def skips_chance_outcomes(self) -> bool:
        """Whether the move numbers (a decision's ply + 1, as the game's log numbers it) skip
        chance outcomes between decisions, as Souvlaki Wars' draws: then the tables and plots
        say that chance outcomes count. Café's records number none."""
        return bool(self.decisions) and self.decisions[-1].ply + 1 > len(self.decisions)

    def mistakes(self, player: int, count: int = 3) -> list[Decision]:
        """`player`'s clear mistakes (losses beyond their sampling margin) that lost the most
        win chance, worst first."""
        own = [d for d in self.decisions if d.player == player and d.clear_mistake]
        return sorted(own, key=lambda d: (-d.lost, d.ply))[:count]

    def total_lost(self, player: int) -> float:
        return sum(d.lost for d in self.decisions if d.player == player)

    def moves_of(self, player: int) -> int:
        return sum(1 for d in self.decisions if d.player == player)

    def choices_of(self, player: int) -> int:
        """`player`'s moves with more than one legal move: the real decisions."""
        return sum(1 for d in self.decisions if d.player == player and not d.forced)

    def mean_lost(self, player: int) -> float:
        """The win chance `player` lost a real decision (forced moves, which lose nothing, left
        out: 7 of 45 in a Café game would dilute it), on average: unlike the total, a chance (a
        sum over a long game can pass 1), and comparable between games of any length."""
        choices = self.choices_of(player)
        return self.total_lost(player) / choices if choices else 0.0

    def to_dict(self) -> dict[str, Any]:
        fields = asdict(self)
        decisions = fields.pop("decisions")  # after what made the result, not before
        data = {**stamp("analysis", self.game), **fields, "decisions": decisions}
        data["mistakes"] = [[asdict(d) for d in self.mistakes(p)] for p in range(self.players)]
        data["total_lost"] = [round(self.total_lost(p), 4) for p in range(self.players)]
        data["mean_lost"] = [round(self.mean_lost(p), 4) for p in range(self.players)]
        data["choices"] = [self.choices_of(p) for p in range(self.players)]
        return data


def analyse_game(
    record: JSON,
    analyser: str = ANALYSER,
    budget: Budget | None = None,
    seed: int = 0,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    backend: Backend | None = None,
) -> GameAnalysis:
    """Every decision of `record`, analysed by `analyser` (`flat` or a bot that can analyse)
    from the mover's own information, on `backend` (default: `workers` local processes). Each
    decision gets an analyser of its own, seeded by `seed` and its place in the game, so the
    result does not depend on the order or the place (process, Ray task) it is analysed in.
    `progress` is told each decision done."""
    seed = check_seed(seed)
    budget = budget or Budget()
    analyser_for(analyser, budget)  # an unknown analyser is refused before any work
    final = load_record(record)  # and so is a bad record
    jobs = decision_jobs(record, analyser, budget, seed)
    started = time.perf_counter()
    where = backend or Backend("local", max(1, workers))
    finished = run_items(judge_job, jobs, where)
    decisions = []
    # a run stopped here ends its workers now, not when the generator is collected
    with closing(finished):
        for decision in finished:
            decisions.append(decision)
            if progress is not None:
                progress(1)
    seats = record.get("seats")
    return GameAnalysis(
        game=final.game.info.name,
        players=final.num_players,
        seats=[str(seat) for seat in seats] if isinstance(seats, list) else None,
        scores=final.scores(),
        winners=final.winners(),
        finished=final.is_terminal(),
        analyser=analyser,
        decisions=sorted(decisions, key=lambda decision: decision.ply),
        seconds=round(time.perf_counter() - started, 2),
        seed=seed,
        **spent_budget(analyser, budget),
    )


def spent_budget(analyser: str, budget: Budget) -> dict[str, Any]:
    """The ``budget`` (seconds) and ``iterations`` a decision that `analyser` thinks for: flat's
    are `budget`; a bot's are those of the spec it is made from (`with_budget`), so a bot that
    takes no seconds is not said to think for any."""
    if parse_seat(analyser)[0] == "flat":
        return {"budget": budget.seconds, "iterations": budget.iterations}
    params = parse_seat(with_budget(analyser, budget))[1]
    return {"budget": params.get("seconds"), "iterations": params.get("iterations")}


@dataclass(frozen=True)
class DecisionJob:
    state: State
    ply: int
    played: Action
    analyser: str
    budget: Budget
    seed: int


def decision_jobs(record: JSON, analyser: str, budget: Budget, seed: int) -> list[DecisionJob]:
    """The decisions of a (valid) record, each with the position before it and its budget."""
    state = load_record({**record, "actions": []})
    jobs = []
    for ply, text in enumerate(record["actions"]):
        action = state.parse_legal(text)
        if state.current_player() != CHANCE:
            # a forced move loses nothing: its estimate only draws the curve, a quarter will do
            forced = is_forced(len(state.legal_actions()))
            share = budget.scaled(FORCED_SHARE) if forced else budget
            jobs.append(DecisionJob(state.clone(), ply, action, analyser, share, seed))
        state.apply(action)
    return jobs


def judge_job(job: DecisionJob) -> Decision:
    thinker = analyser_for(job.analyser, job.budget, job.seed * 100_003 + job.ply)
    return judge(job.state, job.ply, job.played, thinker)


def judge(state: State, ply: int, played: Action, analyser: Analyser) -> Decision:
    """The decision to play `played` at `state` (the `ply`-th action of its game), judged."""
    if isinstance(analyser, FlatMonteCarlo):
        analysis = analyser.analyse(state, keep=[played])
    else:
        analysis = analyser.analyse(state)
    after = analysis.estimate(played)
    best = analysis.estimate(analysis.best)
    # a search prefers its most visited move; where the move played is rated as high, it is
    # not shown a preference its own figures contradict
    preferred = analysis.best if best > after else played
    # the position's worth is what its preferred move keeps: "before" never below "after"
    worth = max(best, after)
    return Decision(
        ply=ply,
        player=analysis.player,
        played=played.notation,
        best=preferred.notation,
        played_words=state.action_words(played),
        best_words=state.action_words(preferred),
        before=round(worth, 4),
        after=round(after, 4),
        lost=round(max(0.0, best - after), 4),
        margin=round(_margin(analysis, played) if preferred != played else 0.0, 4),
        legal=len(analysis.actions),
        iterations=analysis.iterations,
    )


def _margin(analysis: Analysis, played: Action) -> float:
    """1.96 standard errors of the difference between the best and the played estimates, at
    most 1: past that the estimates rest on too few samples to say anything."""
    if played == analysis.best:
        return 0.0
    variance = 0.0
    for entry in analysis.actions:
        if entry.action in (played, analysis.best):
            if entry.visits == 0:
                return 1.0
            variance += _reward_variance(entry) / entry.visits
    return min(1.0, Z95 * math.sqrt(variance))


def _reward_variance(entry: ActionEstimate) -> float:
    """The variance of one sample's reward for `entry`: that of a win or a loss with the
    estimated chance, or where the search keeps its own measure (its rewards are win chances,
    which spread far less), that measure (made unbiased) drawn towards it by `PRIOR_VISITS`."""
    chance = entry.win_chance
    visits = entry.visits
    bernoulli = max(chance * (1 - chance), 1 / (4 * visits))
    if entry.variance is None or visits < 2:
        return bernoulli
    measured = entry.variance * visits / (visits - 1)
    return (visits * measured + PRIOR_VISITS * bernoulli) / (visits + PRIOR_VISITS)


def count_decisions(record: JSON) -> int:
    """The decisions of a record (its actions less the chance outcomes); `RecordError` for a
    bad record."""
    load_record(record)
    return len(decision_jobs(record, "flat", Budget(), 0))

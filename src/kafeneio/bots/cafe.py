"""Play knowledge for Café International: an evaluation of a position and a heuristic player.

Everything but the bag's order is public (CI-S.1), so the heuristic may read every hand; what it
simulates it simulates on a determinized sample, whose bag is reshuffled.

The evaluation (`standing`) is a player's score, less the hand penalty (CI-E.2: 5 a card, 10 a
joker) weighted by how near the game is to its end (the fullest of bar, chairs and bag), plus a
joker's worth in hand early on (it fits any chair and completes 8-point tables, CI-P.3). Greedy
play reads the softmax of standings. The search's evaluation is fitted instead: the race
evaluation of `kafeneio.bots.cafe_plan` (who is nearer an empty hand, whose hand fits the tables
still able to seat 4 of their nation, and, for the search, who holds cards that fit no free
chair), which the heuristic's look-ahead reads too, with its own weights.

The heuristic plays whole turns. It first judges every turn (every first decision with every
second one, or ``end``) by the mover's lead in standing after it, less most of what the next
player could then score at once with their (public) hand, so it does not set up the next
player; bar seats count with their value, and a red seat that would throw the player out
(CI-M.3) is never taken while anything else is legal. Then it looks ahead from the best few:
in each of several sampled worlds (the draws are what is unknown) every candidate is played on
for three turns of rollout play, and the candidate that leaves the mover the best mean win
chance by the race evaluation (`kafeneio.bots.cafe_plan`: who is nearer an empty hand, whose
hand fits the tables still able to seat 4 of their nation) is played.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import cast

from kafeneio.bots.cafe_plan import SEARCH_WEIGHT_VECTORS, race_strengths
from kafeneio.bots.knowledge import after, softmax
from kafeneio.core import Action, State
from kafeneio.games.cafe.actions import BAR, END, NUM_CHAIRS, PASS, PLACE, SWAP, CafeAction
from kafeneio.games.cafe.board import JOKER_LADY, NUM_CARD_TYPES, is_joker
from kafeneio.games.cafe.state import CARD_PENALTY, JOKER_PENALTY, CafeState

JOKER_WORTH = 6.0
"""A joker's worth in hand at the start of the game, falling to its penalty at the end."""
TEMPERATURE = 8.0
THREAT_SHARE = 0.7
"""How much of the next player's best immediate gain counts against a move."""
THREAT_CANDIDATES = 12
"""Only the best moves by standing are checked for what they give the next player."""
WIN_BONUS = 50.0
"""A finished game won (lost) counts this much more (less) than its score margin."""
ROLLOUT_JOKER_COST = 3
OUT = -1000.0


def lateness(state: CafeState) -> float:
    """How near the game is to its end (CI-E.1), from 0 at the start to 1: the fullest of the
    bar, the chairs and the bag's way down to its last cards."""
    bar, seated, bag = state.filling()
    options = state.options
    start_bag = 100 - options.hand_size * state.num_players
    drawn = (start_bag - bag) / max(1, start_bag - options.end_bag)
    return min(1.0, max(bar / len(options.bar_values), seated / NUM_CHAIRS, drawn))


def card_worth(card: int, late: float) -> float:
    if is_joker(card):
        return JOKER_WORTH * (1 - late) - JOKER_PENALTY * late
    return -CARD_PENALTY * late


def standings(state: CafeState) -> list[float]:
    """Each player's score with the worth of the hand; `OUT` for a player thrown out. Once the
    game is over: the final scores, the winners lifted by `WIN_BONUS`."""
    if state.is_terminal():
        winners = state.winners()
        return [s + (WIN_BONUS if p in winners else 0.0) for p, s in enumerate(state.scores())]
    late = lateness(state)
    plain, joker = card_worth(0, late), card_worth(JOKER_LADY, late)  # each card's, made once
    return [
        OUT
        if state.is_out(player)
        else score + sum([joker if is_joker(card) else plain for card in state.hand(player)])
        for player, score in enumerate(state.scores())
    ]


def lead(values: Sequence[float], player: int) -> float:
    return values[player] - max(v for p, v in enumerate(values) if p != player)


def turn_ends(state: CafeState, player: int) -> bool:
    return state.is_terminal() or state.current_player() != player


Turns = list[tuple[tuple[CafeAction, ...], CafeState]]
"""Whole turns: each one's decisions and the state after it."""


def full_turns(state: CafeState, rng: random.Random) -> Turns:
    """Every way to finish the current player's turn: (its decisions, the state after the
    whole turn); a placement is followed by each second decision the state offers. The same
    two guests placed in the other order mostly leave the same position: that turn then shares
    the state of the first order (`transposed_end`) rather than playing it out again, so the
    states are to be read, not changed."""
    legal = cast(Sequence[CafeAction], state.legal_actions())
    pairs: dict[tuple[int, int], CafeState] = {}
    return [turn for action in legal for turn in turns_from(state, action, rng, pairs)]


def turns_from(
    state: CafeState,
    action: CafeAction,
    rng: random.Random,
    pairs: dict[tuple[int, int], CafeState],
) -> Turns:
    """The `full_turns` that begin with `action`. `pairs` keeps the state after each turn of
    two guests (by their codes) for the other order to share."""
    me = state.current_player()
    first = cast(CafeState, after(state, action, rng))
    if turn_ends(first, me):
        return [((action,), first)]
    seconds = cast(Sequence[CafeAction], first.legal_actions())
    turns: Turns = []
    for second, points in zip(seconds, first.placement_points_of(seconds), strict=True):
        end = transposed_end(first, action, second, points, pairs)
        if end is None:
            end = cast(CafeState, after(first, second, rng))
            if points is not None:
                pairs[action.code, second.code] = end
        turns.append(((action, second), end))
    return turns


def transposed_end(
    first: CafeState,
    action: CafeAction,
    second: CafeAction,
    points: int | None,
    pairs: dict[tuple[int, int], CafeState],
) -> CafeState | None:
    """The state after the guest `second` (scoring `points`) on `first`, the state after the
    guest `action`, if the other order is in `pairs` and leaves the same position; else None.
    Placements commute but for the score, and for the order in which jokers sat down (kept
    for their exchange, CI-M.4); the draws are as many. So the positions are the same when
    both orders score the same, not both guests are jokers and the game goes on (else hand
    penalties count, CI-E.2)."""
    if points is None or (is_joker(action.card) and is_joker(second.card)):
        return None
    twin = pairs.get((second.code, action.code))
    if twin is None or twin.is_terminal():
        return None
    me = first.current_player()
    return twin if twin.scores()[me] == first.scores()[me] + points else None


def best_gain(state: CafeState, rng: random.Random) -> float:
    """The most the current player can score this turn (raw points, bar seats included).

    The heuristic asks this after each of its best turns, so the turns are priced rather than
    played out: each first decision by `decision_gains`, and a placement's second decisions by
    `decision_gains` on one copy of the state after it. That is exact as long as no hand
    penalty counts (CI-E.2), so where a table move might end the game (`table_move_may_end`),
    and for a pass (which might, CI-M.5) or a dance (a draw choice may follow), the turns are
    played out."""
    legal = cast(Sequence[CafeAction], state.legal_actions())
    if state.phase != "turn" or table_move_may_end(state):
        return max((played_gain(state, action, rng) for action in legal), default=0.0)
    best = -math.inf
    for action, gain in zip(legal, decision_gains(state, rng), strict=True):
        kind = action.kind
        if kind == PLACE:  # a first guest: the best second decision (or `end`) after it
            gain += max(decision_gains(cast(CafeState, after(state, action, rng)), rng))
        elif kind == BAR:
            gain = 0.0 if gain == OUT else gain  # thrown out (CI-M.3): the score stays
        elif kind != SWAP:  # a joker exchange scores nothing and cannot end the game
            gain = played_gain(state, action, rng)
        best = max(best, gain)
    return best


def played_gain(state: CafeState, action: CafeAction, rng: random.Random) -> float:
    """The most the current player scores in a turn that begins with `action`, played out."""
    me = state.current_player()
    base = state.scores()[me]
    return max(end.scores()[me] - base for _, end in turns_from(state, action, rng, {}))


def table_move_may_end(state: CafeState) -> bool:
    """Whether a table move (one or two guests, CI-M.1) of the current player might end the
    game (CI-E.1), from public counts and erring on the safe side: the chairs nearly all
    taken, the bag near its end after the refill (the hand target only falls, CI-D.2), or a
    hand that might be emptied. A table move leaves the bar, the other hands and who is out
    as they are, and it resets the passes."""
    me = state.current_player()
    bar, seated, bag = state.filling()
    hand = len(state.hand(me))
    most_drawn = max(0, state.hand_targets()[me] - (hand - 2))
    return (
        seated + 2 >= NUM_CHAIRS
        or bag - most_drawn <= state.options.end_bag
        or hand <= 2
        or bar >= len(state.options.bar_values)
    )


SCORES_NOTHING = frozenset({END, SWAP, PASS})
"""Decisions that score nothing at once: ending the turn, a joker exchange (CI-M.4), passing."""


def decision_gains(state: CafeState, rng: random.Random, joker_cost: float = 0) -> list[float]:
    """What each legal decision (in the order of `legal_actions`) scores at once for the mover,
    less `joker_cost` for seating a joker (`OUT` for a bar seat that throws them out).
    Placements are priced by the engine's `placement_points_of` and a bar seat by its
    `bar_points`, without a copy of the state; the bar's next seat is priced once for all the
    cards that could go there (none is a joker, so the card does not matter); anything else is
    tried on a copy."""
    legal = cast(Sequence[CafeAction], state.legal_actions())
    bar_gain: float | None = None
    gains: list[float] = []
    for action, points in zip(legal, state.placement_points_of(legal), strict=True):
        kind = action.kind
        if points is not None:
            gain: float = points
        elif kind in SCORES_NOTHING:
            gain = 0.0
        elif kind == BAR:
            if bar_gain is None:
                bar_points = state.bar_points(action.card)
                bar_gain = OUT if bar_points is None else bar_points
            gain = bar_gain
        else:
            gain = _tried_gain(state, action, rng)
        if action.card >= JOKER_LADY and kind in (PLACE, SWAP):
            gain -= joker_cost
        gains.append(gain)
    return gains


def _tried_gain(state: CafeState, action: CafeAction, rng: random.Random) -> float:
    """What `action` scores at once for the mover, tried on a copy (`OUT` if they are out)."""
    me = state.current_player()
    child = cast(CafeState, after(state, action, rng))
    return child.scores()[me] - state.scores()[me] if not child.is_out(me) else OUT


class CafeKnowledge:
    search_defaults: Mapping[str, float] = MappingProxyType(
        {"depth": 8, "guide": 1.0, "reuse": 1.0, "luck": 1.0}
    )
    """Search starts from the heuristic's own choice (`guide`): it costs about a sixteenth of
    the default budget on average (up to a fifth at the largest decisions) and makes `mcts`
    leave that choice only where search finds better. Each reward is corrected for the luck
    of the draws (`CafeLuck`): the same mean with a third less variance, for about 15% of the
    iterations; in games against the heuristic it won a little more than without at 2 and 4
    players and as much at 3 (docs/bots-log.md)."""
    search_defaults_by_players: Mapping[int, Mapping[str, float]] = MappingProxyType(
        {
            2: MappingProxyType({"reuse": 0.0, "c": 0.3, "paired": 1.0}),
            3: MappingProxyType({"depth": 12}),
        }
    )
    """At 2 players a turn's second decision is searched afresh: with the kept subtree `mcts`
    won 122/200 and 120/200 against the heuristic, without it 130/200; at 4 players the kept
    subtree won 95.5/200 against 84.5/200 without (docs/bots-log.md). A fresh root gives the
    guide (the heuristic's choice) its full weight at the second decision. At 3 players the
    rollouts run 12 decisions (two rounds) before the cut-off: one `mcts` seat against two
    heuristic seats won 100.5/201 with 12 and with 16, 92/201 with 8 (docs/bots-log.md). At 2
    players the exploration constant is 0.3: the win chances of a root's best children differ
    by hundredths, and with 0.7 exploration outweighed them; 0.3 won 389.5/600 against the
    heuristic, 0.7 369/600 on the same deals (at 3 players 0.4 did worse than 0.7). At 2
    players the root's children are compared on paired worlds (`paired`: common random
    numbers, so that the draws' luck shared by two moves drops out of their comparison): with
    each world's rollout on random numbers of its own it won 545/800 against the heuristic
    (seeds 2026–2029), the search without it 533/800 on the same deals: within the noise, as
    the 1.6 times the iterations it is worth predicts (docs/bots-log.md)."""
    playout = "greedy"
    """Flat analysis finishes its samples with greedy seats: a greedy game costs about 14 ms,
    a heuristic one (which looks ahead in sampled worlds) nearly a second."""

    def evaluate(self, state: State) -> list[float]:
        """Win chances from the fitted race evaluation (`cafe_plan.race_strengths`) with the
        search's weights: the race features the heuristic's look-ahead reads and the hands'
        dead cards, fitted on games of the heuristic against itself."""
        if state.is_terminal():
            return state.returns()
        cafe = cast(CafeState, state)
        return softmax(race_strengths(cafe, lateness(cafe), SEARCH_WEIGHT_VECTORS), 1.0)

    def root_priors(self, state: State, rng: random.Random) -> dict[int, float] | None:
        """At a turn's first decision: each decision rated by `estimate` after the best whole
        turn it begins (its best second placement, or ``end``), so that search starts from
        whole turns; a first guest alone is worth little until its partner sits down. Else
        None: the second decision ends the turn, one step ahead is the whole turn."""
        cafe = cast(CafeState, state)
        if cafe.phase != "turn":
            return None
        me = cafe.current_player()
        priors: dict[int, float] = {}
        for decisions, end in full_turns(cafe, rng):
            code, chance = decisions[0].code, self.estimate(end)[me]
            if chance > priors.get(code, -1.0):
                priors[code] = chance
        return priors

    def root_candidates(self, state: State, rng: random.Random, count: int) -> list[int]:
        """The decisions that begin the heuristic's `count` best whole turns by its one-turn
        judgement (`candidate_turns`: the lead in standing, less what the next player could
        then score at once), best first, on a sample of the mover's information."""
        sample = cast(CafeState, state.determinize(state.current_player(), rng))
        turns = candidate_turns(sample, rng)[:count]
        return list(dict.fromkeys(turn.decisions[0].code for turn in turns))  # in rank order

    def node_priors(self, state: State, rng: random.Random) -> list[float]:
        """`estimate` after each legal decision, without a copy of the state for each: the
        mover's standing moves by what the decision scores at once (`decision_gains`) and by
        the worth of the card leaving the hand (a joker exchange takes a joker in); the draws
        that refill the hand at the turn's end are not counted. The search rates every new
        node of its tree this way."""
        cafe = cast(CafeState, state)
        me, late = cafe.current_player(), lateness(cafe)
        base = standings(cafe)
        joker = card_worth(JOKER_LADY, late)
        priors = []
        legal = cast(Sequence[CafeAction], cafe.legal_actions())
        for action, gain in zip(legal, decision_gains(cafe, rng), strict=True):
            if gain == OUT:
                priors.append(0.0)
                continue
            kind, standing = action.kind, base[me] + gain
            if kind in (PLACE, BAR, SWAP):
                standing -= card_worth(action.card, late)
            if kind == SWAP:
                standing += joker
            moved = [*base[:me], standing, *base[me + 1 :]]
            priors.append(softmax(moved, TEMPERATURE)[me])  # `estimate` of the moved standings
        return priors

    def settled(self, state: State) -> bool:
        """A turn's start (or the end): where the race evaluation was fitted; in mid-turn a
        first guest waits for the second decision that may complete its table."""
        return state.is_terminal() or cast(CafeState, state).phase == "turn"

    def estimate(self, state: State) -> list[float]:
        """The standings alone: cheap, for ordering moves and for greedy play."""
        if state.is_terminal():
            return state.returns()
        return softmax(standings(cast(CafeState, state)), TEMPERATURE)

    def policy(self, state: State, rng: random.Random) -> Action:
        me = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        sample = cast(CafeState, state.determinize(me, rng))
        candidates = candidate_turns(sample, rng)[:PLAN_CANDIDATES]
        if len(candidates) == 1:
            return candidates[0].decisions[0]
        return planned_turn(cast(CafeState, state), candidates, rng).decisions[0]

    def luck(self, state: State, me: int) -> Callable[[], CafeLuck] | None:
        """The luck of the draws in each sampled world of a search (`CafeLuck`)."""
        return cafe_luck(state, me)

    def rollout(self, state: State, rng: random.Random) -> Action:
        """The decision that scores most at once; a joker costs a little, a bar seat that
        throws the player out a lot."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return rng.choice(best_decisions(cast(CafeState, state), rng))


def best_decisions(state: CafeState, rng: random.Random) -> list[CafeAction]:
    """The legal decisions that score most at once, as the rollout prices them (a joker costs
    `ROLLOUT_JOKER_COST`), every one of a tie kept: the rollout plays one of them at random."""
    legal = cast(Sequence[CafeAction], state.legal_actions())
    gains = decision_gains(state, rng, ROLLOUT_JOKER_COST)
    top = max(gains)
    return [action for action, gain in zip(legal, gains, strict=True) if gain == top]


KNOWLEDGE = CafeKnowledge()


PLAN_CANDIDATES = 4
"""The heuristic looks ahead from this many of its best turns by the one-turn judgement."""
PLAN_WORLDS = 24
"""Each candidate is played on in this many sampled worlds (the same worlds for all)."""
PLAN_TURNS = 3
"""How many turns each look-ahead plays after the candidate: the next player's, the mover's
own next one and the next player's again (at 2 players)."""


@dataclass(frozen=True)
class Turn:
    """A whole turn: its decisions (a placement and the second one, or a single decision) and
    how the one-turn judgement rates it for the mover."""

    decisions: tuple[CafeAction, ...]
    value: float


def candidate_turns(sample: CafeState, rng: random.Random) -> list[Turn]:
    """Every whole turn of the mover in `sample`, best first by the one-turn judgement: the
    mover's lead in standing after it; for the `THREAT_CANDIDATES` best, less `THREAT_SHARE`
    of what the next player could then score at once with their public hand."""
    me = sample.current_player()
    turns = full_turns(sample, rng)
    standing_lead = per_state(lambda end: lead(standings(end), me))
    value = [standing_lead(end) for _, end in turns]
    ranked = sorted(range(len(turns)), key=value.__getitem__, reverse=True)[:THREAT_CANDIDATES]
    threat = per_state(lambda end: THREAT_SHARE * best_gain(end, rng))
    for index in ranked:
        end = turns[index][1]
        if not end.is_terminal() and end.current_player() != me:
            value[index] -= threat(end)
    ranked.sort(key=value.__getitem__, reverse=True)
    return [Turn(turns[index][0], value[index]) for index in ranked]


def per_state(measure: Callable[[CafeState], float]) -> Callable[[CafeState], float]:
    """`measure`, worked out once per state object: turns in either order share theirs
    (`full_turns`)."""
    known: dict[int, float] = {}

    def once(state: CafeState) -> float:
        key = id(state)  # the states are alive in the turns: no id is reused
        if key not in known:
            known[key] = measure(state)
        return known[key]

    return once


def planned_turn(state: CafeState, candidates: Sequence[Turn], rng: random.Random) -> Turn:
    """The candidate after which the mover's mean `outlook` over sampled worlds is best. Each
    world (the bag reshuffled: the draws are what is unknown) plays every candidate and then
    `PLAN_TURNS` turns of the game's rollout policy, with the same chance for every candidate,
    so they are compared on the same luck. A candidate that leaves the same position as an
    earlier one (its `twins`) is not looked ahead again: on the same luck it fares the same."""
    me = state.current_player()
    total = [0.0] * len(candidates)
    twin: list[int] = []
    for _ in range(PLAN_WORLDS):
        world = state.determinize(me, rng)
        luck = rng.random()
        twin = twin or twins(world, candidates)  # found in the first world, so in every one
        for index, fared in enumerate(fared_in(world, candidates, twin, me, luck)):
            total[index] += fared
    best = max(range(len(candidates)), key=total.__getitem__)
    return candidates[best]


def fared_in(
    world: CafeState, candidates: Sequence[Turn], twin: list[int], me: int, luck: float
) -> list[float]:
    """Each candidate's `look_ahead` in `world` on the same luck; a twin's is its twin's."""
    fared: list[float] = []
    for index, turn in enumerate(candidates):
        if twin[index] < index:
            fared.append(fared[twin[index]])
        else:
            fared.append(look_ahead(world, turn, me, random.Random(luck)))
    return fared


def twins(world: CafeState, candidates: Sequence[Turn]) -> list[int]:
    """For each candidate, the first candidate that leaves the same position after it in
    `world` (itself if none): the same two guests placed in the other order, where that
    scores the same. Sampled worlds differ only in the bag's order, and such turns draw as
    many cards from it, so they leave the same position in every world."""
    found = list(range(len(candidates)))
    for index, turn in enumerate(candidates):
        placed = sorted(decision.code for decision in turn.decisions)
        for earlier in range(index):
            other = candidates[earlier]
            if (
                found[earlier] == earlier
                and sorted(decision.code for decision in other.decisions) == placed
                and position_after(world, other) == position_after(world, turn)
            ):
                found[index] = earlier
                break
    return found


def position_after(state: CafeState, turn: Turn) -> tuple[object, ...]:
    """Everything that makes the state after `turn` what it is, but for its history."""
    played = state.clone().quiet()
    for decision in turn.decisions:
        played.apply(decision)
    return played.state_key()[:-1]  # the history (last) differs by the order of the decisions


def look_ahead(world: CafeState, turn: Turn, me: int, rng: random.Random) -> float:
    """The mover's `outlook` after `turn` and `PLAN_TURNS` more turns of rollout play."""
    state = world.clone()
    for decision in turn.decisions:
        state.apply(decision)
    turns_left = PLAN_TURNS
    while turns_left and not state.is_terminal():
        mover = state.current_player()
        state.apply(KNOWLEDGE.rollout(state, rng))
        turns_left -= turn_ends(state, mover)
    return outlook(state, me)


def outlook(state: CafeState, me: int) -> float:
    """`me`'s chance to win: the result once the game is over (a shared win shared), else the
    logistic of their lead in the race evaluation (`cafe_plan.race_strengths`)."""
    if state.is_terminal():
        winners = state.winners()
        return 1 / len(winners) if me in winners else 0.0
    edge = lead(race_strengths(state, lateness(state)), me)
    return 1 / (1 + math.exp(-edge))


LUCK_WEIGHTS_BY_PLAYERS: Mapping[int, tuple[float, float, float, float]] = MappingProxyType(
    {
        2: (0.083, 0.064, -0.083, -0.070),
        3: (0.090, 0.056, -0.041, -0.030),
        4: (0.070, 0.046, -0.023, -0.020),
    }
)
"""What a player's reward in the search moves by per unit of their luck in the draws (a card
that fits a free chair, a joker) and per unit of the other players' (summed): the regression
slopes over rollouts from four decisions of each of 150 positions, 120 worlds each
(`scripts/fit_cafe_luck.py --players P --positions 150 --seed 500`). They explain about a
third of the rewards' variance at every player count."""


class CafeLuck:
    """The luck of the draws in one sampled world, as a control variate for search rewards.

    Each card drawn counts 1 for each of two features (it fits a free chair at the search's
    root; it is a joker) less the share of the bag before it was drawn that has the feature:
    the draw's luck. In a determinized sample the bag's order is uniform, so every draw's luck
    has expectation 0 whatever came before, and so has any weighted sum of them: subtracting it
    from a reward leaves the reward's expectation as it was and takes out the part of its
    spread that the draws' luck explains. Hands and the bag's contents are public (CI-S.1):
    a draw is seen as the bag shrinking, and what it took as the cards new in the mover's hand
    (only a player's own decisions change their hand)."""

    __slots__ = ("fits", "good", "held", "jokers", "luck", "size", "weights")

    def __init__(
        self,
        fits: Sequence[bool],
        counts: Sequence[int],
        weights: tuple[float, float, float, float],
        players: int,
    ) -> None:
        self.fits = fits
        self.weights = weights
        self.held: list[int] = []
        """The mover's hand before the decision being applied."""
        self.good = sum(n for card, n in enumerate(counts) if fits[card])
        self.jokers = counts[JOKER_LADY] + counts[JOKER_LADY + 1]
        self.size = sum(counts)
        self.luck = [0.0] * (2 * players)
        """Each player's luck: a card that fits (2p), a joker (2p + 1)."""

    def before(self, state: State, mover: int) -> None:
        self.held = cast(CafeState, state).hand(mover)

    def after(self, state: State, mover: int, action: Action) -> None:
        cafe = cast(CafeState, state)
        if cafe.filling()[2] >= self.size:
            return  # nothing drawn
        held, drawn = self.held, cafe.hand(mover)
        decision = cast(CafeAction, action)
        if decision.kind in (PLACE, BAR):
            held.remove(decision.card)  # the guest left the hand
        for kept in held:
            if kept not in drawn:
                return  # not a hand this decision changed (never so in these rules): skip it
            drawn.remove(kept)
        luck, fits = self.luck, self.fits
        for card in drawn:
            size = self.size
            good, joker = fits[card], card >= JOKER_LADY
            luck[2 * mover] += good - self.good / size
            luck[2 * mover + 1] += joker - self.jokers / size
            self.good -= good
            self.jokers -= joker
            self.size = size - 1

    def mark(self) -> object:
        return tuple(self.luck)

    def correction(self, player: int, since: object) -> float:
        luck, start = self.luck, cast(tuple[float, ...], since)
        own_fit, own_joker, other_fit, other_joker = self.weights
        fit = joker = 0.0
        for index in range(0, len(luck), 2):
            fit += luck[index] - start[index]
            joker += luck[index + 1] - start[index + 1]
        mine_fit = luck[2 * player] - start[2 * player]
        mine_joker = luck[2 * player + 1] - start[2 * player + 1]
        return (
            own_fit * mine_fit
            + own_joker * mine_joker
            + other_fit * (fit - mine_fit)
            + other_joker * (joker - mine_joker)
        )


def cafe_luck(
    state: State, me: int, weights: tuple[float, float, float, float] | None = None
) -> Callable[[], CafeLuck] | None:
    """A maker of `CafeLuck` tallies for a search of `state` with `weights` (default: the
    fitted ones of its player count), or None where none were fitted."""
    weights = weights or LUCK_WEIGHTS_BY_PLAYERS.get(state.num_players)
    if weights is None:
        return None
    cafe = cast(CafeState, state)
    fits = [cafe.fitting_chairs(card) != 0 for card in range(NUM_CARD_TYPES)]
    counts = cafe.bag_counts()
    players = state.num_players
    return lambda: CafeLuck(fits, counts, weights, players)

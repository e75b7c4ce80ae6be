"""Where Café International's search wins and loses against the heuristic, and where their
choices differ (docs/bots-log.md, "where the 2-player search wins and loses").

``ends``: 2-player games of a search seat against `heuristic` (seats alternating), each game's
result and how it ended: an empty hand (CI-D.2, CI-E.1), a full bar, every chair taken, the bag
run down, or otherwise; who ended it by emptying their hand; and who was first down to a hand
target of 1 (four single-nation tables completed, one card held), with the results of those
games: where the race is decided.

``differ``: games of the heuristic against itself; at every turn's first decision with a
choice, what the search would play there instead: how often it agrees, the kinds of decision
each plays (a table, the bar, a joker exchange; jokers seated), what each scores at once, and
whether the search's decision begins one of the heuristic's own 12 best whole turns.

``departures``: 2-player games of the heuristic against itself; at one decision in four with a
choice, the search (`--search`, at its default budget unless the spec names one) and its guide
(the heuristic's own choice, which the search starts from); where the search departs from it,
a longer search without the guide (`--reference` CPU seconds) rates both decisions: how often it
prefers the departure, and by how much win chance on average. The reference is a search of the
same kind, so it shares the search's view of the game: read it as whether the search's
departures hold up with more time, not as the truth.

    .venv/bin/python scripts/cafe_search_diagnostics.py ends --games 40 --seed 5000
    .venv/bin/python scripts/cafe_search_diagnostics.py differ --games 6 --seed 9100
    .venv/bin/python scripts/cafe_search_diagnostics.py departures --search mcts \
        --games 8 --seed 700 --reference 3
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import cast

from kafeneio.bots import make_bot
from kafeneio.bots.cafe import KNOWLEDGE, candidate_turns, decision_gains
from kafeneio.bots.mcts import MctsBot
from kafeneio.core import CHANCE, State, sample_chance
from kafeneio.games import get_game
from kafeneio.games.cafe.actions import BAR, NUM_CHAIRS, PLACE, SWAP, CafeAction
from kafeneio.games.cafe.board import is_joker
from kafeneio.games.cafe.state import CafeState


def ending(state: CafeState) -> str:
    """How a finished game ended (CI-E.1; CI-M.3 and CI-M.5 are "other")."""
    bar, seated, bag = state.filling()
    hands = [len(state.hand(p)) for p in range(state.num_players)]
    if bar >= len(state.options.bar_values):
        return "bar"
    if seated >= NUM_CHAIRS:
        return "chairs"
    if 0 in hands and min(state.hand_targets()) == 0:
        return "empty hand"
    return "bag" if bag <= state.options.end_bag else "other"


def ends(spec: str, games: int, seed: int) -> None:
    results: Counter[tuple[str, str]] = Counter()
    races: Counter[tuple[str, str]] = Counter()
    won = 0.0
    for g in range(games):
        state = cast(CafeState, get_game("cafe").new_state(2, seed=seed + g))
        rng = random.Random(seed + g)
        searcher = g % 2
        bots = {
            searcher: make_bot(spec, seed + g),
            1 - searcher: make_bot("heuristic", seed + g + 7),
        }
        first_down = "neither"
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            state.apply(bots[player](state))
            if first_down == "neither":
                first_down = first_to_target_one(state, searcher)
        result = state.returns()[searcher]
        won += result
        how = ending(state)
        if how == "empty hand":
            how += ", emptied by the " + (
                "search" if state.hand_targets()[searcher] == 0 else "heuristic"
            )
        outcome = "won" if result == 1 else "shared" if result > 0 else "lost"
        results[how, outcome] += 1
        races[first_down, outcome] += 1
    print(f"{spec} against heuristic: {won:g}/{games}")
    for (how, outcome), count in sorted(results.items()):
        print(f"  {how}: {outcome} {count}")
    print("first down to a hand target of 1 (the search's result):")
    for (who, outcome), count in sorted(races.items()):
        print(f"  {who}: {outcome} {count}")


def first_to_target_one(state: CafeState, searcher: int) -> str:
    """Who is down to a hand target of 1 or less: "search", "heuristic", "neither" (or
    "both", which one decision cannot bring about: only its mover's target falls)."""
    down = [p for p, target in enumerate(state.hand_targets()) if target <= 1]
    if len(down) != 1:
        return "neither" if not down else "both"
    return "search" if down[0] == searcher else "heuristic"


def differ(spec: str, games: int, seed: int) -> None:
    decisions = agree = outside = 0
    kinds: Counter[tuple[str, str]] = Counter()
    gains = [0.0, 0.0]
    for g in range(games):
        state = cast(CafeState, get_game("cafe").new_state(2, seed=seed + g))
        rng = random.Random(seed + g)
        search = make_bot(spec, seed + g)
        while not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                state.apply(sample_chance(state, rng))
                continue
            legal = state.legal_actions()
            chosen = cast(CafeAction, KNOWLEDGE.policy(state, rng))
            if len(legal) > 1 and state.phase == "turn":
                searched = cast(CafeAction, search.choose(state))
                turns = candidate_turns(state.determinize(player, rng), rng)
                firsts = {turn.decisions[0].code for turn in turns}
                gain_of = dict(
                    zip((a.code for a in legal), decision_gains(state, rng), strict=True)
                )
                decisions += 1
                agree += searched.code == chosen.code
                outside += searched.code != chosen.code and searched.code not in firsts
                for who, action in (("search", searched), ("heuristic", chosen)):
                    kinds[who, action.kind] += 1
                    kinds[who, "joker seated"] += action.kind == PLACE and is_joker(action.card)
                gains[0] += gain_of[searched.code]
                gains[1] += gain_of[chosen.code]
            state.apply(chosen)
    print(f"{decisions} first decisions; {spec} chose the heuristic's in {agree}")
    print(f"  of the {decisions - agree} others, {outside} begin none of its 12 best turns")
    for kind in (PLACE, BAR, SWAP, "joker seated"):
        print(f"  {kind}: search {kinds['search', kind]}, heuristic {kinds['heuristic', kind]}")
    print(
        f"  points at once, on average: search {gains[0] / decisions:.2f}, "
        f"heuristic {gains[1] / decisions:.2f}"
    )


def departures(spec: str, games: int, seed: int, reference: float) -> None:
    rng = random.Random(seed)
    decisions = 0
    gains: list[float] = []
    by_width: dict[str, list[float]] = {}
    for g in range(games):
        state = get_game("cafe").new_state(2, seed=seed + g)
        players = [make_bot("heuristic", seed + g + p) for p in range(2)]
        while not state.is_terminal():
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.25:
                decisions += 1
                gain = departure_gain(state, spec, seed + decisions, reference)
                if gain is not None:
                    gains.append(gain)
                    width = "2-4" if len(legal) < 5 else "5-14" if len(legal) < 15 else "15+"
                    by_width.setdefault(width, []).append(gain)
            state.apply(players[state.current_player()](state))
    print(f"{decisions} decisions; {spec} departed from its guide in {len(gains)}")
    for label in ("2-4", "5-14", "15+", "all"):
        found = gains if label == "all" else by_width.get(label, [])
        if found:
            better = sum(gain > 0 for gain in found)
            mean = sum(found) / len(found)
            print(
                f"  {label} legal moves: the reference prefers {better} of {len(found)} "
                f"departures; win chance gained on average {mean:+.4f}"
            )


def departure_gain(state: State, spec: str, seed: int, reference: float) -> float | None:
    """The reference's estimate of the search's choice less that of its guide's, or None
    where the search kept to its guide."""
    search = cast(MctsBot, make_bot(spec, seed))
    chosen = search.analyse(state).best.code
    guided = search.last_root.favoured
    if chosen == guided or guided < 0:
        return None
    judge = cast(MctsBot, make_bot("mcts", seed + 1, seconds=reference, guide=0.0))
    rated = {e.action.code: e.win_chance for e in judge.analyse(state).actions}
    return rated[chosen] - rated[guided]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("ends", "differ", "departures"))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--search", default="mcts:iterations=600", help="the search's seat spec")
    parser.add_argument(
        "--reference", type=float, default=3.0, help="departures: the reference's CPU seconds"
    )
    args = parser.parse_args()
    if args.what == "departures":
        departures(args.search, args.games, args.seed, args.reference)
    else:
        (ends if args.what == "ends" else differ)(args.search, args.games, args.seed)


if __name__ == "__main__":
    main()

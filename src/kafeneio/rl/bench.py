"""`kafeneio bench GAME --rl`: environment steps per second through the PettingZoo environment,
next to the raw engine's decisions per second, on the same deals and the same random policy
(the same games where no chance follows the deal, as in Café International; Souvlaki Wars'
cards taken at random the environment draws from its own generator, seeded by the deal's
seed, so there the games part ways).

Three loops play uniformly random legal actions for about `seconds` each:

- ``raw``: the engine alone (`legal_actions`, `apply`, chance drawn by its probabilities), on
  a quiet state (no events in words) as the environments use;
- ``env step``: ``env.step(code)`` on the raw AEC environment, the policy drawing from the
  legal actions as the raw loop does; this is what the wrapper adds to every decision
  (decoding the code, chance, rewards, the agent to act);
- ``env step + observe``: what a learner pays per decision: ``observe`` (the tensor and the
  mask as numpy arrays), then ``step``; the move is drawn as the other loops draw it, not
  from the mask, so that a policy's own cost (numpy's ``flatnonzero`` on Souvlaki's int8 mask
  of 67,521 codes took 120 µs of a 200 µs step) is not counted as the environment's.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from kafeneio.rl.common import GameSetup, resolve_chance
from kafeneio.rl.pettingzoo_env import KafeneioAECEnv


@dataclass(frozen=True)
class RLBenchResult:
    game: str
    players: int
    raw_decisions_per_second: float
    env_steps_per_second: float
    env_observed_steps_per_second: float
    wrapper_overhead: float
    """1 - env steps/s over raw decisions/s: the share of the raw rate the wrapper costs."""
    observed_overhead: float

    def to_dict(self) -> dict[str, float | int | str]:
        return asdict(self)


def rl_bench(game_name: str, players: int, seconds: float, seed: int = 0) -> RLBenchResult:
    """About `seconds` of each loop, played in alternation, game by game, on the same seeds, so
    that a change in the machine's load falls on all three alike."""
    loops: list[Loop] = [
        lambda game_seed: raw_game(game_name, players, game_seed),
        lambda game_seed: env_game(game_name, players, game_seed, observe=False),
        lambda game_seed: env_game(game_name, players, game_seed, observe=True),
    ]
    decisions, spent = [0, 0, 0], [0.0, 0.0, 0.0]
    game_seed = seed
    while min(spent) < seconds:
        for index, make_game in enumerate(loops):
            play = make_game(game_seed)
            start = time.perf_counter()
            decisions[index] += play()
            spent[index] += time.perf_counter() - start
        game_seed += 1
    raw, stepped, observed = (d / t for d, t in zip(decisions, spent, strict=True))
    return RLBenchResult(
        game=game_name,
        players=players,
        raw_decisions_per_second=round(raw),
        env_steps_per_second=round(stepped),
        env_observed_steps_per_second=round(observed),
        wrapper_overhead=round(1 - stepped / raw, 3),
        observed_overhead=round(1 - observed / raw, 3),
    )


Loop = Callable[[int], Callable[[], int]]
"""Set up one game from a seed; the returned function plays it and counts its decisions."""


def raw_game(game_name: str, players: int, seed: int) -> Callable[[], int]:
    state = GameSetup(game_name, players, {}).new_state(seed)
    rng = random.Random(seed)

    def play() -> int:
        decisions = 0
        while not state.is_terminal():
            resolve_chance(state, rng)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions

    return play


def env_game(game_name: str, players: int, seed: int, *, observe: bool) -> Callable[[], int]:
    aec = KafeneioAECEnv(game_name, num_players=players)
    aec.reset(seed=seed)  # its chance generator seeded: the same games at every run
    aec.game_state = aec.setup.new_state(seed)  # the raw loop's deal, not one drawn by reset
    aec.agent_selection = aec.possible_agents[aec.game_state.current_player()]
    rng = random.Random(seed)

    def play() -> int:
        steps = 0
        while not aec.game_state.is_terminal():
            agent = aec.agent_selection
            if observe:
                aec.observe(agent)
            aec.step(rng.choice(aec.game_state.legal_actions()).code)
            steps += 1
        return steps

    return play

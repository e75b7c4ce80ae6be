"""A masked random agent on both research interfaces (needs the rl extra).

    python examples/random_agent.py [cafe|souvlaki] [--players N] [--seed S]

First a whole game in the PettingZoo AEC environment, every seat drawing a legal action code
from its action mask; then one episode of the Gymnasium wrapper, seat 0 learning (here: drawing
from ``info["action_mask"]``) against the heuristic bot in every other seat.
"""

from __future__ import annotations

import argparse

import numpy as np

from kafeneio.rl import SingleAgentEnv, env


def play_pettingzoo(game: str, players: int, seed: int) -> None:
    aec = env(game, num_players=players, render_mode="ansi")
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            print(f"{agent}: reward {reward}")
            aec.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"].view(bool))
        aec.step(int(rng.choice(legal)))
        steps += 1
    print(f"PettingZoo: {game} for {players} played to the end in {steps} decisions")
    print(aec.render())


def play_gymnasium(game: str, players: int, seed: int) -> None:
    gym = SingleAgentEnv(game, num_players=players, learner=0, opponents="heuristic")
    _, info = gym.reset(seed=seed)
    gym.action_space.seed(seed)
    total, done, steps = 0.0, False, 0
    while not done:
        action = gym.action_space.sample(info["action_mask"])
        _, reward, done, _, info = gym.step(action)
        total += float(reward)
        steps += 1
    print(f"Gymnasium: seat 0 made {steps} decisions against heuristic bots, reward {total}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="cafe", choices=["cafe", "souvlaki"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    play_pettingzoo(args.game, args.players, args.seed)
    play_gymnasium(args.game, args.players, args.seed)


if __name__ == "__main__":
    main()

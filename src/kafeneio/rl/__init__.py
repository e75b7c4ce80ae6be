"""Research interfaces: PettingZoo and Gymnasium environments and OpenSpiel games.

Install the ``rl`` extra (``pip install 'kafeneio[rl]'``: numpy, gymnasium, pettingzoo,
open_spiel). docs/rl.md explains each interface; every one stands on the game contract only:
the observation tensor and key, the fixed action codes, `returns()`, chance outcomes.
"""

from __future__ import annotations

from kafeneio.rl.common import action_mask, legal_codes, observation_array
from kafeneio.rl.gym_env import SingleAgentEnv, register_gymnasium
from kafeneio.rl.pettingzoo_env import KafeneioAECEnv, env, raw_env

__all__ = [
    "KafeneioAECEnv",
    "SingleAgentEnv",
    "action_mask",
    "env",
    "legal_codes",
    "observation_array",
    "raw_env",
    "register_gymnasium",
]

register_gymnasium()

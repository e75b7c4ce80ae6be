"""One-step greedy play: the action after which the game's evaluation rates the mover best.

The evaluation is the game's own (`kafeneio.bots.knowledge`: Café's standing, Souvlaki Wars'
progress to the win), so greedy is a fair baseline in both games, where raw score would not be
(in Souvlaki Wars money spent on supplies lowers the score but wins the game). It looks at each
legal action on a determinized copy, so it sees nothing the player could not. Ties are broken at
random.
"""

from __future__ import annotations

from kafeneio.bots.base import Bot, seeded_rng
from kafeneio.bots.knowledge import after, best_by, knowledge_for
from kafeneio.core import Action, State


class GreedyBot(Bot):
    name = "greedy"

    def __init__(self, seed: int) -> None:
        self.rng = seeded_rng(seed)

    def decide(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        knowledge = knowledge_for(state)
        sample = state.determinize(me, self.rng)
        actions = sample.legal_actions()
        value = {a: knowledge.estimate(after(sample, a, self.rng))[me] for a in actions}
        return best_by(actions, value, self.rng)

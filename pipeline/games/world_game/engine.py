"""The World Game (2+ players, 20 cards each) as a rules engine: facts, challenges, ties on the next card.

Faithful to the rulebook (../shared/rules/the-world-game.en.txt, docs/rules-engines.md lists every
ambiguity and the reading chosen): 20 cards each, only the top card plays, seat 0 (left of the dealer)
leads first and the winner of a round leads the next. Option A: the leader names a fact (area,
population, highest point, land neighbours) of their top card, every player's top card is compared,
the highest value takes all revealed cards. Tied players compare the same fact on their next card (again
on the one after, while the tie lasts); a tied player without a next card drops out of the tie, and if
nobody tied has one the first tied player in turn order from the leader wins. All revealed cards go to
the final winner. Option B: a challenge set by the player to the leader's left; the leader answers
first, then every other player in clockwise order may answer or pass; the first correct answer wins,
nobody correct: the setter wins; the winner takes the top cards of the leader, the setter and every
wrong answerer. Won cards go to the bottom of the winner's stack: the winner's own first, then the others
clockwise from the winner, each player's cards in the order revealed. The game ends when a player has no
card left (2 players: the other holds them all); the most cards wins, a tie means several winners.

Simplified: the four challenges (continent, flag, location, capital) are one chance event: a player who
answers is right with probability `knowledge` (the same for every country and player); "first to
answer" is modelled as clockwise order. The game is stopped after `max_rounds` rounds (`capped`): it
would not end, and the most cards wins as if a player had run out.
"""

import random
from collections import deque
from dataclasses import dataclass

from pipeline.errors import GeodeckError
from pipeline.games.core import (
    CHANCE,
    TERMINAL,
    Bot,
    EngineGame,
    EngineState,
    Policy,
    check_players,
    percentiles,
    random_bot,
    win_shares,
)

FACTS = ("area_km2", "population", "highest_point_m", "land_neighbours")
CHALLENGE, ANSWER, PASS = len(FACTS), len(FACTS) + 1, len(FACTS) + 2
WRONG, RIGHT = 0, 1  # chance outcomes of an answer
HAND = 20
MAX_ROUNDS = 1000


@dataclass(frozen=True)
class Turn:
    """One resolved round: the leader's choice, the top cards compared (fact) or the answers (challenge)."""

    leader: int
    action: int  # a fact index or CHALLENGE
    top: tuple[tuple[int, int], ...]  # (player, top card) of everyone compared / everyone who lost a card
    best: tuple[int, ...]  # fact rounds: the players with the highest top card (2+ = a tie-break followed)
    tie_levels: int  # fact rounds: how many times the tied players went on to their next card
    answers: tuple[tuple[int, bool], ...]  # challenge rounds: (player, right)
    winner: int


@dataclass(frozen=True)
class Observation:
    """What one player may see: their own top card, every stack's size, the rounds so far, the challenge."""

    player: int
    legal_actions: tuple[int, ...]
    players: int
    leader: int
    top: int | None  # the player's own top card ("the one facing them")
    top_values: tuple | None  # its four facts
    top_strength: tuple | None  # the share of the deck its facts beat (public: the card faces)
    counts: tuple[int, ...]
    turns: tuple[Turn, ...]
    challenge: tuple[int, tuple[tuple[int, bool], ...]] | None  # (setter, answers so far)
    knowledge: float
    challenges: bool

    def __str__(self) -> str:
        return (
            f"player {self.player}, leader {self.leader}, cards {self.counts}, top card {self.top} {self.top_values}"
            + (f", challenge set by player {self.challenge[0]}" if self.challenge else "")
        )


class Game(EngineGame):
    """The cards and options of one World Game; `new_initial_state(rng)` shuffles and deals 20 each."""

    name = "world-game"
    title = "The World Game"

    def __init__(
        self,
        cards: list[dict],
        players: int = 2,
        challenges: bool = True,
        knowledge: float = 0.6,
        max_rounds: int = MAX_ROUNDS,
    ):
        self.player_counts = tuple(range(2, len(cards) // HAND + 1))
        check_players(self.name, players, self.player_counts or (2,))
        if not 0 <= knowledge <= 1:
            raise GeodeckError(f"knowledge is a probability between 0 and 1, not {knowledge}")
        self.players, self.challenges, self.knowledge, self.max_rounds = players, challenges, knowledge, max_rounds
        self.ids = tuple(c["id"] for c in cards)
        self.values = tuple(tuple(c["fields"][f] for f in FACTS) for c in cards)
        by_fact = [percentiles([v[f] for v in self.values]) for f in range(len(FACTS))]
        self.strength = tuple(tuple(by_fact[f][i] for f in range(len(FACTS))) for i in range(len(cards)))
        self.state_class = State

    @classmethod
    def from_deck(cls, deck: dict, **options) -> "Game":
        return cls(deck["cards"], **options)

    def options(self) -> dict:
        return {
            "players": self.players,
            "challenges": self.challenges,
            "knowledge": self.knowledge,
            "max_rounds": self.max_rounds,
        }

    def deal_size(self) -> int:
        return len(self.values)

    def num_distinct_actions(self) -> int:
        return PASS + 1

    def max_chance_outcomes(self) -> int:
        return 2

    def max_game_length(self) -> int:
        """A round takes at most 1 + 2 × players actions (a challenge everyone answers)."""
        return self.max_rounds * (1 + 2 * self.players)


class State(EngineState):
    """A game in progress: the leader picks a fact or a challenge; answers are decisions plus chance nodes."""

    game: Game

    def __init__(self, game: Game, order: list[int]):
        super().__init__(game, order)
        self.stacks = [deque(order[p * HAND : (p + 1) * HAND]) for p in range(self.players)]  # top = left end
        self.set_aside = order[self.players * HAND :]
        self.leader = 0
        self.turns: list[Turn] = []
        self.capped = False
        self.challenge: dict | None = None  # setter, queue (still to ask), answers, answering, chance

    def current_player(self) -> int:
        if self.terminal:
            return TERMINAL
        if self.challenge:
            return CHANCE if self.challenge["chance"] else self.challenge["answering"]
        return self.leader

    def _legal_actions(self) -> list[int]:
        if self.terminal:
            return []
        if self.challenge:
            return [WRONG, RIGHT] if self.challenge["chance"] else [ANSWER, PASS]
        return list(range(len(FACTS))) + ([CHALLENGE] if self.game.challenges else [])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(WRONG, 1 - self.game.knowledge), (RIGHT, self.game.knowledge)]

    def _apply(self, action: int) -> None:
        if self.challenge is None:
            if action == CHALLENGE:
                self._start_challenge()
            else:
                self._compare(action)
            return
        state = self.challenge
        if state["chance"]:
            state["chance"] = False
            state["answers"].append((state["answering"], action == RIGHT))
            if action == RIGHT:
                self._end_challenge(state["answering"])
                return
        elif action == ANSWER:
            state["chance"] = True
            return
        self._ask_next()

    def action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return {WRONG: "wrong answer", RIGHT: "right answer"}.get(action, f"unknown outcome {action}")
        if self.challenge is None:
            return f"compare {FACTS[action]}" if action < len(FACTS) else "call a challenge"
        return {ANSWER: "answer", PASS: "pass"}.get(action, f"unknown action {action}")

    def observation(self, player: int) -> Observation:
        top = self.stacks[player][0] if self.stacks[player] else None
        return Observation(
            player=player,
            legal_actions=tuple(self.legal_actions()) if self.current_player() == player else (),
            players=self.players,
            leader=self.leader,
            top=top,
            top_values=None if top is None else self.game.values[top],
            top_strength=None if top is None else self.game.strength[top],
            counts=tuple(self.card_counts()),
            turns=tuple(self.turns),
            challenge=(self.challenge["setter"], tuple(self.challenge["answers"])) if self.challenge else None,
            knowledge=self.game.knowledge,
            challenges=self.game.challenges,
        )

    def __str__(self) -> str:
        ids = self.game.ids
        lines = [
            f"The World Game, {self.players} players, round {len(self.turns) + 1}, leader {self.leader}"
            + (", over" if self.terminal else f", player {self.current_player()} to act")
        ]
        for p, stack in enumerate(self.stacks):
            lines.append(f"player {p}: {len(stack)} cards, top {ids[stack[0]] if stack else '-'}")
        if self.challenge:
            lines.append(f"challenge set by player {self.challenge['setter']}, answers {self.challenge['answers']}")
        return "\n".join(lines)

    def _why_illegal(self, action: int) -> str:
        player = self.current_player()
        if player == CHANCE:
            return f"an answer's outcome is {WRONG} (wrong) or {RIGHT} (right), not {action}"
        if self.challenge:
            return f"player {player} answers the challenge ({ANSWER}) or passes ({PASS}), not {action}"
        if action == CHALLENGE:
            return "challenges are not in play in this game (rule: the players decide before the game)"
        return (
            f"{action} is no action of the leader: a fact 0-{len(FACTS) - 1} ({', '.join(FACTS)}) or a challenge "
            f"{CHALLENGE}"
        )

    def card_counts(self) -> list[int]:
        return [len(s) for s in self.stacks]

    def scores(self) -> list[int]:
        return self.card_counts()

    def winners(self) -> list[int]:
        counts = self.card_counts()
        return [p for p, c in enumerate(counts) if c == max(counts)]

    def returns(self) -> list[float]:
        return win_shares(self.card_counts(), self.winners()) if self.terminal else [0.0] * self.players

    def _clockwise(self, start: int) -> list[int]:
        return [(start + i) % self.players for i in range(self.players)]

    def _compare(self, fact: int) -> None:
        order = self._clockwise(self.leader)
        revealed = dict.fromkeys(order, 1)
        contenders, level, winner, best = order, 0, None, None
        while winner is None:
            values = {p: self.game.values[self.stacks[p][level]][fact] for p in contenders}
            tied = [p for p in contenders if values[p] == max(values.values())]
            best = best or tuple(tied)
            if len(tied) == 1:
                winner = tied[0]
                break
            level += 1
            contenders = [p for p in tied if len(self.stacks[p]) > level]
            if len(contenders) <= 1:
                winner = contenders[0] if contenders else tied[0]
            else:
                for p in contenders:
                    revealed[p] = level + 1
        top = tuple((p, self.stacks[p][0]) for p in order)
        self._collect(winner, revealed, Turn(self.leader, fact, top, best, level, (), winner))

    def _start_challenge(self) -> None:
        caller = self.leader
        setter = (caller + 1) % self.players
        others = [p for p in self._clockwise(caller)[1:] if p != setter]
        self.challenge = {"setter": setter, "queue": others, "answers": [], "answering": caller, "chance": True}

    def _ask_next(self) -> None:
        state = self.challenge
        if state["queue"]:
            state["answering"] = state["queue"].pop(0)
        else:
            self._end_challenge(state["setter"])

    def _end_challenge(self, winner: int) -> None:
        state, caller = self.challenge, self.leader
        losers = [caller, state["setter"]] + [p for p, right in state["answers"] if not right]
        revealed = {p: 1 for p in self._clockwise(caller) if p in losers}
        top = tuple((p, self.stacks[p][0]) for p in revealed)
        self.challenge = None
        self._collect(winner, revealed, Turn(caller, CHALLENGE, top, (), 0, tuple(state["answers"]), winner))

    def _collect(self, winner: int, revealed: dict[int, int], turn: Turn) -> None:
        """The winner takes the revealed cards (own first, then clockwise), leads next; check the end."""
        won = []
        for p in self._clockwise(winner):
            for _ in range(revealed.get(p, 0)):
                won.append(self.stacks[p].popleft())
        self.stacks[winner].extend(won)
        self.turns.append(turn)
        self.leader = winner
        if min(self.card_counts()) == 0:
            self.terminal = True
        elif len(self.turns) >= self.game.max_rounds:
            self.terminal = self.capped = True


def _fact_player(noise: float) -> Bot:
    """A bot: the fact in which its top card beats the largest share of the deck (each share misjudged by
    Gaussian `noise`), a challenge when even that fact beats less than half of it; answers a challenge
    when likely to be right."""

    def make(game: Game, rng: random.Random) -> Policy:
        def policy(observation: Observation, rng: random.Random) -> int:
            if observation.challenge:
                return ANSWER if observation.knowledge >= 0.5 else PASS
            strength = [s + rng.gauss(0, noise) for s in observation.top_strength or (0.0,) * len(FACTS)]
            fact = max(range(len(FACTS)), key=lambda f: strength[f])
            return CHALLENGE if observation.challenges and strength[fact] < 0.5 else fact

        return policy

    return make


BOTS: dict[str, Bot] = {
    "random": random_bot,
    "novice": _fact_player(0.3),
    "skilled": _fact_player(0.1),
    "expert": _fact_player(0.0),
}

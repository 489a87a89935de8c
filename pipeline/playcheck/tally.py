"""The metrics of many finished games of one kind of playout, filled by each game's `playcheck.collect`."""

from collections import defaultdict


class Tally:
    """Accumulates the metrics of many finished games of one kind of playout."""

    def __init__(self, players: int):
        self.players = players
        self.games = 0
        self.lengths: list[int] = []
        self.seat_wins = [0.0] * players
        self.greedy_wins = [0.0] * players  # one-greedy: the heuristic's win share by its seat
        self.greedy_games = [0] * players
        self.ties: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])  # category -> [comparisons, ties]
        # card id -> [comparisons, fair share, wins]; (card id, category) -> [comparisons, wins]
        self.cards: defaultdict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
        self.always: defaultdict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
        self.extra: defaultdict[str, float] = defaultdict(float)

    def game(self, returns: list[float], length: int, greedy_seat: int | None) -> None:
        self.games += 1
        self.lengths.append(length)
        for p, r in enumerate(returns):
            self.seat_wins[p] += r
        if greedy_seat is not None:
            self.greedy_wins[greedy_seat] += returns[greedy_seat]
            self.greedy_games[greedy_seat] += 1

    def comparison(self, category: str, cards: list[str], credits: list[float], tie: bool) -> None:
        """One comparison of `cards` in `category`; `credits` is each card's share of the win (0, 1/k or 1)."""
        self.ties[category][0] += 1
        self.ties[category][1] += tie
        for card, credit in zip(cards, credits):
            entry = self.cards[card]
            entry[0] += 1
            entry[1] += 1 / len(cards)
            entry[2] += credit
            always = self.always[card, category]
            always[0] += 1
            always[1] += credit


def verdict(name: str, value: float, limit: float, passed: bool, detail: str = "") -> dict:
    """One verdict of a report: a measured value against its limit."""
    return {"name": name, "value": round(value, 4), "limit": limit, "passed": bool(passed), "detail": detail}

"""The metrics of many finished games of one kind of playout, filled by each game's `playcheck.collect`.

Tallies of consecutive batches of games merge (`merge`) into the tally of all of them; the runner merges
them in batch order, so the sums (and the report) do not depend on how many processes played them.
"""

from collections import defaultdict
from dataclasses import dataclass, fields

from pipeline.playcheck.stats import ALPHA, Interval, ratio

TABLES = ("ties", "cards", "always", "against", "against_always", "extra", "_current")  # defaultdicts


@dataclass(slots=True)
class WinSums:
    """A card's comparisons and the sums its win index (`stats.ratio`: wins over fair shares) is made of."""

    comparisons: int = 0
    fair: float = 0.0  # Σ fair share a (1/k of a comparison of k cards)
    wins: float = 0.0  # Σ wins w (its share of the win: 0, 1/k or 1)
    fair_squares: float = 0.0  # Σa²
    win_squares: float = 0.0  # Σw²
    fair_wins: float = 0.0  # Σaw

    def add(self, fair: float, credit: float) -> None:
        """One comparison: a fair share `fair`, won `credit`."""
        self.comparisons += 1
        self.fair += fair
        self.wins += credit
        self.fair_squares += fair * fair
        self.win_squares += credit * credit
        self.fair_wins += fair * credit

    def merge(self, other: "WinSums") -> None:
        for field in fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))

    def index(self, alpha: float = ALPHA) -> Interval:
        """The win index (wins over fair shares) with its interval at error `alpha`."""
        return ratio(self.comparisons, self.fair, self.wins, self.fair_squares, self.win_squares, self.fair_wins, alpha)


class Tally:
    """Accumulates the metrics of many finished games of one kind of playout."""

    def __init__(self, players: int, kind: str = ""):
        self.players = players
        self.kind = kind  # the kind of playout (`play.Kind.name`): a collector may count more in some kinds
        self.games = 0
        self.lengths: list[int] = []
        self.seat_wins = [0.0] * players
        self.hero_wins = [0.0] * players  # playouts with one stronger seat: its wins by its seat
        self.hero_games = [0] * players
        self.shared = 0  # games won by several players
        self.lead_changes: list[int] = []
        self.branching: list[float] = []  # per game: mean legal actions at a decision (random playouts)
        self.ties: dict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0])  # (category, cards) -> [n, ties]
        self.cards: dict[str, WinSums] = defaultdict(WinSums)  # card id -> its comparisons' sums
        self.always: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])  # (card, category) -> [n, wins]
        self.against: dict[str, WinSums] = defaultdict(WinSums)
        # card id -> the sums of `cards`, of comparisons the card was not in: had it been played against
        # the cards the others played (`hypothetical`)
        self.against_always: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
        self.extra: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])  # per-game count -> [Σx, Σx²]
        self.maxima: dict[str, float] = {}
        self._current: dict[str, float] = defaultdict(float)
        self._by_seat: dict[str, list[float]] = {}

    # -- what a game's collector reports ---------------------------------------------------------------
    def count(self, key: str, value: float = 1) -> None:
        """Add to this game's count `key` (reported as a mean per game with its interval)."""
        self._current[key] += value

    def by_seat(self, key: str, values: list[float]) -> None:
        """A count of this game per seat; in a playout with a stronger seat (a ladder rung) it is reported as
        the count `key: hero's edge` per game, that seat's value less the other seats' mean."""
        self._by_seat[key] = values

    def maximum(self, key: str, value: float) -> None:
        self.maxima[key] = max(self.maxima.get(key, value), value)

    def comparison(self, category: str, cards: list[str], credits: list[float], tie: bool) -> None:
        """One comparison of `cards` in `category`; `credits` is each card's share of the win (0, 1/k or 1)."""
        ties = self.ties[category, len(cards)]
        ties[0] += 1
        ties[1] += tie
        fair = 1 / len(cards)
        for card, credit in zip(cards, credits):
            _count(self.cards[card], self.always[card, category], fair, credit)

    def hypothetical(self, category: str, card: str, rivals: int, credit: float) -> None:
        """Had `card` been played in `category` against the `rivals` cards the others played there, it would
        have won `credit` (0, 1/k or 1): a card's strength against the cards a table plays, wherever its
        holder put it (Länder toppen's experts put Nepal in peak above; this asks it in every slot)."""
        _count(self.against[card], self.against_always[card, category], 1 / (rivals + 1), credit)

    # -- what the runner reports -----------------------------------------------------------------------
    def game(self, returns: list[float], length: int, hero: int | None, lead_changes: int, branching: float | None):
        """Close one game: its collector's counts, result, length, lead changes and branching factor."""
        self.games += 1
        self.lengths.append(length)
        self.lead_changes.append(lead_changes)
        if branching is not None:
            self.branching.append(branching)
        for p, r in enumerate(returns):
            self.seat_wins[p] += r
        self.shared += sum(r > 0 for r in returns) > 1
        if hero is not None:
            self.hero_wins[hero] += returns[hero]
            self.hero_games[hero] += 1
            for key, values in self._by_seat.items():
                others = (sum(values) - values[hero]) / (len(values) - 1)
                self._current[f"{key}: hero's edge"] = values[hero] - others
        self._by_seat.clear()
        for key, value in self._current.items():
            entry = self.extra[key]
            entry[0] += value
            entry[1] += value * value  # a count absent from a game is a 0 of it
        self._current.clear()

    def merge(self, other: "Tally") -> None:
        """Add the games of `other` (played after this tally's games)."""
        self.games += other.games
        self.lengths += other.lengths
        self.lead_changes += other.lead_changes
        self.branching += other.branching
        self.shared += other.shared
        for p in range(self.players):
            self.seat_wins[p] += other.seat_wins[p]
            self.hero_wins[p] += other.hero_wins[p]
            self.hero_games[p] += other.hero_games[p]
        _add(self.ties, other.ties)
        _merge(self.cards, other.cards)
        _add(self.always, other.always)
        _merge(self.against, other.against)
        _add(self.against_always, other.against_always)
        for key, (total, squares) in other.extra.items():
            self.extra[key][0] += total
            self.extra[key][1] += squares
        for key, value in other.maxima.items():
            self.maximum(key, value)

    def __getstate__(self) -> dict:  # defaultdicts of lambdas do not pickle: send plain dicts
        state = dict(self.__dict__)
        for key in TABLES:
            state[key] = dict(state[key])
        return state

    def __setstate__(self, state: dict) -> None:
        fresh = Tally(state["players"], state["kind"])
        for key in TABLES:
            getattr(fresh, key).update(state.pop(key))
        self.__dict__.update(fresh.__dict__ | state)


def _count(entry: WinSums, won: list[float], fair: float, credit: float) -> None:
    """One comparison of a card: its sums for the win index and its (comparisons, wins) there."""
    entry.add(fair, credit)
    won[0] += 1
    won[1] += credit


def _merge(mine: dict[str, WinSums], theirs: dict[str, WinSums]) -> None:
    for key, sums in theirs.items():
        mine[key].merge(sums)


def _add(mine: dict, theirs: dict) -> None:
    """Add each list of sums in `theirs` to the same key's list in `mine` (a defaultdict)."""
    for key, values in theirs.items():
        entry = mine[key]
        for i, v in enumerate(values):
            entry[i] += v

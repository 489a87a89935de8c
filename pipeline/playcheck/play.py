"""Batches of seeded playouts: what one process (or one Dask task) plays, and how one game is played.

A `Kind` of playout names the bots at the table; its game i is seeded with "<seed>:<kind>:<i>", so a game
does not depend on the batch, process or machine that plays it. `play_batch` takes only picklable
arguments (the deck as canonical JSON) and returns a `Tally`; the runner merges the tallies in batch order.
"""

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from pipeline.framework import core
from pipeline.framework.definition import GameDefinition
from pipeline.framework.levels import level
from pipeline.i18n.catalogue import N_, translate
from pipeline.i18n.language import Language
from pipeline.playcheck import ports
from pipeline.playcheck.tally import Tally

Watch = Callable[[object, str, list[str]], None]
BATCH_GAMES = 50  # games per batch: fixed, so that the sums merge in the same order for every --jobs
RANDOM = "random"  # the bot every game's ladder starts with: uniformly random legal moves
# the kinds' names (data: seeds and the report's keys) and, translated, how a report shows them
SEATS = N_("seats {players}p")  # every seat the same bot, at a player count
LADDER = N_("ladder {hero}>{bot}")  # one stronger seat among weaker ones, at the check's player count
LADDER_AT = N_("ladder {players}p {hero}>{bot}")  # ... at another player count


@dataclass(frozen=True)
class Kind:
    """A kind of playout: every seat plays `bot`, except one seat (game i: seat i % players) playing `hero`."""

    name: str
    players: int
    bot: str
    hero: str | None = None

    @classmethod
    def seats(cls, players: int, bot: str) -> "Kind":
        return cls(SEATS.format(players=players), players, bot)

    @classmethod
    def ladder(cls, players: int, bot: str, hero: str, at: bool) -> "Kind":
        """A rung of the ladder; `at`: at another player count than the check's (its name says which)."""
        return cls((LADDER_AT if at else LADDER).format(players=players, hero=hero, bot=bot), players, bot, hero)

    def bot_of(self, player: int, hero: int | None) -> str:
        """The bot seat `player` plays when seat `hero` is the hero's."""
        return self.hero if self.hero and player == hero else self.bot


def shown(name: str, summary: dict, players: int, lang: Language) -> str:
    """How a report names the kind of playout `name` (its `summary`; the check's own player count `players`)
    in `lang`: its bots' levels translated."""
    if name == RANDOM:
        return translate(lang, "random")
    fields = {"players": summary["players"], "bot": level(summary["bot"], lang)}
    if "hero" not in summary:
        return translate(lang, SEATS, **fields)
    message = LADDER if summary["players"] == players else LADDER_AT
    return translate(lang, message, hero=level(summary["hero"], lang), **fields)


@dataclass(frozen=True)
class Batch:
    game: GameDefinition  # sent along, so that a worker plays a game registered only in its caller
    kind: Kind
    seed: int
    start: int  # games start..stop-1 of the kind
    stop: int

    @property
    def games(self) -> int:
        return self.stop - self.start


def batches(game: GameDefinition, kind: Kind, games: int, seed: int, start: int = 0) -> list[Batch]:
    """Games start..games-1 of a kind, in batches of BATCH_GAMES."""
    return [Batch(game, kind, seed, i, min(i + BATCH_GAMES, games)) for i in range(start, games, BATCH_GAMES)]


def deck_json(deck: dict) -> str:
    """The deck as canonical JSON: what crosses to worker processes."""
    return json.dumps(deck, sort_keys=True, ensure_ascii=False)


@lru_cache(maxsize=8)
def _game(definition: GameDefinition, deck: str, players: int):
    return definition.engine.Game.from_deck(json.loads(deck), players=players)


def bot_factory(rules, name: str):
    """A bot of the game's ladder (`BOTS`) or one of its control bots (`CONTROLS`: name -> (rung, factory))."""
    return rules.BOTS[name] if name in rules.BOTS else rules.CONTROLS[name][1]


def play_batch(batch: Batch, deck: str, watch: Watch | None = None) -> Tally:
    """Play games start..stop-1 of one kind and tally them; `watch(state, seed, seats)` is shown each game
    (records.tape.Saver saves it: --save-records), in the process that plays it."""
    rules = ports.playcheck(batch.game)
    kind = batch.kind
    game = _game(batch.game, deck, kind.players)
    tally = Tally(kind.players, kind.name)
    for i in range(batch.start, batch.stop):
        seed = f"{batch.seed}:{kind.name}:{i}"
        rng = random.Random(seed)
        hero = i % kind.players if kind.hero else None
        state = game.new_initial_state(rng)
        policies = [bot_factory(rules, kind.bot_of(p, hero))(game, rng) for p in range(kind.players)]
        moves, leads, branching = core.playout(state, policies, rng, rules.checkpoint)
        if watch:
            watch(state, seed, [f"bot:{kind.bot_of(p, hero)}" for p in range(kind.players)])
        rules.collect(state, tally)
        tally.game(state.returns(), rules.length(state, moves), hero, leads, branching)
    return tally

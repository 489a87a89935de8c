"""Who plays which seat: `human` or `bot:<level>`, the levels being the game's bots; both as a language shows
them (templates/play/seats.toml)."""

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.framework.levels import level, words
from pipeline.i18n.language import Language
from pipeline.records.record import Seat

DEFAULT = "expert"  # the bots of a seat not given


def bots(definition: GameDefinition) -> dict:
    """The game's bot levels, weakest first: name -> bot, a factory (game, rng) -> policy (engine.BOTS)."""
    return dict(definition.engine.BOTS)


def parse(text: str | None, players: int | None, definition: GameDefinition) -> list[str]:
    """The seats' players from `--seats` (comma-separated) and `--players`: one human, bots for the rest
    (`expert`, the strongest player model; the search bot `mcts` only when asked for) when not given."""
    levels = bots(definition)
    if text is None:
        count = players or definition.default_players
        return ["human"] + [f"bot:{DEFAULT if DEFAULT in levels else list(levels)[-1]}"] * (count - 1)
    seats = [s.strip() for s in text.split(",")]
    for seat in seats:
        if seat != "human" and not (seat.startswith("bot:") and seat[4:] in levels):
            raise GeodeckError(
                f"--seats: {seat!r} is neither 'human' nor a bot; write e.g. human,bot:{list(levels)[-1]} "
                f"(bot levels: {', '.join(levels)})"
            )
    if players is not None and players != len(seats):
        raise GeodeckError(f"--players {players} but --seats names {len(seats)} seats; give one entry per player")
    return seats


def named(seats: list[str], names: list[str]) -> list[Seat]:
    return [Seat(name=name, plays=plays) for name, plays in zip(names, seats)]


def numbered(players: int, lang: Language) -> list[str]:
    """The seats' names of a game whose seats have none of their own: Player 1, Player 2, ... in `lang`."""
    player = words(lang)["player"]
    return [placeholders.fill(player, number=p + 1) for p in range(players)]


def shown(plays: str, lang: Language) -> str:
    """Who plays a seat (`human`, `bot:expert`) in `lang`'s words; a level without a word by its name."""
    said = words(lang)
    if plays == "human":
        return said["human"]
    return placeholders.fill(said["bot"], level=level(plays.removeprefix("bot:"), lang))

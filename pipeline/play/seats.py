"""Who plays which seat: `human` or `bot:<level>`, the levels being the game's bots."""

from pipeline.errors import GeodeckError
from pipeline.games import GameDefinition
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

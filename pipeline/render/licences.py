"""Licences of what a print draws from: the sources the renderers draw (each game module's `SOURCES`) and
what stands in for those that may not be sold (its `FOR_SALE`: source -> stand-in) when printing for sale.
A source's licence class is declared in its `sources/<name>.toml` (`license_class`)."""

from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.framework.definition import GameDefinition
from pipeline.render import ports


def _modules(game: GameDefinition) -> tuple[ports.CardsModule, ports.AccessoriesModule]:
    return ports.cards(game), ports.accessories(game)


def drawn(game: GameDefinition, for_sale: bool = False, deck: dict | None = None) -> list[str]:
    """The sources the game's cards and accessories draw from (with their stand-ins when `for_sale`); with a
    `deck`, those its cards draw from where a module says so (`drawn_by(deck)`: a table's items have no flag)."""
    names: set[str] = set()
    for module in _modules(game):
        stand_ins = ports.for_sale(module) if for_sale else {}
        drawn_by = ports.drawn_by(module) if deck is not None else None
        declared = drawn_by(deck) if drawn_by and deck is not None else ports.sources(module)
        names |= {stand_ins.get(name, name) for name in declared}
    return sorted(names)


def for_sale(game: GameDefinition) -> dict[str, str]:
    """{replaced source: its stand-in} of a print for sale; a drawn source that may not be sold and has no
    stand-in is refused."""
    defined = load_sources()
    for name in drawn(game, for_sale=True):
        if not defined[name].commercial:
            raise GeodeckError(
                f"{game.name} draws from {name} ({defined[name].license_class} licence) and has no stand-in for it: "
                f"it cannot be printed for sale; print without --for-sale (for personal use)"
            )
    replaced: dict[str, str] = {}
    for module in _modules(game):
        for old, new in ports.for_sale(module).items():
            if old in ports.sources(module) and not defined[old].commercial:
                replaced[old] = new
    return replaced


def replacement_lines(game: GameDefinition) -> list[str]:
    """One line per source replaced in a print for sale (what the CLI reports)."""
    defined = load_sources()
    return [
        f"for sale: {old} ({defined[old].license_class}) replaced by {new} ({defined[new].license_class})"
        for old, new in for_sale(game).items()
    ]

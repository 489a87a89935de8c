"""Regions: the grid card game (pipeline/games/grid/) for any country (docs/regions.md).

`geodeck region build ISO3` publishes a deck `region-<iso3>`; every published region deck is a game of its
own (`games()`, read by the registry; `unmade` names the command that publishes one not published here), a
configuration of the grid game: this slice's deck, cards and map, and the family's rules engine, bots,
notation, terminal and play-check thresholds (`templates/playcheck/grid.toml`).
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pycountry

from pipeline import paths
from pipeline.framework.definition import GameDefinition

PREFIX = "region-"


def definition(iso3: str) -> GameDefinition:
    """The game of the region deck `region-<iso3>` (published by `geodeck region build`, not `geodeck build`)."""
    code = iso3.lower()
    return GameDefinition(
        name=f"{PREFIX}{code}",
        package=__name__,
        family="pipeline.games.grid",
        template_name="region",
        default_players=4,
        input_table=f"region/{code}/places.parquet",
        deck_reads=(f"region/{code}/region.json",),
        in_build=False,
        made_by=f"geodeck region build {code.upper()}",
        accessories_help="the country's map on the game's grid",
    )


def own_language(name: str) -> str | None:
    """A region deck's own language (GameDefinition.own_language): its country's official language (CLDR's
    territory languages, the most spoken first) when the registry has it."""
    from babel.languages import get_official_languages

    from pipeline.i18n import registry

    country = pycountry.countries.get(alpha_3=name.removeprefix(PREFIX).upper())
    spoken = get_official_languages(country.alpha_2, de_facto=True) if country else ()
    return next((code for code in spoken if code in registry.codes()), None)


def games(declared: Mapping[str, GameDefinition]) -> list[GameDefinition]:
    """A game per published region deck (a folder output/decks/region-<iso3>/); the `declared` games (the
    registry's) are not needed here."""
    if not paths.DECKS_DIR.is_dir():
        return []
    return [
        definition(folder.name.removeprefix(PREFIX))
        for folder in sorted(paths.DECKS_DIR.glob(f"{PREFIX}*"))
        if folder.is_dir() and (folder / "LATEST").is_file()
    ]


def unmade(name: str) -> str | None:
    """The fix for a region deck `name` not published here (a fresh clone): the command that publishes it."""
    code = name.removeprefix(PREFIX)
    if not name.startswith(PREFIX) or len(code) != 3 or not code.isalpha():
        return None
    return f"{name} is not built yet: `geodeck region build {code.upper()}` publishes it"


if TYPE_CHECKING:  # mypy checks the slice's modules against the ports that read them (framework/contracts.py)
    from pipeline.decks import ports as deck_ports
    from pipeline.framework import contracts
    from pipeline.render import ports as render_ports

    from . import accessories, cards, commands, deck

    _commands: contracts.CommandsModule = commands
    _own_language: contracts.OwnLanguage = own_language
    _deck: deck_ports.DeckModule = deck
    _deck_metadata: deck_ports.Metadata = deck.metadata
    _deck_reasons: deck_ports.Reasons = deck.reasons
    _cards: render_ports.CardsModule = cards
    _cards_art: render_ports.Art = cards.art
    _cards_title: render_ports.Title = cards.title
    _cards_sources: render_ports.Sources = cards.SOURCES
    _accessories: render_ports.AccessoriesModule = accessories
    _accessories_sources: render_ports.Sources = accessories.SOURCES

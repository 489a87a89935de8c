"""A deck's title as printed: the game's own (its cards module's `title`) or its card words'."""

from pipeline.framework.definition import GameDefinition
from pipeline.i18n.language import Language
from pipeline.render import layouts, ports


def title(game: GameDefinition, deck: dict, lang: Language) -> str:
    """The deck's title as printed in `lang`: the game's cards module's `title(deck, lang)` where it has one
    (a region deck: its country's name), else its card words' `title`; the deck's stored `title` (its
    provenance) only for a game whose words have none."""
    own = ports.title(ports.cards(game))
    if own:
        return own(deck, lang)
    return layouts.load(game, lang).data.get("words", {}).get("title") or deck.get("title", deck["game"])

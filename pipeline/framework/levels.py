"""The bots' levels and the seats as a language shows them (templates/play/seats.toml), read by play-check's
report and by `geodeck play` alike."""

from pipeline import readers
from pipeline.i18n.catalogue import localised
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR

WORDS = TEMPLATES_DIR / "play" / "seats.toml"


def words(lang: Language) -> dict:
    """The seats' words in `lang`: `player`, `human`, `bot` and the bots' `levels`."""
    return localised(readers.read_input("toml", WORDS), lang, WORDS.stem)["words"]


def level(name: str, lang: Language) -> str:
    """A bot level's name in `lang` (expert); a level without a word by its name."""
    return words(lang)["levels"].get(name, name)

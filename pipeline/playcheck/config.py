"""A game's play-check thresholds: `templates/playcheck/<game>.toml`, each section with its `reason` (under
its `words`: messages of the catalogues, read in the report's language by `Config.speaking`; a custom deck's
copy names its base game's template as their context, `words_context`).

Sections read by the runner: `seats` (bot, player_counts, tolerance), `ties` (per_rival, optional
`categories.<name>.per_rival`), `skill` (min_edge), `shared_wins` (max), `cards` (for games with card
verdicts: dominant_index, useless_index, max_share, max_index, min_contests); `game` is read by the
game's own `playcheck.verdicts`. docs/rules-engines.md explains each.
"""

from pathlib import Path

from pipeline import placeholders, readers
from pipeline.errors import GeodeckError
from pipeline.i18n import registry
from pipeline.i18n.catalogue import localised
from pipeline.i18n.language import Language
from pipeline.jsonfile import Missing, Unreadable


class Config:
    """Thresholds of one game, their words in `lang`; `get("seats.tolerance")` names the file and key when one
    is missing."""

    def __init__(self, data: dict, path: Path, lang: Language | None = None):
        self.data, self.path = data, path
        self.lang = lang or registry.language(registry.source())

    def speaking(self, lang: Language | None) -> "Config":
        """These thresholds with their words in `lang` (default: the source language)."""
        lang = lang or registry.language(registry.source())
        return Config(localised(self.data, lang, self.path.stem), self.path, lang)

    def get(self, key: str, default=None):
        node = self.data
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                if default is not None:
                    return default
                raise GeodeckError(f"{self.path}: missing play-check threshold {key!r}; add it with its reason")
            node = node[part]
        return node

    def reason(self, section: str) -> str:
        return str(self.get(f"{section}.words.reason"))

    def text(self, key: str, **fields) -> str:
        """The words at `key` (e.g. `game.words.name`) with their `{fields}` filled in."""
        return placeholders.fill(str(self.get(key)), **fields)


def path_of(definition) -> Path:
    return definition.playcheck_path


def load(definition) -> Config:
    path = path_of(definition)
    try:
        return Config(readers.read("toml", path), path)
    except Missing as exc:
        raise GeodeckError(f"{path} is missing: every game needs its play-check thresholds there") from exc
    except Unreadable as exc:
        raise readers.failure("toml", path, exc, "fix the TOML") from exc

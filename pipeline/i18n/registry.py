"""The registered languages: the source language (templates/locale/languages.toml) and one per gettext
catalogue `<lang>/LC_MESSAGES/<domain>.po` in templates/locale/ or a folder of `$GEODECK_LOCALES` (a user's
own language, without touching the checkout). A language's locale (numbers, CLDR names) is its catalogue's
`Language:` header."""

import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.i18n import po
from pipeline.paths import TEMPLATES_DIR

LOCALE_DIR = TEMPLATES_DIR / "locale"
SETTINGS = LOCALE_DIR / "languages.toml"


@dataclass(frozen=True)
class Language:
    """A registered language: its code (`--lang`), its CLDR locale and its catalogue (None: the source)."""

    code: str
    locale: Locale
    catalogue: Path | None

    @property
    def name(self) -> str:
        """The language's own name, e.g. "français"."""
        return self.locale.get_display_name(self.locale) or self.code


@cache
def settings() -> dict:
    return readers.read_input("toml", SETTINGS)


def domain() -> str:
    return settings()["domain"]


def source() -> str:
    """The source language's code: the language the messages are written in."""
    return settings()["source"]


def folders() -> tuple[Path, ...]:
    """Where catalogues are looked for: templates/locale/, then each folder of `$GEODECK_LOCALES`."""
    extra = [Path(part) for part in os.environ.get("GEODECK_LOCALES", "").split(os.pathsep) if part.strip()]
    return (LOCALE_DIR, *extra)


def _locale(name: str, where: Path) -> Locale:
    try:
        return Locale.parse(name)
    except (ValueError, UnknownLocaleError) as exc:
        raise GeodeckError(f"{where}: the locale {name!r} is not one CLDR knows; name one such as fr_FR") from exc


@cache
def languages() -> dict[str, Language]:
    """Every registered language by code: the source first, then the catalogues' languages in code order."""
    found = {source(): Language(source(), _locale(settings()["source_locale"], SETTINGS), None)}
    for folder in folders():
        for path in sorted(folder.glob(f"*/LC_MESSAGES/{domain()}.po")):
            code = path.parent.parent.name
            if code not in found:
                found[code] = Language(code, _locale(po.header_locale(path) or code, path), path)
    return {code: found[code] for code in [source(), *sorted(set(found) - {source()})]}


def codes() -> tuple[str, ...]:
    """The registered languages' codes, for `--lang`."""
    return tuple(languages())


def language(code: str) -> Language:
    """The registered language `code`; one error naming the registered ones when it is not."""
    try:
        return languages()[code]
    except KeyError:
        raise GeodeckError(
            f"no language {code!r}: geodeck has {', '.join(codes())}; a new language is one catalogue "
            "(docs/languages.md)"
        ) from None

"""The registered languages: the source language (templates/locale/languages.toml) and one per gettext
catalogue `<lang>/LC_MESSAGES/<domain>.po` in templates/locale/ or a folder of `$GEODECK_LOCALES` (a user's
own language, without touching the checkout). A language's locale (numbers, CLDR names) is its catalogue's
`Language:` header."""

import os
import re
from decimal import Decimal
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError

from pipeline import readers
from pipeline.errors import GeodeckError
from pipeline.i18n import po
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR
from pipeline.text import shown

LOCALE_DIR = TEMPLATES_DIR / "locale"
CODE = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")  # a language's code: its catalogue's folder, `--lang`
SETTINGS = LOCALE_DIR / "languages.toml"


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


def _catalogue_locale(code: str, path: Path) -> Locale:
    """A catalogue's locale: its `Language:` header's, else its folder's name's, when CLDR knows it."""
    header = po.header_language(path)
    if header and po.header_locale(path) is None:
        raise GeodeckError(
            f"{path}: its Language: header {shown(header)!r} is not a locale CLDR knows; name one such as fr_FR"
        )
    if not header:
        try:
            return Locale.parse(code)
        except (ValueError, UnknownLocaleError):
            raise GeodeckError(
                f"{path}: no Language: header, and its folder {code!r} names no locale CLDR knows; add the header, "
                'e.g. "Language: fr_FR\\n"'
            ) from None
    return _locale(po.header_locale(path) or code, path)


@cache
def languages() -> dict[str, Language]:
    """Every registered language by code: the source first, then the catalogues' languages in code order."""
    found = {source(): Language(source(), _locale(settings()["source_locale"], SETTINGS), None)}
    for folder in folders():
        for path in sorted(folder.glob(f"*/LC_MESSAGES/{domain()}.po")):
            code = path.parent.parent.name
            if not CODE.fullmatch(code):
                raise GeodeckError(
                    f"{path}: its folder {shown(code)!r} is no language code (--lang); name it by letters, digits, "
                    "_ or - (e.g. fr, pt_BR), the locale in its Language: header"
                )
            if code not in found:
                found[code] = Language(code, _catalogue_locale(code, path), path)
    return {code: found[code] for code in [source(), *sorted(set(found) - {source()})]}


def codes() -> tuple[str, ...]:
    """The registered languages' codes, for `--lang`."""
    return tuple(languages())


def language(code: str | Language) -> Language:
    """The registered language `code` (a language given is itself); one error naming the registered ones
    when it is not."""
    if isinstance(code, Language):
        return code
    try:
        return languages()[code]
    except KeyError:
        raise GeodeckError(
            f"no language {code!r}: geodeck has {', '.join(codes())}; a new language is one catalogue "
            "(docs/languages.md)"
        ) from None


def minimum_grouping(locale: Locale) -> int:
    """CLDR's minimumGroupingDigits of `locale` (languages.toml, which declares what Babel does not carry):
    its own entry, else its language's, else 1."""
    table = settings().get("minimum_grouping_digits", {})
    for key in (f"{locale.language}_{locale.territory}" if locale.territory else None, locale.language):
        if key in table:
            return int(table[key])
    return 1


def grouped(value: float | int | Decimal, locale: Locale) -> bool:
    """Whether `value` is written with group separators in `locale` (its `minimum_grouping`: Polish 2110 but
    12 110; English 2,110)."""
    return abs(value) >= 10 ** (2 + minimum_grouping(locale))

"""Names from CLDR (through Babel) in any registered language: countries and territories by their ISO
3166-1 alpha-2 code or a UN M49 region code (continents: "150" Europe, "002" Africa, ...)."""

from pipeline.i18n import registry


def territory(code: str, lang: str) -> str | None:
    """CLDR's name of the territory or region `code` in `lang`, or None where CLDR has none."""
    return registry.language(lang).locale.territories.get(code)

"""Card values: master-table values rounded to card precision, with their provenance."""

import math
import unicodedata

from pipeline.decks.spec import FieldSpec
from pipeline.i18n.language import Language
from pipeline.rounding import round_half_up


def sort_name(text: str) -> str:
    """A name's sort key: accents dropped, case folded ("Österreich" sorts with "Osterreich")."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()


def missing(value) -> bool:
    """None, NaN, pandas NA or an empty string."""
    if value is None or value == "":
        return True
    try:
        return bool(value != value)  # NaN and pd.NA
    except TypeError:
        return True


def decimals_for(value: float, field: FieldSpec) -> int:
    """The decimals a value keeps: the field's, or enough for `sig_digits` below `sig_below`."""
    decimals = field.decimals or 0
    if field.sig_below is not None and field.sig_digits is not None and value != 0 and abs(value) < field.sig_below:
        decimals = max(decimals, field.sig_digits - 1 - math.floor(math.log10(abs(value))))
    return decimals


def card_number(value, field: FieldSpec) -> int | float | None:
    """A number at card precision: scaled, rounded half up, an int where it has no decimals left."""
    if missing(value):
        return None
    value = float(value) * field.scale
    if field.step:
        return int(round_half_up(value / field.step, 0)) * field.step
    decimals = decimals_for(value, field)
    rounded = round_half_up(value, decimals)
    return int(rounded) if decimals == 0 else rounded


def card_value(value, field: FieldSpec):
    """A master-table value as the card prints it (lists split from ';'-joined text)."""
    if missing(value):
        return None
    if field.type == "list":
        return [part.strip() for part in str(value).split(";") if part.strip()]
    if field.type == "string":
        return str(value)
    return card_number(value, field)


def provenance(row, column: str) -> dict | None:
    """{"source", "vintage"} from the master table's `<column>__source` / `__vintage`, if it has them, and
    "citation" where the value carries its own (`__citation`: a reviewed value, an override)."""
    source = row.get(f"{column}__source")
    if missing(source):
        return None
    vintage, citation = row.get(f"{column}__vintage"), row.get(f"{column}__citation")
    origin = {"source": str(source), "vintage": None if missing(vintage) else str(vintage)}
    return origin if missing(citation) else origin | {"citation": str(citation)}


def card_name(fields: dict, lang: Language, card_id: str) -> str:
    """A card's name in `lang` as its cards print it: its `name_<lang>`, else its own `name`, else its id."""
    return fields.get(f"name_{lang}") or fields.get("name") or card_id

"""The counting rules a country deck applies, declared once in its spec (`counting` in
templates/decks/<game>.toml): the deck code takes from here which cards show two continents and which
countries beyond the deck count as land neighbours, and every kit states the rules on its attribution page in
the kit's language (words: `[kit.words.counting]` in templates/cards/common.toml, filled from the deck and
this declaration).

- `rules`: the statements the kit prints, in order: territory (areas and peaks), disputed (disputed areas
  and capitals), neighbours, continents, years (the data years of the deck's values), names (peak names).
- `two_continents`: the countries whose card shows both of their continents, or "all" (every country of
  sources/reviewed/continents.csv); every other card shows its primary continent.
- `neighbours_also`: countries outside the deck that count as land neighbours (Kosovo, Palestine, Taiwan), or
  "all": every country counts whether or not it has a card (a deck of some countries: a recipe's).
"""

import re
from collections import Counter
from collections.abc import Sequence

from babel.lists import format_list

from pipeline import markup, placeholders, source_classes
from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.i18n.catalogue import form, labelled
from pipeline.i18n.language import Language
from pipeline.transform.reference import read_continents

ALL = "all"
RULES = ("territory", "disputed", "neighbours", "continents", "years", "names")


def declared(spec: DeckSpec) -> dict:
    """The spec's `counting` table ({} for a deck that states none); an unknown rule is a user error."""
    counting = dict(spec.options.get("counting", {}))
    unknown = [r for r in counting.get("rules", []) if r not in RULES]
    if unknown:
        raise GeodeckError(f"templates/decks/{spec.game}.toml: unknown counting rule {unknown[0]!r}; use {RULES}")
    return counting


def shown_continents(iso3: str, continents: Sequence[str], primary: str | None, spec: DeckSpec) -> list[str]:
    """The continents a card shows: all of them where the spec's `two_continents` names the country (or is
    "all"), else its primary continent only."""
    both = declared(spec).get("two_continents", ALL)
    if both == ALL or iso3 in both or not primary:
        return list(continents)
    return [primary]


def check_neighbours(iso3: str, neighbours: str | None, cards: set[str], spec: DeckSpec) -> None:
    """A user error when a land neighbour (';'-joined ISO3 codes) is neither a card nor in the spec's
    `neighbours_also`: the card would count a country whose rule the kit does not state."""
    also = declared(spec).get("neighbours_also", [])
    if also == ALL:
        return
    counted = cards | set(also)
    outside = sorted(set(str(neighbours or "").split(";")) - counted - {""})
    if outside:
        raise GeodeckError(
            f"{iso3}'s land neighbours {', '.join(outside)} are neither cards nor in counting.neighbours_also "
            f"of templates/decks/{spec.game}.toml; declare how they count"
        )


def _listing(names: list[str], lang: Language) -> str:
    """A list as `lang` writes it (CLDR's list patterns, through Babel: "a, b and c", "a, b et c")."""
    return format_list(names, locale=lang.locale)


def _years(deck: dict, spec: DeckSpec, words: dict, lang: Language, labels: dict[str, str]) -> markup.Markup:
    """Per compared value, a line with every year or period and source its printed values come from, counted
    (a field of one origin without a count): the line is true for every card, not for most. Each value is named
    by its word of the counting rules, else by its category's label (`labels`, by field: a category added to
    the deck spec)."""
    defined, lines = load_sources(), []
    for name in spec.categories:
        origins = Counter(
            _origin(p, defined, words) for card in deck["cards"] if (p := card.get("provenance", {}).get(name))
        )
        if not origins:
            continue
        if len(origins) == 1:
            shown = [f"{when} ({title})" for when, title in origins]
        else:
            forms = words["on_cards"]
            shown = [
                placeholders.fill(form(lang, forms, n), origin=f"{when} ({title})", n=n)
                for (when, title), n in sorted(origins.items(), key=lambda item: (-item[1], item[0]))
            ]
        lines.append(labelled(lang, words["fields"].get(name) or labels[name], _listing(shown, lang)))
    return markup.fill(words["years"], items=markup.lines(lines))


GRIDDED = "gridded normal"  # the source class of a grid's value (pipeline/fields.toml [source_classes])
REVIEWED = ("reviewed", "override")  # a reviewed table's value or a reviewed override, each with its citation
YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b")


def _origin(provenance: dict, defined: dict, words: dict) -> tuple[str, str]:
    """A value's year or period (a reviewed value's: the first year its citation names; `words.no_period`
    where its source states none) and its source's title (`words.reviewed` for every reviewed value; a
    gridded normal's title says so, `words.gridded`: CHELSA's grid cell, not a station's normal)."""
    vintage, source = str(provenance.get("vintage") or "").split(";")[0].strip(), provenance.get("source")
    known = defined.get(source)
    year = YEAR.search(vintage) if source in REVIEWED else None
    if vintage[:4].isdigit():
        when = vintage
    elif year and not vintage.startswith("period not stated"):
        when = year.group(0)
    elif known is not None and not vintage.startswith("period not stated"):
        when = str(known.year)
    else:
        when = words["no_period"]
    if source in REVIEWED:
        return when, words["reviewed"]
    title = known.title if known else str(source)
    if source_classes.of(str(source)) == GRIDDED:
        title = placeholders.fill(words["gridded"], source=title)
    return when, title


def _neighbours(also: list[str] | str, dependent: list[str], words: dict, lang: Language) -> markup.Markup:
    """The neighbours rule: the countries beyond the deck that count (`words["countries"]` names the states
    beyond the UN members; "all": every country counts, card or not) and the dependent territories that do not
    (the deck's cards bordering one, else the rule alone)."""
    if also == ALL:
        return markup.fill(words["neighbours_all"], also=_listing(list(words["countries"].values()), lang))
    countries = _listing([words["countries"][c] for c in also], lang)
    return markup.fill(words["neighbours"], also=countries, examples=_listing(dependent, lang))


def statements(deck: dict, spec: DeckSpec, words: dict, lang: Language, labels: dict[str, str]) -> list[markup.Markup]:
    """The kit's paragraphs stating the deck's counting rules in `lang` (none when the spec declares none), the
    deck's names in them as text (pipeline/markup.py); `labels`: the categories' labels in `lang`, by field."""
    counting = declared(spec)
    if not counting:
        return []
    cards = {c["fields"]["iso3"]: c["fields"] for c in deck["cards"] if c.get("kind") != "joker"}
    name = lang.field("name")

    def names(codes) -> list[str]:
        return [cards[c][name] for c in codes if c in cards]

    out = [markup.bold(words["heading"])]
    for rule in counting["rules"]:
        if rule == "neighbours":
            dependent = [
                f"{cards[c][name]} {cards[c]['land_neighbours']} ({words['without']} {t})"
                for c, t in words["dependent"].items()
                if c in cards
            ]
            out.append(_neighbours(counting.get("neighbours_also", []), dependent, words, lang))
        elif rule == "continents":
            both = counting.get("two_continents", ALL)
            if both == ALL:
                two = [c for c, f in cards.items() if len(f.get("continents") or []) > 1]
                if two:  # a deck of some countries may have none on two continents
                    out.append(markup.fill(words["continents_all"], names=_listing(names(two), lang)))
            else:
                others = [c for c in read_continents() if c in cards and c not in both]
                shown = [labelled(lang, cards[c][name], words["continent"][cards[c]["continents"][0]]) for c in others]
                if names(both):
                    named = _listing(names(both), lang)
                    out.append(markup.fill(words["continents_some"], names=named, others=_listing(shown, lang)))
                elif shown:  # a deck of some countries, none of those that show both (a recipe's)
                    out.append(markup.fill(words["continents_capital"], others=_listing(shown, lang)))
        elif rule == "years":
            out.append(_years(deck, spec, words, lang, labels))
        else:
            out.append(markup.words(words[rule]))
    return out

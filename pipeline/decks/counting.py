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

from collections import Counter
from collections.abc import Sequence

from pipeline.decks.spec import DeckSpec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
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


def _listing(names: list[str], words: dict) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {words['and']} {names[-1]}"


def _years(deck: dict, spec: DeckSpec, words: dict) -> str:
    """Per compared value: the vintage most of the deck's cards carry (a year or period, else its source's
    year) and its source's title."""
    defined, parts = load_sources(), []
    for name in spec.categories:
        origins = Counter(
            (p["source"], str(p.get("vintage") or "").split(";")[0])
            for card in deck["cards"]
            if (p := card.get("provenance", {}).get(name)) and p.get("source") in defined
        )
        if not origins:
            continue
        (source, vintage), _ = origins.most_common(1)[0]
        when = vintage if vintage[:4].isdigit() else defined[source].year
        parts.append(f"{words['fields'][name]} {when} ({defined[source].title})")
    return words["years"].format(items="; ".join(parts))


def _neighbours(also: list[str] | str, dependent: list[str], words: dict) -> str:
    """The neighbours rule: the countries beyond the deck that count (`words["countries"]` names the states
    beyond the UN members; "all": every country counts, card or not) and the dependent territories that do not
    (the deck's cards bordering one, else the rule alone)."""
    if also == ALL:
        return words["neighbours_all"].format(also=_listing(list(words["countries"].values()), words))
    return words["neighbours"].format(
        also=_listing([words["countries"][c] for c in also], words), examples="; ".join(dependent)
    )


def statements(deck: dict, spec: DeckSpec, words: dict, lang: str) -> list[str]:
    """The kit's paragraphs stating the deck's counting rules in `lang` (none when the spec declares none)."""
    counting = declared(spec)
    if not counting:
        return []
    cards = {c["fields"]["iso3"]: c["fields"] for c in deck["cards"] if c.get("kind") != "joker"}
    name = f"name_{lang}"

    def names(codes) -> list[str]:
        return [cards[c][name] for c in codes if c in cards]

    out = [f"<b>{words['heading']}</b>"]
    for rule in counting["rules"]:
        if rule == "neighbours":
            dependent = [
                f"{cards[c][name]} {cards[c]['land_neighbours']} ({words['without']} {t})"
                for c, t in words["dependent"].items()
                if c in cards
            ]
            out.append(_neighbours(counting.get("neighbours_also", []), dependent, words))
        elif rule == "continents":
            both = counting.get("two_continents", ALL)
            if both == ALL:
                two = [c for c, f in cards.items() if len(f.get("continents") or []) > 1]
                if two:  # a deck of some countries may have none on two continents
                    out.append(words["continents_all"].format(names=_listing(names(two), words)))
            else:
                others = [c for c in read_continents() if c in cards and c not in both]
                shown = "; ".join(f"{cards[c][name]}: {words['continent'][cards[c]['continents'][0]]}" for c in others)
                if names(both):
                    out.append(words["continents_some"].format(names=_listing(names(both), words), others=shown))
                elif shown:  # a deck of some countries, none of those that show both (a recipe's)
                    out.append(words["continents_capital"].format(others=shown))
        elif rule == "years":
            out.append(_years(deck, spec, words))
        else:
            out.append(words[rule])
    return out

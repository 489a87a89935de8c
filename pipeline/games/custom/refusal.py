"""Why `geodeck deck new` refuses a deck, as fixes a recipe can make: each failed play-check verdict that
points at cards names them (by the names on the cards) and the recipe's categories behind it, with one change
that answers it, in the recipe's language (the catalogues). The verdicts are read in the source language.
Where a fix is a change of the recipe as it stands (a category taken out, a country excluded), the fix carries
it as data too (pipeline/fixes.py `Change`): the studio offers it as a button."""

from babel.lists import format_list

from pipeline.fixes import Change, Fix, Fixable
from pipeline.games.custom import optimise, templates
from pipeline.games.custom.recipe import Recipe, games
from pipeline.i18n.catalogue import N_, N_plural, translate, translate_plural
from pipeline.i18n.language import Language

SIDES = {"above": N_("the highest in {categories}"), "below": N_("the lowest in {categories}")}
EXPERTS = "slots one card always wins against expert play"  # the verdict's name (its detail: the card, its slots)
SWEEP = N_(
    "{name} is {extremes}, so it wins those tricks wherever it is played: replace one of these categories "
    "({keys}) by one in which {name} is ordinary"
)
FEW = N_(
    "{count} categories make small hands (a strip of {places} places), too few cards to know the values by: "
    "choose 5 or 6 categories (add [[categories]] tables)"
)
SHARED = N_(
    "{cards} cards end in equal totals too often: add 2 jokers (recipe.jokers, each a pair of groups), so that more "
    "cards are dealt"
)
OFFENDER = N_("{card} ({why}): {remove} or change the categories that make it so")
ROW_OUT = N_("take its row out of {table}")
EXCLUDE = N_("exclude it (items.exclude = {codes})")
HEAD = N_("{name} not published: its {cards} cards fail play-check ({games} games):")
SWAPS = N_plural("{n} swap tried.", "{n} swaps tried.")
WIDEN = N_("Widen [items] (more candidates) or change the categories.")
ADD_ROWS = N_("Add rows to {table} (more candidates) or change the categories.")


class Refused(Fixable):
    """A deck play-check refuses: the refusal's one message, and its fixes (`fixes`) as data."""


def refused(name: str, made: Recipe, failures: list[str], report: dict, deck: dict, swaps: int, more: bool) -> Refused:
    """The refusal: the failed verdicts (`failures`, already in the recipe's language), the swaps tried, then a
    fix per card and category behind them (`fixes`), else the general advice (`more`: the table has more rows
    than cards, or the recipe is of countries)."""
    lang = made.language
    head = translate(lang, HEAD, name=name, cards=made.cards, games=report["games"])
    tried = f" {translate_plural(lang, *SWAPS, swaps)}" if swaps else ""
    found = fixes(report, deck, made)
    table = made.items.table
    general = translate(lang, WIDEN) if more or table is None else translate(lang, ADD_ROWS, table=table.name)
    message = (
        f"{head} {' '.join(failures)}{tried}"
        + "".join(f"\n  fix: {fix.line}" for fix in found)
        + ("" if found else f" {general}")
    )
    return Refused(message, found)


def fixes(report: dict, deck: dict, made: Recipe) -> list[Fix]:
    """One fix per card a failed verdict names: the card, the categories behind it and the change to make."""
    names = {card["id"]: _name(card, made.language) for card in deck["cards"]}
    keys = {templates.card_field(made, c): (n, c.label) for n, c in enumerate(made.categories, 1)}
    failed = {v["name"]: v for v in report["verdicts"] if v["result"] == optimise.FAIL}
    found: list[Fix] = []
    if always := failed.get("categories one card always wins"):
        limit = always["band"][1]
        for card, slots in sorted(_sweeps(report).items()):
            if len(slots) > limit:
                found.append(_sweep(names.get(card, card), slots, keys, made))
    if experts := failed.get(EXPERTS):  # "c-x-bremen: a below, b below, c below; 200 games of experts"
        card, _, slots = experts["detail"].split(";")[0].partition(": ")
        if slots and not any(fix.line.startswith(names.get(card, card)) for fix in found):
            found.append(_sweep(names.get(card, card), slots.split(", "), keys, made))
    if any(name.startswith("knowing the values") for name in failed) and len(made.categories) < 5:
        count = len(made.categories)
        found.append(Fix(translate(made.lang, FEW, count=count, places=2 * count)))
    if any(name.startswith("shared wins") for name in failed) and games()[made.game].get("jokers"):
        found.append(Fix(translate(made.lang, SHARED, cards=len(deck["cards"]))))
    named = optimise.offender(report, deck)
    if named and not any(fix.line.startswith(names.get(named[0], "")) for fix in found):
        card, why = named
        line = translate(made.lang, OFFENDER, card=names.get(card, card), why=why, remove=_remove(made, card))
        found.append(Fix(line, () if made.items.table is not None else (Change("add", "items.exclude", _code(card)),)))
    return found


def _sweeps(report: dict) -> dict[str, list[str]]:
    """The slots ("<field> above|below") each card won every comparison of."""
    sweeps: dict[str, list[str]] = {}
    for slot, cards in report["cards"].get("always_wins", {}).items():
        for card in cards:
            sweeps.setdefault(card, []).append(slot)
    return sweeps


def _sweep(name: str, slots: list[str], keys: dict[str, tuple[int, str]], made: Recipe) -> Fix:
    """ "Bremen is the lowest in Fläche, Einwohner and Höchster Punkt: replace one of these categories"; each of
    them taken out is a change, where the game compares fewer categories than the recipe has."""
    lang = made.language
    locale = lang.locale
    parts = sorted((keys.get(field, (0, field)), side) for field, side in (slot.rsplit(" ", 1) for slot in slots))
    extremes = [
        translate(
            lang,
            SIDES.get(side, "{categories}"),
            categories=format_list([label for (_, label), s in parts if s == side], locale=locale),
        )
        for side in dict.fromkeys(side for _, side in parts)
    ]
    named = list(dict.fromkeys(f"categories[{n}]" for (n, _), _ in parts if n))
    line = translate(lang, SWEEP, name=name, extremes=format_list(extremes, locale=locale), keys=", ".join(named))
    fewest = games()[made.game].get("categories", [3, 8])[0]
    return Fix(line, tuple(Change("remove", key) for key in named) if len(made.categories) > fewest else ())


def _remove(made: Recipe, card: str) -> str:
    """How to take a card out: a country by items.exclude, a table's row by deleting it."""
    if made.items.table is not None:
        return translate(made.lang, ROW_OUT, table=made.items.table.name)
    return translate(made.lang, EXCLUDE, codes=f'["{_code(card)}"]')


def _code(card: str) -> str:
    """A country card's ISO3 code (its id's last part)."""
    return card.rsplit("-", 1)[-1]


def _name(card: dict, lang: Language) -> str:
    fields = card["fields"]
    return str(fields.get(lang.field("name")) or fields.get("name") or card["id"])

"""Why `geodeck deck new` refuses a deck, as fixes a recipe can make: each failed play-check verdict that
points at cards names them (by the names on the cards) and the recipe's categories behind it, with one change
that answers it."""

from pipeline.games.custom import optimise, templates
from pipeline.games.custom.recipe import Recipe

SIDES = {"above": "highest", "below": "lowest"}
EXPERTS = "slots one card always wins against expert play"  # the verdict's name (its detail: the card, its slots)


def fixes(report: dict, deck: dict, made: Recipe) -> list[str]:
    """One line per card a failed verdict names: the card, the categories behind it and the change to make."""
    names = {card["id"]: _name(card, made.lang) for card in deck["cards"]}
    keys = {templates.card_field(made, c): (n, c.label) for n, c in enumerate(made.categories, 1)}
    failed = {v["name"]: v for v in report["verdicts"] if v["result"] == optimise.FAIL}
    found = []
    if always := failed.get("categories one card always wins"):
        limit = always["band"][1]
        for card, slots in sorted(_sweeps(report).items()):
            if len(slots) > limit:
                found.append(_sweep(names.get(card, card), slots, keys))
    if experts := failed.get(EXPERTS):  # "c-x-bremen: a below, b below, c below; 200 games of experts"
        card, _, slots = experts["detail"].split(";")[0].partition(": ")
        if slots and not any(line.startswith(names.get(card, card)) for line in found):
            found.append(_sweep(names.get(card, card), slots.split(", "), keys))
    if any(name.startswith("knowing the values") for name in failed) and len(made.categories) < 5:
        found.append(
            f"with {len(made.categories)} categories the hands are small (a strip of {2 * len(made.categories)} "
            "places), too few cards to know the values by: choose 5 or 6 categories (add [[categories]] tables)"
        )
    named = optimise.offender(report, deck)
    if named and not any(line.startswith(names.get(named[0], "")) for line in found):
        card, why = named
        found.append(f"{names.get(card, card)} ({why}): {_remove(made, card)} or change the categories that make it so")
    return found


def _sweeps(report: dict) -> dict[str, list[str]]:
    """The slots ("<field> above|below") each card won every comparison of."""
    sweeps: dict[str, list[str]] = {}
    for slot, cards in report["cards"].get("always_wins", {}).items():
        for card in cards:
            sweeps.setdefault(card, []).append(slot)
    return sweeps


def _sweep(name: str, slots: list[str], keys: dict[str, tuple[int, str]]) -> str:
    """ "Bremen is the lowest in Fläche, Einwohner and Höchster Punkt: replace one of these categories"."""
    parts = sorted((keys.get(field, (0, field)), side) for field, side in (slot.rsplit(" ", 1) for slot in slots))
    shown = [
        f"the {SIDES.get(side, side)} in {_listing([label for (_, label), s in parts if s == side])}"
        for side in dict.fromkeys(side for _, side in parts)
    ]
    where = ", ".join(dict.fromkeys(f"categories[{n}]" for (n, _), _ in parts if n))
    return (
        f"{name} is {' and '.join(shown)}, so it wins those tricks wherever it is played: replace one of these "
        f"categories ({where}) by one in which {name} is ordinary"
    )


def _listing(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _remove(made: Recipe, card: str) -> str:
    """How to take a card out: a country by items.exclude, a table's row by deleting it."""
    if made.items.table is not None:
        return f"take its row out of {made.items.table.name}"
    return f'exclude it (items.exclude = ["{card.rsplit("-", 1)[-1]}"])'


def _name(card: dict, lang: str) -> str:
    fields = card["fields"]
    return str(fields.get(f"name_{lang}") or fields.get("name") or card["id"])

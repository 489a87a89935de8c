"""`geodeck deck new RECIPE`: a recipe's candidates and chosen cards under build/custom/<name>/, its templates, a
play-check, then a new version of `custom-<name>` through the decks stage's publisher.

Order, so that nothing is half-published: the candidates and the cards are chosen and play-checked with the
templates in the build folder; only a deck that deals at some player count, fails no verdict, whose kit prints
in the recipe's language (`gate`) and that passes the publishing gates is published, its templates inside the
new version (pipeline/decks/stage.py and pinned.py: one folder renamed into place, a version only when the cards
or the templates changed). A refused or killed run leaves every published version, and what it prints, as it was.
"""

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from pipeline import atomic, paths
from pipeline.decks import stage
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games import custom
from pipeline.games.custom import gate, items, legacy, manage, optimise, pictures, recipe, refusal, table, templates
from pipeline.games.custom.deck import RECIPE
from pipeline.hashing import file_sha256
from pipeline.i18n import registry as registry_i18n
from pipeline.i18n.catalogue import N_, N_plural, translate, translate_plural
from pipeline.playcheck import report as reports
from pipeline.playcheck import runner

ONLY = N_plural(
    "recipe.cards {cards}: only {n} item matches [items]; set recipe.cards = {n}, or widen [items]",
    "recipe.cards {cards}: only {n} items match [items]; set recipe.cards = {n}, or widen [items]",
)
FAMILIAR = N_plural(
    "recipe.cards {cards}: only {items} items match [items], and {game} deals at least {least} cards; set "
    "recipe.cards = {fewest} and add {n} country, e.g. the most familiar left: {fix}",
    "recipe.cards {cards}: only {items} items match [items], and {game} deals at least {least} cards; set "
    "recipe.cards = {fewest} and add {n} countries, e.g. the most familiar left: {fix}",
)
NO_COUNT = N_("recipe.cards {cards}: no player count of {game} can deal {dealt} cards ({why}); {fix}")
MORE_CARDS = N_("ask for more cards (recipe.cards)")
OR_FEWER = N_("{add} or compare at most {fewer} categories (remove [[categories]] tables)")
COUNTRIES_ONLY = N_("items.table: a {game} deck is made of countries only")
NO_GROUPS = N_(
    "items.columns.group {column}: no column of {table} with groups, so the jokers have none to name; name the "
    "column of the items' groups"
)
NO_GROUP = N_plural(
    "recipe.jokers: {stray} is no group of the table; its groups: {groups}",
    "recipe.jokers: {stray} are no groups of the table; its groups: {groups}",
)


@dataclass(frozen=True)
class Made:
    result: stage.Result
    swaps: list[optimise.Swap]
    verdict: str  # the play-check's result: pass or undecided (a failing deck is refused)
    players: tuple[int, ...] = ()  # the player counts the deck deals (none said: an unchanged deck)


def folder(name: str, build_root: Path | None = None) -> Path:
    return (build_root or paths.build_dir()) / "custom" / name


def candidates(made: recipe.Recipe, build_root: Path) -> tuple[pd.DataFrame, dict, dict[str, bytes]]:
    """The recipe's candidates, most familiar first, where they came from (for recipe.json) and a table's
    pictures by name (pipeline/games/custom/pictures.py); countries from the country table under `build_root`,
    the stage outputs' build folder."""
    sources = {"recipe": made.path.name, "recipe_sha256": file_sha256(made.path)}
    if made.items.table is not None:
        rules = recipe.games()[made.game]
        if not rules.get("tables"):
            raise recipe.RecipeError(str(made.path), [translate(made.lang, COUNTRIES_ONLY, game=made.game)])
        own = table.read(made)
        origin: dict = {
            "table": own.path.name,
            "table_sha256": own.sha256,
            "table_source": made.items.columns["source"],
        }
        origin |= {"pictures": own.picture_files} if own.picture_files else {}  # their files' sha256 (manage)
        return items.rows(made, own), sources | origin, own.pictures
    countries = stage.read_table(build_root / manage.COUNTRIES, manage.COUNTRIES)
    found = items.countries(made, countries)
    countries_sha256 = file_sha256(build_root / manage.COUNTRIES)
    return found, sources | {"countries": f"build/{manage.COUNTRIES}", "countries_sha256": countries_sha256}, {}


def ranges(made: recipe.Recipe, pool: pd.DataFrame) -> dict[str, tuple[float, float]]:
    """Each table field's range over the candidates (a user's values are their own bounds)."""
    if made.items.table is None:
        return {}
    fields = [templates.card_field(made, c) for c in made.categories]
    return {name: (float(pool[name].min()), float(pool[name].max())) for name in fields}


def new(
    made: recipe.Recipe,
    base: GameDefinition,
    games: int = 200,
    jobs: int = 1,
    scheduler: str | None = None,
    accept: str | None = None,
    build_root: Path | None = None,
) -> Made:
    """Make, check and publish the deck of the recipe `made` of the game `base` (the definition of the game it
    names, looked up by its command: pipeline/games/custom/commands.py) (module docstring)."""
    root = build_root or paths.build_dir()
    if (same := manage.unchanged(made, root)) is not None:
        return Made(stage.Result(same.name, same.version, False, same.cards, None), [], manage.AS_PUBLISHED)
    staged = draft(made, base, root)
    pool, spec_doc, deck_of = staged.pool, staged.spec, staged.deck_of
    ids = [f"{spec_doc['deck']['id_prefix']}-{card}" for card in pool["card"]]
    dealing = deck_of(list(range(made.cards)))  # subsets deal alike
    spec_doc["deck"]["players"], dealt = players(staged.game, base, dealing, made)
    templates_dir = staged.out / custom.TEMPLATES
    templates.write(made, base, templates_dir, spec_doc, staged.groups, dealt)
    counts = spec_doc["deck"]["players"]
    game = custom.definition(made.name, base, staged.items_deck, templates_dir, counts)

    outcome = optimise.choose(game, pool["label"].tolist(), ids, made.cards, deck_of, games, jobs, scheduler)
    write_items(staged.out, pool, outcome.chosen, outcome.swaps)
    if not outcome.passed:
        raise refused(game, made, outcome, deck_of(outcome.chosen), games, len(pool))
    gate.check(game, stage.fresh_deck(game, root)[1], made)  # its kit prints, or nothing is published
    legacy.pin_beside(paths.DECKS_DIR / game.name)
    result = stage.build_deck(game, accept=accept, build_root=root)  # the version pins its templates
    manage.keep(made, staged.out, staged.pictures)  # the recipe and its table as published, for `geodeck deck export`
    return Made(result, outcome.swaps, outcome.report["result"], tuple(row[0] for row in dealt))


@dataclass(frozen=True)
class Draft:
    out: Path  # build/custom/<name>/
    pool: pd.DataFrame  # the candidates, most familiar first
    spec: dict  # the deck spec written into the templates
    groups: list[str]
    game: GameDefinition  # on the templates in the build folder
    items_deck: bool  # a table's items: the grouped renderer (custom.GROUPED)
    deck_of: Callable[[list[int]], dict]  # the deck document of the chosen candidates (written as chosen)
    pictures: list[str]  # a table's picture cells (paths relative to the table), kept for export


def draft(made: recipe.Recipe, base: GameDefinition, root: Path, stages: Path | None = None) -> Draft:
    """The recipe's candidates, templates and game in the build folder under `root`, before any play-check:
    what `new` chooses, checks and publishes from, and what the studio previews (its first cards, under a
    folder of its own). `stages`: the build folder whose stage outputs (the country table) the candidates are
    read from, default `root`."""
    out = folder(made.name, root)
    pool, sources, drawn = candidates(made, stages or root)
    if len(pool) < made.cards:
        raise recipe.RecipeError(str(made.path), [_too_few_items(made, pool, root)])
    size = made.cards + len(made.jokers)
    spec_doc = templates.spec(made, base, size, ranges(made, pool))
    staged = out / custom.TEMPLATES
    found_groups = groups(made, pool)
    templates.write(made, base, staged, spec_doc, found_groups, [])
    pictures.write(staged, drawn)  # pinned with the templates (pipeline/decks/pinned.py)
    items_deck = made.items.table is not None
    game = custom.definition(made.name, base, items_deck, staged)
    meta = {
        "base": made.game,
        "lang": made.lang,
        "categories": [{"field": templates.card_field(made, c), "direction": c.direction} for c in made.categories],
        "groups": found_groups,
        "sources": sources,
    }
    atomic.write_text(out / RECIPE, json.dumps(meta, ensure_ascii=False, sort_keys=True) + "\n")

    def deck_of(chosen: list[int]) -> dict:
        write_items(out, pool, chosen)
        return stage.fresh_deck(game, root)[1]

    return Draft(out, pool, spec_doc, found_groups, game, items_deck, deck_of, sorted(sources.get("pictures", {})))


def refused(
    game: GameDefinition, made: recipe.Recipe, outcome: optimise.Outcome, deck: dict, games: int, candidates: int
) -> refusal.Refused:
    """Why the deck is not published, in the recipe's language (`refusal.refused`): the failed verdicts of the
    last check, judged again in that language where it is not the source's (the same seed: the same verdicts),
    and the cards and categories behind them."""
    spoken = outcome.report
    if made.lang != registry_i18n.source():
        spoken = runner.check(game, deck, games=games, deck_path="candidates", lang=made.language)
    return refusal.refused(
        game.name,
        made,
        reports.failures(spoken, made.language),
        outcome.report,
        deck,
        len(outcome.swaps),
        made.items.table is None or candidates > made.cards,
    )


def groups(made: recipe.Recipe, pool: pd.DataFrame) -> list[str]:
    """A table's groups in first-seen order (the trick game's majority piles; none for countries: the
    continents); a joker naming another group is a recipe error."""
    if not made.items_deck:
        return []
    found = list(dict.fromkeys(g for cell in pool["groups"] for g in str(cell).split(";") if g.strip()))
    if made.jokers and not found:
        column, name = made.items.columns.get("group"), made.items.table.name if made.items.table else "?"
        raise recipe.RecipeError(str(made.path), [translate(made.lang, NO_GROUPS, column=repr(column), table=name)])
    if stray := sorted({g for pair in made.jokers for g in pair} - set(found)):
        raise recipe.RecipeError(
            str(made.path),
            [translate_plural(made.lang, *NO_GROUP, len(stray), stray=", ".join(stray), groups=", ".join(found))],
        )
    return found


def players(game: GameDefinition, base: GameDefinition, deck: dict, made: recipe.Recipe) -> tuple[int, list[list[int]]]:
    """The player count the deck is checked at: the count that plays the most cards (hands × rounds × players;
    of equals, the base game's default, else the fewest players), as docs/recipes.md says; and the deal of each
    count, [players, hand cards, rounds] (the kit's and score sheet's table). A deck no count deals is a recipe
    error naming recipe.cards."""
    counts: dict[int, int] = {}  # player count -> the cards it plays
    table, problems = [], []
    for count in range(2, 10):
        try:
            engine = game.engine.Game.from_deck(deck, players=count)
        except GeodeckError as exc:
            problems.append(str(exc))
            continue
        hand, rounds = getattr(engine, "hand_size", 0), getattr(engine, "rounds", 1)
        counts[count] = count * hand * rounds
        table.append([count, hand, rounds])
    if not counts:
        raise recipe.RecipeError(
            str(made.path),
            [
                translate(
                    made.lang,
                    NO_COUNT,
                    cards=made.cards,
                    game=made.game,
                    dealt=len(deck["cards"]),
                    why=problems[0],
                    fix=_more(made, len(deck["cards"])),
                )
            ],
        )
    return max(counts, key=lambda count: (counts[count], count == base.default_players, -count)), table


def _too_few_items(made: recipe.Recipe, pool: pd.DataFrame, root: Path) -> str:
    """Fewer candidates than recipe.cards: ask for as many as there are, or (fewer than the game deals) add the
    most familiar countries left by name (the Americas are 35 UN members; the World Game deals 40 or more)."""
    fewest = recipe.games()[made.game].get("cards", recipe.CARDS)[0] - len(made.jokers)
    if len(pool) >= fewest or made.items.table is not None:
        return translate_plural(made.lang, *ONLY, len(pool), cards=made.cards)
    need = fewest - len(pool)
    countries = stage.read_table(root / manage.COUNTRIES, manage.COUNTRIES)
    more = items.others(made, countries, set(pool["iso3"]), need)
    fix = f"items.include = {json.dumps([*made.items.include, *more])}"
    said = {"cards": made.cards, "items": len(pool), "game": made.game, "least": fewest + len(made.jokers)}
    return translate_plural(made.lang, *FAMILIAR, need, fewest=fewest, fix=fix, **said)


def _more(made: recipe.Recipe, cards: int) -> str:
    """The fix for a deck no player count deals: two players need a card per category each, so jokers up to twice
    the categories, or fewer categories (at least 3)."""
    if not made.categories:
        return translate(made.lang, MORE_CARDS)
    need, fewer = 2 * len(made.categories), cards // 2
    add = translate_plural(made.lang, *recipe.ADD_JOKERS, need - cards, low=need)
    if fewer >= 3:
        return translate(made.lang, OR_FEWER, add=add, fewer=fewer)
    return add


def write_items(out: Path, pool: pd.DataFrame, chosen: list[int], swaps: list[optimise.Swap] | None = None) -> None:
    """build/custom/<name>/items.parquet: every candidate, `in_deck` the chosen ones, with its reason."""
    swaps = swaps or []
    swapped = {s.out: f"swapped out: {s.why}" for s in swaps}
    swapped |= {s.into: f"swapped in for {s.out}: the most familiar candidate left" for s in swaps}
    kept = set(chosen)
    reason = [
        swapped.get(label) or f"familiarity rank {i} of {len(pool)}" + ("" if i - 1 in kept else ": not needed")
        for i, label in enumerate(pool["label"], 1)
    ]
    atomic.write_parquet(
        out / "items.parquet", pool.assign(in_deck=[i in kept for i in range(len(pool))], reason=reason)
    )

"""The studio's work, run in worker processes (`jobs`): each calls the CLI's stages, never a rule of its own.
A task takes the folders of the process that started it (`Where`: the tests' and an installed geodeck's are not
the defaults) and returns plain data; a user's mistake comes back as the stage's own one-line message."""

import os
import resource
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline import paths
from pipeline.i18n.language import Language

Progress = Callable[[str], None]
PREVIEW_DPI = 110
CARD_DPI = 110


@dataclass(frozen=True)
class Where:
    """The folders a worker uses, taken from the process that starts it."""

    output: Path
    decks: Path
    prints: Path
    build: Path
    store: Path

    @classmethod
    def here(cls) -> "Where":
        return cls(paths.OUTPUT_DIR, paths.DECKS_DIR, paths.PRINT_DIR, paths.build_dir(), paths.store_dir())

    def enter(self) -> None:
        paths.OUTPUT_DIR, paths.DECKS_DIR, paths.PRINT_DIR = self.output, self.decks, self.prints
        os.environ["GEODECK_BUILD"], os.environ["GEODECK_STORE"] = str(self.build), str(self.store)


def _store():
    from pipeline.extract import open_store

    return open_store(online=False)


def _game(name: str, version: str | None = None):
    """The registered game `name` at `version` (its own templates) and that version's deck, verified."""
    from pipeline.decks import pinned, published
    from pipeline.games import registry

    game = registry.get(name)
    path, deck = published.deck(game, version)
    return pinned.at(game, path.parent.name), deck


def faces(game, deck: dict, ids: list[str], lang: Language, dpi: int = CARD_DPI) -> dict[str, tuple[bytes, bytes]]:
    """Front and back PNG of each card of `ids`, drawn one-up by the print renderer (as in the whole deck's
    print: pictures and one size per field see every card)."""
    from pipeline.render import printing, raster

    options = printing.PrintOptions(layout="one-up", bleed=0, lang=lang, only=tuple(ids))
    pdf = printing.render(game, deck, options, _store())
    images = raster.pngs(pdf, list(range(2 * len(ids))), dpi, quick=True)
    chosen = [card["id"] for card in printing.chosen(deck, options)]
    return {card: (images[2 * n], images[2 * n + 1]) for n, card in enumerate(chosen)}


def cards(where: Where, name: str, version: str, ids: list[str], lang: str | None) -> dict[str, tuple[bytes, bytes]]:
    """The faces of some cards of a published version, in `lang` (None: the game's own)."""
    where.enter()
    game, deck = _game(name, version)
    shown = _language(game, lang)
    return faces(game, _named(game, deck, shown), ids, shown)


def warm() -> None:
    """A preview worker's start: it ends with the studio, and what a first preview would read (the modules, the
    fonts, every language's catalogue: 0.2 s of CPU) is read before a change asks for it."""
    import babel
    import pyarrow.dataset
    import pyarrow.pandas_compat
    import pyarrow.parquet  # noqa: F401
    import pypdfium2  # noqa: F401
    import svglib.svglib  # noqa: F401
    from PIL import Image

    from pipeline import workers
    from pipeline.games import registry
    from pipeline.games.custom import build  # noqa: F401
    from pipeline.i18n import catalogue
    from pipeline.i18n import registry as languages
    from pipeline.render import fonts, printing, raster  # noqa: F401

    workers.die_with_parent()
    registry.registered()
    fonts.register()
    Image.init()
    for code in languages.codes():
        catalogue.gettext(code, "")
        babel.Locale.parse(code).number_symbols  # noqa: B018  # read once, cached by babel


def bounded(cpu_s: int, task: Callable, *args):
    """`task(*args)` in a pool worker allowed `cpu_s` more seconds of CPU (beyond them the system ends it)."""
    used = resource.getrusage(resource.RUSAGE_SELF)
    hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
    soft = int(used.ru_utime + used.ru_stime) + cpu_s
    resource.setrlimit(resource.RLIMIT_CPU, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))
    return task(*args)


def draft(where: Where, folder: Path, draw: bool, lang: str | None = None):
    """The draft in `folder` checked as `geodeck deck new` reads it (`drafts.check`) and, if it reads and `draw`,
    its first card (`preview`); (the check, the card's faces or None). A recipe error found only when the cards
    are made (a joker's group …) stands beside its field as the check's own do."""
    from pipeline.errors import GeodeckError
    from pipeline.games.custom.recipe import RecipeError
    from pipeline.studio import drafts

    where.enter()
    checked = drafts.check(
        folder, table_too=not draw, lang=lang
    )  # drawn, `build.draft` reads the table (its errors alike)
    if not (checked.ok and draw):
        return checked, None
    try:
        return checked, preview(where, folder)
    except GeodeckError as exc:
        lines = exc.problems if isinstance(exc, RecipeError) else [str(exc)]
        for line in lines:
            field, problem = drafts.placed(line, folder)
            checked.problems.setdefault(field, []).append(problem)
        checked.ok = not isinstance(exc, RecipeError)  # else not drawable here, yet publishable (countries)
        return checked, None


def preview(where: Where, folder: Path) -> tuple[bytes, bytes]:
    """The first card of the draft recipe in `folder`, front and back in the recipe's language, before any
    play-check: the candidates (countries from the stage outputs' country table) and templates made in the
    draft's own build folder (`build.draft`), never the one `deck new` uses."""
    from pipeline.games import registry
    from pipeline.games.custom import build
    from pipeline.games.custom import recipe as recipes
    from pipeline.studio import drafts

    where.enter()
    made = recipes.load(folder / drafts.RECIPE)
    staged = build.draft(made, registry.get(made.game), folder / "build", paths.build_dir())
    deck = staged.deck_of(list(range(made.cards)))
    first = deck["cards"][0]["id"]
    return faces(staged.game, deck, [first], _language(staged.game, made.lang), PREVIEW_DPI)[first]


def publish(where: Where, folder: Path, games: int, accept: str | None, progress: Progress) -> str:
    """`geodeck deck new` of the draft recipe in `folder` (under the deck's name; `accept`: its --accept
    reason): its one-line result."""
    from pipeline import locking
    from pipeline.games import registry
    from pipeline.games.custom import build
    from pipeline.games.custom import recipe as recipes
    from pipeline.studio import drafts

    where.enter()
    made = recipes.load(drafts.named(folder, recipes.load(folder / drafts.RECIPE).name))
    with locking.exclusive(paths.build_dir(), on_wait=progress):
        progress("play-check")
        done = build.new(made, registry.get(made.game), games=games, accept=accept)
    result = done.result
    return f"{result.game} {result.version}: {result.cards} cards; play-check {done.verdict}"


def kit(where: Where, name: str, version: str, options: dict, progress: Progress) -> Path:
    """The print-and-play kit of a published version (`geodeck print GAME --kit`), its path."""
    from pipeline.render import kit as kits
    from pipeline.render import printing

    where.enter()
    game, deck = _game(name, version)
    path = paths.DECKS_DIR / name / version / "deck.json"
    shown = _language(game, options.get("lang"))
    chosen = printing.PrintOptions(**options | {"lang": shown}).validate()
    progress("kit")
    return kits.print_kit(game, path, _named(game, deck, shown), chosen, _store()).path


def sheets(where: Where, name: str, version: str, options: dict, progress: Progress) -> Path:
    """The card sheets of a published version (`geodeck print GAME`), its path."""
    from pipeline.render import printing

    where.enter()
    game, deck = _game(name, version)
    shown = _language(game, options.get("lang"))
    chosen = printing.PrintOptions(**options | {"lang": shown}).validate()
    progress("cards")
    return printing.print_deck(game, _named(game, deck, shown), chosen, _store()).path


def export(where: Where, name: str, version: str, service: str, lang: str, progress: Progress) -> Path:
    """A card service's zip of a published version (`geodeck export GAME --service S`), its path."""
    from pipeline.render import services

    where.enter()
    game, deck = _game(name, version)
    progress("export")
    shown = _language(game, lang)
    return services.export(game, _named(game, deck, shown), services.load(service), _store(), shown, jobs=1).path


def _language(game, lang: str | None) -> Language:
    """The language the page asked for (a registered code), else the game's own: where the studio's code
    becomes the language the stages take."""
    from pipeline.i18n import registry
    from pipeline.render import layouts

    return layouts.load(game).language(registry.language(lang) if lang else None)


def _named(game, deck: dict, lang: Language) -> dict:
    from pipeline.decks import translated
    from pipeline.decks.spec import load_spec

    return translated.completed(deck, load_spec(game), lang, game.made_by)[0]


def regions(where: Where) -> list[dict]:
    """Every country `geodeck region list` lists: ISO3, name, places, whether it can be built and why not, its
    tier and why (`checked`), and the tier alone (`tier`: search.standing)."""
    from dataclasses import asdict

    from pipeline.games.region import search
    from pipeline.games.region.catalogue import catalogue

    where.enter()
    return [asdict(entry) | {"tier": search.standing(entry.checked)} for entry in catalogue(_store())]


def world_map(where: Where) -> dict:
    """The regions page's map: each country's outline as SVG path data (pipeline/studio/worldmap.py)."""
    from pipeline.studio import worldmap

    where.enter()
    return worldmap.world(_store())


def region(where: Where, iso3: str, progress: Progress) -> str:
    """`geodeck region build ISO3`: its one-line result."""
    from pipeline import locking
    from pipeline.games.region import many
    from pipeline.games.region.search import publish

    where.enter()
    with locking.exclusive(many.locked_folder(), on_wait=progress):  # as `geodeck region build`: build/region/ only
        store = many.readable(_store(), progress)
        progress("search")
        result = publish(store, iso3)
    state = "published" if result.published else "unchanged"
    return f"{result.game} {result.version} {state}: {result.cards} cards"


PLAYCHECK_GAMES = 1000  # `geodeck play-check`'s default games per kind of playout


def playcheck(where: Where, name: str, version: str, lang: str | None, games: int, progress: Progress) -> str:
    """`geodeck play-check GAME --version V --games N --report-dir output/reports`: the report written where the
    deck's page shows it, `done/total` games said as they are played; its one-line verdict."""
    from pipeline.decks import pinned
    from pipeline.games import registry
    from pipeline.i18n import registry as languages
    from pipeline.playcheck import report as reports
    from pipeline.playcheck import runner

    where.enter()
    game = pinned.at(registry.get(name), version)
    deck, path = runner.load(game, version, None)
    language = languages.language(lang) if lang else None
    total, done = [0], [0]

    def started(count: int) -> None:
        total[0] = count
        progress(f"{done[0]}/{total[0]}")

    def played(count: int) -> None:
        done[0] += count
        progress(f"{done[0]}/{total[0]}")

    report = runner.check(
        game,
        deck,
        games=games,
        deck_path=str(path),
        on_start=started,
        on_games=played,
        max_games=runner.GROWTH * games,
        lang=language,
    )
    reports.write(report, paths.OUTPUT_DIR / "reports", False, lang=language)
    return f"{name} {version}: play-check {report['result']}"

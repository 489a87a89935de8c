"""What the studio shows, looked up among the known games, versions, cards, services and languages (a name in a
request is only ever a key into these): the games by kind with their versions, a version's cards with each
value's source, vintage and citation, the review model of two versions, a play-check report, the choices of the
make-a-deck form, and the files a job may hand out (under output/ only)."""

import functools
from dataclasses import dataclass
from pathlib import Path

from starlette.exceptions import HTTPException

from pipeline import paths, readers
from pipeline.decks import published, versions
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.games import custom
from pipeline.games import registry as games_registry
from pipeline.i18n import registry as languages
from pipeline.i18n.catalogue import N_, translate, translate_plural

PAPERS = ("a4", "letter")
PLAYCHECK_GAMES = 200  # play-check games per kind of playout when the studio publishes (deck new's default)
KINDS = {"built-in": N_("Built-in games"), "region": N_("Region decks"), "custom": N_("Your decks")}
TIERS = {  # a region's tier (pipeline/games/region/search.py `standing`) as the regions page says it
    "reviewed": N_("reviewed"),
    "checked": N_("checked by its last build here"),
    "refused": N_("refused by its last build here"),
    "not built": N_("not built here"),
    "cannot": N_("cannot be built"),
}


def tier(row: dict) -> str:
    """A country's tier on the regions page: its region tier, or "cannot" where no deck can be built of it."""
    return "cannot" if row["verdict"] != "yes" and row["tier"] == "not built" else row["tier"]


@dataclass(frozen=True)
class Listed:
    name: str
    kind: str  # built-in, region, custom
    title: str
    versions: tuple[str, ...]  # newest last
    latest: str | None


def kind(game: GameDefinition) -> str:
    if game.name.startswith(custom.PREFIX):
        return "custom"
    return "built-in" if game.in_build else "region"


def games() -> dict[str, list[Listed]]:
    """Every registered game by kind, with its published versions and latest title."""
    found: dict[str, list[Listed]] = {key: [] for key in KINDS}
    for name, game in sorted(games_registry.registered().items()):
        folder = paths.DECKS_DIR / name
        known = tuple(versions.versions(folder)) if folder.is_dir() else ()
        try:
            latest = versions.latest(folder) if known else None
            title = _title(game, folder / latest / "deck.json") if latest else name
        except (GeodeckError, OSError):  # a damaged deck is listed by its name
            title, latest = name, None
        found[kind(game)].append(Listed(name, kind(game), title, known, latest))
    return found


_TITLES: dict[tuple[Path, int, int, int], str] = {}  # (deck.json, its inode, size, mtime) -> the deck's title


def _title(game: GameDefinition, path: Path) -> str:
    """The title of the latest version's deck, read and verified once per file (a published version is never
    rewritten: a new one is a new folder), not at each visit of the home page (every deck: 0.45 s)."""
    found = path.stat()
    key = (path, found.st_ino, found.st_size, found.st_mtime_ns)
    if key not in _TITLES:
        _TITLES[key] = published.deck(game)[1].get("title", game.name)
    return _TITLES[key]


def game(name: str, version: str | None) -> tuple[GameDefinition, str]:
    """The game called `name` and one of its published versions (`version`, else its latest); 404 otherwise."""
    found = games_registry.registered().get(name)  # asked anew: a deck a worker published since is found
    if found is None:
        raise HTTPException(404, f"no game {name!r}: the home page lists them")
    chosen = _version(found, version)
    if chosen is None:
        raise HTTPException(404, f"{name} has no published version {version or ''}".strip())
    return found, chosen


def version(game: GameDefinition, asked: str | None) -> str | None:
    """`asked` if it is a published version of `game`, None when not asked; 404 for any other."""
    if not asked:
        return None
    if asked not in versions.versions(paths.DECKS_DIR / game.name):
        raise HTTPException(404, f"{game.name} has no published version {asked!r}")
    return asked


def _version(game: GameDefinition, asked: str | None) -> str | None:
    folder = paths.DECKS_DIR / game.name
    known = versions.versions(folder) if folder.is_dir() else []
    if asked:
        return asked if asked in known else None
    return versions.latest(folder) if known else None


def card_ids_in_order(name: str, version: str) -> list[str]:
    """The card ids of a published version, in deck order."""
    return _card_ids(paths.DECKS_DIR, name, version)


@functools.lru_cache(maxsize=64)
def _card_ids(decks: Path, name: str, version: str) -> list[str]:  # a published version never changes
    return [card["id"] for card in published.deck(games_registry.get(name), version, decks)[1]["cards"]]


def deck(game: GameDefinition, version: str, lang: str) -> dict:
    """A version's deck for its page: title, cards (id, name, each value with its source, vintage and
    citation) and the versions to compare it with."""
    from pipeline.extract import load_sources

    citations = {name: source.citation for name, source in load_sources().items()}
    document = published.deck(game, version)[1]
    rows = []
    for card in document["cards"]:
        fields = card.get("fields", {})
        provenance = card.get("provenance", {})
        values = [
            {
                "field": key,
                "value": fields[key],
                "source": (provenance.get(key) or {}).get("source", ""),
                "vintage": (provenance.get(key) or {}).get("vintage", ""),
                "citation": (provenance.get(key) or {}).get("citation")
                or citations.get((provenance.get(key) or {}).get("source", ""), ""),
            }
            for key in sorted(provenance)
            if key in fields and not _other_language(key, lang)
        ]
        name = fields.get(f"name_{lang}") or fields.get("name") or card.get("name") or card["id"]
        rows.append({"id": card["id"], "name": name, "kind": card.get("kind", ""), "values": values})
    known = versions.versions(paths.DECKS_DIR / game.name)
    return {"title": document.get("title", game.name), "cards": rows, "versions": known}


def _other_language(key: str, lang: str) -> bool:
    """A card field in another language than the page's (`name_fr` on a German page)."""
    stem, _, suffix = key.rpartition("_")
    return bool(stem) and suffix in languages.codes() and suffix != lang


def review(game: GameDefinition, old: str | None, new: str | None, lang: str) -> dict:
    """The review page's content (pipeline/review/model.py) of two versions (defaults as `geodeck review`),
    its verdict said in `lang`."""
    from pipeline.decks.spec import load_spec
    from pipeline.extract import load_sources
    from pipeline.review import model

    pair = model.resolve(game, old, new)
    citations = {name: source.citation for name, source in load_sources().items()}
    content = model.review(load_spec(game), pair, citations, game.made_by)
    verdict = content["verdict"]
    message, fields = verdict["text"], verdict["fields"]
    if isinstance(message, str):
        content["said"] = translate(lang, message, **fields)
    else:
        content["said"] = translate_plural(lang, message[0], message[1], fields["count"], **fields)
    for card in content["cards"]:
        card["name"] = card["names"].get(lang) or card["name"]
    return content


def report(game: GameDefinition, version: str) -> dict | None:
    """The play-check report `geodeck play-check` wrote for this version (output/reports/<game>/<version>/):
    its markdown and the names of its plots; None before one is written."""
    folder = paths.OUTPUT_DIR / "reports" / game.name / version
    if not (folder / "report.md").is_file():
        return None
    return {"text": (folder / "report.md").read_text(encoding="utf-8"), "plots": plots(game, version)}


def plots(game: GameDefinition, version: str) -> list[str]:
    """The plots of a version's play-check report, by file name (the only names a plot's address may give)."""
    folder = paths.OUTPUT_DIR / "reports" / game.name / version
    return sorted(path.name for path in folder.glob("*.png")) if folder.is_dir() else []


def card_language(asked: str | None) -> str | None:
    """The language cards are drawn in: `asked` if registered, else None (the game's own)."""
    return asked if asked in languages.codes() else None


def services() -> list[str]:
    from pipeline.render import services as known

    return known.names()


def print_options(form: dict, lang: str | None) -> dict:
    """The print options a form chose, each one of the known values (else the default)."""
    from pipeline.render import printing

    def chosen(key: str, allowed: tuple[str, ...]) -> str:
        value = form.get(key)
        return value if value in allowed else allowed[0]

    return {
        "paper": chosen("paper", PAPERS),
        "layout": chosen("layout", printing.LAYOUTS),
        "duplex": chosen("duplex", printing.DUPLEX_MODES),
        "lang": lang,
    }


def form_choices(lang: str) -> dict:
    """The make-a-deck form's choices: games, languages, continents, directions, category rows, the categories
    of the field table (their words in `lang`)."""
    from pipeline.decks.categories import DIRECTIONS
    from pipeline.fields import fields
    from pipeline.games.custom import recipe
    from pipeline.studio import drafts

    return {
        "recipe_games": list(recipe.games()),
        "continents": list(fields()["continents"].choices),
        "directions": DIRECTIONS,
        "rows": range(1, drafts.CATEGORY_ROWS + 1),
        "choices": category_choices(lang),
    }


@dataclass(frozen=True)
class Choice:
    """A category the form offers: a numeric field of the field table and the words it is filled in with."""

    field: str
    direction: str
    label: str  # "" where no built-in deck names the field
    template: str  # the card's unit, "{n} km²"


def category_choices(lang: str) -> list[Choice]:
    """The categories the make-a-deck form offers: each numeric field a recipe may compare (the field table,
    pipeline/fields.toml, in its order), with the direction and words, in `lang`, of the built-in deck's
    category of that column (templates/decks/*.toml, through the catalogues: Länder toppen's six); a category
    the form cannot say (a scale: inhabitants in millions) keeps its label only, its unit "{n}"."""
    from pipeline.games.custom import recipe
    from pipeline.i18n.catalogue import localised

    declared: dict[str, dict] = {}
    for spec in sorted((paths.TEMPLATES_DIR / "decks").glob("*.toml")):
        document = readers.read("toml", spec)
        for entry in localised(document, lang, spec.stem).get("categories", []):
            declared.setdefault(entry.get("column", entry["field"]), entry)
    found = []
    for name in recipe.numeric_fields():
        entry = declared.get(name, {})
        words = entry.get("words", {})
        template = words.get("unit", "{n}") if entry.get("scale", 1) == 1 else "{n}"
        direction = entry.get("direction", "higher")
        found.append(Choice(name, direction, words.get("label", ""), template))
    return found


def recipe_zip(game: GameDefinition, folder: Path) -> Path:
    """`geodeck deck export` of a deck of yours, into the session's folder."""
    from pipeline.games.custom import manage

    if kind(game) != "custom":
        raise HTTPException(404, f"{game.name} is no deck of yours: only they have a recipe to download")
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{game.name}.zip"
    target.unlink(missing_ok=True)
    return manage.export(game.name, target)


def downloadable(result: object) -> Path | None:
    """A job's written file, if it lies under output/ (nothing else is handed out)."""
    if not isinstance(result, Path):
        return None
    inside = result.resolve().is_relative_to(paths.OUTPUT_DIR.resolve())
    return result if inside and result.is_file() else None


def said(lang: str, message: str, **fields) -> str:
    """A message of the code (N_) in `lang`."""
    return translate(lang, message, **fields)


def playable() -> dict:
    """The play form's choices: the games with a published deck, and the bot levels of any of them."""
    found = [listed for kind in games().values() for listed in kind if listed.latest]
    levels: dict[str, None] = {}
    for listed in found:
        levels.update(dict.fromkeys(games_registry.registered()[listed.name].engine.BOTS))
    return {"playable": found, "levels": list(levels)}


def table_settings(form: dict, lang: str):
    """A game to play from the play form: the latest version of a game that has one, the seats checked by
    `geodeck play`'s own rules (pipeline.play.seats), a fresh seed and the record where `geodeck play` writes it."""
    import random

    from pipeline.decks import pinned
    from pipeline.play import seats as seating
    from pipeline.render import layouts
    from pipeline.studio import playing

    name = form.get("game")
    found, version = game(name if isinstance(name, str) else "", None)
    players, humans = _count(form.get("players"), 2, 9), _count(form.get("humans"), 1, 9)
    level = form.get("level")
    bots = f"bot:{level}" if isinstance(level, str) else seating.parse(None, 2, found)[1]  # geodeck play's default
    humans = min(humans, players)
    seats = seating.parse(",".join(["human"] * humans + [bots] * (players - humans)), players, found)
    seed = random.SystemRandom().randrange(1_000_000)
    definition = pinned.at(found, version)
    return playing.Settings(
        definition,
        version,
        published.deck(found, version)[1],
        seats,
        layouts.load(definition).language(languages.language(lang)),
        seed,
        paths.OUTPUT_DIR / "records" / f"{found.name}-{seed}.json",
    )


def _count(value, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        return min(max(int(value), low), high)
    return low


@dataclass(frozen=True)
class FixButton:
    value: str  # "<fix>-<change>": the index of a refused job's fix and of its change
    action: str  # remove | add | accept
    row: int  # remove: the form's category row
    label: str  # remove: the category's label (else its field); add: the value added; accept: ""


def fix_buttons(fixes: list, form: dict) -> list[tuple[str, list[FixButton]]]:
    """A refused deck's fixes as its job page shows them: each fix's line and a button per change it carries
    (pipeline.fixes.Change), named by what it changes in the form as it stands; an `accept` asks for the reason."""
    from pipeline.studio import drafts

    shown = []
    for n, fix in enumerate(fixes):
        buttons = []
        for m, change in enumerate(fix.changes):
            row = drafts.category_row(form, change.key) or 0
            named = form.get(f"categories[{row}].words.label") or form.get(f"categories[{row}].field", "")
            label = str(named) if change.action == "remove" else change.value
            if change.action in ("add", "accept") or row:
                buttons.append(FixButton(f"{n}-{m}", change.action, row, label))
        shown.append((fix.line, buttons))
    return shown

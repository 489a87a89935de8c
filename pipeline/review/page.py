"""`geodeck review`: the static review page of a deck refresh, `DIR/index.html` (Jinja2 template
templates/review/page.html.j2) with each card's front as a PNG from the print renderer (`cards/old/ID.png`,
`cards/new/ID.png`). The folder is written beside DIR and swapped in whole (pipeline/outputs.py): never
half-written, and never in place of a folder geodeck did not write."""

from dataclasses import dataclass
from pathlib import Path

import jinja2

from pipeline import outputs
from pipeline.decks import pinned, translated
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.framework.definition import GameDefinition
from pipeline.i18n import registry
from pipeline.i18n.catalogue import form, gettext, plural_forms, translate, translate_plural
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR
from pipeline.render import layouts, printing, raster
from pipeline.review import model

DPI = 110
PAGE = "index.html"
OWN = (PAGE, "cards/*/*.png")  # what a review folder of an earlier geodeck holds


@dataclass(frozen=True)
class Written:
    path: Path
    old: str
    new: str
    changed: int


def write(
    game: GameDefinition,
    old: str | None,
    new: str | None,
    out: Path,
    store,
    lang: Language | None = None,
    force: bool = False,
) -> Written:
    """Compare OLD and NEW of GAME (defaults: model.resolve) and write the review page into `out`; `force`
    adds it to a folder geodeck did not write (outputs.replacing)."""
    outputs.check(out, "--out", force, OWN)
    pair = model.resolve(game, old, new)
    citations = {name: source.citation for name, source in load_sources().items()}
    content = model.review(load_spec(game), pair, citations, game.made_by)
    spec, shown_lang = load_spec(game), layouts.load(game).language(lang)
    sides = {"old": pair.old, "new": pair.new}
    decks = {side: translated.completed(deck, spec, shown_lang, game.made_by) for side, deck in sides.items()}
    ids = {"old": content["cards"] + content["removed"], "new": content["cards"] + content["added"]}
    images = {side: card_images(game, decks[side][0], [c["id"] for c in ids[side]], store, lang) for side in ids}
    content["predating"] = [deck["version"] for deck, note in decks.values() if note and deck.get("version")]
    content["cards"] = _face_changes_first(content["cards"], images)
    with outputs.replacing(out, "--out", force, OWN) as staging:
        for side, cards in images.items():
            (staging / "cards" / side).mkdir(parents=True)
            for card_id, image in cards.items():
                if isinstance(image, bytes):
                    (staging / "cards" / side / f"{card_id}.png").write_bytes(image)
        (staging / PAGE).write_text(html(content, images, lang), encoding="utf-8")
    return Written(out / PAGE, content["old"], content["new"], len(content["cards"]))


def _face_changes_first(cards: list[dict], images: dict[str, dict[str, bytes | str]]) -> list[dict]:
    """The changed cards whose drawn front differs first (a change a player sees), each marked `face_changed`;
    then those whose change is not on the face in this language (e.g. a name in another language)."""
    old, new = images["old"], images["new"]
    marked = [{**card, "face_changed": old.get(card["id"]) != new.get(card["id"])} for card in cards]
    return sorted(marked, key=lambda card: not card["face_changed"])


def card_images(
    game: GameDefinition, deck: dict, ids: list[str], store, lang: Language | None
) -> dict[str, bytes | str]:
    """Each card's front as PNG bytes, drawn by the print renderer (one-up, no bleed); a card the current
    renderer refuses (e.g. an old version lacking a field) gets the renderer's message instead."""
    chosen = {c["id"]: c for c in deck["cards"] if c["id"] in set(ids)}
    if not chosen:
        return {}
    if deck.get("version"):  # a published version: drawn with the templates it pins (a custom deck's)
        game = pinned.at(game, deck["version"])
    options = printing.PrintOptions(layout="one-up", bleed=0, lang=lang, only=tuple(chosen))
    try:
        pdf = printing.render(game, deck, options, store)  # drawn as in the whole deck's print (sizes, divisions)
    except GeodeckError:
        return {card_id: _one(game, deck, card_id, lang, store) for card_id in chosen}
    return dict(zip(chosen, raster.pngs(pdf, list(range(0, 2 * len(chosen), 2)), DPI)))


def _one(game: GameDefinition, deck: dict, card_id: str, lang: Language | None, store) -> bytes | str:
    options = printing.PrintOptions(layout="one-up", bleed=0, lang=lang, only=(card_id,))
    try:
        return raster.png(printing.render(game, deck, options, store), 0, DPI)
    except GeodeckError as exc:
        return f"not drawable with today's renderer: {exc}"


def html(content: dict, images: dict[str, dict[str, bytes | str]], language: Language | None = None) -> str:
    """The page in `language` (default: the source language): the template's words through jinja2's i18n
    extension (`_()`, extracted by `make messages`), the verdict and the summary's names as messages."""
    lang = language or registry.language(registry.source())
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR / "review"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    environment.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        lambda message: _percent_safe(message, gettext(lang, message)),
        lambda singular, plural, n: form(lang, plural_forms(lang, singular, plural), n),
        newstyle=True,
    )
    verdict = content["verdict"]
    shown = {
        "verdict": {**verdict, "text": _said(lang, verdict["text"], verdict["fields"])},
        **{side: gettext(lang, content[side]) for side in ("old", "new")},  # a version, or the build's label
        **{key: [_named(card, lang) for card in content[key]] for key in ("cards", "added", "removed")},
    }
    return environment.get_template("page.html.j2").render(**content | shown, images=images, lang=lang.code)


def _percent_safe(message: str, translated: str) -> str:
    """A translation as jinja2's newstyle gettext takes it, which formats every message with `%`: a message
    without `%(fields)s` has its percent signs doubled (a catalogue's `%(field)s` are checked when it is read,
    pipeline/i18n/po.py)."""
    return translated if "%" in message else translated.replace("%", "%%")


def _named(card: dict, lang: Language) -> dict:
    """A card of the model with its name in `lang` where the deck has one (`name_<lang>`: Monachium)."""
    return {**card, "name": card.get("names", {}).get(lang.code) or card["name"]}


def _said(lang: Language, message: str | list[str], fields: dict) -> str:
    """A message of the model in `lang`; a plural one (singular, plural) in its form for `fields["count"]`."""
    if isinstance(message, str):
        return translate(lang, message, **fields)
    singular, plural = message
    return translate_plural(lang, singular, plural, fields["count"], **fields)

"""Länder toppen! cards: country cards, the Antarctica card, jokers (with the rulebook's joker rule), and the
game's back (pipeline/render/backs.py).

All drawing is in millimetres with the origin at the card's bottom-left trim corner.
"""

import math

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.i18n import registry
from pipeline.i18n.catalogue import labelled
from pipeline.i18n.language import Language
from pipeline.render import backs, pictograms, text
from pipeline.render.context import CardContext
from pipeline.render.flags import SOURCE as FLAGS
from pipeline.render.maps import ANTARCTICA, CIRCLE_MM, NE
from pipeline.render.numbers import with_unit
from pipeline.render.text import Box

KINDS = ("country", "antarctica", "joker")
SOURCES: tuple[str, ...] = (NE, FLAGS)  # what the cards draw from besides the deck (the kit credits them)
MAP_FORM = "world_lt"


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when an asset or a field is missing."""
    kind, fields = card["kind"], card["fields"]
    if kind not in KINDS:
        raise GeodeckError(f"card {card['id']}: unknown kind {kind!r} for laender-toppen; expected {', '.join(KINDS)}")
    for group in fields.get("continents") or []:
        ctx.layout.group(group, ctx.lang)
    if kind == "joker":
        if len(fields.get("continents") or []) != 2:
            raise GeodeckError(
                f"card {card['id']}: a joker needs exactly two continents, got {fields.get('continents')}"
            )
        return
    if kind == "country" or fields.get("flag"):
        ctx.flags.check(fields.get("flag"), card["id"])
    if not ctx.world.has(fields["iso3"]):
        raise GeodeckError(f"card {card['id']}: no map geometry or label point for {fields['iso3']!r}")


NAME_LINES = 2
LABEL_LINES = 2  # a category's label: a second line where its row is tall enough (fewer categories)


def steps(cards: list[dict], ctx: CardContext) -> dict[str, float]:
    """Each field's one size across the deck (docs/printing.md): the largest at which every text of the field
    fits (the name in the card's language in two lines, the other one in one; the category labels; the
    values)."""
    countries = [card["fields"] for card in cards if card["kind"] != "joker"]
    named = [names(fields, ctx.layout, ctx.lang) for fields in countries]
    layout = ctx.layout
    categories = layout.data["categories"]
    _, label, value = ctx.cells(ctx.rows_of(layout.box("rows"), len(categories))[0])
    return {
        "name": text.one_size([n for n, _ in named], ctx.bold, layout.box("name"), layout.font("name")[0], NAME_LINES),
        "other_name": text.one_size(
            [o for _, o in named], ctx.regular, layout.box("other_name"), layout.font("other_name")[0]
        ),
        "facts": max(
            layout.font("facts")[1],
            text.one_size(
                [line for fields in countries for line in _fact_lines(fields, ctx)],
                ctx.regular,
                _fact_box(ctx),
                layout.font("facts")[0],
            ),
        ),
        "row_label": text.one_size(
            [c["words"]["label"] for c in categories], ctx.regular, label, layout.font("row_label")[0], LABEL_LINES
        ),
        "row_value": text.one_size(
            [_value(fields, c, ctx.lang) for fields in countries for c in categories],
            ctx.bold,
            value,
            layout.font("row_value")[0],
        ),
    }


def _band(c, continents: list[str], ctx: CardContext) -> None:
    """The continent colour carries the card (a frame round a white panel, the band at the top with the
    continents' names; a deck's own groups instead, `Layout.group`); a card of two is split down the middle."""
    layout = ctx.layout
    band, label = layout.box("band"), layout.box("band_text")
    ctx.framed(c, [layout.group(continent, ctx.lang)[1] for continent in continents], top=band.y)
    width = band.w / len(continents)
    for i, continent in enumerate(continents):
        name, colour = layout.group(continent, ctx.lang)
        left = band.x + i * width
        x0, x1 = max(left + 1, label.x), min(left + width - 1, label.x + label.w)
        part = Box(x0, label.y, x1 - x0, label.h)
        text.draw(
            c, name, ctx.bold, part, *layout.font("band"), max_lines=2, align="center", colour=layout.ink_on(colour)
        )  # two lines where half the band does not hold it at 7 pt (Ameryka Południowa)


def second_language(layout, lang: Language) -> str:
    """The language of the second name, printed small under the card's name in `lang`: the template's
    `[second_name]` (`lang`'s entry, else `other`; docs/languages.md, "The second name"). The rules' card
    legend names it from the same table (`rules_words`)."""
    table = layout.data.get("second_name") or {}
    code = table.get(lang.code) or table.get("other")
    if not code:
        raise GeodeckError(f"templates/cards/{layout.game}.toml: [second_name] needs `other` (or an entry for {lang})")
    return registry.language(code).code


def names(fields: dict, layout, lang: Language) -> tuple[str, str]:
    """The name in `lang` and the second name (`second_language`), empty where it only repeats the first
    (Costa Rica)."""
    other = second_language(layout, lang)
    first, second = printed(fields, lang)["name"], fields.get(f"name_{other}") or ""
    return first, "" if second.casefold() == first.casefold() else second


def printed(fields: dict, lang: Language, layout=None) -> dict[str, str]:
    """What a card prints that the rules' worked example names: the name in `lang`."""
    return {"name": fields.get(lang.field("name")) or ""}


def _value(fields: dict, category: dict, lang: Language) -> str:
    return with_unit(fields.get(category["field"]), lang, category["pattern"], category["words"]["unit"])


def _fact_lines(fields: dict, ctx: CardContext) -> list[str]:
    """The capital and the highest mountain (the population density is the rows' inhabitants by area)."""
    words = ctx.words
    lang = ctx.lang  # the card's names in the language printed
    return [
        labelled(lang, words["capital"], fields.get(lang.field("capital")) or "–"),
        labelled(lang, words["mountain"], fields.get(lang.field("highest_mountain")) or "–"),
    ]


def _fact_box(ctx: CardContext) -> Box:
    box = ctx.layout.box("facts")
    return Box(box.x, box.y, box.w, box.h / FACT_LINES)


FACT_LINES = 2


def _fact_set(fields: dict, ctx: CardContext, size: float) -> list[str]:
    """The fact lines as set at `size` pt: each fact on one line, or wrapped to two where it is wider than the
    box even at the deck's one size (never cut: "Höchster Berg: Piton de la Petite Rivière Noire")."""
    width = _fact_box(ctx).w
    return [
        line
        for fact in _fact_lines(fields, ctx)
        for line in text.fit(fact, ctx.regular, Box(0, 0, width, math.inf), size, size, FACT_LINES).lines
    ]


def _boxes(lines: int, ctx: CardContext) -> tuple[Box, Box]:
    """(facts, map) of a card whose facts take `lines` lines: a line beyond the template's two is taken from
    the map's top (the map drawn smaller on that card, in a box of the same width)."""
    facts, world, line = ctx.layout.box("facts"), ctx.layout.box("map"), _fact_box(ctx)
    extra = max(lines - FACT_LINES, 0) * line.h
    return Box(facts.x, facts.y - extra, facts.w, facts.h + extra), Box(world.x, world.y, world.w, world.h - extra)


def _facts(c, lines: list[str], ctx: CardContext, size: float) -> None:
    """The fact lines (`_fact_set`) at the deck's one size (the largest at which every line is whole, never below
    the template's least), in the text colour, a line each from the top of the facts box (`_boxes`)."""
    box, line = _boxes(len(lines), ctx)[0], _fact_box(ctx)
    c.setFillColor(ctx.layout.colour("text"))
    for i, fact in enumerate(lines):
        text.draw(c, fact, ctx.regular, Box(line.x, box.y + box.h - (i + 1) * line.h, line.w, line.h), size, size)


def _rows(c, fields: dict, ctx: CardContext) -> None:
    layout = ctx.layout
    categories = layout.data["categories"]
    sizes = ctx.sizes or steps([{"kind": "country", "fields": fields}], ctx)
    for row, category in zip(ctx.rows(c, layout.box("rows"), len(categories)), categories):
        icon, label, value = ctx.cells(row)
        pictograms.draw(c, category["icon"], icon, layout.colour("muted"))
        c.setFillColor(layout.colour("text"))
        size = sizes["row_label"]
        text.draw(c, category["words"]["label"], ctx.regular, label, size, size, LABEL_LINES)
        size = sizes["row_value"]
        text.draw(c, _value(fields, category, ctx.lang), ctx.bold, value, size, size, align="right")


def front(c, card: dict, ctx: CardContext) -> None:
    layout, fields = ctx.layout, card["fields"]
    _band(c, fields["continents"], ctx)
    if card["kind"] == "joker":
        if layout.data.get("groups"):  # a deck of its own groups: the countries of its two groups coloured
            _groups_map(c, fields["continents"], ctx)
        else:  # the world with its two continents coloured
            _joker_map(c, fields["continents"], ctx)
        c.setFillColor(layout.colour("text"))
        text.draw(c, ctx.words["joker"], ctx.bold, layout.box("joker_title"), *layout.font("joker"), align="center")
        a, b = (layout.group(name, ctx.lang)[0] for name in fields["continents"])
        text.draw(
            c,
            placeholders.fill(ctx.words["joker_rule"], a=a, b=b),
            ctx.regular,
            layout.box("joker_rule"),
            *layout.font("joker_rule"),
            max_lines=7,
            align="center",
        )
        return
    main, other = names(fields, ctx.layout, ctx.lang)
    sizes = ctx.sizes or steps([card], ctx)
    c.setFillColor(layout.colour("text"))
    size = sizes["name"]
    text.draw(c, main, ctx.bold, layout.box("name"), size, size, max_lines=NAME_LINES, valign="bottom")
    if other:
        c.setFillColor(layout.colour("muted"))
        size = sizes["other_name"]
        text.draw(c, other, ctx.regular, layout.box("other_name"), size, size)
    if fields.get("flag"):
        ctx.flags.draw(c, fields["flag"], layout.box("flag"), card["id"], outline=layout.colour("rule"))
    facts = _fact_set(fields, ctx, sizes["facts"])
    _facts(c, facts, ctx, sizes["facts"])
    map_box = _boxes(len(facts), ctx)[1]
    form = MAP_FORM if map_box == layout.box("map") else f"{MAP_FORM}_{len(facts)}"
    ctx.world.draw_base(c, form, map_box, layout.colour("land"), layout.colour("land_edge"))
    marker = ctx.world.draw_country(c, map_box, fields["iso3"], layout.colour("red"), card["id"])
    if marker.circle is not None:
        _inset(c, fields["iso3"], marker.circle, ctx)
    if card["kind"] == "antarctica":
        _polar(c, layout.colour("red"), ctx)
    _rows(c, fields, ctx)


def _joker_map(c, continents: list[str], ctx: CardContext) -> None:
    layout = ctx.layout
    colours = {name: layout.continent(name, ctx.lang)[1] for name in continents}
    ctx.world.draw_base(
        c,
        "joker_" + "_".join(sorted(colours)).replace(" ", ""),
        layout.box("map"),
        layout.colour("land"),
        layout.colour("land_edge"),
        colours,
    )
    if ANTARCTICA in colours:
        _polar(c, colours[ANTARCTICA], ctx)


def _groups_map(c, groups: list[str], ctx: CardContext) -> None:
    """The world with the countries of the printed cards (`ctx.cards`) of the joker's two groups in their
    colours."""
    layout = ctx.layout
    fills = {
        card["fields"]["iso3"]: layout.group(card["fields"]["continents"][0], ctx.lang)[1]
        for card in ctx.cards
        if card["kind"] != "joker" and card["fields"].get("iso3") and card["fields"]["continents"][0] in groups
    }
    ctx.world.draw_fills(c, layout.box("map"), fills, layout.colour("land"), layout.colour("land_edge"))


def inset_disc(circle: tuple[float, float], layout) -> Box:
    """The nearest of the template's inset discs (open sea on the map) clear of the country's circle."""
    discs = [Box(x, y, d, d) for x, y, d in layout.data["insets"]]
    clear = [d for d in discs if _apart(circle, d) > d.w / 2 + CIRCLE_MM + 1]
    return min(clear or discs, key=lambda d: _apart(circle, d))


def _apart(circle: tuple[float, float], disc: Box) -> float:
    return math.dist(circle, (disc.x + disc.w / 2, disc.y + disc.w / 2))


def _inset(c, iso3: str, circle: tuple[float, float], ctx: CardContext) -> None:
    """A small country enlarged in a disc on the open sea, a line from its circle on the map to the disc."""
    layout = ctx.layout
    disc = inset_disc(circle, layout)
    centre = (disc.x + disc.w / 2, disc.y + disc.w / 2)
    gap = math.dist(circle, centre)
    if gap > disc.w / 2 + CIRCLE_MM:
        ux, uy = (centre[0] - circle[0]) / gap, (centre[1] - circle[1]) / gap
        c.setStrokeColor(layout.colour("red"))
        c.setLineWidth(0.25)
        c.line(
            circle[0] + ux * CIRCLE_MM,
            circle[1] + uy * CIRCLE_MM,
            centre[0] - ux * disc.w / 2,
            centre[1] - uy * disc.w / 2,
        )
    ctx.world.draw_inset(
        c,
        disc,
        iso3,
        layout.colour("red"),
        layout.colour("land"),
        layout.colour("land_edge"),
        layout.colour("inset_sea"),
    )


def _polar(c, fill, ctx: CardContext) -> None:
    """Antarctica whole in a polar inset at the map's lower left (open sea there)."""
    layout = ctx.layout
    form = "polar_" + fill.hexval()[2:]
    ctx.world.draw_polar(c, form, layout.box("polar"), fill, layout.colour("sea"), layout.colour("rule"))


def back(c, card: dict, ctx: CardContext) -> None:
    backs.draw(c, ctx)


def art(c, cards: list[dict], box: Box, ctx: CardContext) -> None:
    """The kit cover's key art: the deck's countries on the world in their continents' colours."""
    ctx.world_art(c, cards, box)

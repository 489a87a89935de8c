"""The World Game cards: the flag at the top, the four facts with units, and every challenge answer
(name, continent, capital, map number in a circle of the continent's colour) in the bottom band, so a hand
over the band leaves the flag alone in view (Flag challenge). The game's back:
pipeline/render/backs.py.

All drawing is in millimetres with the origin at the card's bottom-left trim corner.
"""

from pipeline.errors import GeodeckError
from pipeline.i18n.catalogue import labelled
from pipeline.i18n.language import Language
from pipeline.render import backs, text
from pipeline.render.context import CardContext
from pipeline.render.flags import SOURCE as FLAGS
from pipeline.render.maps import NE
from pipeline.render.numbers import number, with_unit
from pipeline.render.text import Box

KINDS = ("country",)
SOURCES: tuple[str, ...] = (NE, FLAGS)  # what the cards draw from besides the deck (the kit credits them)


def _name(fields: dict, lang: Language) -> str:
    return fields[lang.field("name")]


def steps(cards: list[dict], ctx: CardContext) -> dict[str, float]:
    """Each field's one size across the deck (docs/printing.md): the largest at which every text of the field
    fits (the name in two lines; the fact labels and values in the boxes a row with a note gives them)."""
    layout = ctx.layout
    box, (high, _low) = layout.box("name"), layout.font("name")
    facts = layout.data["facts"]
    row = ctx.rows_of(layout.box("facts"), len(facts))[0]
    return {
        "name": text.one_size([_name(c["fields"], ctx.lang) for c in cards], ctx.bold, box, high, 2),
        "fact_label": text.one_size(
            [f["words"]["label"] for f in facts], ctx.regular, _label_box(row, True), layout.font("fact_label")[0]
        ),
        "fact_value": text.one_size(
            [_value(c["fields"], f, ctx.lang) for c in cards for f in facts],
            ctx.bold,
            _value_box(row, True),
            layout.font("fact_value")[0],
        ),
    }


def _value(fields: dict, fact: dict, lang: Language) -> str:
    return with_unit(fields.get(fact["field"]), lang, fact["pattern"], fact["words"]["unit"])


NOTE = 0.47  # a noted fact's row: the note's share of its height, across the row below its label and value


def _label_box(row: Box, noted: bool) -> Box:
    """A fact's label: on the row's middle line with its value, or above the note."""
    if noted:
        return Box(row.x, row.y + row.h * NOTE, row.w * 0.55, row.h * (1 - NOTE) - 0.2)
    return Box(row.x, row.y + 0.4, row.w * 0.55, row.h - 0.8)


def _value_box(row: Box, noted: bool) -> Box:
    """A fact's value: on the row's middle line with its label, or beside the label above the note."""
    if noted:
        return Box(row.x + row.w * 0.6, row.y + row.h * NOTE, row.w * 0.4, row.h * (1 - NOTE) - 0.2)
    return Box(row.x + row.w * 0.6, row.y + 0.4, row.w * 0.4, row.h - 0.8)


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when an asset or a field is missing."""
    fields = card["fields"]
    if card["kind"] not in KINDS:
        raise GeodeckError(f"card {card['id']}: unknown kind {card['kind']!r} for world-game; expected country")
    if not fields.get("continents"):
        raise GeodeckError(f"card {card['id']}: no continents")
    for continent in fields["continents"]:
        ctx.layout.continent(continent, ctx.lang)
    ctx.flags.check(fields.get("flag"), card["id"])


def _facts(c, fields: dict, ctx: CardContext) -> None:
    layout = ctx.layout
    facts = layout.data["facts"]
    sizes = ctx.sizes or steps([{"fields": fields}], ctx)
    for row, fact in zip(ctx.rows(c, layout.box("facts"), len(facts)), facts):
        note = fields.get(ctx.lang.field(fact["note"])) if fact.get("note") else None  # in the language printed
        c.setFillColor(layout.colour("text"))
        size = sizes["fact_label"]
        text.draw(c, fact["words"]["label"], ctx.regular, _label_box(row, bool(note)), size, size)
        if note:
            c.setFillColor(layout.colour("muted"))
            text.draw(
                c, note, ctx.regular, Box(row.x, row.y + 0.2, row.w, row.h * NOTE - 0.2), *layout.font("fact_note")
            )
        c.setFillColor(layout.colour("text"))
        size = sizes["fact_value"]
        text.draw(c, _value(fields, fact, ctx.lang), ctx.bold, _value_box(row, bool(note)), size, size, align="right")


def _answers(c, fields: dict, ctx: CardContext) -> None:
    layout, words = ctx.layout, ctx.words
    band = layout.box("band")
    c.setFillColor(layout.colour("band"))
    c.roundRect(band.x, band.y, band.w, band.h, float(layout.design.data["frame_mm"]), stroke=0, fill=1)
    name = _name(fields, ctx.lang)
    box = layout.box("name")
    size = (ctx.sizes or steps([{"fields": fields}], ctx))["name"]
    c.setFillColor(layout.colour("text"))
    text.draw(c, name, ctx.bold, box, size, size, max_lines=2, valign="bottom")
    continents = fields["continents"]
    box = layout.box("continent")
    width = box.w / len(continents)
    for i, continent in enumerate(continents):  # a swatch of the continent colour, the name in the text colour
        label, colour = layout.continent(continent, ctx.lang)
        c.setFillColor(colour)
        swatch = box.h * 0.7
        c.rect(box.x + i * width, box.y + (box.h - swatch) / 2, swatch, swatch, stroke=0, fill=1)
        c.setFillColor(layout.colour("text"))
        text.draw(
            c,
            label,
            ctx.bold,
            Box(box.x + i * width + swatch + 1, box.y, width - swatch - 2, box.h),
            *layout.font("continent"),
        )
    capitals = fields.get(ctx.lang.field("capitals")) or []
    heading = words["capitals"] if len(capitals) > 1 else words["capital"]
    c.setFillColor(layout.colour("muted"))
    text.draw(
        c,
        labelled(ctx.lang, heading, ", ".join(capitals) or "–"),
        ctx.regular,
        layout.box("capital"),
        *layout.font("capital"),
        max_lines=3,
        valign="top",
    )
    circle = layout.box("number")
    r, cx, cy = circle.w / 2, circle.x + circle.w / 2, circle.y + circle.h / 2
    colour = layout.continent(continents[0], ctx.lang)[1]
    c.setFillColor(colour)
    c.circle(cx, cy, r, stroke=0, fill=1)
    if len(continents) > 1:  # a second continent fills the right half; the number on a white disc
        c.setFillColor(layout.continent(continents[1], ctx.lang)[1])
        c.wedge(cx - r, cy - r, cx + r, cy + r, -90, 180, stroke=0, fill=1)
        colour = layout.colour("sea")
        c.setFillColor(colour)
        c.circle(cx, cy, r * INNER, stroke=0, fill=1)
    c.setFillColor(layout.ink_on(colour))
    size = number_size(ctx)
    c.setFont(ctx.bold, size)
    c.drawCentredString(cx, cy - size * text.DIGIT_HEIGHT / 2, number(fields.get("map_number"), ctx.lang))


INNER = 0.72  # the white disc of a two-continent number, as a share of the circle's radius
NUMBER_MARGIN_MM = 0.4  # between the number's box and the disc's edge


def number_size(ctx: CardContext) -> float:
    """The map numbers' one size (mm) on every card: three digits fit inside the white disc of a
    two-continent circle (DejaVu's digits share one width)."""
    radius = ctx.layout.box("number").w / 2 * INNER - NUMBER_MARGIN_MM
    return text.in_circle("000", ctx.bold, radius, ctx.layout.font("number")[0])


def front(c, card: dict, ctx: CardContext) -> None:
    layout, fields = ctx.layout, card["fields"]
    ctx.framed(c, [layout.continent(continent, ctx.lang)[1] for continent in fields["continents"]])
    ctx.flags.draw(c, fields["flag"], layout.box("flag"), card["id"], outline=layout.colour("rule"))
    _facts(c, fields, ctx)
    _answers(c, fields, ctx)


def printed(fields: dict, lang: Language, layout=None) -> dict[str, str]:
    """What a card prints that the rules' worked example names: the name, each fact's value as the card prints
    it by its field (`{a_area_km2}`: "8,515,770 km²"; the facts of `layout`, the game's card layout) and the
    first capital, in `lang`."""
    facts = layout.data["facts"] if layout is not None else []
    return {
        "name": _name(fields, lang),
        "capital": (fields.get(lang.field("capitals")) or ["–"])[0],
        **{fact["field"]: _value(fields, fact, lang) for fact in facts},
    }


def back(c, card: dict, ctx: CardContext) -> None:
    backs.draw(c, ctx)


FLAG_GAP = 0.12  # the gap between two flags of the key art, as a share of a flag's height


def art(c, cards: list[dict], box: Box, ctx: CardContext) -> None:
    """The kit cover's key art: a wall of the deck's flags (the game's first challenge), continent by continent
    in the strip's order and by map number within each, in as many rows as give them the largest size; its
    own, not Länder toppen's world map."""
    order = list(ctx.layout.common["continents"])
    flagged = sorted(
        (card for card in cards if card["fields"].get("flag")),
        key=lambda card: (order.index(card["fields"]["continents"][0]), card["fields"].get("map_number") or 0),
    )
    if not flagged:
        return
    n = len(flagged)
    best = max(
        range(1, n + 1),
        key=lambda cols: min(box.w / cols / (4 / 3), box.h / -(-n // cols)),  # a 4:3 flag's height in that grid
    )
    rows = -(-n // best)
    height = min(box.w / best / (4 / 3), box.h / rows) / (1 + FLAG_GAP)
    cell_w, cell_h = box.w / best, box.h / rows
    for i, card in enumerate(flagged):
        row, col = divmod(i, best)
        x = box.x + col * cell_w + (cell_w - height * 4 / 3) / 2
        y = box.y + box.h - (row + 1) * cell_h + (cell_h - height) / 2
        ctx.flags.draw(
            c, card["fields"]["flag"], Box(x, y, height * 4 / 3, height), card["id"], outline=ctx.layout.colour("rule")
        )

"""The cards of a user's table: its items and jokers on the trick game's card layout (the base game's
template, its categories the recipe's), and the game's back (pipeline/render/backs.py).

An item card: the band in its group's colour with the group's name, the item's name, a country's flag (a deck
published before countries in a recipe's groups got the game's own card), the item's picture (a table's
`picture` column: pinned with the deck's templates, pipeline/games/custom/pictures.py) in the map's box, and a
row per category (pictogram, label, value with its unit). A joker: the band in its two groups' colours, the word
Joker and the joker rule with the two groups. A group's colour is the palette's (the continents' colours,
colour-blind safe) at the group's place in the deck's `groups` (the layout's copy of them).
"""

import io

from reportlab.lib.colors import Color
from reportlab.lib.utils import ImageReader

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.games.custom import pictures
from pipeline.render import backs, pictograms, text
from pipeline.render.context import CardContext
from pipeline.render.flags import SOURCE as FLAGS
from pipeline.render.numbers import with_unit
from pipeline.render.text import Box

KINDS = ("item", "joker")
LABEL_LINES = 2  # a category's label: a second line where its row is tall enough (fewer categories)
SOURCES: tuple[str, ...] = (FLAGS,)  # a country item's flag (the kit credits it)


def drawn_by(deck: dict) -> tuple[str, ...]:
    """The sources the deck's cards draw from: the flags only where an item has one (a table's have none)."""
    return SOURCES if any(card["fields"].get("flag") for card in deck["cards"]) else ()


def colour(group: str, ctx: CardContext) -> Color:
    """The palette colour of a group (module docstring)."""
    groups = ctx.layout.data.get("groups", [])
    if group not in groups:
        raise GeodeckError(f"group {group!r} is not one of the deck's groups ({', '.join(groups)})")
    return ctx.layout.group_colour(groups.index(group))


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when its kind or a group is unknown."""
    if card["kind"] not in KINDS:
        raise GeodeckError(f"card {card['id']}: unknown kind {card['kind']!r}; expected {', '.join(KINDS)}")
    for group in card["fields"].get("continents") or []:
        colour(group, ctx)
    if card["fields"].get("flag"):
        ctx.flags.check(card["fields"]["flag"], card["id"])
    if card["fields"].get("picture"):
        _image(card, ctx)


def _image(card: dict, ctx: CardContext) -> ImageReader:
    """The card's picture (pinned beside its card layout), or an error naming the card and the fix."""
    try:
        return ImageReader(io.BytesIO(pictures.read(ctx.layout.path, card["fields"]["picture"])))
    except (GeodeckError, ValueError, OSError) as exc:
        raise GeodeckError(
            f"card {card['id']}: its picture {card['fields']['picture']!r} cannot be read ({exc}); "
            "publish the deck again with `geodeck deck new RECIPE`"
        ) from exc


def _picture(c, card: dict, ctx: CardContext) -> None:
    """The picture, as large as the map's box allows, centred in it."""
    image, box = _image(card, ctx), ctx.layout.box("map")
    width, height = image.getSize()
    scale = min(box.w / width, box.h / height)
    w, h = width * scale, height * scale
    c.drawImage(image, box.x + (box.w - w) / 2, box.y + (box.h - h) / 2, w, h, mask="auto")


def _band(c, groups: list[str], ctx: CardContext) -> None:
    """The groups' colours carry the card; their names in the band (a joker's two side by side)."""
    layout = ctx.layout
    band, label = layout.box("band"), layout.box("band_text")
    colours = [colour(g, ctx) for g in groups]
    ctx.framed(c, colours, top=band.y)
    width = label.w / len(groups)
    for i, (group, fill) in enumerate(zip(groups, colours)):
        part = Box(label.x + i * width, label.y, width, label.h)
        text.draw(c, group, ctx.bold, part, *layout.font("band"), align="center", colour=layout.ink_on(fill))


def front(c, card: dict, ctx: CardContext) -> None:
    layout, fields = ctx.layout, card["fields"]
    _band(c, fields["continents"], ctx)
    c.setFillColor(layout.colour("text"))
    if card["kind"] == "joker":
        text.draw(c, ctx.words["joker"], ctx.bold, layout.box("joker_title"), *layout.font("joker"), align="center")
        a, b = fields["continents"]
        rule = placeholders.fill(ctx.words["joker_rule"], a=a, b=b)
        text.draw(
            c, rule, ctx.regular, layout.box("joker_rule"), *layout.font("joker_rule"), max_lines=7, align="center"
        )
        return
    name = fields.get(ctx.lang.field("name")) or fields["name"]  # a country's name in the language, a table's own
    text.draw(c, name, ctx.bold, layout.box("name"), *layout.font("name"), max_lines=2, valign="bottom")
    if fields.get("flag"):
        ctx.flags.draw(c, fields["flag"], layout.box("flag"), card["id"], outline=layout.colour("rule"))
    if fields.get("picture"):
        _picture(c, card, ctx)
    categories = layout.data["categories"]
    for row, category in zip(ctx.rows(c, layout.box("rows"), len(categories)), categories):
        icon, name, value = ctx.cells(row)
        pictograms.draw(c, category["icon"], icon, layout.colour("muted"))
        c.setFillColor(layout.colour("text"))
        words = category["words"]
        text.draw(c, words["label"], ctx.regular, name, *layout.font("row_label"), max_lines=LABEL_LINES)
        shown = with_unit(fields.get(category["field"]), ctx.lang, category["pattern"], words["unit"])
        text.draw(c, shown, ctx.bold, value, *layout.font("row_value"), align="right")


def back(c, card: dict, ctx: CardContext) -> None:
    backs.draw(c, ctx)

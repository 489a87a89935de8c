"""The grid game's cards, for every configuration (Deutschland, regions): a place card's header and name,
its back (the north-south number in orange and the west-east number in grey at one size on one baseline, and
the population), and the guess cards in the four player colours, their symbol large and in all four corners,
the player's shape (● ■ ◆ ★) on both sides of the player's name and of the caption; the W card says that its
other side is M. A configuration's `cards` draws its place fronts' picture (its divisions) and checks its
place cards; the rest it takes from here.

All drawing is in millimetres with the origin at the card's bottom-left trim corner.
"""

from reportlab.lib.colors import HexColor
from reportlab.pdfbase.pdfmetrics import stringWidth

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.i18n.language import Language
from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.numbers import number
from pipeline.render.text import Box

KINDS = ("place", "guess")
FRONTS = ("N", "S", "W", "O", "most", "fewest")


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when its kind is unknown or a guess card's field is (a
    configuration's `check` checks its place cards)."""
    kind, fields = card["kind"], card["fields"]
    if kind not in KINDS:
        raise GeodeckError(f"card {card['id']}: unknown kind {kind!r}; expected {', '.join(KINDS)}")
    if kind == "place":
        return
    if fields.get("colour") not in ctx.layout.data["players"]:
        raise GeodeckError(
            f"card {card['id']}: guess card colour {fields.get('colour')!r} is not one of "
            f"{', '.join(ctx.layout.data['players'])}"
        )
    if fields.get("front") not in FRONTS:
        raise GeodeckError(
            f"card {card['id']}: guess card front {fields.get('front')!r} is not one of {', '.join(FRONTS)}"
        )


LINES = {"place_name": 3, "back_name": 1}  # the place's name on the front and on the back


def steps(cards: list[dict], ctx: CardContext) -> dict[str, float]:
    """The place name's one size across the deck, front and back (docs/printing.md)."""
    names = [place_name(card["fields"], ctx.lang) for card in cards if card["kind"] == "place"]
    return {
        key: text.one_size(names, ctx.bold, ctx.layout.box(key), ctx.layout.font(key)[0], lines)
        for key, lines in LINES.items()
    }


def place_name(fields: dict, lang: Language | None) -> str:
    """A place's name in `lang` (the deck's `name_<lang>`, where it has one) or its own name."""
    return (fields.get(lang.field("name")) if lang else None) or fields["name"]


def printed(fields: dict, lang: Language, layout=None) -> dict[str, str]:
    """What a place card prints that the rules' worked example names: the name, north – south and west – east
    (as the back prints them) and the inhabitants."""
    return {"name": place_name(fields, lang)} | {
        key: number(fields.get(key), lang) for key in ("ns", "we", "population") if fields.get(key) is not None
    }


def draw_name(c, name: str, key: str, ctx: CardContext) -> None:
    """The place's name at the deck's one size (`steps`) in the layout's box `key`."""
    box, lines = ctx.layout.box(key), LINES[key]
    size = ctx.sizes.get(key) or steps([{"kind": "place", "fields": {"name": name}}], ctx)[key]
    text.draw(c, name, ctx.bold, box, size, size, max_lines=lines, align="center")


TOWN_MM = 1.0  # radius of a place's dot on the kit cover's key art (with a white ring)


def town_dot(c, x: float, y: float, ctx: CardContext) -> None:
    """A place's dot on the kit cover's key art, in a ring of the cards' sea colour."""
    c.setFillColor(ctx.layout.colour("sea"))
    c.circle(x, y, TOWN_MM + 0.4, stroke=0, fill=1)
    c.setFillColor(ctx.layout.design.colour("colour"))
    c.circle(x, y, TOWN_MM, stroke=0, fill=1)


def place_header(c, fields: dict, ctx: CardContext) -> None:
    """A place card's sea background and header (the game's name, the place's state or division); the text
    colour set for what follows."""
    layout, words = ctx.layout, ctx.words
    header = layout.box("header")
    ctx.background(c, layout.colour("sea"), top=header.y)
    c.setFillColor(layout.colour("header"))
    c.rect(header.x - ctx.bleed, header.y, header.w + 2 * ctx.bleed, header.h + ctx.bleed, stroke=0, fill=1)
    c.setFillColor(layout.colour("header_text"))
    text.draw(c, words["game"], ctx.regular, layout.box("header_game"), *layout.font("header_game"), align="center")
    state = fields.get(ctx.lang.field("state")) or fields["state"]  # a deck before the language: the state's own name
    text.draw(c, state, ctx.bold, layout.box("header_state"), *layout.font("header_state"), align="center")
    c.setFillColor(layout.colour("text"))


def _place_back(c, fields: dict, ctx: CardContext) -> None:
    """The two numbers at one size on one baseline on every card: the size at which three digits fit
    (DejaVu's digits share one width)."""
    layout, words = ctx.layout, ctx.words
    ctx.background(c, layout.colour("sea"))
    c.setFillColor(layout.colour("text"))
    draw_name(c, place_name(fields, ctx.lang), "back_name", ctx)
    values = {key: number(fields[key], ctx.lang) for key in ("ns", "we")}
    high, low = layout.font("value")
    widest = "0" * max(3, *(len(v) for v in values.values()))
    size_pt = min(
        text.fit(widest, ctx.bold, layout.box(f"{key}_value"), high, low).size_mm / text.PT_MM for key in values
    )
    for key, value in values.items():
        c.setFillColor(layout.colour(key))
        text.draw(c, words[key], ctx.regular, layout.box(f"{key}_label"), *layout.font("label"), align="center")
        text.draw(c, value, ctx.bold, layout.box(f"{key}_value"), size_pt, size_pt, align="center")
    c.setFillColor(layout.colour("text"))
    text.draw(
        c, words["population"], ctx.regular, layout.box("population_label"), *layout.font("label"), align="center"
    )
    text.draw(
        c,
        number(fields.get("population"), ctx.lang),
        ctx.bold,
        layout.box("population_value"),
        *layout.font("population"),
        align="center",
    )


def _symbol(c, symbol: str, box: Box, font: tuple[float, float], ctx: CardContext) -> None:
    """The symbol centred in `box`, underlined: M and W are each other upside down, so a card is never
    turned to read it and the line marks its foot."""
    fitted = text.draw(c, symbol, ctx.bold, box, *font, align="center", valign="top")
    width = stringWidth(symbol, ctx.bold, fitted.size_mm)
    y = box.y + box.h - fitted.size_mm * (text.ASCENT + 0.12)
    c.setLineWidth(fitted.size_mm * 0.07)
    c.line(box.x + (box.w - width) / 2, y, box.x + (box.w + width) / 2, y)


def _corners(c, symbol: str, ctx: CardContext) -> None:
    """The symbol in all four corners (visible when cards overlap under a place): upright at the top, turned
    180° at the foot, as the indices of playing cards, so the card reads the same either way up."""
    layout = ctx.layout
    corner = layout.box("guess_corner")
    w, h = layout.card_mm
    for x in (corner.x, w - corner.x - corner.w):
        for y, turn in ((corner.y, 0), (h - corner.y - corner.h, 180)):  # the template's box is the top one
            c.saveState()
            c.translate(x + corner.w / 2, y + corner.h / 2)
            c.rotate(turn)
            _symbol(c, symbol, Box(-corner.w / 2, -corner.h / 2, corner.w, corner.h), layout.font("guess_corner"), ctx)
            c.restoreState()


def _guess_side(c, fields: dict, face: str | None, other: str | None, ctx: CardContext) -> None:
    layout, words = ctx.layout, ctx.words
    player = layout.data["players"][fields["colour"]]
    background = HexColor(player["colour"])
    ctx.background(c, background)
    ink = layout.ink_on(background)
    c.setFillColor(ink)
    name = player["words"]["colour"]
    text.draw(
        c,
        f"{player['mark']} {words['guess']} · {name} {player['mark']}",
        ctx.regular,
        layout.box("guess_player"),
        *layout.font("guess_player"),
        max_lines=2,
        align="center",
    )
    symbol, caption = words[face] if face else ("", words["guess"])
    if symbol:
        c.setStrokeColor(ink)
        _symbol(c, symbol, layout.box("guess_symbol"), layout.font("guess_symbol"), ctx)
        _corners(c, symbol, ctx)
    mark = player["mark"]
    text.draw(
        c,
        f"{mark} {caption} {mark}",
        ctx.bold,
        layout.box("guess_caption"),
        *layout.font("guess_caption"),
        max_lines=2,
        align="center",
    )
    if other:
        flip = placeholders.fill(words["flip"], symbol=words[other][0], caption=words[other][1])
        text.draw(c, flip, ctx.regular, layout.box("guess_flip"), *layout.font("guess_flip"), align="center")


def front(c, card: dict, ctx: CardContext) -> None:
    """A guess card's front (a configuration draws its place fronts)."""
    _guess_side(c, card["fields"], card["fields"]["front"], card["fields"].get("back"), ctx)


def back(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_back(c, card["fields"], ctx)
    else:
        back = card["fields"].get("back")
        _guess_side(c, card["fields"], back, card["fields"]["front"] if back else None, ctx)

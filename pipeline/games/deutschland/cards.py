"""Deutschland: Das Kartenspiel cards. Place cards: the front shows only the name, the state and a picture
of that state alone (no map of Germany, nothing that gives away position or population); the back shows
the north-south number (orange), the west-east number (grey) and the population. Guess cards in the four player colours.

All drawing is in millimetres with the origin at the card's bottom-left trim corner.
"""

from reportlab.lib.colors import HexColor

from pipeline.errors import GeodeckError
from pipeline.games.deutschland.states import germany
from pipeline.render import text
from pipeline.render.context import CardContext
from pipeline.render.numbers import number

KINDS = ("place", "guess")
FRONTS = ("N", "S", "W", "O", "most", "fewest")


def check(card: dict, ctx: CardContext) -> None:
    """Fail before drawing, naming the card, when a field is missing or unknown."""
    kind, fields = card["kind"], card["fields"]
    if kind not in KINDS:
        raise GeodeckError(f"card {card['id']}: unknown kind {kind!r} for deutschland; expected {', '.join(KINDS)}")
    if kind == "place":
        for key in ("name", "state", "ns", "we"):
            if fields.get(key) is None:
                raise GeodeckError(f"card {card['id']}: place card without {key!r}")
        germany(ctx.store).state_name(fields["state"], card["id"])
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


def _place_front(c, fields: dict, card_id: str, ctx: CardContext) -> None:
    layout = ctx.layout
    band = layout.box("place_band")
    ctx.background(c, layout.colour("sea"), top=band.y)
    c.setFillColor(layout.colour("place_band"))
    c.rect(band.x - ctx.bleed, band.y, band.w + 2 * ctx.bleed, band.h + ctx.bleed, stroke=0, fill=1)
    c.setFillColor(layout.colour("text"))
    text.draw(
        c,
        fields["name"],
        ctx.bold,
        layout.box("place_name"),
        *layout.font("place_name"),
        max_lines=3,
        align="center",
        valign="bottom",
    )
    c.setFillColor(layout.colour("muted"))
    text.draw(c, fields["state"], ctx.regular, layout.box("place_state"), *layout.font("place_state"), align="center")
    germany(ctx.store).draw_state(
        c,
        layout.box("state_picture"),
        fields["state"],
        card_id,
        layout.colour("state_fill"),
        layout.colour("state_edge"),
    )


def _place_back(c, fields: dict, ctx: CardContext) -> None:
    layout, words = ctx.layout, ctx.words
    ctx.background(c, layout.colour("sea"))
    c.setFillColor(layout.colour("text"))
    text.draw(c, fields["name"], ctx.bold, layout.box("back_name"), *layout.font("back_name"), align="center")
    for key in ("ns", "we"):
        colour = layout.colour(key)
        c.setFillColor(colour)
        text.draw(c, words[key], ctx.regular, layout.box(f"{key}_label"), *layout.font("label"), align="center")
        text.draw(
            c,
            number(fields[key], ctx.lang),
            ctx.bold,
            layout.box(f"{key}_value"),
            *layout.font("value"),
            align="center",
        )
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


def _guess_side(c, fields: dict, face: str, ctx: CardContext) -> None:
    layout, words = ctx.layout, ctx.words
    player = layout.data["players"][fields["colour"]]
    background = HexColor(player["colour"])
    ctx.background(c, background)
    ink = layout.ink_on(background)
    c.setFillColor(ink)
    name = fields["colour"] if ctx.lang == "de" else player["en"]
    text.draw(
        c,
        f"{words['guess']} · {name}",
        ctx.regular,
        layout.box("guess_player"),
        *layout.font("guess_player"),
        align="center",
    )
    symbol, caption = words[face] if face else ("", words["guess"])
    if symbol:
        text.draw(c, symbol, ctx.bold, layout.box("guess_symbol"), *layout.font("guess_symbol"), align="center")
    text.draw(
        c, caption, ctx.bold, layout.box("guess_caption"), *layout.font("guess_caption"), max_lines=2, align="center"
    )


def front(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_front(c, card["fields"], card["id"], ctx)
    else:
        _guess_side(c, card["fields"], card["fields"]["front"], ctx)


def back(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "place":
        _place_back(c, card["fields"], ctx)
    else:
        _guess_side(c, card["fields"], card["fields"].get("back"), ctx)

"""The cards of a user's table: its items (name, group band, optional picture, the recipe's category rows)
and the base game's jokers and back; drawn with the base game's card layout (templates), its categories the
recipe's."""

from pipeline.games.laender_toppen import cards as base
from pipeline.render import pictograms, text
from pipeline.render.context import CardContext
from pipeline.render.numbers import with_unit

KINDS = ("item", "joker")


def check(card: dict, ctx: CardContext) -> None:
    if card["kind"] == "joker":
        base.check(card, ctx)


def front(c, card: dict, ctx: CardContext) -> None:
    if card["kind"] == "joker":
        base.front(c, card, ctx)
        return
    layout, fields = ctx.layout, card["fields"]
    groups = fields.get("continents") or []
    band = layout.box("band")
    colour = layout.design.colour("colour")
    ctx.framed(c, [colour], top=band.y)
    label = layout.box("band_text")
    text.draw(
        c, " / ".join(groups), ctx.bold, label, *layout.font("band"), align="center", colour=layout.ink_on(colour)
    )
    c.setFillColor(layout.colour("text"))
    text.draw(c, fields["name"], ctx.bold, layout.box("name"), *layout.font("name"), max_lines=2, valign="bottom")
    categories = layout.data["categories"]
    for row, category in zip(ctx.rows(c, layout.box("rows"), len(categories)), categories):
        icon, name, value = base._cells(row)
        pictograms.draw(c, category["icon"], icon, layout.colour("muted"))
        c.setFillColor(layout.colour("text"))
        words = category[ctx.lang]
        text.draw(c, words["label"], ctx.regular, name, *layout.font("row_label"))
        shown = with_unit(fields.get(category["field"]), ctx.lang, category["pattern"], words["unit"])
        text.draw(c, shown, ctx.bold, value, *layout.font("row_value"), align="right")


def back(c, card: dict, ctx: CardContext) -> None:
    base.back(c, card, ctx)

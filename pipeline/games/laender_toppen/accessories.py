"""Länder toppen! folded paper strips (one per player) and the scoring sheet, on landscape pages.

A strip is two panels with a fold line between them: the lower panel carries the six categories in the
strip's order (label, unit, "highest value above", "lowest value below"), the upper one the title and the
turn-over order; folded along the dashed line the strip lies flat and stiff between the two card rows.
Each field is one card wide plus a little room (`field_mm`), so a card sits above and below it; where the
paper is narrower than six fields (A4, Letter) a strip comes in pieces, each but the last with a glue flap
that the next piece covers. Cut along the solid lines.
Sizes, positions and fonts are in `templates/cards/laender-toppen.toml [accessories]`.
"""

import math
from collections import defaultdict

from babel.lists import format_list

from pipeline import placeholders
from pipeline.decks import categories as categories_
from pipeline.errors import GeodeckError
from pipeline.games.laender_toppen import cards, engine
from pipeline.games.laender_toppen.engine import CONTINENTS
from pipeline.i18n.language import Language
from pipeline.render import pictograms, text
from pipeline.render.context import CardContext
from pipeline.render.pages import begin_page, end_page
from pipeline.render.text import Box


def rules_words(deck: dict, layout) -> dict[str, str]:
    """The deck's own words in the kit's rules text (the `{placeholders}` of `[kit.words] rules`), in the
    layout's language: its categories (how many, all, the first and the last, from the layout's rows), its
    groups in the order they score (a custom deck's own, else the continents on its cards), the sentence on the
    Antarctica card's dashes and the tie it breaks (where the deck has one), and which cards count for
    either of two continents (Russia, Türkiye), the card legend's second name (`cards.second_language`) and the
    word for one of a deck's own groups (`group_word`, in the `rules_groups` paragraphs that speak of them)."""
    lang, words = layout.lang or layout.language(None), layout.data["kit"]["words"]
    locale = lang.locale  # the catalogue's own (its code need not be a CLDR locale)
    labels = [c["words"]["label"] for c in layout.data["categories"]]
    shown = {c for card in deck["cards"] for c in card["fields"].get("continents") or ()}
    groups = deck.get("groups") or [layout.continent(c, lang)[0] for c in CONTINENTS if c in shown]
    polar = _polar(deck)
    dashes = [
        c["words"]["label"] for c in layout.data["categories"] if polar and polar[0]["fields"].get(c["field"]) is None
    ]
    pairs = defaultdict(list)  # (continent, continent) -> the names of the cards that count for either
    for card in deck["cards"]:
        continents = card["fields"].get("continents") or ()
        if card["kind"] != "joker" and len(continents) == 2:
            pairs[tuple(continents)].append(card["fields"].get(lang.field("name")) or card["fields"].get("name", ""))
    return {
        "group": group_word(layout, lang),
        "count": str(len(labels)),
        "second_name": _second_name(layout, lang, words),
        "categories": format_list(labels, locale=locale),
        "first": labels[0],
        "last": labels[-1],
        "groups": ", ".join(groups),  # an order, not a list of alternatives
        "dashes": placeholders.fill(words.get("dashes", ""), categories=format_list(dashes, locale=locale))
        if dashes
        else "",
        "tie": words.get("tie_antarctica" if polar else "tie", ""),
        "deal": _deal(len(deck["cards"]), len(labels), words),
        "two_continents": " ".join(
            placeholders.fill(
                words.get("two_continents", ""),
                cards=format_list(names, locale=locale),
                a=layout.group(a, lang)[0],
                b=layout.group(b, lang)[0],
            )
            for (a, b), names in pairs.items()
        ),
    }


def group_word(layout, lang: Language) -> str:
    """The word for one of a deck's own groups in `lang`: its recipe's (`group_word`: one word, or one per
    language), else the kit's ("group")."""
    word = layout.data.get("group_word")
    if isinstance(word, dict):
        word = word.get(lang.code)
    return word or layout.localised(lang).data["kit"]["words"]["group"]


def _deal(cards: int, categories: int, words: dict) -> str:
    """The rules' sentences on the deal where it is not the rulebook's: hands scaled to a strip of other than six
    categories (`engine.hand`), and a small deck dealt out evenly for one round (`engine.deal`)."""
    slots = 2 * categories
    small = any(0 < engine.deal(p, cards, slots)[0] < engine.hand(p, slots) for p in engine.TABLE)
    said = [
        words.get("deal_scaled", "") if slots != engine.RULEBOOK_SLOTS else "",
        words.get("deal_small", "") if small else "",
    ]
    return " ".join(placeholders.fill(line, count=str(categories)) for line in said if line)


def _second_name(layout, lang: Language, words: dict) -> str:
    """The legend's words for the second name the cards print in `lang` (`[kit.words.second_name]`)."""
    code = cards.second_language(layout, lang)
    try:
        return words["second_name"][code]
    except KeyError:
        raise GeodeckError(f"templates/cards/{layout.game}.toml: [kit.words.second_name] needs {code}") from None


def _polar(deck: dict) -> list[dict]:
    """The deck's Antarctica card (none in a deck of a recipe): the owner of it wins a final tie."""
    return [card for card in deck["cards"] if card["kind"] == "antarctica"]


def _inset(spec: list[float], x: float, y: float, w: float) -> Box:
    """A template box [dx, dy, h] from (x, y), as wide as `w` less 2·dx."""
    dx, dy, h = (float(v) for v in spec)
    return Box(x + dx, y + dy, w - 2 * dx, h)


def _pt(section: dict, name: str) -> tuple[float, float]:
    high, low = section[f"{name}_pt"]
    return float(high), float(low)


def _strip(c, ctx: CardContext, w: dict, box: Box, first: int, count: int, flap: bool, piece: int) -> None:
    """One piece of a strip, the `piece`th (from 0): categories first..first+count-1 in `box` (a glue flap right
    of it if `flap`)."""
    layout = ctx.layout
    panel = float(layout.data["accessories"]["strip"]["panel_mm"])
    categories = layout.data["categories"][first : first + count]
    lower = Box(box.x, box.y, box.w, panel)
    upper = Box(box.x, box.y + panel, box.w, panel)
    _strip_fields(c, ctx, w, lower, categories, first)
    _strip_head(c, ctx, w, upper, piece, first + count == len(layout.data["categories"]))
    _strip_lines(c, ctx, w, box, lower, upper, len(categories), flap)


def _strip_fields(c, ctx: CardContext, w: dict, lower: Box, categories: list[dict], first: int) -> None:
    """The lower panel: a field per category, striped, with its pictogram, label and unit as on the cards (the
    card's label, the unit without its number) and the high and low ends."""
    layout, s = ctx.layout, ctx.layout.data["accessories"]["strip"]
    field = lower.w / len(categories)
    ink, muted = layout.colour("text"), layout.colour("muted")
    for i, category in enumerate(categories):
        x = lower.x + i * field
        c.setFillColor(layout.colour("row_stripe") if (first + i) % 2 == 0 else layout.colour("sea"))
        c.rect(x, lower.y, field, lower.h, stroke=0, fill=1)
        label, unit = category["words"]["label"], categories_.unit_word(category["words"]["unit"])
        dx, dy, size = (float(v) for v in s["icon"])
        pictograms.draw(c, category["icon"], Box(x + dx, lower.y + dy, size, size), muted)
        c.setFillColor(ink)
        text.draw(
            c, label, ctx.bold, _inset(s["label"], x, lower.y, field), *_pt(s, "label"), max_lines=2, align="center"
        )
        c.setFillColor(muted)
        text.draw(c, unit, ctx.regular, _inset(s["unit"], x, lower.y, field), *_pt(s, "unit"), align="center")
        for name in ("high", "low"):
            text.draw(c, w[name], ctx.regular, _inset(s[name], x, lower.y, field), *_pt(s, "high_low"), align="center")


def _strip_head(c, ctx: CardContext, w: dict, upper: Box, piece: int, last: bool) -> None:
    """The upper panel of the strip's `piece`th piece (`last`: its last), in the game's colour: the strip's title
    on its first piece, the turn-over order on the next one (both on a strip in one piece; neither on a third)."""
    layout, s = ctx.layout, ctx.layout.data["accessories"]["strip"]
    c.setFillColor(layout.design.colour("colour"))
    c.rect(upper.x, upper.y, upper.w, upper.h, stroke=0, fill=1)
    c.setFillColor(layout.design.colour("ink"))
    whole = piece == 0 and last
    if piece == 0:  # the title once per strip: on its first piece; the turn-over order on the next one
        text.draw(
            c, w["back"], ctx.bold, _inset(s["title"], upper.x, upper.y, upper.w), *_pt(s, "title"), align="center"
        )
    if piece == 1 or whole:
        box_ = (
            _inset(s["order"], upper.x, upper.y, upper.w)
            if whole
            else _inset(s["order_alone"], upper.x, upper.y, upper.w)
        )
        text.draw(c, w["order"], ctx.regular, box_, *_pt(s, "order"), max_lines=2, align="center")


def _strip_lines(c, ctx: CardContext, w: dict, box: Box, lower: Box, upper: Box, fields: int, flap: bool) -> None:
    """The piece's cut and the lines between its `fields`, the fold (dashes along the panels' edge, a tick
    outside) with its word, and the glue flap right of it if `flap`."""
    layout, cfg = ctx.layout, ctx.layout.data["accessories"]
    s = cfg["strip"]
    ink, muted = layout.colour("text"), layout.colour("muted")
    field = box.w / fields
    c.setStrokeColor(ink)
    c.setLineWidth(float(cfg["line_mm"]))
    c.rect(box.x, box.y, box.w, box.h, stroke=1, fill=0)  # cut
    for i in range(1, fields):
        c.line(box.x + i * field, lower.y, box.x + i * field, lower.y + lower.h)
    c.setDash(*cfg["dash_mm"])  # the fold: dark dashes along the panels' edge, and ticks outside the strip
    c.setStrokeColor(ink)
    c.setLineWidth(float(cfg["fold_mm"]))
    c.line(box.x, upper.y, box.x + box.w, upper.y)
    c.setDash()
    tick = float(cfg["fold_tick_mm"])
    c.line(box.x - tick, upper.y, box.x - 0.5, upper.y)
    c.setLineWidth(float(cfg["line_mm"]))
    c.setFillColor(muted)
    dx, dy, fw, fh = (float(v) for v in s["fold"])
    right = box.x + box.w
    if flap:
        glue = float(cfg["glue_mm"])
        c.setDash(*cfg["dash_mm"])
        c.rect(right, box.y, glue, box.h, stroke=1, fill=0)
        c.setDash()
        c.saveState()
        c.translate(right + glue / 2, box.y + box.h / 2)
        c.rotate(90)
        text.draw(
            c,
            w["glue"],
            ctx.regular,
            Box(-box.h / 2, -glue / 2 + 1, box.h, glue - 2),
            *_pt(s, "fold"),
            max_lines=2,
            align="center",
        )
        c.restoreState()
        right += glue
    text.draw(c, w["fold"], ctx.regular, Box(right + dx, upper.y + dy, fw, fh), *_pt(s, "fold"))


def _table(
    c, ctx: CardContext, rows: list[list[str]], box: Box, widths: list[float], header_colours=None, header_h=None
) -> None:
    """A ruled table; the first row is the header (optionally on colours, `header_h` mm high, else as high as
    the other rows), the rest are blank or given cells."""
    cfg = ctx.layout.data["accessories"]
    pad_x, pad_y = (float(v) for v in cfg["scoring"]["cell_pad"])
    first = header_h or box.h / len(rows)
    step = (box.h - first) / (len(rows) - 1)
    c.setLineWidth(float(cfg["line_mm"]))
    c.setStrokeColor(ctx.layout.colour("muted"))
    x_edges = [box.x]
    for wd in widths:
        x_edges.append(x_edges[-1] + wd * box.w)
    for r, row in enumerate(rows):
        h = first if r == 0 else step
        y = box.y + box.h - first - r * step
        for k, cell in enumerate(row):
            x0, x1 = x_edges[k], x_edges[k + 1]
            if r == 0 and header_colours and header_colours[k] is not None:
                c.setFillColor(header_colours[k])
                c.rect(x0, y, x1 - x0, h, stroke=0, fill=1)
                ink = ctx.layout.ink_on(header_colours[k])
            else:
                ink = ctx.layout.colour("text")
            c.rect(x0, y, x1 - x0, h, stroke=1, fill=0)
            if cell:
                text.draw(
                    c,
                    cell,
                    ctx.bold if r == 0 else ctx.regular,
                    Box(x0 + pad_x, y + pad_y, x1 - x0 - 2 * pad_x, h - 2 * pad_y),
                    *_pt(cfg["scoring"], "cell"),
                    max_lines=2,
                    align="center",
                    colour=ink,
                )


def _scoring(c, ctx: CardContext, w: dict, box: Box, groups: list[str]) -> None:
    """The score sheet, a page of its own: a table per game (`games`, each a row per player and a column per
    continent pile, or per pile of the deck's own `groups`, the face-down pile and the total), the scoring rules
    below them and the players/cards/rounds table beside them."""
    layout, cfg = ctx.layout, ctx.layout.data["accessories"]
    s = cfg["scoring"]
    title_h = float(s["title_h"])
    c.setFillColor(layout.colour("text"))
    text.draw(c, w["score_title"], ctx.bold, Box(box.x, box.y + box.h - title_h, box.w, title_h), *_pt(s, "title"))
    continents = groups or list(layout.common["continents"])
    colours = [None, *_colours(groups, ctx), None, None]
    score_w = box.w * float(s["share"])
    shares = s["columns"]
    widths = [shares["player"]] + [shares["continent"]] * len(continents) + [shares["face_down"], shares["total"]]
    games, gap, note_h = int(s["games"]), float(s["game_gap_mm"]), float(s["note_h"])
    step = (box.h - title_h - note_h - 2) / games
    for g in range(games):
        top = box.y + box.h - title_h - g * step
        first = placeholders.fill(w["game"], n=g + 1)
        named = groups or [layout.continent(name, ctx.lang)[0] for name in continents]
        header = [first, *named, w["face_down"], w["total"]]
        rows = [header] + [[""] * len(header) for _ in range(int(cfg["strips"]))]
        table = Box(box.x, top - step + gap, score_w, step - gap)
        _table(c, ctx, rows, table, widths, colours, float(s["header_mm"]))
    c.setFillColor(layout.colour("muted"))
    text.draw(
        c,
        w["score_note"],
        ctx.regular,
        Box(box.x, box.y, score_w, float(s["note_h"])),
        *_pt(s, "note"),
        max_lines=3,
        valign="top",
    )
    setup = [list(w["players_header"])] + [[str(v) for v in row] for row in ctx.layout.data["kit"]["rules"]["table"]]
    gap = float(s["setup_gap_mm"])
    height = len(setup) * float(s["setup_row_mm"])
    setup_box = Box(
        box.x + score_w + gap, box.y + box.h - float(s["setup_top_mm"]) - height, box.w - score_w - gap, height
    )
    above, title_h = (float(v) for v in s["setup_title"])
    c.setFillColor(layout.colour("text"))
    text.draw(
        c,
        w["setup_title"],
        ctx.bold,
        Box(setup_box.x, setup_box.y + setup_box.h + above, setup_box.w, title_h),
        *_pt(s, "setup_title"),
    )
    _table(c, ctx, setup, setup_box, [1 / 3] * 3)


def _colours(groups: list[str], ctx: CardContext) -> list:
    """The piles' colours: the deck's groups' (the palette in their order), else the continents'."""
    if groups:
        return [ctx.layout.group_colour(i) for i in range(len(groups))]
    return [ctx.layout.continent(name, ctx.lang)[1] for name in ctx.layout.common["continents"]]


def pieces(categories: int, field: float, glue: float, room: float) -> list[tuple[int, int]]:
    """(first category, count) of each piece of a strip: as few pieces as fit `room` mm with their flaps."""
    for n in range(1, categories + 1):
        per = math.ceil(categories / n)
        if per * field + (glue if n > 1 else 0) <= room:
            return [(first, min(per, categories - first)) for first in range(0, categories, per)]
    raise GeodeckError(f"one strip field of {field:g} mm does not fit the paper; use a larger --paper")


def draw(c, deck: dict, ctx: CardContext, w: dict, paper_name: str, paper: tuple[float, float]) -> None:
    """A strip per player of the largest table (`strips`: in pieces where the paper is narrow) then the scoring
    block (its final tie broken by the Antarctica card where the deck has one), top to bottom on landscape
    pages, a new page when one is full."""
    cfg = ctx.layout.data["accessories"]
    margin, gap = float(cfg["margin_mm"]), float(cfg["gap_mm"])
    page = (max(paper), min(paper))
    field, glue = float(cfg["field_mm"]), float(cfg["glue_mm"])
    room = page[0] - 2 * float(cfg["side_mm"])
    parts = pieces(len(ctx.layout.data["categories"]), field, glue, room)
    height = 2 * float(cfg["strip"]["panel_mm"])
    items = [("strip", height, (*part, i)) for _ in range(int(cfg["strips"])) for i, part in enumerate(parts)]
    items.append(("scoring", page[1] - 2 * margin, (0, 0, 0)))  # a page of its own
    width = min(room, max(n for _, n in parts) * field + (glue if len(parts) > 1 else 0))
    x = (page[0] - width) / 2
    top = None
    for kind, item_h, (first, count, piece) in items:
        if top is None or top - item_h < margin:
            if top is not None:
                end_page(c)
            begin_page(c, page)
            top = page[1] - margin
        if kind == "strip":
            _strip(
                c,
                ctx,
                w,
                Box(x, top - item_h, count * field, item_h),
                first,
                count,
                first + count < len(ctx.layout.data["categories"]),
                piece,
            )
        else:
            note = w["score_note" if _polar(deck) else "score_note_shared"]
            if deck.get("groups"):  # a deck of its own groups: piles per group
                note = placeholders.fill(w["score_note_groups"], group=group_word(ctx.layout, ctx.lang))
            _scoring(
                c,
                ctx,
                w | {"score_note": note},
                Box((page[0] - room) / 2, top - item_h, room, item_h),
                deck.get("groups") or [],
            )
        top -= item_h + gap
    end_page(c)

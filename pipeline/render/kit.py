"""The print-and-play kit (`geodeck print GAME --kit`): one PDF with bookmarks holding a cover, the rules
summary written for this kit (the game's `[kit.words]` in its card layout), the duplex calibration sheet,
the cards and backs, the accessories and an attribution page (every source of the deck's values from its
manifest and every source the cards and accessories draw from, each with producer, licence and vintage
from sources/*.toml; the font; the deck's version and content hash). Words and sizes:
`templates/cards/common.toml [kit]`.

The kit prints as one duplex job (the cover names the flip): every page is numbered at its foot, the
calibration sheet and every card sheet start on a front (odd page) with their backs behind them, and every
accessory page (map halves, strips, score sheets: cut or glued, never backed) is followed by a blank page.
"""

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from babel.lists import format_list
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily

from pipeline import atomic, markup, paths, placeholders
from pipeline.decks import counting, files, published
from pipeline.decks.spec import load_spec
from pipeline.errors import GeodeckError
from pipeline.extract import load_sources
from pipeline.framework.definition import GameDefinition
from pipeline.i18n.catalogue import form, gettext, labelled
from pipeline.i18n.language import Language
from pipeline.markup import Markup
from pipeline.render import accessories, calibration, fonts, layouts, licences, ports, printing, rules, text, titles
from pipeline.render.context import CardContext
from pipeline.render.geometry import PRINTABLE_MM
from pipeline.render.numbers import number
from pipeline.render.pages import Canvas, begin_page, clipped, describe, end_page, new_canvas
from pipeline.render.printing import PrintOptions, PrintResult
from pipeline.render.text import PT_MM, Box

SECTIONS = ("cover", "rules", "calibration", "cards", "accessories", "attribution")
BLANK = "blank"  # the role of a page left empty so that the page before it is not backed
FOOT_PT = 7.0


class KitCanvas(Canvas):
    """A canvas that numbers every page at its foot and records each page's section (`roles`, one per
    page); while `alone` is set every page it ends is followed by a blank page (nothing printed on its back)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.roles: list[str] = []
        self.role = SECTIONS[0]
        self.alone = False
        self.words = {"page": "{n}", "blank": ""}
        self.foot_at = bottom_centre

    def showPage(self):
        self._foot(self.role)
        super().showPage()
        if self.alone:
            self.blank()

    def blank(self) -> None:
        """An empty page (but for its number and a line saying it is meant to be empty)."""
        self._foot(BLANK)
        Canvas.showPage(self)

    def to_front(self) -> None:
        """A blank page if needed, so that the next page is a front (odd) in a duplex job."""
        if len(self.roles) % 2:
            self.blank()

    def _foot(self, role: str) -> None:
        self.roles.append(role)
        w, h = (v / mm for v in self._pagesize)
        x, y, angle = self.foot_at(w, h) if role != BLANK else bottom_centre(w, h)
        label = placeholders.fill(self.words["page"], n=len(self.roles))
        if role == BLANK and self.words["blank"]:
            label = f"{self.words['blank']} · {label}"
        self.saveState()
        self.scale(mm, mm)
        self.translate(x, y)
        self.rotate(angle)
        self.setFillColor(HexColor(layouts.common()["colours"]["muted"]))
        self.setFont(fonts.register()[0], FOOT_PT * PT_MM)
        self.drawCentredString(0, 0, label)
        self.restoreState()


def bottom_centre(w: float, h: float) -> tuple[float, float, float]:
    """(x, y, angle) of a page number: centred, its text just inside the printable area at the foot."""
    return w / 2, PRINTABLE_MM + 1.0, 0.0


def card_foot(sheet) -> Callable[[float, float], tuple[float, float, float]]:
    """Where a card sheet's number goes: at the foot when the margin below the bleed has room, else turned
    in the left margin beside the middle row (no crop mark there)."""
    room = sheet.block.y - sheet.bleed - PRINTABLE_MM
    if room >= FOOT_PT * PT_MM + 1.5:
        return bottom_centre
    x = PRINTABLE_MM + FOOT_PT * PT_MM
    return lambda w, h: (x, h / 2, 90.0)


def _words(layout: layouts.Layout, lang: Language) -> tuple[dict, dict, dict]:
    """(kit sizes, the kit's words, the game's kit words) in `lang` (`[kit.words]`)."""
    localised = layout.localised(lang)
    common = localised.common.get("kit") or {}
    game = localised.data.get("kit") or {}
    if "words" not in common or "words" not in game:
        raise GeodeckError(f"templates/cards: missing [kit.words] in common.toml or {layout.game}.toml")
    return common, common["words"], game["words"]


def _flow(canvas, paragraphs: list[Markup], style: ParagraphStyle, box: Box, start_page) -> None:
    """Paragraphs from the top of `box` downwards, a new page (begun by `start_page()`) when one is full."""
    y = box.y + box.h
    for words in paragraphs:
        para = text.paragraph(words, style)
        _, h = para.wrap(box.w, box.h)
        if y - h < box.y:
            end_page(canvas)
            start_page()
            y = box.y + box.h
        para.drawOn(canvas, box.x, y - h)
        y -= h + style.spaceAfter


def _style(size_pt: float, font: str) -> ParagraphStyle:
    size = size_pt * PT_MM
    return ParagraphStyle("kit", fontName=font, fontSize=size, leading=size * 1.35, spaceAfter=size * 0.8)


@dataclass(frozen=True)
class KitContext:
    """What the kit's cover and attribution page are drawn from: the game and its deck, the print options,
    the page (mm), the card layout and the language, the kit's sizes (`cfg`) and words (`kit`, common to all
    games; `game_kit`, the game's own `[kit.words]`), the cards' context and the kit's fonts."""

    game: GameDefinition
    deck: dict
    options: PrintOptions
    page: tuple[float, float]
    layout: layouts.Layout
    lang: Language
    cfg: dict
    kit: dict
    game_kit: dict
    cards: CardContext
    regular: str
    bold: str

    @property
    def margin(self) -> float:
        return float(self.cfg["margin_mm"])


def _cover(canvas, kc: KitContext, home: bool = True) -> None:
    """The game's colour field with the title, the key art drawn from the deck (its countries on the world, or
    its places on the country) and three card fronts across the field's edge; below it what a buyer asks
    (`_facts`), then the contents and the one print setting (`home`: a print shop's booklet holds neither, nor
    the card stock and cutting, which are the shop's). Colours and sizes from the game's design system
    (`[design]`)."""
    game, deck, kit, layout, lang, ctx = kc.game, kc.deck, kc.kit, kc.layout, kc.lang, kc.cards
    pw, ph = kc.page
    m = kc.margin
    design = layout.design
    shape = {key: float(v) for key, v in kc.cfg["cover"].items()}
    edge = ph * shape["field_share"]  # the colour field's lower edge
    canvas.setFillColor(design.colour("colour"))
    canvas.rect(0, edge, pw, ph - edge, stroke=0, fill=1)
    canvas.setFillColor(design.colour("ink"))
    top = ph - shape["top_mm"]
    for line, font, size, h in (
        (titles.title(game, deck, lang), kc.bold, design.pt("display"), design.pt("display") * PT_MM * 1.2),
        (
            _counted(kc.game_kit["subtitle"], lang, _items(deck)),
            kc.regular,
            design.pt("title"),
            design.pt("title") * PT_MM * 1.3,
        ),
        (kit["kind"], kc.bold, design.pt("heading"), design.pt("heading") * PT_MM * 1.3),
    ):
        top -= h
        text.draw(canvas, line, font, Box(m, top, pw - 2 * m, h), size, 6, align="center")
    cards_h = shape["cards_mm"]
    cards_y = edge - cards_h * shape["cards_below"]
    art = ports.art(ports.cards(game))
    if art is not None:  # on a panel of the game's map sea, like the maps on its cards
        panel = Box(m, cards_y + cards_h + 4, pw - 2 * m, top - 5 - (cards_y + cards_h + 4))
        canvas.setFillColor(design.colour("art_sea"))
        canvas.roundRect(panel.x, panel.y, panel.w, panel.h, 4, stroke=0, fill=1)
        pad = shape["art_pad_mm"]
        art(canvas, deck["cards"], Box(panel.x + pad, panel.y + pad, panel.w - 2 * pad, panel.h - 2 * pad), ctx)
    _samples(canvas, ports.cards(game), deck, layout, ctx, Box(m, cards_y, pw - 2 * m, cards_h))
    items = [f"{i + 1}. {kit['sections'][key]}" for i, key in enumerate(SECTIONS[1:])]
    duplex = layouts.common_in(lang)["calibration"]["words"]["duplex"][kc.options.duplex]
    style = _style(design.pt("body"), kc.regular)
    below = cards_y - shape["gap_mm"]
    half = (pw - 2 * m - shape["gap_mm"]) / 2
    tight = ParagraphStyle("facts", parent=style, spaceAfter=style.fontSize * 0.35)
    facts = _facts(kc)
    _flow(canvas, facts if home else facts[:-2], tight, Box(m, m, half, below - m), lambda: None)
    version = layouts.version(deck, lang, kc.options.draft)
    body = [
        *([markup.lines([markup.bold(kit["contents"]), *items]), markup.fill(kit["printing"], duplex=duplex)] * home),
        markup.fill(kit["version"], version=version, cards=len(deck["cards"])),
    ]
    _flow(canvas, body, style, Box(pw - m - half, m, half, below - m), lambda: None)


def box_words(kc: KitContext) -> dict[str, str]:
    """A tuck box's words: the deck's title, the cover's subtitle and its version line."""
    version = layouts.version(kc.deck, kc.lang, kc.options.draft)
    return {
        "title": titles.title(kc.game, kc.deck, kc.lang),
        "subtitle": _counted(kc.game_kit["subtitle"], kc.lang, _items(kc.deck)),
        "version": placeholders.fill(kc.kit["version"], version=version, cards=len(kc.deck["cards"])),
    }


def _facts(kc: KitContext) -> list[Markup]:
    """What a buyer asks, one line each: players, age, play time, cards, card size, accessories, card stock and
    cutting."""
    deck, kit, lang = kc.deck, kc.kit, kc.lang
    cover = kc.layout.design_section("cover")
    low, high = kc.game.player_counts(deck)
    kinds: dict[str, int] = {}
    for card in deck["cards"]:
        kinds[card["kind"]] = kinds.get(card["kind"], 0) + 1
    counted = [placeholders.fill(form(lang, kc.game_kit["kinds"][kind], n), n=n) for kind, n in kinds.items()]
    cards = format_list(counted, locale=lang.locale)
    w, h = deck.get("card_size_mm") or kc.layout.card_mm
    minutes = cover["minutes"]
    card_size = placeholders.fill(kit["card_size_value"], w=number(w, lang, "#,##0.#"), h=number(h, lang, "#,##0.#"))
    return [
        _fact(lang, kit["players"], low if low == high else f"{low}–{high}"),
        _fact(lang, kit["age"], placeholders.fill(kit["age_value"], age=cover["age"])),
        _fact(lang, kit["time"], placeholders.fill(kit["time_value"], low=minutes[0], high=minutes[1])),
        _fact(lang, kit["cards"], cards),
        _fact(lang, kit["card_size"], card_size),
        _fact(lang, kit["sections"]["accessories"], _components(kc, high)),
        _fact(lang, kit["stock"], kit["stock_value"]),
        _fact(lang, kit["cutting"], kit["cutting_value"]),
    ]


def _counted(words: str | list[str], lang: Language, n: int) -> str:
    """A cover's words, a plural message in its form for `n` (the accessories by the largest table: a strip per
    player; the subtitle by the deck's cards)."""
    return words if isinstance(words, str) else placeholders.fill(form(lang, words, n), n=n)


def _components(kc: KitContext, high: int) -> str:
    """The cover's accessories (`_counted` by the largest table), with the deck's own words where the game has
    them (`rules_words`: the World Game's map, a recipe's deck's own)."""
    own = ports.rules_words(ports.accessories(kc.game))
    return placeholders.fill(
        _counted(kc.game_kit["components"], kc.lang, high), **(own(kc.deck, kc.cards.layout) if own else {})
    )


def _items(deck: dict) -> int:
    """The deck's cards but its jokers (the World Game's 194 countries, a recipe's 54)."""
    return sum(card["kind"] != "joker" for card in deck["cards"])


def _fact(lang: Language, label: str, value: object) -> Markup:
    """A line of the cover's facts: its label bold, as the language writes "label: value"."""
    return markup.fill(gettext(lang, "{label}: {value}"), label=markup.bold(label), value=value)


def _samples(canvas, module, deck: dict, layout: layouts.Layout, ctx: CardContext, box: Box) -> None:
    """The fronts of the first card of each kind (then the next cards, three in all) side by side in `box`,
    scaled to its height, each on a white edge as a cut card."""
    picked = list({card["kind"]: card for card in reversed(deck["cards"])}.values())[::-1]
    picked += [card for card in deck["cards"] if card not in picked]
    w, h = layout.card_mm
    scale = box.h / h
    gap = 6.0
    x = box.x + (box.w - 3 * w * scale - 2 * gap) / 2
    for i, card in enumerate(picked[:3]):
        module.check(card, ctx)
        left = x + i * (w * scale + gap)
        canvas.setFillColor(layout.colour("sea"))
        canvas.roundRect(left - 1.2, box.y - 1.2, w * scale + 2.4, h * scale + 2.4, 2.5, stroke=0, fill=1)
        with clipped(canvas, Box(left, box.y, w * scale, h * scale)):
            canvas.translate(left, box.y)
            canvas.scale(scale, scale)
            module.front(canvas, card, ctx)
        canvas.setStrokeColor(layout.colour("rule"))
        canvas.setLineWidth(0.2)
        canvas.roundRect(left - 1.2, box.y - 1.2, w * scale + 2.4, h * scale + 2.4, 2.5, stroke=1, fill=0)


def sources(game: GameDefinition, manifest: dict, for_sale: bool = False, deck: dict | None = None) -> list[str]:
    """The deck's sources (its manifest) and those the game's renderers draw from for it (their stand-ins for
    sale), sorted."""
    return sorted(set(manifest.get("sources", {})) | set(licences.drawn(game, for_sale, deck)))


def _attribution(canvas, kc: KitContext, manifest: dict) -> None:
    """Per source its work, year, producer and licence in plain words, with what may not be sold and what the
    game made of them (`_terms`); then the user's own table and the deck's counting rules in the kit's
    language (pipeline/decks/counting.py), the credits and the deck's version. Files, checksums and dates stay
    in the deck's manifest."""
    game, deck, kit, lang = kc.game, kc.deck, kc.kit, kc.lang
    pw, ph = kc.page
    m = kc.margin
    defined = load_sources()
    used = sources(game, manifest, kc.options.for_sale, deck)
    unknown = [name for name in used if name not in defined]
    if unknown:
        raise GeodeckError(f"the deck names source {unknown[0]!r}, which has no sources/{unknown[0]}.toml")
    intro = kit["sources_intro_draft" if kc.options.draft else "sources_intro"]
    paragraphs = [markup.bold(kit["attribution"]), markup.words(intro)]
    paragraphs += _terms(kc, defined, used)
    for name in used:
        source = defined[name]
        terms = kit["licences"][source.license_class]
        if source.license_name:
            terms += f" ({source.license_name})"
        line = markup.text(f" ({source.year}), {source.producer}. {labelled(lang, kit['licence'], terms)}.")
        paragraphs.append(Markup(markup.bold(source.title or name) + line))
    paragraphs += _own_table(deck, kit)
    labels = {c["field"]: c["words"]["label"] for c in kc.layout.localised(lang).data.get("categories", [])}
    paragraphs += counting.statements(deck, load_spec(game), kit.get("counting", {}), lang, labels)
    paragraphs.append(markup.words(kit["credits"]))
    version = layouts.version(deck, lang, kc.options.draft)
    paragraphs.append(markup.fill(kit["deck"], title=titles.title(game, deck, lang), version=version))

    def start() -> None:
        begin_page(canvas, kc.page)

    _flow(canvas, paragraphs, _style(float(kc.cfg["small_pt"]), kc.regular), Box(m, m, pw - 2 * m, ph - 2 * m), start)


def _terms(kc: KitContext, defined: dict, used: list[str]) -> list[Markup]:
    """ "For personal use" where a source may not be sold, or what stood in for it in a kit for sale, and how
    the game made what it draws from them (its kit words' `sources_note`, and `sources_note_for_sale` in a kit
    for sale); that a grid's inset shows islands nearer than they lie (`inset_note`); what a region deck's tier
    means (reviewed, checked or accepted: docs/regions.md)."""
    game, deck, kit, game_kit, for_sale = kc.game, kc.deck, kc.kit, kc.game_kit, kc.options.for_sale
    paragraphs = []
    barred = [name for name in used if defined[name].license_class == "non-commercial"]
    if barred:
        names = ", ".join(defined[name].title for name in barred)
        paragraphs.append(markup.fill(kit["personal_use"], sources=names, game=deck["game"]))
    for old, new in (licences.for_sale(game) if for_sale else {}).items():
        paragraphs.append(
            markup.fill(
                kit["replaced"],
                old=defined[old].title,
                old_licence=kit["licences"][defined[old].license_class],
                new=defined[new].title,
                new_licence=kit["licences"][defined[new].license_class],
            )
        )
    if for_sale:
        layers = ", ".join(defined[name].title or name for name in licences.drawn(game, for_sale=True))
        paragraphs.append(markup.fill(kit["cleared"], layers=layers))
    for key in ("sources_note", "sources_note_for_sale") if for_sale else ("sources_note",):
        if key in game_kit:
            paragraphs.append(markup.words(game_kit[key]))
    if deck.get("grid", {}).get("inset") and "inset_note" in game_kit:  # far islands framed on the map
        paragraphs.append(markup.words(game_kit["inset_note"]))
    if tier := game_kit.get("tiers", {}).get(deck.get("region", {}).get("tier")):
        paragraphs.append(markup.words(tier))
    return paragraphs


def _own_table(deck: dict, kit: dict) -> list[Markup]:
    """The user's table a recipe's deck was made from: its file, its sha256, the column its rows cite their
    sources in and the first card's."""
    made = deck.get("recipe", {}).get("sources", {})
    if not made.get("table"):
        return []
    cited = [p["citation"] for card in deck["cards"] for p in card.get("provenance", {}).values() if p.get("citation")]
    words = {"table": made["table"], "column": made.get("table_source", ""), "example": cited[0] if cited else ""}
    return [markup.fill(kit["own_table"], sha256=made["table_sha256"], **words)]


def manifest_for(deck_path: Path, deck: dict, draft: bool) -> dict:
    """The deck's manifest; a draft has none: its sources are those its cards name, as its manifest would list
    them."""
    return {"sources": files.used_sources(deck["cards"])} if draft else manifest_of(deck_path)


def manifest_of(deck_path: Path) -> dict:
    path = deck_path.parent / "manifest.json"
    if not path.is_file():
        raise GeodeckError(f"{path} is missing; the kit's attribution page needs the deck's manifest")
    return published.manifest_of(deck_path)


def _opened(game: GameDefinition, deck: dict, options: PrintOptions, store, kind: type, what: str):
    """(canvas of class `kind`, its buffer, the kit's context, `section(key)`) of a new kit document, its cover
    page begun."""
    layout = layouts.load(game)
    lang = layout.language(options.lang)
    _, kit, _ = _words(layout, lang)
    regular, bold = fonts.register()
    registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    page = accessories.PAPERS_MM[options.paper]
    canvas, buffer = new_canvas(kind)
    canvas.words = {"page": kit["page"], "blank": kit["blank"]}
    version = layouts.version(deck, lang, options.draft)
    describe(
        canvas,
        labelled(lang, f"{titles.title(game, deck, lang)} {version}", kit["kind"]),
        f"{deck['game']} {version} {what}, {options.paper}, {lang.code}",
    )
    canvas.showOutline()

    def section(key: str) -> None:
        canvas.role = key
        canvas.bookmarkPage(key)
        canvas.addOutlineEntry(kit["sections"][key], key, level=0)

    begin_page(canvas, page)
    section("cover")
    return canvas, buffer, context(game, deck, options, store), section


def context(game: GameDefinition, deck: dict, options: PrintOptions, store) -> KitContext:
    """The kit's context: its words, sizes, fonts and the cards' context with the deck's sizes."""
    layout = layouts.load(game)
    lang = layout.language(options.lang)
    cfg, kit, game_kit = _words(layout, lang)
    regular, bold = fonts.register()
    ctx = printing.with_steps(ports.cards(game), deck["cards"], CardContext(layout, lang, 0.0, store, options.for_sale))
    page = accessories.PAPERS_MM[options.paper]
    return KitContext(game, deck, options, page, layout, lang, cfg, kit, game_kit, ctx, regular, bold)


def _cover_and_rules(canvas, kc: KitContext, section, home: bool = True) -> None:
    """The cover (its page begun; `home`: the home kit's) and the rules pages, the last one ended."""
    _cover(canvas, kc, home)
    end_page(canvas)
    begin_page(canvas, kc.page)
    section("rules")
    rules.draw(
        canvas,
        kc.game,
        kc.deck,
        kc.cards,
        kc.game_kit,
        kc.page,
        kc.margin,
        lambda: begin_page(canvas, kc.page),
    )
    end_page(canvas)


def _attribution_page(canvas, kc: KitContext, manifest: dict, section) -> None:
    begin_page(canvas, kc.page)
    section("attribution")
    _attribution(canvas, kc, manifest)
    end_page(canvas)


def render(game: GameDefinition, deck: dict, manifest: dict, options: PrintOptions, store) -> tuple[bytes, list[str]]:
    """(PDF bytes, each page's section or BLANK) of the kit."""
    options.validate()
    if options.layout != "sheet":
        raise GeodeckError(
            "--kit prints card sheets for home printing; for a print shop use --layout one-up without --kit"
        )
    layout = layouts.load(game)
    canvas, buffer, kc, section = _opened(game, deck, options, store, KitCanvas, "kit")
    _cover_and_rules(canvas, kc, section)
    canvas.to_front()
    section("calibration")  # the next page, where the sheet begins
    calibration.draw(canvas, options.paper, options.duplex, options.back_offset, kc.lang)
    section("cards")
    canvas.foot_at = card_foot(printing.sheet_for(options, layout.card_mm, printing.bleed_of(options, layout)))
    printing.draw_cards(canvas, game, deck, options, store)
    canvas.foot_at = bottom_centre
    section("accessories")
    canvas.alone = True
    extras = accessories.AccessoryOptions(options.paper, options.lang, options.for_sale, options.draft)
    accessories.draw_accessories(canvas, game, deck, extras, store)
    canvas.alone = False
    _attribution_page(canvas, kc, manifest, section)
    canvas.save()
    return buffer.getvalue(), canvas.roles


def booklet(
    game: GameDefinition, deck: dict, manifest: dict, options: PrintOptions, store, kind: type = KitCanvas
) -> tuple[bytes, list[str]]:
    """(PDF bytes, each page's section or BLANK) of the kit's booklet for a stapled (saddle-stitched) print:
    the cover, the rules and the attribution page, then blank pages to a multiple of 4 pages. `kind`: a
    subclass of KitCanvas (a press's, for a print shop)."""
    canvas, buffer, kc, section = _opened(game, deck, options, store, kind, "rules booklet")
    _cover_and_rules(canvas, kc, section, home=False)
    _attribution_page(canvas, kc, manifest, section)
    while len(canvas.roles) % 4:
        canvas.blank()
    canvas.save()
    return buffer.getvalue(), canvas.roles


def default_output(
    game: GameDefinition, deck: dict, options: PrintOptions, lang: Language, print_dir: Path | None = None
) -> Path:
    details = printing.sheet_details(options, layouts.load(game))[1:]  # a kit is always sheets
    return (print_dir or paths.PRINT_DIR) / printing.file_name(
        deck, "kit", options.paper, lang, *details, draft=options.draft
    )


def print_kit(
    game: GameDefinition, deck_path: Path, deck: dict, options: PrintOptions, store, out: Path | None = None
) -> PrintResult:
    """Render the game's kit and write it atomically (a failure leaves any earlier PDF alone)."""
    manifest = manifest_for(deck_path, deck, options.draft)
    data, roles = render(game, deck, manifest, options, store)
    lang = layouts.load(game).language(options.lang)
    path = out or default_output(game, deck, options, lang)
    atomic.write_bytes(path, data)
    return PrintResult(path, len(roles), len(deck["cards"]), len(data))

"""Pictures at the terminal (a World Game flag, never its letters): an image drawn as coloured half blocks,
"▀" with the upper pixel as the foreground and the lower as the background (two pixel rows a line), in
truecolor (rich lowers it to 256 colours where the terminal has only those). A terminal with fewer colours,
output that is no terminal, or colours turned off (`NO_COLOR`, https://no-color.org: rich then prints the
blocks uncoloured) shows no picture: `drawer` gives None, and a game that needs one refuses."""

import os
from collections.abc import Callable

from rich.color import Color
from rich.console import Console
from rich.style import Style
from rich.text import Text

UPPER_HALF = "▀"
COLUMNS = 32  # a flag's width in character cells (4:3 flags: 12 lines)
SHOWS_PICTURES = ("truecolor", "256")  # rich's colour systems that draw a flag recognisably


def half_blocks(image) -> Text:
    """`image` (a PIL image) as half-block characters, one per pixel column and two pixel rows."""
    rgb = image.convert("RGB")
    width, height = rgb.size
    text = Text()
    for y in range(0, height - 1, 2):
        cells = [(rgb.getpixel((x, y)), rgb.getpixel((x, y + 1))) for x in range(width)]
        start = 0
        for x in range(1, width + 1):  # a run of cells of one colour pair is one span
            if x == width or cells[x] != cells[start]:
                upper, lower = cells[start]
                style = Style(color=Color.from_rgb(*upper), bgcolor=Color.from_rgb(*lower))
                text.append(UPPER_HALF * (x - start), style)
                start = x
        if y + 2 < height - 1:
            text.append("\n")
    return text


def drawer(console: Console, store_opener: Callable) -> Callable[[str], Text] | None:
    """A function drawing the flag file `path` (of the pinned flag source) as half blocks, the store opened
    when the first flag is drawn; None where `console` cannot show pictures."""
    if not console.is_terminal or console.no_color or console.color_system not in SHOWS_PICTURES:
        return None
    from pipeline.render.flags import flags

    found: list = []

    def draw(path: str) -> Text:
        if not found:
            found.append(flags(store_opener()))
        return half_blocks(found[0].image(path, COLUMNS))

    return draw


def colours_off() -> bool:
    """Whether the user turned colours off (`NO_COLOR` set, whatever its value, as rich reads it)."""
    return "NO_COLOR" in os.environ

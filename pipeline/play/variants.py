"""`geodeck play GAME --variant NAME[=VALUE]`: the rulebook's variants of a game, declared by its terminal
module as `VARIANTS` (name -> Variant) and turned into the engine's options (kept in the game's record)."""

from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.play import ports
from pipeline.play.ports import Variant

LIST = "list"  # --variant list: name the game's variants and play nothing


def listing(definition: GameDefinition) -> str:
    """The game's variants, one a line (`--variant list`)."""
    known = declared(definition)
    if not known:
        return f"{definition.name} has no variants"
    return "\n".join(f"--variant {variant.help}" for variant in known.values())


def declared(definition: GameDefinition) -> dict[str, Variant]:
    return dict(ports.variants(ports.terminal(definition)))


def options(texts: tuple[str, ...] | list[str], definition: GameDefinition) -> dict:
    """The engine's options of the variants named on the command line; one line naming the fix otherwise."""
    known = declared(definition)
    found: dict = {}
    for text in texts:
        name, _, value = text.partition("=")
        if name not in known:
            listed = "; ".join(v.help for v in known.values()) or "none"
            raise GeodeckError(
                f"--variant {text!r}: {definition.name} has no variant {name!r} (its variants: {listed})"
            )
        try:
            found |= known[name].options(value)
        except ValueError as exc:
            raise GeodeckError(f"--variant {text!r}: {exc} ({known[name].help})") from None
    return found

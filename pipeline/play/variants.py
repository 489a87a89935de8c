"""`geodeck play GAME --variant NAME[=VALUE]`: the rulebook's variants of a game, declared by its terminal
module as `VARIANTS` (name -> Variant) and turned into the engine's options (kept in the game's record)."""

from collections.abc import Callable
from dataclasses import dataclass

from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition


@dataclass(frozen=True)
class Variant:
    help: str  # "NAME[=VALUE]: what the rulebook calls it"
    options: Callable[[str], dict]  # VALUE (empty without "=") -> the engine's options; ValueError: a bad value


LIST = "list"  # --variant list: name the game's variants and play nothing


def listing(definition: GameDefinition) -> str:
    """The game's variants, one a line (`--variant list`)."""
    known = declared(definition)
    if not known:
        return f"{definition.name} has no variants"
    return "\n".join(f"--variant {variant.help}" for variant in known.values())


def declared(definition: GameDefinition) -> dict[str, Variant]:
    return dict(getattr(definition.terminal, "VARIANTS", {}))


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

"""A user error whose fix is a change the studio can make: its message (the CLI's one line, fix included) and
each fix as data too, from the code that words it (`Fix`: its words, and the changes that make it)."""

from dataclasses import dataclass

from pipeline.errors import GeodeckError


@dataclass(frozen=True)
class Change:
    """A change of the recipe or of the command: `remove` the table at `key` (categories[3]: the categories after
    it move up), `add` `value` to the list at `key` (items.exclude), or `accept` (publish with --accept and a
    reason the user gives)."""

    action: str  # remove | add | accept
    key: str = ""
    value: str = ""


@dataclass(frozen=True)
class Fix:
    line: str  # as the error says it
    changes: tuple[Change, ...] = ()  # each a way to make it as things stand (none: the user chooses)


class Fixable(GeodeckError):
    """An error with its fixes as data (`fixes`)."""

    def __init__(self, message: str, fixes: list[Fix]):
        super().__init__(message)
        self.fixes = fixes

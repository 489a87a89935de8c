"""User-facing errors: the CLI prints them as one line and exits non-zero, without a traceback."""


class GeodeckError(Exception):
    """A problem with the user's input or environment, with the fix in its message."""

    exit_code = 2


class SnapshotError(GeodeckError):
    """A raw file could not be resolved or failed its checksum."""


class ParseError(GeodeckError):
    """A raw file does not have the layout its parser expects."""

    def __init__(self, source: str, field: str, detail: str):
        super().__init__(f"{source}: {field}: {detail} (the source layout changed; update its parser)")
        self.source, self.field = source, field

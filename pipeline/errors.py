"""User-facing errors: the CLI prints them as one line and exits non-zero, without a traceback; and the
exit codes of every command (README: Exit codes)."""

import enum


class ExitCode(enum.IntEnum):
    """How a `geodeck` command ends: the one list of its exit codes."""

    OK = 0
    FAILED = 1  # a check found a problem: suspicious diff, failed verify or play-check, a place off the map
    USAGE = 2  # the input is wrong: a user error (GeodeckError, a bad option), an illegal record, an OS error
    UNDECIDED = 3  # play-check: no verdict failed, some still undecided at --max-games
    LEFT = 130  # aborted, or `geodeck play` left before the game's end (Ctrl-C included)
    TERMINATED = 143  # stopped by SIGTERM


class GeodeckError(Exception):
    """A problem with the user's input or environment, with the fix in its message."""

    exit_code = ExitCode.USAGE

    def __reduce__(self):
        """Pickled by its message and attributes, not by its constructor's arguments: an error raised in a
        worker process (a build step) reaches the parent whole."""
        return _rebuilt, (type(self), self.args, self.__dict__)


def _rebuilt(kind: type[GeodeckError], args: tuple, attributes: dict) -> GeodeckError:
    error = kind.__new__(kind, *args)
    error.args = args
    error.__dict__.update(attributes)
    return error


class SnapshotError(GeodeckError):
    """A raw file could not be resolved or failed its checksum."""


class ParseError(GeodeckError):
    """A raw file does not have the layout its parser expects."""

    def __init__(self, source: str, field: str, detail: str):
        super().__init__(f"{source}: {field}: {detail} (the source layout changed; update its parser)")
        self.source, self.field = source, field

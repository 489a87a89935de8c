"""What every CLI command shares: the two terminals, `out` for results (stdout) and `console` for progress
and errors (stderr), both printing text as data (`Terminal`); the snapshot-store options (--mirror,
--offline), `--force`; and the values every option takes (`Bounded` numbers; `strict`: no empty value, no
repeated single-valued option, no control character)."""

import math
import os
from collections import Counter
from pathlib import Path

import click
from click.core import ParameterSource
from rich.console import Console
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text

from pipeline import text
from pipeline.errors import GeodeckError

UNCUT = 1000  # columns: the widest result printed uncut to a file or pipe


class Terminal(Console):
    """A rich console that prints text as data: strings are never markup or emoji codes (`[/]` and
    `[link=…]` print as typed), and control characters and bidi overrides in what it prints are shown as
    escapes (`text.shown`), so no escape sequence from data reaches the terminal. Styles are given as
    `Text` objects, never as markup."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, emoji=False, **kwargs)

    def render(self, renderable, options=None):
        for segment in super().render(renderable, options):
            yield segment if segment.control else Segment(text.shown(segment.text), segment.style)


class Results(Terminal):
    """stdout and stderr. Written to a file or pipe, a table or line prints at its natural width (up to UNCUT
    columns) instead of rich's 80, so `geodeck diff … > file` keeps every column and a log keeps each
    message on its line; what fills any width (a rule) and the terminal keep the console's width."""

    def print(self, *objects, **kwargs) -> None:
        width = self.width
        if objects and not self.is_terminal:
            natural = max(self._natural(thing, kwargs) for thing in objects)
            if width < natural <= UNCUT:
                self.width = natural  # rich caps print(width=) at the console's width
        try:
            super().print(*objects, **kwargs)
        finally:
            self.width = width

    def _natural(self, thing, kwargs: dict) -> int:
        """The columns `thing` takes uncut (a string rendered as print would: markup, emoji)."""
        if isinstance(thing, str):
            thing = self.render_str(thing, markup=kwargs.get("markup"), emoji=kwargs.get("emoji"))
        return Measurement.get(self, self.options.update_width(UNCUT + 1), thing).maximum


console = Results(stderr=True)
out = Results()


def _mirror(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """--mirror (or $GEODECK_MIRROR), whenever given, names an existing folder (not a file, FIFO or device)."""
    if value is None:
        return None
    if len(value) <= 4096 and os.path.isdir(value):
        return Path(value)
    shown = value if len(value) <= 200 else f"{value[:200]}… ({len(value):,} characters)"
    what = "is not a folder" if len(value) <= 4096 and os.path.lexists(value) else "does not exist"
    hint = "$GEODECK_MIRROR" if ctx.get_parameter_source(param.name or "") is ParameterSource.ENVIRONMENT else None
    raise click.BadParameter(
        f"{shown!r} {what}; name the folder of snapshots, e.g. ../shared/snapshots", ctx, param, hint
    )


mirror_option = click.option(
    "--mirror",
    metavar="DIR",
    envvar="GEODECK_MIRROR",
    callback=_mirror,
    help="Folder with byte-exact copies of the raw files (e.g. ../shared/snapshots); used before the live URL.",
)


def force_option(what: str, files: bool = False, folders: bool = True):
    """`--force`: replace an existing file (`files`) or add to a folder that geodeck did not write (`folders`,
    pipeline/outputs.py) that `what`, the options, name."""
    says = [
        (files, "an existing file: it is replaced"),
        (
            folders,
            "a folder geodeck did not write: its files are added, same-named ones overwritten, nothing else removed",
        ),
    ]
    kinds = " or ".join(kind for wanted, kind in ((files, "file"), (folders, "folder")) if wanted)
    return click.option(
        "--force",
        is_flag=True,
        help=f"Let {what} name {'; or '.join(text for wanted, text in says if wanted)} (without it, such a "
        f"{kinds} is refused).",
    )


offline_option = click.option("--offline", is_flag=True, help="Never download; use only the store and the mirror.")


class LanguageChoice(click.Choice):
    """The registered languages (pipeline.i18n.registry), read when a command runs: a catalogue in
    $GEODECK_LOCALES is a choice too, and the CLI reads no catalogue until a command needs one."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        from pipeline.i18n import registry

        return registry.codes()

    @choices.setter
    def choices(self, _value) -> None:
        """click.Choice sets its choices once; the registry is their only source."""

    def convert(self, value, param, ctx):
        """The registered language `value` (a `Language`: where a code becomes the language the commands pass
        down); an unknown one is the registry's error (it names the registered languages and how a new one is
        added)."""
        from pipeline.errors import GeodeckError
        from pipeline.i18n import registry

        try:
            return registry.language(value)
        except GeodeckError as exc:
            self.fail(str(exc), param, ctx)


def lang_option(what: str, default: str = "the game's own (a region deck's: its country's, where registered)"):
    """`--lang`: one of the registered languages, a `Language`; None means `default` (the game's own,
    `default_lang`)."""
    return click.option(
        "--lang",
        type=LanguageChoice(),
        help=f"{what}: a language of the registry (a catalogue in templates/locale/ or $GEODECK_LOCALES; "
        f"docs/languages.md); default: {default}.",
    )


MAX_ERROR_LINE = 1000  # characters of an error line: a longer one (a 20,000-character label quoted) is cut


def error_line(message: str) -> None:
    """`error: MESSAGE` on stderr, the message verbatim (square brackets are text, not markup), each of its
    lines cut to MAX_ERROR_LINE characters in the middle (its start names what, its end the fix)."""
    shown = "\n".join(map(capped, message.splitlines() or [""]))
    console.print(Text.assemble(("error:", "bold red"), " ", shown), highlight=False, soft_wrap=True)


def capped(line: str, limit: int = MAX_ERROR_LINE) -> str:
    """`line`, or its start and end around a note of how many characters were left out, in `limit` at most."""
    if len(line) <= limit:
        return line
    keep = limit - 40
    left_out = len(line) - keep
    return f"{line[: keep * 2 // 3]} … ({left_out:,} characters left out) … {line[len(line) - keep // 3 :]}"


def given(ctx: click.Context, name: str) -> bool:
    """Whether the user typed option `name` on the command line (not a default, not the environment)."""
    return ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE


def flag(ctx: click.Context, name: str) -> str:
    """The option's first spelling on the command line (e.g. `--what`), for messages."""
    for param in ctx.command.params:
        if param.name == name and param.opts:
            return param.opts[0]
    return name


def refuse_together(ctx: click.Context, name: str, others: tuple[str, ...], why: str) -> None:
    """A usage error (exit 2) when option `name` and any of `others` are both on the command line: an option
    that the combination makes meaningless is an error, never silently ignored."""
    if not given(ctx, name):
        return
    for other in others:
        if given(ctx, other):
            raise click.UsageError(f"{flag(ctx, name)} and {flag(ctx, other)} do not go together: {why}")


class Bounded(click.ParamType):
    """A finite number from `low` to `high` in ASCII digits (no `_`, no blanks, no other script's digits);
    NaN, infinity and absurd values are refused naming the range."""

    def __init__(self, kind: type, low: float, high: float, unit: str = ""):
        self.kind, self.low, self.high, self.unit = kind, low, high, unit
        self.name = f"{kind.__name__} {self.show(low)}-{self.show(high)}"

    def show(self, number: float) -> str:
        return f"{int(number):,}" if self.kind is int else f"{number:g}"

    def convert(self, value, param, ctx):
        written = str(value)
        number: float | None = None
        if (text.WHOLE if self.kind is int else text.NUMBER).fullmatch(written):
            number = self.kind(written)
        if number is None or not math.isfinite(number) or not self.low <= number <= self.high:
            whole = "a whole number" if self.kind is int else "a number"
            self.fail(
                f"{value!r} is not {whole} from {self.show(self.low)} to {self.show(self.high)}{self.unit}", param, ctx
            )
        return number


class Words(click.ParamType):
    """Text given on the command line for people to read (a reason, a title): stripped, at most `longest`
    characters, no control character or bidi override; a blank one is refused."""

    name = "text"

    def __init__(self, longest: int):
        self.longest = longest

    def convert(self, value, param, ctx):
        words = str(value).strip()
        if not words:
            self.fail("is blank; give the words", param, ctx)
        try:
            return text.check(words, "it", self.longest)
        except GeodeckError as exc:
            self.fail(str(exc), param, ctx)


class Strict:
    """Command parsing that refuses, before click converts anything: an empty value (it would silently mean
    the default or the current folder), a single-valued option given twice (click takes the last), and a
    control character or bidi override in any value."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not ctx.resilient_parsing:
            refuse_lenient(self, ctx, args)  # type: ignore[arg-type]
        return super().parse_args(ctx, args)  # type: ignore[misc]


def refuse_lenient(command: click.Command, ctx: click.Context, args: list[str]) -> None:
    """The checks of `Strict` on the raw values click's parser finds in `args`."""
    try:
        values, _, order = command.make_parser(ctx).parse_args(args=list(args))
    except click.UsageError:
        return  # click's own parse reports it
    given = Counter(param.name for param in order if isinstance(param, click.Option))
    for param in command.get_params(ctx):
        single = isinstance(param, click.Option) and not (param.multiple or param.count or param.is_flag)
        if single and given[param.name] > 1:
            raise click.UsageError(f"{param.opts[0]} is given {given[param.name]} times; give it once", ctx)
        raw = values.get(param.name)
        for value in raw if isinstance(raw, list | tuple) else (raw,):
            if not isinstance(value, str):
                continue
            if not value.strip():
                raise click.BadParameter("is empty; give a value, or leave it out for its default", ctx, param)
            try:
                text.check(value, "the value", 4096)
            except GeodeckError as exc:
                raise click.BadParameter(str(exc), ctx, param) from exc


_STRICT: dict[type, type] = {}


def _strict(kind: type) -> type:
    """`kind` (a click command class) with `Strict` parsing, one class per kind."""
    if kind not in _STRICT:
        _STRICT[kind] = type(f"Strict{kind.__name__}", (Strict, kind), {})
    return _STRICT[kind]


def strict(command: click.Command) -> None:
    """Give `command` and each of its subcommands `Strict` parsing: called once on the whole command tree,
    so no command (a game's own included) can skip it."""
    if not isinstance(command, Strict):
        command.__class__ = _strict(type(command))
    for sub in getattr(command, "commands", {}).values():
        strict(sub)


def progress():
    """A transient progress bar on stderr (rich.progress is imported here: a no-op build never needs it)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,  # in a log or pipe a bar draws nothing but a blank line
    )


def jobs_option(help_text: str):
    """`--jobs N`: processes side by side, 1-1024, by default one per core; capped by the machine's cores and
    memory (pipeline.workers.capped), said in one line; `help_text` says what they run."""
    return click.option(
        "--jobs",
        type=Bounded(int, 1, 1024),
        default=os.cpu_count() or 1,
        show_default="all cores",
        callback=_capped_jobs,
        help=f"{help_text} At most one per core and per 512 MB of available memory.",
    )


def _capped_jobs(ctx: click.Context, param: click.Parameter, jobs: int) -> int:
    from pipeline import workers

    jobs, note = workers.capped(jobs)
    if note:
        console.print(f"note: {note}", highlight=False, markup=False, soft_wrap=True)
    return jobs

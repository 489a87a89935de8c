"""What the command modules share: progress bars, the GAME argument, report formats, locks and the
lines saying what was written."""

from pathlib import Path

import click

from pipeline.cli_output import console, out
from pipeline.framework.definition import GameDefinition
from pipeline.games import registry as games
from pipeline.i18n.language import Language


def language(game: GameDefinition, lang: Language | None) -> Language:
    """The language GAME is shown in: `--lang`'s (made from its code by `cli_output.LanguageChoice`), else the
    game's own (a region deck's country's, else its `default_lang`)."""
    from pipeline.render import layouts

    return layouts.load(game).language(lang)


def named(game: GameDefinition, deck: dict, lang: Language) -> dict:
    """The deck with its names in the language shown: a deck published before the language was registered
    has them taken from its cards, with one warning line saying so."""
    from pipeline.decks import translated
    from pipeline.decks.spec import load_spec

    shown, note = translated.completed(deck, load_spec(game), lang, game.made_by)
    if note:
        console.print(f"warning: {note}", highlight=False, markup=False, soft_wrap=True)
    return shown


def choice_option(*declarations: str, choices: list[str], help: str):
    """An option taking one of `choices`, the first one its default."""
    return click.option(*declarations, type=click.Choice(choices), default=choices[0], show_default=True, help=help)


format_option = choice_option(
    "--format",
    "fmt",
    choices=["table", "json", "markdown"],
    help="table: on the terminal; json or markdown for CI logs, changelogs and docs.",
)


def locked(folder: Path):
    """The exclusive lock of `folder` (store or build/), telling the user when it waits for another run."""
    from pipeline import locking

    return locking.exclusive(folder, on_wait=lambda message: console.print(message, highlight=False))


def show(report: dict, fmt: str, formats, **options) -> None:
    """A report in the chosen format; `formats` is the stage module with to_json/to_markdown/to_rich, the last
    two given `options` (e.g. `lang`)."""
    if fmt == "table":
        out.print(formats.to_rich(report, **options))
    else:
        click.echo(formats.to_json(report) if fmt == "json" else formats.to_markdown(report, **options), nl=False)


def resolve(name: str) -> GameDefinition:
    """The game called `name`: the one place a name becomes a game (the registry, pipeline.games.registry).
    Below the CLI, stages take the definition, never a name."""
    return games.get(name)


class GameChoice(click.Choice):
    """The registered games, read when a command runs (a game registered after import is a choice too); the
    argument's value is the chosen game's definition."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(games.names())

    @choices.setter
    def choices(self, _value) -> None:
        """click.Choice sets its choices once; the registry is their only source."""

    def convert(self, value, param, ctx) -> GameDefinition:
        if isinstance(value, GameDefinition):
            return value
        if value not in self.choices and (fix := games.unmade(value)):  # a game a command makes: its fix
            self.fail(fix, param, ctx)
        return resolve(super().convert(value, param, ctx))


game_argument = click.argument("game", metavar="GAME", type=GameChoice())
optional_game = click.argument("game", metavar="[GAME]", required=False, type=GameChoice())  # with --deck FILE


def size(count: int) -> str:
    return f"{count / 1e6:.1f} MB" if count >= 100_000 else f"{count / 1e3:.0f} kB"


def counted(count: int, noun: str) -> str:
    """`1 card`, `2 cards` (the terminal's English lines)."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def pages(count: int) -> str:
    return counted(count, "page")


def wrote(path: Path, details: str) -> None:
    """What was written (on stderr, with the progress), then its path, the command's result, on stdout on a line
    of its own that never wraps (copyable in a narrow terminal, `$(geodeck print …)` in a script)."""
    game = click.get_current_context().params.get("game")
    if click.get_current_context().params.get("for_sale") and game:
        from pipeline.render import licences

        for line in licences.replacement_lines(game):
            console.print(line, highlight=False, markup=False, soft_wrap=True)
    console.print(f"wrote {details}:", highlight=False, markup=False)
    out.print(str(path), highlight=False, markup=False, soft_wrap=True)

"""The `geodeck` command line: a thin layer over the pipeline stages, one module per command group
(data, prints, play, info; a game's own commands come from its slice) over one exit-code enum
(pipeline.errors.ExitCode). Here a game's name becomes its definition (common.game_argument), once."""

import sys

import click

from pipeline import __version__
from pipeline.cli import data, info, installed, play, prints, studio
from pipeline.cli_output import console, error_line, strict
from pipeline.errors import ExitCode, GeodeckError
from pipeline.games import registry as games


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="geodeck")
def cli():
    """geodeck: turn public statistics into printable, play-checked geography card games.

    Typical flow: `geodeck fetch` (raw files) → `geodeck build` (tables and decks) → `geodeck diff GAME`
    (what changed) → `geodeck play-check GAME` (does it play well) → `geodeck print GAME` (PDFs).
    `geodeck games` lists the games (GAME).
    """


installed.seed()  # installed as a tool: the user's decks folder holds the package's decks before games are found
for _command in (
    data.fetch,
    data.build,
    data.diff,
    data.verify,
    info.list_games,
    prints.review,
    prints.print_cards,
    prints.export_cards,
    play.play_check,
    play.play,
    play.replay,
    studio.studio,
    *games.commands(),
):
    cli.add_command(_command)
strict(cli)


def main() -> None:
    try:
        cli.main(standalone_mode=False)
    except click.exceptions.Abort:
        console.print("aborted")
        sys.exit(ExitCode.LEFT)
    except click.UsageError as exc:  # one line, like every other error, with where the help is
        command = exc.ctx.command_path if exc.ctx else "geodeck"
        error_line(f"{exc.format_message()} (see `{command} --help`)")
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        error_line(exc.format_message())
        sys.exit(exc.exit_code)
    except GeodeckError as exc:
        error_line(str(exc))
        sys.exit(exc.exit_code)
    except OSError as exc:  # the environment, not a bug: a full disk, a read-only folder, a vanished file
        where = f"{exc.filename}: " if exc.filename else ""
        error_line(f"{where}{exc.strerror or exc}; check the path, its permissions and the free space")
        sys.exit(ExitCode.USAGE)


if __name__ == "__main__":
    main()

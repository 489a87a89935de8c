"""The play commands: play-check a deck with bots, play it in the terminal, replay a record."""

import json
import signal
import sys
from contextlib import nullcontext
from pathlib import Path

import click
from rich.table import Table

from pipeline import outputs
from pipeline.cli.common import (
    choice_option,
    format_option,
    game_argument,
    language,
    resolve,
    show,
)
from pipeline.cli_output import Bounded, console, force_option, jobs_option, lang_option, out, progress, refuse_together
from pipeline.errors import ExitCode
from pipeline.games import registry as games
from pipeline.i18n.language import Language
from pipeline.playcheck import MAX_GAMES


@click.command("play-check")
@game_argument
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Check this deck.json instead of a published version (e.g. a draft).",
)
@click.option(
    "--games",
    default=1000,
    show_default=True,
    type=Bounded(int, 1, 1_000_000),
    help="Random playouts, 1-1,000,000, and as many expert playouts per seat count; each ladder rung adds "
    "a quarter of this. Playouts an undecided verdict needs are doubled until --max-games.",
)
@click.option(
    "--max-games",
    type=Bounded(int, 1, MAX_GAMES),
    help="The most random (and per seat count) playouts when verdicts stay undecided (default: 8 × --games); at least "
    "--games, which gives one look.",
)
@click.option(
    "--players",
    type=Bounded(int, 1, 99),
    help="Players, as many as the game's rules allow (default: "
    + ", ".join(f"{n} {g.default_players}" for n, g in games.registered().items())
    + ").",
)
@click.option(
    "--seed",
    default=0,
    show_default=True,
    type=Bounded(int, 0, 2**32 - 1),
    help="Seed of the playouts, 0-4294967295 (same seed, same report).",
)
@jobs_option("Processes playing in parallel; the report is the same for every value.")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Play on a Dask cluster (e.g. tcp://host:8786, started with `dask scheduler` and `dask worker`) "
    "instead of local processes; same report.",
)
@click.option(
    "--report-dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Also write report.json, report.md and the plots to this folder's GAME/VERSION/ "
    "(make play-check: output/reports).",
)
@click.option(
    "--save-records",
    "records_dir",
    type=click.Path(path_type=Path, file_okay=False),
    help="Write every game played as a record into this folder (SEED-KIND-I.json; `geodeck replay` checks one); "
    "it is replaced whole at the end.",
)
@force_option("--report-dir and --save-records")
@format_option
@lang_option("Language of the report's words (its JSON keys stay as they are)", "the source language")
def play_check(
    game,
    version,
    deck_file,
    games,
    max_games,
    players,
    seed,
    jobs,
    scheduler,
    report_dir,
    records_dir,
    force,
    fmt,
    lang,
):
    """Does GAME's deck play well? Simulate it with the bundled rules engines and judge the figures.

    Seeded playouts (random players; every seat the same bot per player count; a ladder of bots, one
    stronger seat against the rung below) measure game length, win share per seat (first-player
    advantage), shared wins, lead changes, branching factor, ties per category, each card's win index and
    continent balance, each with its 95 % interval. Verdicts compare the interval with the game's
    thresholds (templates/playcheck/GAME.toml, docs/rules-engines.md), corrected for the number of
    verdicts and looks: exit code 0 if all pass, 1 if one fails, 3 if none fails but some are still
    undecided at --max-games (each names about how many games would decide it).
    """
    from pipeline.decks import pinned, published
    from pipeline.playcheck import report as reports
    from pipeline.playcheck import runner as playcheck

    _refuse_play_check_options(click.get_current_context(), scheduler, games, max_games)
    if deck_file is None:  # a published version's own templates (its thresholds): pipeline.decks.pinned
        game = pinned.at(game, version)
    deck, path = playcheck.load(game, version, deck_file)
    if report_dir:
        outputs.check(reports.folder(report_dir, deck, published.is_draft(path)), "--report-dir", force, reports.OWN)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(ExitCode.TERMINATED))  # a killed check ends its workers too
    report = _play_checked(game, deck, path, players, games, max_games, seed, jobs, scheduler, records_dir, force, lang)
    if report_dir:
        _write_report(report, report_dir, published.is_draft(path), force, lang)
    show(report, fmt, reports, lang=lang)
    if report["result"] != "pass":
        raise SystemExit(reports.EXIT_CODES[report["result"]])


def _refuse_play_check_options(ctx: click.Context, scheduler: str | None, games: int, max_games: int | None) -> None:
    """Refuse the options play-check cannot take together, or whose value says nothing."""
    refuse_together(ctx, "deck_file", ("version",), "--deck checks that file, not a published version")
    refuse_together(ctx, "scheduler", ("jobs",), "on a Dask cluster the workers play, not local processes")
    if scheduler is not None and not scheduler.strip():
        raise click.BadParameter(
            "is empty: give the scheduler's address, e.g. tcp://host:8786", param_hint="--scheduler"
        )
    if max_games is not None and max_games < games:
        raise click.BadParameter(
            f"{max_games:,} is fewer than --games {games:,}: give at least --games (equal: one look)",
            param_hint="--max-games",
        )


def _play_checked(game, deck, path, players, games, max_games, seed, jobs, scheduler, records_dir, force, lang):
    """The play-check report of the deck, with a progress bar, saving every game played in `records_dir`."""
    from pipeline.i18n.catalogue import translate
    from pipeline.playcheck import runner as playcheck
    from pipeline.records import tape

    saved = outputs.replacing(records_dir, "--save-records", force) if records_dir else nullcontext()
    with saved as records_staging, progress() as bar:
        task = bar.add_task(translate(_shown_in(lang), "playing {game}", game=game.name), total=None)
        return playcheck.check(
            game,
            deck,
            players,
            games,
            seed,
            str(path),
            jobs=jobs,
            scheduler=scheduler,
            on_start=lambda total: bar.update(task, total=total),
            on_games=lambda n: bar.advance(task, n),
            watch=tape.Saver(records_staging, game, deck) if records_staging else None,
            max_games=max_games or playcheck.GROWTH * games,
            lang=lang,
        )


def _write_report(report: dict, report_dir: Path, draft: bool, force: bool, lang: Language | None) -> None:
    """report.json, report.md and the plots in the report folder, said on the terminal."""
    from pipeline.i18n.catalogue import translate
    from pipeline.playcheck import report as reports

    written = reports.write(report, report_dir, draft, force, lang)
    console.print(
        translate(_shown_in(lang), "wrote {folder}", folder=written), highlight=False, markup=False, soft_wrap=True
    )


def _shown_in(lang: Language | None) -> Language:
    """The language of the words on the terminal: the report's (--lang), else the source language."""
    from pipeline.i18n import registry

    return lang or registry.language(registry.source())


@click.command("play")
@game_argument
@click.option(
    "--players", type=Bounded(int, 1, 99), help="Players (default: as many as --seats names, else the game's default)."
)
@click.option(
    "--seats",
    help="Who plays each seat, comma-separated: human or bot:LEVEL, a level of the game's bots, weakest first: "
    "random, novice, skilled, expert, master (the strongest), and the search bot mcts, below the expert in a "
    "duel of Deutschland and between expert and master in the World Game, whose bots differ on two axes, what "
    "they know (child, below the novice, to master) and how they play (by rule, or mcts: a search with the "
    "expert's knowledge). A level the game lacks is refused with the game's levels; docs/rules-engines.md has the "
    "tournament of them all. E.g. human,bot:expert,bot:random. Default: you, then expert bots.",
)
@lang_option("Language of the table")
@click.option(
    "--seed",
    type=Bounded(int, 0, 2**32 - 1),
    help="Seed of the deal, the bots and chance, 0-4294967295 (default: a random one, recorded).",
)
@click.option("--version", "version", help="Deck version (default: output/decks/GAME/LATEST).")
@click.option(
    "--deck", "deck_file", type=click.Path(path_type=Path, dir_okay=False), help="Play this deck.json instead."
)
@click.option(
    "--record",
    "record_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Where the game's record goes (default: output/records/GAME-SEED.json); saved after every move.",
)
@click.option("--force", is_flag=True, help="Overwrite the record file if it exists (else an existing one is refused).")
@click.option(
    "--variant",
    "chosen_variants",
    multiple=True,
    metavar="NAME[=VALUE]",
    help="A variant of the game's rulebook, NAME or NAME=VALUE, repeatable (--variant list names the game's "
    "variants; docs/rules-engines.md).",
)
def play(game, players, seats, lang, seed, version, deck_file, record_path, force, chosen_variants):
    """Play GAME in the terminal against bots (or friends at the same keyboard).

    The table shows what your seat may see, the legal moves numbered and the scores, and every trick or
    round as it is revealed; type a move's number or the move itself (a World Game answer as free text), ?
    for help, h for the history, q to leave. With two humans the screen is cleared between their turns.
    The game is saved as a record (also when you leave early, Ctrl-C included) that
    `geodeck replay` checks move by move. Exit code 0 when the game was played to its end, 130 when left.
    """
    import random

    from pipeline import paths
    from pipeline.decks import pinned, published
    from pipeline.extract.store import open_store
    from pipeline.play import loop, pictures, variants
    from pipeline.play import seats as seating

    refuse_together(
        click.get_current_context(), "deck_file", ("version",), "--deck plays that file, not a published version"
    )
    if deck_file is None:  # a published version's own templates (its words): pipeline.decks.pinned
        game = pinned.at(game, version)
    definition = game
    if variants.LIST in chosen_variants:
        _refuse_beside_the_list(click.get_current_context(), chosen_variants, variants.LIST)
        out.print(variants.listing(definition), highlight=False, markup=False, soft_wrap=True)
        return
    options = variants.options(chosen_variants, definition)
    deck = published.read(deck_file, game) if deck_file else published.deck(game, version)[1]
    chosen = seating.parse(seats, players, definition)
    seed = random.SystemRandom().randrange(1_000_000) if seed is None else seed
    path = record_path or paths.OUTPUT_DIR / "records" / f"{game.name}-{seed}.json"
    flag = pictures.drawer(out, open_store)
    _, finished = loop.play(
        definition, deck, chosen, language(game, lang), seed, path, out, options=options, force=force, flag=flag
    )
    if not finished:
        raise SystemExit(ExitCode.LEFT)


@click.command()
@click.argument("record_file", metavar="RECORD.json", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--deck",
    "deck_file",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The deck.json the game was played with (default: the published version the record names).",
)
@choice_option("--format", "fmt", choices=["table", "json"], help="table: on the terminal; json: for scripts.")
def replay(record_file, deck_file, fmt):
    """Check a game record move by move against the rules and print the scores (docs/records.md).

    The record must name the deck it was played with (version and content hash). An illegal move stops the
    replay with its number and the rule it breaks (exit code 2), as does a record whose scores differ.
    """
    from pipeline.records import record as records
    from pipeline.records import replay as replaying

    record = records.load(record_file)
    game = resolve(record.game)  # the record names its game
    deck = replaying.deck_of(game, record, deck_file, str(record_file))
    state = replaying.replay(game, record, deck, str(record_file))
    result = replaying.summary(record, state)
    if fmt == "json":
        click.echo(json.dumps(result, ensure_ascii=False, indent=1))
        return
    out.print(
        f"{record.game} deck {record.deck.version}: {result['moves']} moves replayed, every one legal; "
        + ("the game is finished." if result["finished"] else "the record ends before the game (scores so far)."),
        highlight=False,
    )
    table = Table("seat", "plays", "score", "")
    lead = "wins" if result["finished"] else "leads"
    for seat in result["seats"]:
        table.add_row(seat["name"], seat["plays"], str(seat["score"]), lead if seat["winner"] else "")
    out.print(table)


def _refuse_beside_the_list(ctx: click.Context, chosen_variants: tuple[str, ...], listing: str) -> None:
    """`--variant list` plays nothing: a variant or a game option beside it would be silently ignored."""
    why = f"--variant {listing} names the game's variants and plays nothing"
    others = [name for name in chosen_variants if name != listing]
    if others:
        raise click.UsageError(f"--variant {listing} and --variant {others[0]} do not go together: {why}")
    refuse_together(
        ctx,
        "chosen_variants",
        ("players", "seats", "lang", "seed", "version", "deck_file", "record_path", "force"),
        why,
    )

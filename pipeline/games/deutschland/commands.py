"""Deutschland's own command: `geodeck grid LAT LON`, the map numbers of a point."""

import json

import click
from rich.table import Table

from pipeline.cli_output import Bounded, console, mirror_option, offline_option, out
from pipeline.errors import ExitCode


@click.command(context_settings={"ignore_unknown_options": True})  # -52 -13 are coordinates, not options
@click.argument("lat", type=Bounded(float, -90, 90, "°"), required=False)
@click.argument("lon", type=Bounded(float, -180, 180, "°"), required=False)
@click.option(
    "--report",
    is_flag=True,
    help="Print the geo stage's calibration (candidate projections, residuals, control points); needs the build.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="text: the labelled numbers; json: lat, lon, ns, we and on_map (for scripts).",
)
@mirror_option
@offline_option
def grid(lat, lon, report, fmt, mirror, offline):
    """Deutschland map grid: the north-south (0-150) and west-east (0-90) numbers of LAT LON (degrees).

    Uses the grid the geo stage calibrated on the rulebook's six towns (build/geo/grid_report.json), or,
    without a build, the grid of the published Deutschland deck. A point off the 0-150 / 0-90 grid or
    outside Germany (its outline from the towns stage, else the pinned boundaries through the snapshot
    store: --mirror, --offline) prints the numbers it would have and exits 1 (with --format json: on_map
    false). Negative coordinates are typed as they are: `geodeck grid -33.9 18.4`.
    """
    from pipeline import paths
    from pipeline.decks import published
    from pipeline.extract import open_store
    from pipeline.games.deutschland import GAME
    from pipeline.games.deutschland.locate import locate
    from pipeline.games.grid.decks import deck_grid
    from pipeline.geo import grid as grids

    saved = paths.build_dir() / "geo" / "grid_report.json"  # its place step's (pipeline.build.graph)
    if report and (lat is not None or lon is not None):
        raise click.UsageError("--report prints the calibration, not a point: drop LAT LON or --report")
    if report:
        _print_calibration(grids.read_report(saved)[0])
        return
    if lat is None or lon is None:
        raise click.UsageError("give LAT and LON (e.g. `geodeck grid 49.89 10.89`) or --report")
    chosen = grids.read_report(saved)[1] if saved.is_file() else deck_grid(published.deck(GAME)[1])
    ns, we, on_map = locate(lat, lon, chosen, open_store(mirror=mirror, online=not offline))
    if fmt == "json":
        click.echo(json.dumps({"lat": lat, "lon": lon, "ns": ns, "we": we, "on_map": on_map}))
    if not on_map:
        console.print(
            f"{grids.describe(lat, lon)} is off the map (outside Germany or the 0-150 / 0-90 grid): "
            f"it would be north-south {ns}, west-east {we}",
            highlight=False,
            soft_wrap=True,
        )
        raise SystemExit(ExitCode.FAILED)
    if fmt == "text":
        out.print(f"{grids.describe(lat, lon)}: north-south {ns}, west-east {we}", highlight=False)


def _print_calibration(calibration: dict) -> None:
    """The geo stage's calibration as two tables: the candidate projections with their residuals, and the
    control points (the rulebook's towns) under the chosen one."""
    table = Table(
        "CRS",
        "name",
        "RMS",
        "max residual",
        "exact (round)",
        "exact (floor)",
        "chosen",
        title="grid calibration (residuals in grid units)",
    )
    for c in calibration["candidates"]:
        table.add_row(
            c["crs"],
            c["name"],
            f"{c['rms']:.3f}",
            f"{c['max_residual']:.3f}",
            f"{c['exact_round']}/{c['points']}",
            f"{c['exact_floor']}/{c['points']}",
            "yes" if c["chosen"] else "",
        )
    out.print(table)
    table = Table(
        "town", "lat", "lon", "printed", "fitted", "card", title=f"control points ({calibration['chosen']['crs']})"
    )
    for p in calibration["control_points"]:
        table.add_row(
            f"{p['name']} ({p['state']})",
            f"{p['lat']:.5f}",
            f"{p['lon']:.5f}",
            f"{p['ns']}/{p['we']}",
            f"{p['ns_value']:.2f}/{p['we_value']:.2f}",
            f"{p['card'][0]}/{p['card'][1]}",
        )
    out.print(table)


COMMANDS = [grid]

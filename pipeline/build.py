"""`geodeck build`: the stages after extract, each a sequence of checksummed steps.

STAGES maps a stage name to a function `(context) -> list[StepResult]`; `geodeck build` runs every stage
in this order, `--stage NAME` one of them. Each step is skipped when its inputs and code are unchanged
(pipeline.steps.run_step), so a second run with unchanged inputs does no work.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.extract import SnapshotStore, load_sources
from pipeline.steps import file_hash, run_step


@dataclass
class Context:
    store: SnapshotStore
    force: bool = False
    on_step: Callable[[str, int | None], None] = lambda name, units: None  # a step starts: name, units of work
    on_progress: Callable[[str], None] = lambda _: None  # a unit of work is done
    accept: str | None = None  # publish decks despite suspicious changes; the reason goes into CHANGELOG.md


@dataclass(frozen=True)
class StepResult:
    step: str
    ran: bool
    outputs: list = field(default_factory=list)


def countries(ctx: Context) -> list[StepResult]:
    """Transform every country source into observations, then validate and choose the card values."""
    from pipeline.transform import country_sources as sourced
    from pipeline.validate import countries as validate

    def transform():
        from pipeline.transform import countries

        countries.run(ctx.store, sources, ctx.on_progress)

    sources = load_sources()
    ctx.on_step("transform countries", len(sourced.PARSERS))
    observed = [sourced.observations_path(), sourced.universe_path()]
    ran_transform = run_step(
        "transform-countries",
        sourced.input_hashes(sources),
        ["transform", "fields"],
        observed,
        transform,
        force=ctx.force,
    )
    ctx.on_step("validate countries", None)
    inputs = {p.name: file_hash(p) for p in observed}
    if validate.OVERRIDES.is_file():
        inputs["overrides.csv"] = file_hash(validate.OVERRIDES)
    inputs |= {path.name: file_hash(path) for path in validate.reviewed_inputs()}
    outputs = list(validate.outputs().values())
    code = ["validate", "fields", "transform.countries", "transform.observations"]  # the last two load its input

    def validated() -> None:
        validate.run()

    ran_validate = run_step("validate-countries", inputs, code, outputs, validated, force=ctx.force)
    return [
        StepResult("transform-countries", ran_transform, observed),
        StepResult("validate-countries", ran_validate, outputs),
    ]


def towns(ctx: Context) -> list[StepResult]:
    """Destatis towns with coordinates from Wikipedia and GeoNames, checked against their state polygons."""
    from pipeline.transform import towns as transform
    from pipeline.validate import towns as validate

    ctx.on_step("transform towns", None)
    ran_transform = transform.run(ctx.store, force=ctx.force)
    ctx.on_step("validate towns", None)
    ran_validate = validate.run(force=ctx.force)
    return [
        StepResult("transform-towns", ran_transform, list(transform.outputs().values())),
        StepResult("validate-towns", ran_validate, list(validate.outputs().values())),
    ]


def geo(ctx: Context) -> list[StepResult]:
    """Each game's geo step (e.g. a grid and a place selection), then the world-map numbers of the countries."""
    from pipeline import games
    from pipeline.geo import world_numbers

    results = []
    for name, definition in games.registered().items():
        if definition.prepare:
            step = definition.module(definition.prepare)
            ctx.on_step(f"geo {name}", None)
            results.append(StepResult(f"geo {name}", step.run(force=ctx.force), list(step.outputs().values())))
    ctx.on_step("world-map numbers", None)
    ran_numbers = world_numbers.build_countries(force=ctx.force)
    return [*results, StepResult("geo-countries", ran_numbers, [world_numbers.output()])]


def decks(ctx: Context) -> list[StepResult]:
    """A new version of each game's deck under output/decks/ when its cards changed (docs/deck-format.md)."""
    from pipeline import games
    from pipeline.decks import stage

    results = []
    for game in games.names():
        ctx.on_step(f"deck {game}", None)
        result = stage.build_deck(game, accept=ctx.accept)
        results.append(StepResult(f"deck {game} {result.version}", result.published))
    return results


STAGES: dict[str, Callable[[Context], list[StepResult]]] = {
    "countries": countries,
    "towns": towns,
    "geo": geo,
    "decks": decks,
}


def build(ctx: Context, stages: list[str] | None = None) -> list[StepResult]:
    """Run the named stages (default: all, in data-flow order)."""
    results = []
    for name in stages or list(STAGES):
        results += STAGES[name](ctx)
    return results

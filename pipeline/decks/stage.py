"""The decks stage: build each game's cards from the geo stage's tables and publish a new version when
anything changed (refusing suspicious changes unless accepted with a reason)."""

from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd
from pyarrow import ArrowException

from pipeline import fixes, paths, readers, source_classes
from pipeline.decks import diff as diffing
from pipeline.decks import files, integrity, pinned, ports, published, reasons, schema, translated, versions
from pipeline.decks.canonical import same_content
from pipeline.decks.spec import DeckSpec, load_spec
from pipeline.errors import GeodeckError
from pipeline.framework.definition import GameDefinition
from pipeline.hashing import file_sha256


@dataclass(frozen=True)
class Result:
    game: str
    version: str
    published: bool
    cards: int
    diff: dict | None


def fresh_deck(
    definition: GameDefinition, build_root: Path | None = None, rebuild: str | None = None
) -> tuple[DeckSpec, dict, dict[str, str]]:
    """The game's deck document (version None) built from build/ now, with the sha256 of every file read;
    `rebuild`: the command that rebuilds its input table (the build graph's step, given by the door: see
    `read_table`)."""
    spec = load_spec(definition)
    builder, relative = ports.deck(definition), definition.input_table
    root = build_root or paths.build_dir()
    path = root / relative
    table = read_table(path, relative, rebuild or definition.made_by)
    inputs = {f"build/{relative}": file_sha256(path)}
    metadata = ports.metadata(builder)
    extra, read = metadata(root, definition.deck_reads) if metadata else ({}, {})
    cards = translated.distinct([card.to_dict() for card in builder.cards(table, spec)], spec)
    return spec, files.deck_document(spec, cards, None, extra), inputs | read


def read_table(path: Path, relative: str, rebuild: str = "geodeck build") -> pd.DataFrame:
    """A build table a deck is made from (a regular file, pipeline.readers); a missing, unreadable or damaged
    one is a user error naming `rebuild`, the command that rebuilds it (the step of the build graph that
    writes it, pipeline.build.graph.rebuild, or the game's own command)."""
    fix = f"rebuild it with `{rebuild}`"
    try:
        return readers.table(path, fix)
    except (OSError, ValueError, ArrowException) as exc:
        raise GeodeckError(f"{path} is corrupted ({str(exc).splitlines()[0][:120]}); {fix}") from exc


def changelog(
    title: str,
    version: str,
    cards: list[dict],
    diff: dict | None,
    accept: str | None,
    why: list[str] | None = None,
    names: list[str] | None = None,
    note: str | None = None,
    left_out: dict[str, str] | None = None,
) -> str:
    """CHANGELOG.md of a new version, headed by the deck's own title (a region deck's, not its spec's), with
    `why` each card came in or went out (pipeline.decks.reasons), the cards `left_out` for want of a citable
    value with their reasons (the spec's `without_value`: stated in every version, not only the one they
    left), its `names` in every language (where each came from, every fallback to the local name:
    pipeline/decks/translated.py) and the game's build's `note`."""
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(Counter(c["kind"] for c in cards).items()))
    lines = [f"# {title} {version}", "", f"{len(cards)} cards: {kinds}.", ""]
    if diff is None:
        lines.append("First version.")
    else:
        lines += [f"## Changes since {diff['old']}", "", diffing.to_markdown(diff).rstrip("\n")]
    if why:
        lines += ["", "## Cards in and out", "", *why]
    if left_out:
        lines += ["", "## Left out for want of a citable value", ""]
        lines += [f"- {code}: {reason}" for code, reason in sorted(left_out.items())]
    if names:
        lines += ["", *names]
    if note:  # what the game's build adds (a region's search: the settings it found)
        lines += ["", note]
    if accept:  # the reason a version was published: for suspicious changes, or another (a rule's change)
        lines += ["", f"{'Suspicious changes accepted' if diff and diff['suspicious'] else 'Why'}: {accept}"]
    return "\n".join(lines) + "\n"


def build_deck(
    definition: GameDefinition,
    today: date | None = None,
    accept: str | None = None,
    decks_dir: Path | None = None,
    build_root: Path | None = None,
    note: str | None = None,
    rebuild: str | None = None,
) -> Result:
    """Publish a new version of GAME unless its deck (and the templates it pins, pipeline.decks.pinned) equals
    the newest published version's (the newest on disk, whatever LATEST says: a missing or stale LATEST opens
    no gate, and is pointed at it)."""
    game = definition.name
    accept = (accept or "").strip() or None  # a blank reason opens no gate
    spec, fresh, inputs = fresh_deck(definition, build_root, rebuild)
    schema.check(fresh, spec, f"the {game} deck built from build/")
    source_classes.check_deck(fresh, spec, game)
    cards = fresh["cards"]
    templates = pinned.files(definition)
    game_dir = (decks_dir or paths.DECKS_DIR) / game
    versions.recover(game_dir)
    previous = versions.newest(game_dir)
    diff = None
    if previous:
        _intact(definition, previous, decks_dir)
        _, old = published.deck(definition, previous, decks_dir)
        if same_content(old, fresh):
            if pinned.same(definition, previous, templates, decks_dir):
                if _pointer(game_dir) != previous:
                    versions.point_latest(game_dir, previous)
                return Result(game, previous, False, len(cards), None)
            note = "\n".join(filter(None, [note, "Same cards; its templates changed (titles, words, thresholds)."]))
        diff = _gated_diff(game, spec, old, fresh, previous, accept)
    version = versions.next_version(game_dir, today or date.today())
    if diff is not None:
        diff = {**diff, "new": version}
    document = {**fresh, "version": version}
    made = _version_files(definition, spec, document, inputs, templates, diff, accept, note, build_root)
    versions.publish(game_dir, version, made)
    return Result(game, version, True, len(cards), diff)


def _intact(definition: GameDefinition, previous: str, decks_dir: Path | None) -> None:
    """Refuse to build against a damaged newest version: the reference of every gate is never compared
    against while damaged."""
    damaged = integrity.version_problems(definition, previous, decks_dir)
    if damaged:
        more = f" (and {len(damaged) - 1} more: `geodeck verify {definition.name}`)" if len(damaged) > 1 else ""
        raise GeodeckError(damaged[0] + more)


def _gated_diff(game: str, spec: DeckSpec, old: dict, fresh: dict, previous: str, accept: str | None) -> dict:
    """The changes from the newest version to the fresh deck; refused when any is suspicious and not accepted."""
    diff = diffing.diff_decks(spec, old, fresh)
    if diff["suspicious"] and not accept:
        count = sum(c["suspicious"] for c in diff["changes"])
        fix = f'review them with `geodeck diff {game}` and rerun with --accept "reason" to publish'
        raise fixes.Fixable(
            f"{game}: {count} suspicious change(s) against {previous}; {fix}",
            [fixes.Fix(fix, (fixes.Change("accept"),))],
        )
    return diff


def _version_files(
    definition: GameDefinition,
    spec: DeckSpec,
    document: dict,
    inputs: dict[str, str],
    templates: dict[str, str],
    diff: dict | None,
    accept: str | None,
    note: str | None,
    build_root: Path | None,
) -> dict[str, str]:
    """A new version's files by name: the pinned templates, the deck (JSON, CSV, data package), its manifest
    and its changelog."""
    version, cards = document["version"], document["cards"]
    json_text = files.dumps(document)
    csv_text = files.deck_csv(spec, cards)
    return templates | {
        "deck.json": json_text,
        "deck.csv": csv_text,
        "datapackage.json": files.datapackage(
            spec, version, csv_text, json_text, files.cited_columns(spec.columns, cards)
        ),
        "manifest.json": files.manifest(document, inputs, pinned.hashes(templates)),
        "CHANGELOG.md": changelog(
            document["title"],
            version,
            cards,
            diff,
            accept,
            card_reasons(definition, diff, build_root),
            translated.report(cards, spec),
            note,
            spec.options.get("without_value"),
        ),
    }


def card_reasons(definition: GameDefinition, diff: dict | None, build_root: Path | None = None) -> list[str]:
    """The changelog's lines saying why each added and removed card is in or out (none for a first version)."""
    if diff is None or not (diff["added"] or diff["removed"]):
        return []
    path = (build_root or paths.build_dir()) / definition.input_table
    frame = read_table(path, definition.input_table, definition.made_by)
    return reasons.lines(diff, reasons.table(ports.deck(definition), frame, load_spec(definition)))


def _pointer(game_dir: Path) -> str | None:
    """The version LATEST names, or None when it is missing or names no version folder."""
    try:
        return versions.latest(game_dir)
    except GeodeckError:
        return None


def compare(
    game: GameDefinition,
    old: str | None = None,
    new: str | None = None,
    decks_dir: Path | None = None,
    build_root: Path | None = None,
    rebuild: str | None = None,
) -> dict:
    """Diff OLD (default the newest published version, which LATEST names) against NEW (default a fresh
    build from build/, not published; `rebuild` as in `fresh_deck`)."""
    spec = load_spec(game)
    _, before = published.deck(game, old or versions.newest((decks_dir or paths.DECKS_DIR) / game.name), decks_dir)
    if new:
        _, after = published.deck(game, new, decks_dir)
    else:
        after = fresh_deck(game, build_root, rebuild)[1]
    return diffing.diff_decks(spec, before, after)

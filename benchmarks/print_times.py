"""The runs the studio's print and export estimates are computed from (pipeline/studio/estimates.py): each kind
of print (the kit, the card sheets, every card service's export) of each built-in game's latest deck, whole and
cut to about SMALL cards, each in a fresh process as the studio's job is (CPU seconds from the process's start: a
single-core job's wall time on an idle machine, which the machine's other work does not inflate).

    python benchmarks/print_times.py record    # measure, and write templates/studio/print-times.json
"""

import json
import multiprocessing
import os
import resource
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from pipeline import paths
from pipeline.studio import estimates

SMALL = 45  # cards of the cut deck's main kind (five sheets of nine; a Deutschland kit deals at least 40 places)
GAMES = ("laender-toppen", "deutschland", "world-game")  # one of each kind of card (a region deck's: Deutschland's)


def cut(game, cards: list[dict], count: int) -> list[dict]:
    """The first `count` cards of the deck's most common kind, every card of its other kinds (a Deutschland deck's
    guess cards) and the kit rules' worked example's cards (they must be in the deck), in the deck's order."""
    import tomllib
    from collections import Counter

    layout = tomllib.loads((game.templates / "cards" / f"{game.template_name or game.name}.toml").read_text("utf-8"))
    plan = layout.get("kit", {}).get("rules", {})
    named = {card["id"] for card in cards if card["fields"].get(plan.get("example_field")) in plan.get("example", [])}
    most = Counter(card.get("kind") for card in cards).most_common(1)[0][0]
    others = {card["id"] for card in cards if card.get("kind") != most}
    first = [card["id"] for card in cards if card.get("kind") == most and card["id"] not in named]
    kept = named | others | set(first[: count - len(named)])
    return [card for card in cards if card["id"] in kept]


def run(name: str, kind: str, size: int | None) -> dict:
    """One print of `kind` of the game `name`'s deck (cut to about `size` cards; None: whole), in a fresh process
    as a studio job is: {family, kind, game, cards, seconds}, its seconds the process's CPU from its start (its
    imports included, as a job's)."""
    from pipeline.decks import published
    from pipeline.extract import open_store
    from pipeline.games import registry
    from pipeline.render import kit, printing, services
    from pipeline.studio import tasks

    game = registry.get(name)
    path, whole = published.deck(game, None)
    deck = tasks._named(
        game, {**whole, "cards": cut(game, whole["cards"], size or len(whole["cards"]))}, tasks._language(game, None)
    )
    options = printing.PrintOptions().validate()
    store = open_store(online=False)
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "print"
        if kind == "kit":
            kit.print_kit(game, path, deck, options, store, out)
        elif kind == "cards":
            printing.print_deck(game, deck, options, store, out)
        else:
            services.export(game, deck, services.load(kind), store, None, out, jobs=1)
    used = resource.getrusage(resource.RUSAGE_SELF)
    seconds = round(used.ru_utime + used.ru_stime, 3)
    found = {
        "family": estimates.family(game),
        "kind": kind,
        "game": name,
        "cards": len(deck["cards"]),
        "seconds": seconds,
    }
    print(f"{name} {kind} {found['cards']} cards: {seconds} s", file=sys.stderr)
    return found


def record() -> None:
    from pipeline.render import services

    kinds = ("kit", "cards", *services.names())
    asked = [(name, kind, size) for name in GAMES for kind in kinds for size in (SMALL, None)]
    with multiprocessing.get_context("spawn").Pool(2, maxtasksperchild=1) as pool:  # a fresh process each
        measured = pool.starmap(run, asked, chunksize=1)
    head = subprocess_commit()
    document = {
        "note": "CPU seconds of each print kind (benchmarks/print_times.py record); the studio's estimates",
        "measured": datetime.now(UTC).strftime("%Y-%m-%d"),
        "commit": head,
        "load_average": round(os.getloadavg()[0], 2),
        "cores": os.cpu_count(),
        "runs": measured,
    }
    estimates.RUNS.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {estimates.RUNS.relative_to(paths.ROOT)} ({len(measured)} runs)")


def subprocess_commit() -> str:
    import subprocess

    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=paths.ROOT)
    return done.stdout.strip()


if __name__ == "__main__":
    if sys.argv[1:] != ["record"]:
        sys.exit(__doc__)
    started = time.perf_counter()
    record()
    print(f"{time.perf_counter() - started:.0f} s", file=sys.stderr)

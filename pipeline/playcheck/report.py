"""A play-check report as JSON, Markdown (with embedded plots when written to a folder) and rich tables,
and the report folder `output/reports/<game>/<version>/` (report.json, report.md, one PNG per plot)."""

import json
from pathlib import Path

from pipeline import outputs
from pipeline.errors import ExitCode
from pipeline.paths import OUTPUT_DIR

REPORTS_DIR = OUTPUT_DIR / "reports"
# undecided: none failed, some need more than --max-games
EXIT_CODES = {"pass": ExitCode.OK, "fail": ExitCode.FAILED, "undecided": ExitCode.UNDECIDED}


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _iv(data: dict) -> str:
    return f"{data['value']:.3f} [{data['low']:.3f}, {data['high']:.3f}]"


def _seat_shares(summary: dict) -> str:
    shares = " · ".join(f"{s['value']:.3f}" for s in summary["seat_win_share"])
    return f"{shares} ({summary['hero']}: {_iv(summary['hero_win_share'])})" if "hero" in summary else shares


def _pairs(pairs) -> str:
    return ", ".join(f"{card} {index}" for card, index in pairs)


def _result(v: dict) -> str:
    """A verdict's result; an undecided one with about how many games of its playouts would decide it."""
    if v["result"] != "undecided":
        return v["result"]
    games = v.get("games_to_decide")
    return f"undecided (≈ {games:,} games)" if games else "undecided (no number of games)"


def _allowed(v: dict) -> str:
    """A verdict's band and the margin a pass may exceed it by (none shown as ± 0)."""
    return f"{v['band'][0]:g}–{v['band'][1]:g} (± {v.get('margin', 0):g})"


def _measured(report: dict, v: dict) -> str:
    """What a verdict was measured on: its kind of playouts and their games."""
    played = report["playouts"].get(v.get("playouts", ""))
    return f"{v['playouts']}, {played['games']:,} games" if played else "-"


def _hint(report: dict) -> str:
    """What to run when verdicts stay undecided: a --max-games that would decide them."""
    if report["result"] != "undecided":
        return ""
    needed = report.get("max_games_to_decide")
    return f" (run more games: --max-games {needed})" if needed else " (no number of games decides it)"


def failures(report: dict) -> list[str]:
    """Why the deck fails, in plain words: per failed verdict its figure, the band it left and the band's reason."""
    return [
        f"{v['name']}: {_iv(v)} {'above' if v['low'] > v['band'][1] else 'below'} the allowed "
        f"{v['band'][0]:g}–{v['band'][1]:g}. {v['reason']}"
        for v in report["verdicts"]
        if v["result"] == "fail"
    ]


def _family(report: dict) -> str:
    return (
        f"Verdicts: 95 % for all {len(report['verdicts'])} together at every one of up to "
        f"{report.get('max_looks', 1)} looks, {report.get('looks', 1)} made (Bonferroni; each interval's error "
        "in the JSON's `alpha`)"
    )


def to_markdown(report: dict, plots: dict[str, str] | None = None) -> str:
    """The report for a designer; `plots` maps plot names to image files beside the Markdown."""
    plots = plots or {}
    figure = lambda name, alt: ["", f"![{alt}]({plots[name]})"] if name in plots else []  # noqa: E731
    lines = [
        f"# play-check: {report['game']} {report['version'] or ''}".rstrip(),
        "",
        f"{report['players']} players, {report['games']} random games (+ seat and ladder playouts) in the first "
        f"look, at most {report.get('max_games', report['games'])}, seed {report['seed']}; length in "
        f"{report['length_unit']}; thresholds `{report['thresholds']}`. Every figure: value [95 % interval]. "
        f"{_family(report)}; a pass may exceed the band by its margin.",
        "",
        f"**{report['result'].upper()}**{_hint(report)}",
        *[f"- {line}" for line in failures(report)],
        "",
        "| verdict | value [interval] | allowed (± margin) | result | measured on | detail |",
        "|---|---|---|---|---|---|",
    ]
    lines += [
        f"| {v['name']} | {_iv(v)} | {_allowed(v)} | {_result(v)} | {_measured(report, v)} | {v['detail']} |"
        for v in report["verdicts"]
    ]
    lines += ["", "Why these bands:", ""]
    reasons = dict.fromkeys(v["reason"] for v in report["verdicts"])
    lines += [f"- {reason}" for reason in reasons]
    lines += [
        "",
        "## Playouts",
        "",
        "| playouts | players | games | length mean | median / p90 / max | win share by seat | shared wins "
        "| lead changes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for kind, s in report["playouts"].items():
        length = s["length"]
        lines.append(
            f"| {kind} | {s['players']} | {s['games']} | {_iv(length['mean'])} | {length['median']} / "
            f"{length['p90']} / {length['max']} | {_seat_shares(s)} | {_iv(s['shared_wins'])} | "
            f"{_iv(s['lead_changes'])} |"
        )
    random_play = report["playouts"]["random"]
    if "branching_factor" in random_play:
        lines += [
            "",
            f"Branching factor (random playouts, legal moves per decision): {_iv(random_play['branching_factor'])}.",
        ]
    lines += figure("length", "game length histogram") + figure("seats", "win share by seat per player count")
    lines += [
        "",
        "## Skill ladder",
        "",
        "| players | stronger seat | against | games | its win share | fair | by its seat |",
        "|---|---|---|---|---|---|---|",
    ]
    for s in report["playouts"].values():
        if "hero" in s:
            by_seat = " · ".join("-" if x is None else f"{x:.3f}" for x in s["hero_win_share_by_seat"])
            lines.append(
                f"| {s['players']} | {s['hero']} | {s['bot']} | {s['games']:,} | {_iv(s['hero_win_share'])} "
                f"| {1 / s['players']:.3f} | {by_seat} |"
            )
    lines += figure("ladder", "skill ladder")
    lines += ["", "## Per game (random playouts)", "", "| count | mean per game |", "|---|---|"]
    lines += [f"| {k} | {_iv(v)} |" for k, v in random_play["per_game"].items()]
    lines += [f"| {k} (maximum) | {v} |" for k, v in random_play.get("maxima", {}).items()]
    cards = report["cards"]
    lines += [
        "",
        "## Cards",
        "",
        f"Win index (random playouts, {cards['judged']} cards with ≥ {cards['min_contests']} comparisons): "
        f"strongest {_pairs(cards['strongest'])}; weakest {_pairs(cards['weakest'])}.",
    ]
    if cards["always_wins"]:
        lines += [
            "",
            "Always won their comparisons: "
            + "; ".join(f"{c}: {', '.join(ids)}" for c, ids in cards["always_wins"].items())
            + ".",
        ]
    if cards["continents"]:
        lines += ["", "| continent | cards | mean win index |", "|---|---|---|"]
        lines += [f"| {c} | {v['cards']} | {_iv(v['mean_win_index'])} |" for c, v in cards["continents"].items()]
    lines += figure("cards", "card strength") + figure("ties", "tie rates per category")
    return "\n".join(lines) + "\n"


OWN = ("report.json", "report.md", "*.png")  # what a report folder of an earlier geodeck holds


def folder_name(version: str | None, draft: bool) -> str:
    """A published version's report folder is its version; a draft's is `draft` or `draft-<its label>`, so a
    draft carrying a published version's label never writes into that version's folder."""
    if not draft:
        return version or "draft"
    return f"draft-{version}" if version else "draft"


def folder(root: Path, deck: dict, draft: bool) -> Path:
    """Where the report of `deck` goes under `root` (--report-dir): root/<game>/<folder_name>."""
    return root / deck["game"] / folder_name(deck.get("version"), draft)


def write(report: dict, root: Path = REPORTS_DIR, draft: bool = False, force: bool = False) -> Path:
    """report.json, report.md and the plots into root/<game>/<version>/ (`folder`), swapped in whole
    (outputs.replacing: never half-written, never over a folder geodeck did not write); returns the folder."""
    from pipeline.playcheck.plots import PLOTS

    target = folder(root, report, draft)
    with outputs.replacing(target, "--report-dir", force, OWN) as staging:
        files = {}
        for name, draw in PLOTS.items():
            (staging / f"{name}.png").write_bytes(draw(report))
            files[name] = f"{name}.png"
        (staging / "report.json").write_text(to_json(report), encoding="utf-8")
        (staging / "report.md").write_text(to_markdown(report, files), encoding="utf-8")
    return target


def to_rich(report: dict):
    """The report as rich tables: verdicts, then playouts."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    colour = {"pass": "green", "fail": "bold red", "undecided": "yellow"}
    verdicts = Table(
        "verdict",
        "value [interval]",
        "allowed (± margin)",
        "result",
        "measured on",
        "detail",
        title=f"play-check {report['game']} {report['version'] or ''}: {report['players']} players, "
        f"{report['games']}-{report.get('max_games', report['games'])} games, seed {report['seed']}",
        caption=_family(report),
    )
    for v in report["verdicts"]:
        verdicts.add_row(
            v["name"],
            _iv(v),
            _allowed(v),
            Text(_result(v), style=colour[v["result"]]),
            _measured(report, v),
            v["detail"],
        )
    playouts = Table("playouts", "players", "games", f"length mean ({report['length_unit']})", "win share by seat")
    for kind, s in report["playouts"].items():
        playouts.add_row(kind, str(s["players"]), str(s["games"]), _iv(s["length"]["mean"]), _seat_shares(s))
    result = report["result"]
    why = [Text(line) for line in failures(report)]
    return Group(verdicts, playouts, Text.assemble((result.upper(), colour[result]), _hint(report)), *why)

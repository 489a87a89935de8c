"""A play-check report as JSON, Markdown (with embedded plots when written to a folder) and rich tables,
and the report folder `output/reports/<game>/<version>/` (report.json, report.md, one PNG per plot).

The JSON's keys and the playouts' names are data and stay as they are; every word a reader sees is a message
of the catalogues (pipeline.i18n) in the report's language, its figures in that language's locale."""

import json
from pathlib import Path

from pipeline import outputs, paths, readers
from pipeline.errors import ExitCode
from pipeline.framework.levels import level
from pipeline.i18n import registry
from pipeline.i18n.catalogue import N_, clauses, gettext, labelled, localised, translate
from pipeline.i18n.language import Language
from pipeline.paths import TEMPLATES_DIR
from pipeline.playcheck import MAX_GAMES, words
from pipeline.playcheck.numbers import count, fixed, interval, plain, short
from pipeline.playcheck.play import shown

# undecided: none failed, some need more than --max-games
EXIT_CODES = {"pass": ExitCode.OK, "fail": ExitCode.FAILED, "undecided": ExitCode.UNDECIDED}
WORDS = TEMPLATES_DIR / "playcheck" / "report.toml"  # the results' words (their own context)
VERDICT_COLUMNS = (
    N_("verdict"),
    N_("value [interval]"),
    N_("allowed (± margin)"),
    N_("result"),
    N_("measured on"),
    N_("detail"),
)
PLAYOUT_COLUMNS = (
    N_("playouts"),
    N_("players"),
    N_("games"),
    N_("length mean"),
    N_("median / p90 / max"),
    N_("win share by seat"),
    N_("shared wins"),
    N_("lead changes"),
)
LADDER_COLUMNS = (
    N_("players"),
    N_("stronger seat"),
    N_("against"),
    N_("games"),
    N_("its win share"),
    N_("fair"),
    N_("by its seat"),
)
PER_GAME_COLUMNS = (N_("count"), N_("mean per game"))
CONTINENT_COLUMNS = (N_("continent"), N_("cards"), N_("mean win index"))


def to_json(report: dict) -> str:
    return json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def _lang(lang: Language | None) -> Language:
    return lang or registry.language(registry.source())


def _result_word(result: str, lang: Language) -> str:
    """A verdict's result (pass, fail, undecided) in `lang`."""
    return localised(readers.read_input("toml", WORDS), lang, WORDS.stem)["words"]["results"][result]


def _header(columns: tuple[str, ...], lang: Language) -> list[str]:
    """A Markdown table's header row and rule."""
    return [
        "| " + " | ".join(gettext(lang, column) for column in columns) + " |",
        "|" + "---|" * len(columns),
    ]


def _seat_shares(summary: dict, lang: Language) -> str:
    shares = " · ".join(fixed(s["value"], lang) for s in summary["seat_win_share"])
    if "hero" not in summary:
        return shares
    return f"{shares} ({level(summary['hero'], lang)}: {interval(summary['hero_win_share'], lang)})"


def _pairs(pairs, lang: Language, names: dict[str, str]) -> str:
    """Cards by their names (`names`: the report's, by id; a report before them: the ids) with their win index."""
    return ", ".join(f"{names.get(card, card)} {plain(index, lang)}" for card, index in pairs)


def _result(v: dict, lang: Language) -> str:
    """A verdict's result; a level one with its equivalence bound; an undecided one with about how many games
    of its playouts would decide it."""
    if v.get("level"):
        return translate(lang, "level within ± {within}", within=short(round(v["equivalence"], 3), lang))
    if v["result"] != "undecided":
        return _result_word(v["result"], lang)
    games = v.get("games_to_decide")
    if games:
        return translate(
            lang, "{undecided} (≈ {games} games)", undecided=_result_word("undecided", lang), games=count(games, lang)
        )
    return translate(lang, "{undecided} (no number of games)", undecided=_result_word("undecided", lang))


def _allowed(v: dict, lang: Language) -> str:
    """A verdict's band and the margin a pass may exceed it by (none shown as ± 0)."""
    return f"{short(v['band'][0], lang)}–{short(v['band'][1], lang)} (± {short(v.get('margin', 0), lang)})"


def _measured(report: dict, v: dict, lang: Language) -> str:
    """What a verdict was measured on: its kind of playouts and their games."""
    played = report["playouts"].get(v.get("playouts", ""))
    if not played:
        return "-"
    kind = shown(v["playouts"], played, report["players"], lang)
    return translate(lang, "{playouts}, {games} games", playouts=kind, games=count(played["games"], lang))


def _hint(report: dict, lang: Language) -> str:
    """What to run when verdicts stay undecided: a --max-games that would decide them."""
    if report["result"] != "undecided":
        return ""
    needed = report.get("max_games_to_decide")
    if needed and needed > MAX_GAMES:  # advise only what --max-games takes
        return " " + translate(
            lang, "(more games than --max-games takes, {most} at most, would decide it)", most=MAX_GAMES
        )
    if needed:
        return " " + translate(lang, "(run more games: --max-games {needed})", needed=needed)
    return " " + gettext(lang, "(no number of games decides it)")


def failures(report: dict, lang: Language | None = None) -> list[str]:
    """Why the deck fails, in plain words: per failed verdict its figure, the band it left and the band's reason."""
    lang = _lang(lang)
    found = []
    for v in report["verdicts"]:
        if v["result"] == "fail":
            message = (
                N_("{name}: {figure} above the allowed {low}–{high}. {reason}")
                if v["low"] > v["band"][1]
                else N_("{name}: {figure} below the allowed {low}–{high}. {reason}")
            )
            found.append(
                translate(
                    lang,
                    message,
                    name=v["name"],
                    figure=interval(v, lang),
                    low=short(v["band"][0], lang),
                    high=short(v["band"][1], lang),
                    reason=v["reason"],
                )
            )
    return found


def _family(report: dict, lang: Language) -> str:
    return translate(
        lang,
        "Verdicts: 95 % for all {verdicts} together at every one of up to {max_looks} looks, {looks} made "
        "(Bonferroni; each interval's error in the JSON's `alpha`)",
        verdicts=len(report["verdicts"]),
        max_looks=report.get("max_looks", 1),
        looks=report.get("looks", 1),
    )


def _unit(report: dict, lang: Language) -> str:
    return gettext(lang, report["length_unit"])


def to_markdown(report: dict, plots: dict[str, str] | None = None, lang: Language | None = None) -> str:
    """The report for a designer in `lang` (default: the source language); `plots` maps plot names to image
    files beside the Markdown."""
    lang = _lang(lang)
    plots = plots or {}
    figure = lambda name, alt: ["", f"![{gettext(lang, alt)}]({plots[name]})"] if name in plots else []  # noqa: E731
    lines = _verdict_lines(report, lang) + _playout_lines(report, lang)
    lines += figure("length", N_("game length histogram")) + figure("seats", N_("win share by seat per player count"))
    lines += _ladder_lines(report, lang) + figure("ladder", N_("skill ladder"))
    lines += _per_game_lines(report, lang) + _card_lines(report, lang)
    lines += figure("cards", N_("card strength")) + figure("ties", N_("tie rates per category"))
    return "\n".join(lines) + "\n"


def _verdict_lines(report: dict, lang: Language) -> list[str]:
    """The title, what was played, the result with its failures, the verdicts' table and why their bands."""
    title = translate(lang, "play-check: {game} {version}", game=report["game"], version=report["version"] or "")
    lines = [
        f"# {title}".rstrip(),
        "",
        translate(
            lang,
            "{players} players, {games} random games (+ seat and ladder playouts) in the first look, at most "
            "{max_games}, seed {seed}; length in {unit}; thresholds `{thresholds}`. Every figure: value [95 % "
            "interval]. {family}; a pass may exceed the band by its margin.",
            players=report["players"],
            games=report["games"],
            max_games=report.get("max_games", report["games"]),
            seed=report["seed"],
            unit=_unit(report, lang),
            thresholds=report["thresholds"],
            family=_family(report, lang),
        ),
        "",
        f"**{_result_word(report['result'], lang).upper()}**{_hint(report, lang)}",
        *[f"- {line}" for line in failures(report, lang)],
        "",
        *_header(VERDICT_COLUMNS, lang),
    ]
    lines += [
        f"| {v['name']} | {interval(v, lang)} | {_allowed(v, lang)} | {_result(v, lang)} | "
        f"{_measured(report, v, lang)} | {v['detail']} |"
        for v in report["verdicts"]
    ]
    lines += ["", gettext(lang, "Why these bands:"), ""]
    reasons = dict.fromkeys(v["reason"] for v in report["verdicts"])
    lines += [f"- {reason}" for reason in reasons]
    return lines


def _playout_lines(report: dict, lang: Language) -> list[str]:
    """Each kind of playout's games, length, seat shares, shared wins and lead changes; the branching factor."""
    lines = ["", "## " + gettext(lang, "Playouts"), "", *_header(PLAYOUT_COLUMNS, lang)]
    for kind, s in report["playouts"].items():
        length = s["length"]
        lines.append(
            f"| {shown(kind, s, report['players'], lang)} | {s['players']} | {s['games']} | "
            f"{interval(length['mean'], lang)} | "
            f"{plain(length['median'], lang)} / {length['p90']} / {length['max']} | {_seat_shares(s, lang)} | "
            f"{interval(s['shared_wins'], lang)} | {interval(s['lead_changes'], lang)} |"
        )
    random_play = report["playouts"]["random"]
    if "branching_factor" in random_play:
        lines += [
            "",
            translate(
                lang,
                "Branching factor (random playouts, legal moves per decision): {figure}.",
                figure=interval(random_play["branching_factor"], lang),
            ),
        ]
    return lines


def _ladder_lines(report: dict, lang: Language) -> list[str]:
    """Each rung of the skill ladder: the stronger bot's win share, overall and by its seat."""
    lines = ["", "## " + gettext(lang, "Skill ladder"), "", *_header(LADDER_COLUMNS, lang)]
    for s in report["playouts"].values():
        if "hero" in s:
            by_seat = " · ".join("-" if x is None else fixed(x, lang) for x in s["hero_win_share_by_seat"])
            lines.append(
                f"| {s['players']} | {level(s['hero'], lang)} | {level(s['bot'], lang)} | {count(s['games'], lang)} "
                f"| {interval(s['hero_win_share'], lang)} | {fixed(1 / s['players'], lang)} | {by_seat} |"
            )
    note = ladder_note(report, lang)
    return lines + (["", note] if note else [])


def ladder_note(report: dict, lang: Language) -> str:
    """What the report says about the game's bots below the ladder, in `lang` (empty: nothing)."""
    note = report.get("ladder_note")
    if not note:
        return ""
    levels = ", ".join(level(name, lang) for name in note["levels"])
    return translate(lang, note["message"], levels=levels, search=level(note["search"], lang))


def _per_game_lines(report: dict, lang: Language) -> list[str]:
    """The game's own counts per random game, and their maxima."""
    random_play = report["playouts"]["random"]
    lines = ["", "## " + gettext(lang, "Per game (random playouts)"), "", *_header(PER_GAME_COLUMNS, lang)]
    counts = words.of(report, "COUNTS") + words.of(report, "CATEGORIES")
    lines += [f"| {words.named(k, counts, lang)} | {interval(v, lang)} |" for k, v in random_play["per_game"].items()]
    lines += [
        "| " + translate(lang, "{count} (maximum)", count=words.named(k, counts, lang)) + f" | {plain(v, lang)} |"
        for k, v in random_play.get("maxima", {}).items()
    ]
    return lines


def _card_lines(report: dict, lang: Language) -> list[str]:
    """The cards' win index: strongest and weakest, those always winning, the mean per continent."""
    cards = report["cards"]
    lines = [
        "",
        "## " + gettext(lang, "Cards"),
        "",
        translate(
            lang,
            "Win index (random playouts, {judged} cards with ≥ {min_contests} comparisons): strongest {strongest}; "
            "weakest {weakest}.",
            judged=cards["judged"],
            min_contests=cards["min_contests"],
            strongest=_pairs(cards["strongest"], lang, cards.get("names", {})),
            weakest=_pairs(cards["weakest"], lang, cards.get("names", {})),
        ),
    ]
    categories = words.of(report, "CATEGORIES")
    if cards["always_wins"]:
        lines += [
            "",
            translate(
                lang,
                "Always won their comparisons: {cards}.",
                cards=clauses(
                    lang,
                    [
                        labelled(
                            lang,
                            words.named(c, categories, lang),
                            ", ".join(cards.get("names", {}).get(i, i) for i in ids),
                        )
                        for c, ids in cards["always_wins"].items()
                    ],
                ),
            ),
        ]
    if cards["continents"]:
        lines += ["", *_header(CONTINENT_COLUMNS, lang)]
        lines += [
            f"| {words.continent(c, lang)} | {v['cards']} | {interval(v['mean_win_index'], lang)} |"
            for c, v in cards["continents"].items()
        ]
    return lines


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


def write(
    report: dict, root: Path | None = None, draft: bool = False, force: bool = False, lang: Language | None = None
) -> Path:
    """report.json, report.md and the plots (their words in `lang`) into root/<game>/<version>/ (`folder`),
    swapped in whole (outputs.replacing: never half-written, never over a folder geodeck did not write);
    returns the folder."""
    from pipeline.playcheck.plots import PLOTS

    target = folder(root or paths.OUTPUT_DIR / "reports", report, draft)
    with outputs.replacing(target, "--report-dir", force, OWN) as staging:
        files = {}
        for name, draw in PLOTS.items():
            (staging / f"{name}.png").write_bytes(draw(report, _lang(lang)))
            files[name] = f"{name}.png"
        (staging / "report.json").write_text(to_json(report), encoding="utf-8")
        (staging / "report.md").write_text(to_markdown(report, files, lang), encoding="utf-8")
    return target


def to_rich(report: dict, lang: Language | None = None):
    """The report as rich tables in `lang` (default: the source language): verdicts, then playouts."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    lang = _lang(lang)
    colour = {"pass": "green", "fail": "bold red", "undecided": "yellow"}
    verdicts = Table(
        *(gettext(lang, column) for column in VERDICT_COLUMNS),
        title=translate(
            lang,
            "play-check {game} {version}: {players} players, {games}-{max_games} games, seed {seed}",
            game=report["game"],
            version=report["version"] or "",
            players=report["players"],
            games=report["games"],
            max_games=report.get("max_games", report["games"]),
            seed=report["seed"],
        ),
        caption=_family(report, lang),
    )
    for v in report["verdicts"]:
        verdicts.add_row(
            v["name"],
            interval(v, lang),
            _allowed(v, lang),
            Text(_result(v, lang), style=colour[v["result"]]),
            _measured(report, v, lang),
            v["detail"],
        )
    playouts = Table(
        *(gettext(lang, column) for column in PLAYOUT_COLUMNS[:3]),
        translate(lang, "length mean ({unit})", unit=_unit(report, lang)),
        gettext(lang, PLAYOUT_COLUMNS[5]),
    )
    for kind, s in report["playouts"].items():
        playouts.add_row(
            shown(kind, s, report["players"], lang),
            str(s["players"]),
            str(s["games"]),
            interval(s["length"]["mean"], lang),
            _seat_shares(s, lang),
        )
    result = report["result"]
    why = [Text(line) for line in failures(report, lang)]
    headline = _result_word(result, lang).upper()
    note = [Text(ladder_note(report, lang))] if report.get("ladder_note") else []
    return Group(verdicts, playouts, *note, Text.assemble((headline, colour[result]), _hint(report, lang)), *why)

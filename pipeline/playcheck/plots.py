"""PNG plots of a play-check report (matplotlib, drawn from the report dict alone): game length, seat win
shares per player count, the skill ladder, card strength, tie rates. Each returns the PNG's bytes; its
words are messages in the report's language and its axes' numbers use that language's decimal sign."""

import io

import matplotlib
from babel.numbers import get_decimal_symbol

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the file-only backend
from matplotlib.figure import Figure
from matplotlib.ticker import ScalarFormatter

from pipeline.framework.levels import level
from pipeline.i18n.catalogue import translate
from pipeline.i18n.language import Language
from pipeline.playcheck import words
from pipeline.playcheck.play import shown
from pipeline.playcheck.stats import TIES
from pipeline.playcheck.words import continent

FAIR: dict = {"color": "grey", "linestyle": "--", "linewidth": 1}


class _Decimals(ScalarFormatter):
    """matplotlib's tick labels with a language's decimal sign (0,2 in German)."""

    def __init__(self, sign: str) -> None:
        super().__init__()
        self.sign = sign

    def __call__(self, x, pos=None) -> str:
        return super().__call__(x, pos).replace(".", self.sign)


def _png(figure: Figure, lang: Language) -> bytes:
    sign = get_decimal_symbol(lang.locale)
    for axes in figure.axes:
        for axis in (axes.xaxis, axes.yaxis):
            if isinstance(axis.get_major_formatter(), ScalarFormatter):  # not the ticks labelled by name
                axis.set_major_formatter(_Decimals(sign))
    buffer = io.BytesIO()
    figure.tight_layout()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    plt.close(figure)
    return buffer.getvalue()


def _errors(intervals: list[dict]) -> list[list[float]]:
    """matplotlib's yerr: distances below and above each value."""
    return [[i["value"] - i["low"] for i in intervals], [i["high"] - i["value"] for i in intervals]]


def lengths(report: dict, lang: Language) -> bytes:
    """Game length histogram of the random playouts and of the seat playouts at the report's player count."""
    figure, axes = plt.subplots(figsize=(7, 3.5))
    for name, summary in report["playouts"].items():
        if summary["players"] == report["players"] and "hero" not in summary:
            values = [length for length, count in summary["length"]["counts"] for _ in range(count)]
            axes.hist(
                values,
                bins=40,
                alpha=0.6,
                label=f"{shown(name, summary, report['players'], lang)} ({level(summary['bot'], lang)})",
            )
    axes.set_xlabel(translate(lang, "game length ({unit})", unit=translate(lang, report["length_unit"])))
    axes.set_ylabel(translate(lang, "games"))
    axes.legend()
    axes.set_title(
        translate(lang, "{game}: game length, {players} players", game=report["game"], players=report["players"])
    )
    return _png(figure, lang)


def seats(report: dict, lang: Language) -> bytes:
    """Win share by seat with 95 % intervals, one group per player count, the fair share dashed."""
    rows = [s for s in report["playouts"].values() if "hero" not in s and s["bot"] != "random"]
    figure, axes = plt.subplots(figsize=(7, 3.5))
    x = 0.0
    ticks, labels = [], []
    for summary in rows:
        shares = summary["seat_win_share"]
        xs = [x + i for i in range(len(shares))]
        axes.errorbar(xs, [s["value"] for s in shares], yerr=_errors(shares), fmt="o", capsize=3)
        fair = 1 / summary["players"]
        axes.plot([xs[0] - 0.4, xs[-1] + 0.4], [fair, fair], **FAIR)
        ticks += xs
        labels += [
            translate(lang, "{players}p s{seat}", players=summary["players"], seat=i) for i in range(len(shares))
        ]
        x += len(shares) + 1
    axes.set_xticks(ticks, labels, rotation=90, fontsize=7)
    axes.set_ylabel(translate(lang, "win share"))
    bot = level(rows[0]["bot"], lang) if rows else ""
    axes.set_title(translate(lang, "{game}: win share by seat ({bot}; dashed: fair)", game=report["game"], bot=bot))
    return _png(figure, lang)


def ladder(report: dict, lang: Language) -> bytes:
    """Each rung of the bot ladder at each player count: one stronger seat's win share against the rung below."""
    rungs = [s for s in report["playouts"].values() if "hero" in s]
    counts = sorted({s["players"] for s in rungs})
    figure, axes = plt.subplots(figsize=(6, 3.5))
    for count in counts:
        at = [(i, s) for i, s in enumerate(rungs) if s["players"] == count]
        shares = [s["hero_win_share"] for _, s in at]
        x = [i for i, _ in at]
        axes.errorbar(
            x,
            [s["value"] for s in shares],
            yerr=_errors(shares),
            fmt="o-",
            capsize=4,
            label=translate(lang, "{players} p", players=count),
        )
        axes.plot([x[0] - 0.3, x[-1] + 0.3], [1 / count] * 2, **FAIR)
    names = [translate(lang, "{hero} vs {bot}", hero=level(s["hero"], lang), bot=level(s["bot"], lang)) for s in rungs]
    axes.set_xticks(range(len(rungs)), names, rotation=30, ha="right")
    axes.set_ylim(0, 1)
    axes.set_ylabel(translate(lang, "win share of the stronger seat"))
    axes.set_title(translate(lang, "{game}: skill ladder per player count (dashed: fair)", game=report["game"]))
    if len(counts) > 1:
        axes.legend()
    return _png(figure, lang)


def cards(report: dict, lang: Language) -> bytes:
    """Win index per card (sorted, with 95 % intervals) and the mean per continent (games with continents)."""
    index = sorted(report["cards"]["win_index"].values(), key=lambda i: i["value"])
    continents = report["cards"]["continents"]
    if not continents:
        figure, left = plt.subplots(figsize=(7, 3.5))
    else:
        figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.5), width_ratios=[2, 1])
    left.fill_between(range(len(index)), [i["low"] for i in index], [i["high"] for i in index], alpha=0.3)
    left.plot(range(len(index)), [i["value"] for i in index], ".", markersize=3)
    left.axhline(1.0, **FAIR)
    left.set_xlabel(translate(lang, "cards, weakest to strongest"))
    left.set_ylabel(translate(lang, "win index (1 = fair)"))
    left.set_title(translate(lang, "{game}: win index per card (random playouts)", game=report["game"]))
    if not continents:
        return _png(figure, lang)
    means = [c["mean_win_index"] for c in continents.values()]
    right.errorbar(range(len(means)), [m["value"] for m in means], yerr=_errors(means), fmt="o", capsize=3)
    right.axhline(1.0, **FAIR)
    names = [continent(name, lang) for name in continents]
    right.set_xticks(range(len(means)), names, rotation=60, fontsize=7)
    right.set_title(translate(lang, "mean win index per continent"))
    return _png(figure, lang)


def ties(report: dict, lang: Language) -> bytes:
    """Tie rate per category (random playouts) with its interval and the allowed maximum."""
    categories = list(report["playouts"]["random"]["ties"])
    shares = [report["playouts"]["random"]["ties"][c]["share"] for c in categories]
    figure, axes = plt.subplots(figsize=(7, 3.5))
    axes.errorbar(range(len(shares)), [s["value"] for s in shares], yerr=_errors(shares), fmt="o", capsize=3)
    verdicts = {v["name"]: v for v in report["verdicts"]}
    names = [words.named(c, words.of(report, "CATEGORIES"), lang) for c in categories]
    limits = [verdicts[translate(lang, TIES, category=name)]["band"][1] for name in names]
    axes.plot(range(len(limits)), limits, "r_", markersize=14, label=translate(lang, "allowed"))
    axes.set_xticks(range(len(categories)), names, rotation=60, fontsize=7)
    axes.set_ylabel(translate(lang, "share of comparisons tied"))
    axes.legend()
    axes.set_title(translate(lang, "{game}: ties for the extreme per category", game=report["game"]))
    return _png(figure, lang)


PLOTS = {"length": lengths, "seats": seats, "ladder": ladder, "cards": cards, "ties": ties}

"""Issue 43: the catalogues read by a checker that did not write them, translate-toolkit's `pofilter` checks
(its `TeeChecker`, the checks `templates/locale/checks.toml` names: placeholders, markup, punctuation and
spacing per language, repeated words) and the language's own punctuation spacing (translate-toolkit's
`punctranslate`: French puts a no-break space before : ; ? !). Every finding is fixed in the catalogue or
is one of the file's reviewed exceptions, each with its reason; an exception nothing reports any more fails
too, so the list stays the list of what is deliberate."""

import re
import tomllib
from pathlib import Path

import pytest
from translate.filters import checks
from translate.lang import factory
from translate.storage import po

from pipeline.i18n import registry

LOCALE = Path(__file__).parents[2] / "templates" / "locale"
CONFIG = tomllib.loads((LOCALE / "checks.toml").read_text(encoding="utf-8"))
NOT_TEXT = re.compile(r"\{[^{}]*\}|<[^>]+>|https?://\S+|`[^`]*`|%\([a-z_]+\)s")  # placeholders, markup, URLs, code


def _catalogues() -> list[str]:
    return [code for code in registry.codes() if code != registry.source()]


def _spaced(lang: str) -> str:
    """The punctuation `lang` puts a space before (translate-toolkit's `punctranslate` of "a: b" and the like:
    French : ; ? !)."""
    return "".join(p for p in ":;?!" if factory.getlanguage(lang).punctranslate(f"a{p} b") != f"a{p} b")


def _spacing(lang: str, text: str) -> str | None:
    """Why `text` is not spaced as `lang` spaces its punctuation, or None."""
    marks = _spaced(lang)
    if not marks:
        return None
    unspaced = re.search(rf"[^\s\u00a0\u202f{re.escape(marks)}]([{re.escape(marks)}])", NOT_TEXT.sub("x", text))
    return f"no space before {unspaced.group(1)!r}" if unspaced else None


def findings(lang: str, path: Path) -> set[tuple[str, str, str]]:
    """(check, msgctxt, msgid) of every translated message a check reports in the catalogue at `path`, read
    as `lang`."""
    config = checks.CheckerConfig(targetlanguage=lang)
    checker = checks.TeeChecker(
        checkerconfig=config,
        limitfilters=CONFIG["checks"],
        checkerclasses=[checks.StandardChecker, checks.StandardUnitChecker],
        languagecode=lang,
    )
    store = po.pofile.parsefile(str(path))
    found = set()
    for unit in store.units:
        if unit.isheader() or unit.isfuzzy() or not unit.istranslated():
            continue
        key = (unit.getcontext() or "", str(unit.source))
        found |= {(name, *key) for name in checker.run_filters(unit)}
        targets = unit.target.strings if hasattr(unit.target, "strings") else [str(unit.target)]
        if any(_spacing(lang, str(target)) for target in targets):
            found.add(("spacing", *key))
    return found


def _matches(entry: dict, finding: tuple[str, str, str]) -> bool:
    """Whether a reviewed exception covers a finding: its check, its context (none: no context) and its
    msgid, or the msgid's start (`msgid_start`, for a long message)."""
    check, ctxt, msgid = finding
    same = msgid == entry["msgid"] if "msgid" in entry else msgid.startswith(entry["msgid_start"])
    return same and check == entry["check"] and ctxt == entry.get("msgctxt", "")


@pytest.mark.parametrize("lang", _catalogues())
def test_pofilter_reports_nothing_but_the_reviewed_exceptions(lang):
    catalogue = registry.language(lang).catalogue  # the checkout's, or one in $GEODECK_LOCALES
    assert catalogue is not None
    found = findings(lang, catalogue)
    entries = [entry for entry in CONFIG["exceptions"] if lang in entry["langs"]]
    new = sorted(finding for finding in found if not any(_matches(entry, finding) for entry in entries))
    assert not new, f"{lang}: fix the catalogue, or add a reviewed exception with its reason to checks.toml: " + (
        "; ".join(f"{check} {ctxt!r} {msgid[:70]!r}" for check, ctxt, msgid in new[:10])
    )
    stale = [entry for entry in entries if not any(_matches(entry, finding) for finding in found)]
    assert not stale, f"{lang}: exceptions in checks.toml nothing reports any more (remove them): {stale[:3]}"


def test_every_exception_names_a_check_that_runs_and_gives_its_reason():
    runs = {*CONFIG["checks"], "spacing"}
    for entry in CONFIG["exceptions"]:
        assert entry["check"] in runs and entry["reason"].strip() and entry["langs"], entry


def test_the_checks_find_what_they_are_for(tmp_path):
    """The checks run: a dropped placeholder, a repeated word, unbalanced markup and a French colon without
    its space are each reported (a catalogue of the test's own)."""
    path = tmp_path / "fr.po"
    messages = {
        "Round {n} of {total}": "Manche {n}",
        "the card wins": "la la carte gagne",
        "<b>Goal:</b> win": "<b>But :</b gagner",
        "End: the game": "Fin: la partie",
        "Fine: yes": "Bien\u00a0: oui",
    }
    body = "".join(f'msgid "{msgid}"\nmsgstr "{msgstr}"\n\n' for msgid, msgstr in messages.items())
    path.write_text('msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n' + body, encoding="utf-8")
    found = {(check, msgid) for check, _, msgid in findings("fr", path)}
    assert ("pythonbraceformat", "Round {n} of {total}") in found
    assert ("doublewords", "the card wins") in found and ("xmltags", "<b>Goal:</b> win") in found
    assert ("spacing", "End: the game") in found and not [f for f in found if f[1] == "Fine: yes"]
    assert not _spacing("de", "Ende: danach")

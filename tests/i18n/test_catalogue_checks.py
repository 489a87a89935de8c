"""A catalogue from `$GEODECK_LOCALES` is checked as it is read (issue 49): its Plural-Forms (1 to 6 forms, an
expression gettext's safe parser reads, a form in range without dividing by zero for n = 0..1000) before any
list is sized by it, each translation's fields (only its msgid's), markup (exactly its msgid's) and characters;
each problem is one line naming the file and the fix, for every command (`geodeck games` too). A catalogue in a
folder that is no CLDR locale takes its locale from its Language: header."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import placeholders
from pipeline.errors import GeodeckError
from pipeline.i18n import catalogue, po, registry
from pipeline.review import page

OK = "nplurals=2; plural=(n != 1);"
PLURAL = 'msgid "{n} card"\nmsgid_plural "{n} cards"\nmsgstr[0] "{n} carte"\nmsgstr[1] "{n} cartes"\n'


def write(root: Path, plural_forms: str = OK, body: str = PLURAL, folder: str = "xx", language: str = "fr_FR") -> Path:
    path = root / folder / "LC_MESSAGES" / f"{registry.domain()}.po"
    path.parent.mkdir(parents=True)
    header = f'"Language: {language}\\n"\n' if language else ""
    path.write_text(
        f'msgid ""\nmsgstr ""\n{header}"Plural-Forms: {plural_forms}\\n"\n'
        f'"Content-Type: text/plain; charset=UTF-8\\n"\n\n{body}',
        encoding="utf-8",
    )
    return path


@pytest.fixture
def locales(tmp_path, monkeypatch):
    """An empty $GEODECK_LOCALES folder; the registry and catalogues read afresh, then forgotten."""
    monkeypatch.setenv("GEODECK_LOCALES", str(tmp_path))
    registry.languages.cache_clear()
    po.read.cache_clear()
    yield tmp_path
    monkeypatch.delenv("GEODECK_LOCALES")
    registry.languages.cache_clear()
    po.read.cache_clear()


def one_error(geodeck, path: Path) -> str:
    code, output = geodeck(["games"])
    lines = output.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"error: {path}: "), output
    return lines[0]


@pytest.mark.parametrize(
    ("plural_forms", "said"),
    [
        ("nplurals=2; plural=(n/0);", "divides by zero for n = 0"),
        ("nplurals=2; plural=n==7 ? 1/(n-7) : 0;", "divides by zero for n = 7"),
        ("nplurals=2; plural=" + "(" * 5000 + "n" + ")" * 5000 + ";", "too long"),
        ("nplurals=2; plural=" + "(" * 30 + "n" + ")" * 30 + ";", "too complex"),
        ("nplurals=2; plural=99;", "gives 99 for n = 0"),
        ("nplurals=2; plural=n-1;", "gives -1 for n = 0"),
        ("nplurals=2; plural=-1;", "cannot read"),
        ("nplurals=2; plural=__import__('os').system('x');", "cannot read"),
        ("nplurals=999999999999; plural=0;", "nplurals=999999999999, not 1 to 6"),
        ("nplurals=0; plural=0;", "not 1 to 6"),
    ],
)
def test_a_hostile_plural_forms_header_is_one_line_for_every_command(geodeck, locales, plural_forms, said):
    path = write(locales, plural_forms)
    line = one_error(geodeck, path)
    assert said in line and "nplurals=2; plural=(n != 1);" in line, line


def test_a_huge_nplurals_allocates_nothing(tmp_path):
    """In a process of its own under a 1.5 GB address space: the header is refused before Babel sizes a
    list of forms by it (it took 3.4 GB and every command hung)."""
    write(tmp_path, "nplurals=999999999999; plural=0;")
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))"
    script = f"{limit}\nfrom pipeline.cli import main; main()"
    env = os.environ | {"GEODECK_LOCALES": str(tmp_path), "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        [sys.executable, "-c", script, "games"], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2 and "not 1 to 6" in done.stderr and "Traceback" not in done.stderr, done.stderr


@pytest.mark.parametrize(
    ("msgstr", "said"),
    [
        ("{0.__globals__}", "{0.__globals__} is not a plain name"),
        ("{nope}", "{nope} is not a field it may use"),
        ("{version.__class__.__mro__}", "not a plain name"),
        ("{version:>99999999}", "no format spec"),
        ("{version}}", "braces are no placeholders"),
        ("<b>{version}", "changes its markup"),
        ("x\u202e{version}", "U+202E"),
    ],
)
def test_a_message_using_what_its_msgid_has_not_is_refused_naming_it_and_its_fields(geodeck, locales, msgstr, said):
    path = write(locales, body=f'msgid "Version {{version}}"\nmsgstr "{msgstr}"\n')
    line = one_error(geodeck, path)
    assert "msgid 'Version {version}'" in line and said in line, line
    if "field" in said or "plain name" in said:
        assert "use only {version}" in line


@pytest.mark.parametrize(
    ("msgstr", "said"),
    [
        ("%(nope)s", "%(nope)s is not a field"),
        ("50 % %(verdict)s", "neither %(name)s nor %%"),
        ("%(verdict)d", "neither"),
    ],
)
def test_a_review_page_message_uses_only_its_percent_fields(geodeck, locales, msgstr, said):
    """The review page's messages are formatted by jinja2 with `%`: a translation keeps to `%(verdict)s`, `%%`."""
    path = write(locales, body=f'msgid "Build gate: %(verdict)s"\nmsgstr "{msgstr}"\n')
    line = one_error(geodeck, path)
    assert said in line and "use only %(verdict)s and %%" in line, line


def test_a_percent_sign_in_a_review_page_message_without_fields_is_text():
    assert page._percent_safe("Old", "100 % alt") % {} == "100 % alt"  # jinja2 formats every message with %
    assert page._percent_safe("Build gate: %(verdict)s", "Tor: %(verdict)s") % {"verdict": "ok"} == "Tor: ok"


def test_a_catalogue_in_a_folder_that_is_no_locale_takes_its_language_header(geodeck, locales):
    write(locales, folder="klingon", language="fr_FR")
    assert str(registry.language("klingon").locale) == "fr_FR"
    assert catalogue.translate_plural("klingon", "{n} card", "{n} cards", 2) == "2 cartes"


@pytest.mark.parametrize(
    ("folder", "language", "said"),
    [
        ("klingon", "", "no Language: header, and its folder 'klingon' names no locale"),
        ("klingon", "tlh_XX", "its Language: header 'tlh_XX' is not a locale CLDR knows"),
        ("x y", "fr_FR", "is no language code"),
    ],
)
def test_a_catalogue_without_a_locale_is_one_line(geodeck, locales, folder, language, said):
    path = write(locales, folder=folder, language=language)
    assert said in one_error(geodeck, path)


def test_a_plural_expression_failing_beyond_the_numbers_checked_is_one_error(locales):
    path = write(locales, "nplurals=2; plural=n==5000 ? 1/(n-5000) : n>5000;")
    with pytest.raises(GeodeckError, match="picks no form for n = 5000"):
        catalogue.form("xx", ("a", "b"), 5000)
    assert po.read(path).num_plurals == 2


@pytest.mark.parametrize(
    ("unit", "said"),
    [
        ("{n}{n.__init__.__globals__}", "not a plain name"),
        ("{0}{n}", "not {0}"),
        ("{}{n}", "not {}"),
        ("{n}{x}", "{x} is not a field"),
        ("{n}}", "braces"),
        ("{{n}}", "exactly once"),
        ("{n}{n:>99999999}", "no format spec"),
    ],
)
def test_a_unit_is_n_exactly_once_and_nothing_else(unit, said):
    why = placeholders.problem(unit, ("n",), once=("n",))
    assert why is not None and said in why
    if unit != "{{n}}":  # braces, not a field: filled, it is the text "{n}"
        with pytest.raises(GeodeckError):
            placeholders.fill(unit, n="1")
    assert placeholders.fill("{n} km² {{x}}", n="1") == "1 km² {x}"

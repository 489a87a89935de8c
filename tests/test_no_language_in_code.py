"""No language is named in code (issue 30): outside the registry (pipeline/i18n/) no module of pipeline/
chooses by a language code: no `lang == "de"`, no `("de", "en")` pair, no `"_de"` suffix, no `de=`/`en=`
keywords or `{"de": ...}` tables. A game's own language is data (`default_lang`), the languages are the
registry's (`registry.codes()`). The column names of the master tables (`name_de` of a source) are data and
not searched."""

import ast

from pipeline.i18n import registry
from pipeline.paths import ROOT

PIPELINE = ROOT / "pipeline"
CODES = {*registry.codes(), "de", "en", "fr", "es", "it", "pl"}  # the registry's, and the six


def _code(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and node.value in CODES else None


def _suffix(text: str) -> bool:
    return text[:1] == "_" and text[1:] in CODES


def choices(source: str) -> list[str]:
    """The language choices in a module's source: `line: what`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(_code(o) for o in [node.left, *node.comparators]):
            found.append(f"{node.lineno}: compares with a language code")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set) and sum(bool(_code(e)) for e in node.elts) >= 2:
            found.append(f"{node.lineno}: a list of language codes")
        elif isinstance(node, ast.Dict) and any(k is not None and _code(k) for k in node.keys):
            found.append(f"{node.lineno}: a table keyed by language code")
        elif isinstance(node, ast.keyword) and node.arg in CODES:
            found.append(f"{node.lineno}: a {node.arg}= keyword")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _suffix(node.value):
            found.append(f"{node.lineno}: the suffix {node.value!r}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def test_no_module_outside_the_registry_chooses_by_language():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(PIPELINE.rglob("*.py"))
        if "i18n" not in path.relative_to(PIPELINE).parts
        for line in choices(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_scan_finds_each_kind_of_choice():
    source = "\n".join(
        [
            'a = x if lang == "de" else y',
            'b = lang in ("de", "en")',
            'c = fields.get(name + ("_de" if german else ""))',
            "d = say(de='Rot', en='Red')",
            'e = {"de": "Rot", "en": "Red"}',
            'f = say("player {n}", n=1)',  # a message with fields: no choice
            'g = fields[f"name_{lang}"]',
        ]
    )
    assert sorted(line.split(":")[0] for line in choices(source)) == ["1", "2", "3", "4", "4", "5"]
    assert not any(line.startswith(("6:", "7:")) for line in choices(source))
